/* Table tablet: an outbox of deal entries kept in localStorage, each with its own
   Idempotency-Key, sent to the REST API until the server acknowledges it. A reload or a
   closed tab loses nothing; a retry never creates a second deal (same key, same body).
   A deal of the score panel is corrected on the same sheet, prefilled with its current
   version and sent as a PUT with If-Match; a deal still in the outbox is changed there. */
(function () {
  "use strict";

  var config = JSON.parse(document.getElementById("tablet-config").textContent);
  var S = config.strings;
  var STORE = "klammern.outbox." + config.matchId;
  var KNOWN = "klammern.deals." + config.matchId;
  var form = document.getElementById("entry");
  var entry = new window[config.entry || "DealEntry"](form, config);
  var banner = document.getElementById("offline-banner");
  // the service worker marks a page it answered from its cache (no network)
  var fromCache = banner.getAttribute("data-from-cache") === "1";
  var serverDeals = knownDeals(config.deals.slice());
  var flushing = false;
  var retryTimer = null;
  var backoff = 1000;
  var fmt = window.Sheet.fmt;
  var correcting = null;  // the deal on the sheet: {number, version} or an outbox {number, key}

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
    var boards = config.boards || {};
    if (!all.length) { return { number: 1, dealer: boards[1] ? boards[1].dealer : 0 }; }
    var last = all[all.length - 1];
    // a duplicate tournament's deal is its board, dealt by the board's dealer
    if (boards[last.number + 1]) { return { number: last.number + 1, dealer: boards[last.number + 1].dealer }; }
    // engine.next_dealer: clockwise; a thrown-in deal of Klammern for four is dealt again
    var again = last.thrownIn && config.sameDealerAfterThrownIn;
    return { number: last.number + 1, dealer: again ? last.dealer : (last.dealer + 1) % (config.players || 4) };
  }

  function updateCounter() {
    var items = load();
    var el = document.getElementById("outbox");
    var waiting = items.length;
    el.hidden = false;
    el.querySelector("[data-bind='count']").textContent = waiting ? fmt(S.waiting, { n: waiting }) : S.allSent;
    el.classList.toggle("is-waiting", waiting > 0);
    el.classList.toggle("is-offline", !navigator.onLine);
    el.setAttribute("data-waiting", String(waiting));
    var note = el.querySelector("[data-bind='offline']");
    note.hidden = navigator.onLine;
    banner.hidden = navigator.onLine && !fromCache;
    banner.querySelector("[data-bind='from-cache']").hidden = !fromCache;
    // a thrown-in deal is recorded but is no planned deal (RULES.md): only played ones count
    // (a duplicate tournament's thrown-in board is a board played)
    var played = known().filter(function (d) { return !d.thrownIn || config.duplicate; }).length;
    var full = config.dealsPlanned && played >= config.dealsPlanned;
    form.classList.toggle("is-complete", !!full && !editingRejected() && !correcting);
    renderQueued(items);
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

  // A refresh asked for while the score panel is loading is made again once that answer is
  // in: the panel replaces itself (outerHTML), and htmx drops a request queued on the
  // element it replaced, so the panel would show the state from before, e.g. a team's
  // confirm button after the team has confirmed.
  var stateLoading = false;
  var refreshAgain = false;

  function refreshState() {
    if (!window.htmx) { return; }
    if (stateLoading) { refreshAgain = true; return; }
    htmx.trigger("#table-state", "refresh");
  }

  function isStatePanel(ev) {
    return ev.detail && ev.detail.elt && ev.detail.elt.id === "table-state";
  }

  document.body.addEventListener("htmx:beforeRequest", function (ev) {
    if (isStatePanel(ev)) { stateLoading = true; }
  });
  // the answer is in: the new panel has settled, or (no swap, e.g. no network) the request
  // has ended on the panel still in the page; a detached panel's events never get here
  function stateLoaded() {
    if (!stateLoading) { return; }
    stateLoading = false;
    if (refreshAgain) { refreshAgain = false; setTimeout(refreshState, 0); }
  }
  document.body.addEventListener("htmx:afterRequest", function (ev) {
    if (isStatePanel(ev) && document.body.contains(ev.detail.elt)) { stateLoaded(); }
  });
  document.body.addEventListener("htmx:afterSettle", function (ev) {
    if (ev.target && ev.target.id === "table-state") { stateLoaded(); }
  });

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
    // a closed round: the sheet goes away (the outbox still sends what it holds)
    var pane = form.closest(".tablet-entry");
    if (pane) { pane.hidden = el.getAttribute("data-closed") === "1"; }
    // an acknowledged deal the (older) state has not caught up with yet stays known
    serverDeals.forEach(function (d) {
      if (!fresh.some(function (f) { return f.number === d.number; })) { fresh.push(d); }
    });
    serverDeals = fresh;
    rememberDeals();
    updateCounter();
    if (!entry.dirty && !editingRejected() && !correcting) {
      var slot = nextSlot();
      if (slot.number !== entry.number || slot.dealer !== entry.state.dealer) { entry.reset(slot.number, slot.dealer); }
    }
  }

  function resetForm() {
    if (correcting) { return; }
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
        "Accept-Language": config.lang,
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
    var enteredElsewhere = status === 409 && answer.body.code === "deal_exists";
    if (status === 400 || status === 422 || (status === 409 && !enteredElsewhere)) {
      if (index >= 0) {
        items[index].status = "rejected";
        items[index].errors = answer.body.errors && answer.body.errors.length
          ? answer.body.errors
          : [{ field: "_general", message: answer.body.detail || S.closed }];
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

  // Every poll of the table's state tells the console how many entries this tablet
  // still holds (made offline, not yet sent), so a round is not closed past them.
  document.body.addEventListener("htmx:configRequest", function (ev) {
    if (ev.detail.path.indexOf("/state/") >= 0) {
      ev.detail.parameters.queued = load().filter(function (i) { return i.status === "pending"; }).length;
    }
  });

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
        // deals are entered in order (the server refuses one beyond the next): the later
        // ones wait until the refused deal is corrected and sent again
        if (result === "rejected") { outcome.rejected = true; return "held"; }
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
    if (correcting) { saveCorrection(record); return; }
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

  // --- corrections at the table --------------------------------------------------------
  // A deal the server holds is corrected through the API (PUT with If-Match: the version
  // the sheet was filled from), so it needs a connection; a deal still in the outbox was
  // never stored, and its entry there is simply replaced before it is sent.

  var bar = document.getElementById("correction-bar");
  var submitButton = form.querySelector("button[type=submit]");
  var submitLabel = submitButton ? submitButton.textContent : "";

  function dealUrl(number) { return "/api/matches/" + config.matchId + "/deals/" + number + "/"; }

  function callDeal(method, number, extra) {
    var headers = {
      "Accept": "application/json", "Authorization": "Device " + config.code,
      "Accept-Language": config.lang
    };
    Object.keys(extra.headers || {}).forEach(function (k) { headers[k] = extra.headers[k]; });
    return fetch(dealUrl(number), {
      method: method, headers: headers, body: extra.body, credentials: "omit", cache: "no-store"
    }).then(function (response) {
      reachedServer();
      return response.json().catch(function () { return {}; }).then(function (body) {
        return { status: response.status, body: body };
      });
    });
  }

  function barText(name, text) {
    var el = bar.querySelector("[data-bind='" + name + "']");
    el.textContent = text || "";
    el.hidden = !text;
  }

  // a new deal half entered when a correction starts comes back when it ends
  var draft = null;

  function openSheet(mode, number, record, title, note) {
    if (!correcting && entry.dirty) { draft = { number: entry.number, state: JSON.stringify(entry.state) }; }
    correcting = mode;
    entry.load(record, number);
    entry.clearErrors();
    form.classList.add("is-correcting");
    if (submitButton) { submitButton.textContent = mode.key ? S.saveChange : S.saveCorrection; }
    barText("correction-title", title);
    barText("correction-note", note);
    barText("correction-error", "");
    bar.hidden = false;
    updateCounter();
    if (bar.scrollIntoView) { bar.scrollIntoView({ block: "start", behavior: "smooth" }); }
  }

  function closeSheet() {
    correcting = null;
    bar.hidden = true;
    form.classList.remove("is-correcting");
    if (submitButton) { submitButton.textContent = submitLabel; }
    if (draft && draft.number === nextSlot().number) {
      entry.state = JSON.parse(draft.state);
      entry.number = draft.number;
      entry.dirty = true;
      entry.clearErrors();
      entry.render();
    } else {
      resetForm();
    }
    draft = null;
    updateCounter();
  }

  function openServerDeal(number, body) {
    openSheet({ number: number, version: body.version }, number, body.record,
              fmt(S.correcting, { n: number }), fmt(S.correctingNote, { v: body.version }));
  }

  function startCorrection(number) {
    if (!navigator.onLine) { toast(S.correctionOffline, "error"); return; }
    callDeal("GET", number, {}).then(function (answer) {
      if (answer.status === 200) { openServerDeal(number, answer.body); return; }
      refused(number, answer);
    }, function () { toast(S.correctionOffline, "error"); });
  }

  function startQueuedEdit(key) {
    var item = load().filter(function (i) { return i.key === key; })[0];
    if (!item) { return; }
    if (flushing && item.status === "pending") { toast(fmt(S.beingSent, { n: item.number }), "warn"); return; }
    openSheet({ number: item.number, key: key }, item.number, item.record,
              fmt(S.changingQueued, { n: item.number }), S.changingQueuedNote);
  }

  function replaceQueued(record) {
    var items = load();
    var index = items.findIndex(function (i) { return i.key === correcting.key; });
    var number = correcting.number;
    if (index < 0) {  // sent meanwhile: it is on the server now and is corrected there
      barText("correction-error", fmt(S.sentMeanwhile, { n: number }));
      return;
    }
    items[index] = { number: number, record: record, key: newKey(), status: "pending", created: Date.now() };
    save(items);
    closeSheet();
    toast(fmt(S.queuedChanged, { n: number }), "ok");
    flush();
  }

  function saveCorrection(record) {
    if (correcting.key) { replaceQueued(record); return; }
    var number = correcting.number;
    if (!navigator.onLine) { barText("correction-error", S.correctionOffline); return; }
    if (submitButton) { submitButton.disabled = true; }
    callDeal("PUT", number, {
      headers: { "Content-Type": "application/json", "If-Match": '"' + correcting.version + '"',
                 "Idempotency-Key": newKey() },
      body: JSON.stringify(record)
    }).then(function (answer) {
      settleCorrection(number, answer);
    }, function () {
      barText("correction-error", S.correctionOffline);
    }).then(function () { if (submitButton) { submitButton.disabled = false; } });
  }

  function settleCorrection(number, answer) {
    var status = answer.status;
    if (status === 200) {
      closeSheet();
      toast(fmt(S.correctionSaved, { n: number }), "ok");
      refreshState();
      return;
    }
    if (status === 412) { reloadStale(number); return; }
    if (status === 400 || status === 422) {
      entry.clearErrors();
      entry.showErrors(answer.body.errors && answer.body.errors.length ? answer.body.errors
        : [{ field: "_general", message: answer.body.detail || "" }]);
      return;
    }
    if (status >= 500 || status === 429) { barText("correction-error", S.correctionNoAnswer); return; }
    refused(number, answer);
  }

  // Someone else corrected the deal since the sheet was filled: show what is stored now.
  function reloadStale(number) {
    callDeal("GET", number, {}).then(function (answer) {
      if (answer.status !== 200) { refused(number, answer); return; }
      openServerDeal(number, answer.body);
      barText("correction-error", fmt(S.correctionStale, { n: number }));
      refreshState();
    }, function () { barText("correction-error", S.correctionOffline); });
  }

  function refused(number, answer) {
    var code = answer.body.code || "";
    var text = {
      match_confirmed: S.lockedConfirmed, round_not_open: S.lockedClosed,
      tournament_finished: S.lockedFinished, deal_missing: fmt(S.correctionMissing, { n: number })
    }[code];
    if (answer.status === 401 || answer.status === 403) { text = S.badCode; }
    if (correcting) { closeSheet(); }
    toast(text || answer.body.detail || S.serverError, "error");
    refreshState();
  }

  // Entries still on this device are listed in the score panel, marked as not yet sent.
  function renderQueued(items) {
    var section = document.querySelector("#table-state [data-section='deals']");
    if (!section) { return; }
    section.querySelectorAll("li.is-queued").forEach(function (li) { li.remove(); });
    var list = section.querySelector(".deal-list");
    if (!items.length) { return; }
    if (!list) {
      list = document.createElement("ul");
      list.className = "deal-list";
      section.appendChild(list);
    }
    var empty = section.querySelector(".empty");
    if (empty) { empty.hidden = true; }
    items.slice().sort(function (a, b) { return a.number - b.number; }).forEach(function (item) {
      list.insertBefore(queuedRow(item), list.firstChild);
    });
  }

  function queuedRow(item) {
    var li = document.createElement("li");
    li.className = "is-queued";
    // not data-deal: that marks a deal the server holds
    li.setAttribute("data-queued-deal", item.number);
    var no = document.createElement("span");
    no.className = "no";
    no.textContent = item.number;
    var note = document.createElement("span");
    note.className = "queued-note";
    note.textContent = item.status === "rejected" ? S.notAccepted : S.notSent;
    var pts = document.createElement("span");
    pts.className = "pts";
    pts.textContent = (item.record.card_points || []).join(" : ");
    var actions = document.createElement("span");
    actions.className = "deal-actions";
    if (item.status === "pending") {
      var edit = document.createElement("button");
      edit.type = "button";
      edit.className = "btn btn-small deal-correct";
      edit.setAttribute("data-edit-queued", item.key);
      edit.textContent = "✎ " + S.change;
      actions.appendChild(edit);
    }
    [no, note, pts, actions].forEach(function (el) { li.appendChild(el); });
    return li;
  }

  document.addEventListener("click", function (ev) {
    var server = ev.target.closest("button[data-correct-deal]");
    var queued = ev.target.closest("button[data-edit-queued]");
    var cancel = ev.target.closest("#correction-bar [data-action='cancel-correction']");
    if (server) { startCorrection(+server.getAttribute("data-correct-deal")); }
    if (queued) { startQueuedEdit(queued.getAttribute("data-edit-queued")); }
    if (cancel) { closeSheet(); }
  });

  // --- confirmation --------------------------------------------------------------------

  document.addEventListener("click", function (ev) {
    var button = ev.target.closest("button[data-confirm-team]");
    if (!button) { return; }
    button.disabled = true;
    fetch("/api/matches/" + config.matchId + "/confirm/", {
      method: "POST",
      headers: {
        "Content-Type": "application/json", "Authorization": "Device " + config.code,
        "Accept-Language": config.lang
      },
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
  window.klammernTablet = { flush: flush, outbox: load, entry: entry, correct: startCorrection };
})();
