/* The organiser's deal page in the console: the table's own score sheet (entry.js or a
   preset's sheet), sent through the REST API with the session. An entered deal is
   corrected with a PUT and If-Match (the version it replaces); a deal the table has not
   entered is entered with a POST, as its tablet would. */
(function () {
  "use strict";
  var config = JSON.parse(document.getElementById("deal-config").textContent);
  var Sheet = window[config.entry || "DealEntry"];
  var entry = new Sheet(document.getElementById("entry"), config);
  var correcting = Boolean(config.record);
  var submit = document.querySelector("#entry button[type=submit]");
  if (correcting) { entry.load(config.record, config.number); } else { entry.reset(config.number, config.dealer || 0); }

  function csrf() {
    var m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }
  function toast(text, kind) {
    var el = document.getElementById("toast");
    el.textContent = text; el.className = "toast is-" + kind; el.hidden = false;
  }
  function fmt(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (_, key) { return values[key]; });
  }
  function request(record) {
    var url = "/api/matches/" + config.matchId + "/deals/" + config.number + "/";
    var headers = { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrf(),
                    "Idempotency-Key": (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random()) };
    var body = record;
    if (correcting) {  // the reason goes with the record in the correction's envelope
      body = { record: record, reason: document.getElementById("reason").value.trim() };
      headers["If-Match"] = '"' + config.version + '"';
    }
    return fetch(url, { method: correcting ? "PUT" : "POST", headers: headers,
                        body: JSON.stringify(body), credentials: "same-origin" });
  }
  function done() {
    toast(correcting ? config.strings.corrected : fmt(config.strings.saved, { n: config.number }), "ok");
    setTimeout(function () { location.assign(correcting ? location.href : config.backUrl); }, 700);
  }

  entry.onSubmit = function (record) {
    if (submit) { submit.disabled = true; }
    request(record).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (body) {
        if (r.ok) { done(); return; }
        if (submit) { submit.disabled = false; }
        if (r.status === 412) { toast(config.strings.stale, "error"); return; }
        entry.showErrors(body.errors && body.errors.length ? body.errors : [{ field: "_general", message: body.detail || String(r.status) }]);
      });
    }, function () {
      if (submit) { submit.disabled = false; }
      toast(config.strings.noAnswer, "error");
    });
  };
})();
