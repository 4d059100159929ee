/* Table tablet: an outbox of deal entries kept in localStorage, each with its own
   Idempotency-Key, sent to the REST API until the server acknowledges it. A reload or a
   closed tab loses nothing; a retry never creates a second deal (same key, same body). */
(function () {
  "use strict";

  var config = JSON.parse(document.getElementById("tablet-config").textContent);
  var S = config.strings;
  var STORE = "klammern.outbox." + config.matchId;
  var KNOWN = "klammern.deals." + config.matchId;
  var form = document.getElementById("entry");
  var entry = new window.DealEntry(form, config);
  var banner = document.getElementById("offline-banner");
  // the service worker marks a page it answered from its cache (no network)
  var fromCache = banner.getAttribute("data-from-cache") === "1";
  var serverDeals = knownDeals(config.deals.slice());
  var flushing = false;
  var retryTimer = null;
  var backoff = 1000;
  var fmt = window.DealEntry.fmt;

  // --- deals the server acknowledged ----------------------------------------------------
  // A page from the worker's cache lists the deals of its last good load; deals
  // acknowledged since then are remembered here, so the next numbers stay right.

  function knownDeals(deals) {
    if (fromCache) {
      var stored = [];
      try { stored = JSON.parse(localStorage.getItem(KNOWN) || "[]"); } catch (e) { stored = []; }
      stored.forEach(function (d) {
        if (!deals.some(function (x) { return x.number === d.number; })) { deals.push(d); }
      });
    }
    try { localStorage.setItem(KNOWN, JSON.stringify(deals)); } catch (e) { /* full */ }
    return deals;
  }

  function rememberDeals() {
    try { localStorage.setItem(KNOWN, JSON.stringify(serverDeals)); } catch (e) { /* full */ }
  }

  // --- outbox --------------------------------------------------------------------------

  function load() {
    try { return JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (e) { return []; }
  }
  function save(items) { localStorage.setItem(STORE, JSON.stringify(items)); updateCounter(); }
  function newKey() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    return "k-" + Date.now() + "-" + Math.random().toString(16).slice(2);
  }

  function known() {
    var all = serverDeals.map(function (d) {
      return { number: d.number, dealer: d.dealer, thrownIn: d.thrownIn };
    });
    load().forEach(function (item) {
      all.push({ number: item.number, dealer: item.record.dealer,
                 thrownIn: item.record.contract && item.record.contract.kind === "thrown_in" });
    });
    all.sort(function (a, b) { return a.number - b.number; });
    return all;
  }

  function nextSlot() {
    var all = known();
    if (!all.length) { return { number: 1, dealer: 0 }; }
    var last = all[all.length - 1];
    return { number: last.number + 1, dealer: last.thrownIn ? last.dealer : (last.dealer + 1) % 4 };
  }

  function updateCounter() {
    var items = load();
    var el = document.getElementById("outbox");
    var waiting = items.length;
    el.querySelector("[data-bind='count']").textContent = waiting ? fmt(S.waiting, { n: waiting }) : S.allSent;
    el.classList.toggle("is-waiting", waiting > 0);
    el.classList.toggle("is-offline", !navigator.onLine);
    el.setAttribute("data-waiting", String(waiting));
    var note = el.querySelector("[data-bind='offline']");
    note.hidden = navigator.onLine;
    banner.hidden = navigator.onLine && !fromCache;
    banner.querySelector("[data-bind='from-cache']").hidden = !fromCache;
    var full = config.dealsPlanned && nextSlot().number > config.dealsPlanned;
    form.classList.toggle("is-complete", !!full && !editingRejected());
  }

  function editingRejected() {
    return load().some(function (i) { return i.status === "rejected" && i.number === entry.number; });
  }

  function toast(text, kind) {
    var el = document.getElementById("toast");
    el.textContent = text;
    el.className = "toast is-" + (kind || "info");
    el.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(function () { el.hidden = true; }, kind === "error" ? 8000 : 3500);
  }

  function refreshState() {
    if (window.htmx) { htmx.trigger("#table-state", "refresh"); }
  }

  function acknowledge(item) {
    if (serverDeals.some(function (d) { return d.number === item.number; })) { return; }
    serverDeals.push({ number: item.number, dealer: item.record.dealer,
                       thrownIn: item.record.contract && item.record.contract.kind === "thrown_in" });
    rememberDeals();
  }

  function reachedServer() {
    if (fromCache) { fromCache = false; updateCounter(); }
  }

  function readServerDeals() {
    var el = document.getElementById("table-state");
    if (!el || !el.getAttribute("data-deals")) { return; }
    var fresh = JSON.parse(el.getAttribute("data-deals"));
    if (el.getAttribute("data-from-cache") === "0") { reachedServer(); }
    // an acknowledged deal the (older) state has not caught up with yet stays known
    serverDeals.forEach(function (d) {
      if (!fresh.some(function (f) { return f.number === d.number; })) { fresh.push(d); }
    });
    serverDeals = fresh;
    rememberDeals();
    updateCounter();
    if (!entry.dirty && !editingRejected()) {
      var slot = nextSlot();
      if (slot.number !== entry.number || slot.dealer !== entry.state.dealer) { entry.reset(slot.number, slot.dealer); }
    }
  }

  function resetForm() {
    var rejected = load().filter(function (i) { return i.status === "rejected"; });
    if (rejected.length) {
      entry.load(rejected[0].record, rejected[0].number);
      entry.clearErrors();
      entry.showErrors(rejected[0].errors || []);
      return;
    }
    var slot = nextSlot();
    entry.reset(slot.number, slot.dealer);
    updateCounter();
  }

  function schedule() {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(flush, backoff);
    backoff = Math.min(backoff * 2, 30000);
  }

  function send(item) {
    return fetch("/api/matches/" + config.matchId + "/deals/" + item.number + "/", {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "Accept": "application/json",
        "Authorization": "Device " + config.code,
        "Idempotency-Key": item.key
      },
      body: JSON.stringify(item.record),
      credentials: "omit"
    }).then(function (response) {
      reachedServer();
      return response.json().catch(function () { return {}; }).then(function (body) {
        return { status: response.status, body: body };
      });
    });
  }

  function settle(item, answer) {
    var items = load();
    var index = items.findIndex(function (i) { return i.key === item.key; });
    var status = answer.status;
    if (status === 201) {
      if (index >= 0) { items.splice(index, 1); }
      acknowledge(item);
      save(items);
      toast(fmt(S.saved, { n: item.number }), "ok");
      refreshState();
      return "done";
    }
    if (status === 400 || status === 422 || (status === 409 && !/already entered/.test(answer.body.detail || ""))) {
      if (index >= 0) {
        items[index].status = "rejected";
        items[index].errors = answer.body.errors && answer.body.errors.length
          ? answer.body.errors
          : [{ field: "_general", message: status === 409 ? S.closed : (answer.body.detail || "") }];
        save(items);
      }
      toast(fmt(S.rejected, { n: item.number }), "error");
      return "rejected";
    }
    if (status === 409) {
      if (index >= 0) { items.splice(index, 1); }
      save(items);
      toast(fmt(S.conflict, { n: item.number }), "error");
      refreshState();
      return "conflict";
    }
    if (status === 401 || status === 403) {
      toast(S.badCode, "error");
      return "stop";
    }
    return "retry";
  }

  function flush() {
    if (flushing) { return Promise.resolve(); }
    var pending = load().filter(function (i) { return i.status === "pending"; });
    if (!pending.length) { updateCounter(); return Promise.resolve(); }
    if (!navigator.onLine) { updateCounter(); return Promise.resolve(); }
    flushing = true;
    var outcome = { rejected: false, conflict: false };
    function next(i) {
      if (i >= pending.length) { return Promise.resolve("done"); }
      return send(pending[i]).then(function (answer) {
        var result = settle(pending[i], answer);
        if (result === "rejected") { outcome.rejected = true; }
        if (result === "conflict") { outcome.conflict = true; }
        if (result === "retry") {
          if (answer.status >= 500 || answer.status === 429) { toast(S.serverError, "warn"); }
          return "retry";
        }
        if (result === "stop") { return "stop"; }
        return next(i + 1);
      }, function () { return "retry"; });
    }
    return next(0).then(function (result) {
      flushing = false;
      if (result === "retry") { schedule(); } else { backoff = 1000; }
      updateCounter();
      if (!entry.dirty) {
        resetForm();
      } else if (outcome.conflict) {
        entry.number = nextSlot().number;
        entry.render();
      }
    });
  }

  entry.onSubmit = function (record, number) {
    var items = load();
    var existing = items.findIndex(function (i) { return i.number === number && i.status === "rejected"; });
    var item = { number: number, record: record, key: newKey(), status: "pending", created: Date.now() };
    if (existing >= 0) { items[existing] = item; } else { items.push(item); }
    items.sort(function (a, b) { return a.number - b.number; });
    save(items);
    if (!navigator.onLine) { toast(fmt(S.queued, { n: number }), "warn"); }
    var slot = nextSlot();
    entry.reset(slot.number, slot.dealer);
    flush().then(function () {
      if (load().some(function (i) { return i.key === item.key && i.status === "pending"; })) {
        toast(fmt(S.queued, { n: number }), "warn");
      }
    });
  };

  // --- confirmation --------------------------------------------------------------------

  document.addEventListener("click", function (ev) {
    var button = ev.target.closest("button[data-confirm-team]");
    if (!button) { return; }
    button.disabled = true;
    fetch("/api/matches/" + config.matchId + "/confirm/", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Authorization": "Device " + config.code },
      body: JSON.stringify({ team: +button.getAttribute("data-confirm-team") }),
      credentials: "omit"
    }).then(function (r) {
      if (r.ok) { toast(S.confirmed, "ok"); } else { button.disabled = false; toast(S.serverError, "error"); }
      refreshState();
    }, function () { button.disabled = false; toast(S.offline, "warn"); });
  });

  document.body.addEventListener("htmx:afterSwap", function (ev) {
    if (ev.target && ev.target.id === "table-state") { readServerDeals(); }
  });
  document.body.addEventListener("htmx:afterSettle", function () { readServerDeals(); });
  window.addEventListener("online", function () { backoff = 1000; updateCounter(); flush(); refreshState(); });
  window.addEventListener("offline", updateCounter);
  setInterval(function () { if (!flushing) { flush(); } }, 15000);

  // --- service worker: the page and its files load again without network ------------------

  function registerWorker() {
    if (!("serviceWorker" in navigator) || !config.serviceWorker) { return; }
    var controlled = !!navigator.serviceWorker.controller;
    navigator.serviceWorker.register(config.serviceWorker, { scope: "/t/" }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      // keep the score panel now, and the page too if this load came from the network
      // before the worker was in charge (a controlled load is kept by the worker itself)
      if (!fromCache && registration.active) {
        var urls = controlled ? [config.stateUrl] : [location.pathname, config.stateUrl];
        registration.active.postMessage({ type: "keep", urls: urls });
      }
    }).catch(function () { /* no worker: the page still works online */ });
  }

  readServerDeals();
  resetForm();
  updateCounter();
  flush();
  registerWorker();
  // a page from the cache: show the newest cached score panel at once
  if (fromCache) { window.addEventListener("load", refreshState); }
  window.klammernTablet = { flush: flush, outbox: load, entry: entry };
})();
