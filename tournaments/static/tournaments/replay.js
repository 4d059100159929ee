/* Stepping through a hand record (templates/hand_records/_replay.html) without reloading
   the page: a step link ([data-step]) fetches the same page at that step and swaps in its
   #replay section; the arrow keys step back and forth. Without JavaScript the links load
   the page at that step, so everything works by touch either way. */
(function () {
  "use strict";
  var busy = false;

  /* An SVG link's href is an SVGAnimatedString, not a string: resolve the attribute. */
  function target(link) {
    return new URL(link.getAttribute("href"), window.location.href).href;
  }

  function swap(url, push) {
    if (busy) { return; }
    busy = true;
    fetch(url, { credentials: "same-origin", headers: { "X-Requested-With": "replay" } })
      .then(function (response) {
        if (!response.ok) { throw new Error(String(response.status)); }
        return response.text();
      })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("replay");
        var old = document.getElementById("replay");
        if (!fresh || !old) { window.location.href = url; return; }
        old.replaceWith(fresh);
        if (push) { history.pushState({ replay: url }, "", url); }
        var next = fresh.querySelector(".replay-nav a[rel='next']") || fresh.querySelector(".replay-nav a");
        if (next && document.activeElement === document.body) { next.focus({ preventScroll: true }); }
      })
      .catch(function () { window.location.href = url; })
      .finally(function () { busy = false; });
  }

  document.addEventListener("click", function (ev) {
    var link = ev.target.closest("#replay a[data-step]");
    if (!link || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) { return; }
    ev.preventDefault();
    swap(target(link), true);
  });

  document.addEventListener("keydown", function (ev) {
    if (ev.target.closest("input, textarea, select")) { return; }
    var rel = ev.key === "ArrowRight" ? "next" : ev.key === "ArrowLeft" ? "prev" : null;
    var link = rel && document.querySelector("#replay .replay-nav a[rel='" + rel + "']");
    if (link) { ev.preventDefault(); swap(target(link), true); }
  });

  window.addEventListener("popstate", function () { swap(window.location.href, false); });
})();
