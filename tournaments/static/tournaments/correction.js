/* Organiser's correction: the entry form prefilled with the current version, sent as a
   PUT with If-Match (the version it replaces) through the REST API with the session. */
(function () {
  "use strict";
  var config = JSON.parse(document.getElementById("correction-config").textContent);
  var entry = new window.DealEntry(document.getElementById("entry"), config);
  entry.load(config.record, config.number);
  function csrf() {
    var m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }
  function toast(text, kind) {
    var el = document.getElementById("toast");
    el.textContent = text; el.className = "toast is-" + kind; el.hidden = false;
  }
  entry.onSubmit = function (record) {
    var reason = document.getElementById("reason").value;
    var url = "/api/matches/" + config.matchId + "/deals/" + config.number + "/?reason=" + encodeURIComponent(reason);
    fetch(url, {
      method: "PUT",
      headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrf(),
                 "If-Match": '"' + config.version + '"',
                 "Idempotency-Key": (crypto.randomUUID ? crypto.randomUUID() : String(Date.now())) },
      body: JSON.stringify(record),
      credentials: "same-origin"
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (body) {
        if (r.ok) { toast(config.strings.corrected, "ok"); setTimeout(function () { location.reload(); }, 700); return; }
        if (r.status === 412) { toast(config.strings.stale, "error"); return; }
        entry.showErrors(body.errors && body.errors.length ? body.errors : [{ field: "_general", message: body.detail || String(r.status) }]);
      });
    }, function () { toast(config.strings.serverError, "error"); });
  };
})();
