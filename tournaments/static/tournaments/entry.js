/* Klammern's score sheet (DealEntry): builds a klammern-deal/1 record (summary or full)
   from taps. What every game's sheet shares (the set-up, a duplicate board's prefill, the
   head, the melds list, the error display) is the library's (sheet.js, loaded first).
   Used by the table tablet (with an outbox, tablet.js) and by the organiser's deal page
   in the console (console_deal.js). */
(function () {
  "use strict";

  var RANKS = window.Sheet.RANKS;
  var fmt = window.Sheet.fmt;

  /* Card points of one team: a whole number from 0 to 164 (RULES.md: a deal holds 164,
     melds and Bella come on top and are entered on their own). */
  function validPoints(n) { return typeof n === "number" && !isNaN(n) && n >= 0 && n <= 164; }

  function DealEntry(form, config) {
    var self = this;
    window.Sheet.attach(this, form, config);
    var paste = form.querySelector("[data-action='paste-hands']");
    if (paste) {
      paste.addEventListener("click", function () { self.pasteHands(); });
    }
  }

  window.Sheet.share(DealEntry);

  DealEntry.prototype.clear = function () {
    this.state = {
      dealer: 0, mode: this.state ? this.state.mode : "quick", thrownIn: false,
      declarer: null, kind: null, trump: null, upSuit: null, upRank: null,
      melds: [], bella: null, doubling: null, march: false, points: [null, null], lastTyped: null,
      revoke: false, revokeSeat: null, revokeSuit: null, revokeRank: null,
      hands: [[], [], [], []], handSeat: 0, plays: [],
      meld: { seat: null, length: 3, suit: null, top: null }
    };
  };

  // --- taps ----------------------------------------------------------------------------

  DealEntry.prototype.click = function (ev) {
    var button = ev.target.closest("button[data-pick], button[data-action]");
    if (!button || !this.form.contains(button)) { return; }
    this.dirty = true;
    var st = this.state;
    var pick = button.getAttribute("data-pick");
    var value = button.getAttribute("data-value");
    var action = button.getAttribute("data-action");
    if (action) {
      ev.preventDefault();
      if (action === "add-meld") { this.addMeld(); }
      if (action === "remove-meld") { st.melds.splice(+value, 1); }
      if (action === "undo-play") { st.plays.pop(); }
      if (action === "clear-plays") { st.plays = []; }
      if (action === "paste-hands") { return; }
      this.render();
      return;
    }
    ev.preventDefault();
    var num = value === "" || value === null ? null : (isNaN(+value) ? value : +value);
    switch (pick) {
      case "mode": st.mode = value; break;
      case "dealer": st.dealer = num; break;
      case "thrown": st.thrownIn = !st.thrownIn; break;
      case "declarer": st.declarer = num; break;
      case "kind":
        st.kind = value;
        if (value === "besser") { st.trump = "C"; }
        if (value === "orgi" && st.upSuit) { st.trump = st.upSuit; }
        if (value === "kleines" && st.trump === st.upSuit) { st.trump = null; }
        break;
      case "trump": st.trump = value; break;
      case "up-suit":
        st.upSuit = value;
        if (st.kind === "orgi") { st.trump = value; }
        break;
      case "up-rank": st.upRank = value; break;
      case "bella": st.bella = st.bella === num ? null : num; break;
      case "doubling": st.doubling = value || null; break;
      case "revoke": st.revoke = !st.revoke; break;
      case "march": st.march = !st.march; break;
      case "revoke-seat": st.revokeSeat = num; break;
      case "revoke-suit": st.revokeSuit = value; break;
      case "revoke-rank": st.revokeRank = value; break;
      case "meld-seat": st.meld.seat = num; break;
      case "meld-length":
        st.meld.length = num;
        if (st.meld.top && RANKS.indexOf(st.meld.top) < num - 1) { st.meld.top = null; }
        break;
      case "meld-suit": st.meld.suit = value; break;
      case "meld-top": st.meld.top = value; break;
      case "hand-seat": st.handSeat = num; break;
      case "hand-card": this.toggleHandCard(value); break;
      case "play-card":
        if (st.plays.indexOf(value) < 0 && st.plays.length < 32) { st.plays.push(value); }
        break;
    }
    this.render();
  };

  DealEntry.prototype.input = function (ev) {
    var name = ev.target.getAttribute("name");
    var st = this.state;
    this.dirty = true;
    if (name === "points0" || name === "points1") {
      var team = name === "points0" ? 0 : 1;
      var raw = ev.target.value.trim();
      st.points[team] = raw === "" ? null : parseInt(raw, 10);
      st.lastTyped = team;
      if (!st.revoke) {
        // a number outside 0-164 leaves the other team empty (not "-6") and says why
        st.points[1 - team] = validPoints(st.points[team]) ? 164 - st.points[team] : null;
      }
      this.renderPoints(team);
      this.showPointsRange(st.points[team]);
    }
  };

  DealEntry.prototype.toggleHandCard = function (card) {
    var hands = this.state.hands;
    var seat = this.state.handSeat;
    for (var s = 0; s < 4; s++) {
      var i = hands[s].indexOf(card);
      if (i >= 0) {
        hands[s].splice(i, 1);
        if (s === seat) { return; }
      }
    }
    if (hands[seat].length < 8) {
      hands[seat].push(card);
      if (hands[seat].length === 8) {
        for (var n = 1; n < 4; n++) {
          if (hands[(seat + n) % 4].length < 8) { this.state.handSeat = (seat + n) % 4; break; }
        }
      }
    }
  };

  DealEntry.prototype.pasteHands = function () {
    var area = this.form.querySelector("textarea[name='hands-text']");
    var lines = area.value.split(/\n+/).filter(function (l) { return l.trim(); });
    var hands = [[], [], [], []];
    lines.slice(0, 4).forEach(function (line, seat) {
      (line.toUpperCase().replace(/10/g, "T").match(/[789TJQKA][CSHD]/g) || []).forEach(function (c) {
        hands[seat].push(c);
      });
    });
    this.state.hands = hands;
    this.render();
  };

  DealEntry.prototype.addMeld = function () {
    var m = this.state.meld;
    if (m.seat === null || !m.suit || !m.top) { return; }
    var top = RANKS.indexOf(m.top);
    var cards = [];
    for (var i = top - m.length + 1; i <= top; i++) { cards.push(RANKS[i] + m.suit); }
    this.state.melds.push({ seat: m.seat, cards: cards });
    this.state.meld = { seat: null, length: 3, suit: null, top: null };
  };

  // --- record --------------------------------------------------------------------------

  DealEntry.prototype.build = function () {
    var st = this.state;
    var S = this.S;
    var errors = [];
    var upcard = st.upSuit && st.upRank ? st.upRank + st.upSuit : null;
    var record = { format: "klammern-deal/1", dealer: st.dealer, upcard: upcard };
    if (!upcard) { errors.push({ field: "upcard", message: S.pickUpcard }); }
    if (st.thrownIn) {
      record.contract = { kind: "thrown_in" };
      return { record: record, errors: errors };
    }
    if (st.declarer === null) { errors.push({ field: "contract.declarer", message: S.pickDeclarer }); }
    if (!st.kind) { errors.push({ field: "contract.kind", message: S.pickKind }); }
    if (!st.trump) { errors.push({ field: "contract.trump", message: S.pickTrump }); }
    record.contract = { kind: st.kind, declarer: st.declarer, trump: st.trump };
    if (st.doubling) { record.doubling = st.doubling; }
    if (st.melds.length) { record.melds = st.melds.map(function (m) { return { seat: m.seat, cards: m.cards.slice() }; }); }
    if (st.bella !== null) { record.bella = st.bella; }
    if (st.march) { record.march = true; }
    if (st.revoke) {
      if (st.revokeSeat === null || !st.revokeSuit || !st.revokeRank) {
        errors.push({ field: "revoke", message: S.pickRevoke });
      }
      record.revoke = { seat: st.revokeSeat, card: (st.revokeRank || "") + (st.revokeSuit || "") };
    }
    if (st.mode === "full") {
      if (st.hands.some(function (h) { return h.length !== 8; })) {
        errors.push({ field: "hands", message: S.handsIncomplete });
      }
      record.hands = st.hands.map(function (h) { return h.slice(); });
      record.plays = st.plays.slice();
    } else {
      var p = st.points;
      var wrong = p.filter(function (n) { return n !== null && !isNaN(n) && !validPoints(n); });
      if (wrong.length) {
        errors.push({ field: "card_points", message: fmt(S.pointsRange, { n: wrong[0] }) });
      } else if (p[0] === null || p[1] === null || isNaN(p[0]) || isNaN(p[1])) {
        errors.push({ field: "card_points", message: S.pickPoints });
      }
      record.card_points = [p[0], p[1]];
    }
    return { record: record, errors: errors };
  };

  DealEntry.prototype.load = function (record, number) {
    this.clear();
    this.dirty = false;
    var st = this.state;
    this.number = number;
    st.dealer = record.dealer || 0;
    if (record.upcard) { st.upRank = record.upcard[0]; st.upSuit = record.upcard[1]; }
    var c = record.contract || {};
    if (c.kind === "thrown_in") { st.thrownIn = true; this.render(); return; }
    st.kind = c.kind || null;
    st.declarer = c.declarer === undefined ? null : c.declarer;
    st.trump = c.trump || null;
    st.doubling = record.doubling || null;
    st.melds = (record.melds || []).map(function (m) { return { seat: m.seat, cards: m.cards.slice() }; });
    st.bella = record.bella === undefined ? null : record.bella;
    st.march = record.march === true;
    if (record.revoke) {
      st.revoke = true;
      st.revokeSeat = record.revoke.seat;
      st.revokeRank = (record.revoke.card || "")[0] || null;
      st.revokeSuit = (record.revoke.card || "")[1] || null;
    }
    if (record.hands) {
      st.mode = "full";
      st.hands = record.hands.map(function (h) { return h.slice(); });
      st.plays = (record.plays || []).slice();
    } else {
      st.mode = "quick";
      st.points = (record.card_points || [null, null]).slice();
    }
    this.render();
  };

  // --- rendering -----------------------------------------------------------------------

  DealEntry.prototype.render = function () {
    var st = this.state;
    var form = this.form;
    form.classList.toggle("is-thrown-in", st.thrownIn);
    form.classList.toggle("is-full", st.mode === "full");
    form.classList.toggle("is-revoke", st.revoke);
    var picked = {
      mode: st.mode, dealer: st.dealer, thrown: st.thrownIn ? "1" : null,
      declarer: st.declarer, kind: st.kind, trump: st.trump, "up-suit": st.upSuit,
      "up-rank": st.upRank, bella: st.bella, doubling: st.doubling || "",
      revoke: st.revoke ? "1" : null, march: st.march ? "1" : null, "revoke-seat": st.revokeSeat,
      "revoke-suit": st.revokeSuit, "revoke-rank": st.revokeRank,
      "meld-seat": st.meld.seat, "meld-length": st.meld.length, "meld-suit": st.meld.suit,
      "meld-top": st.meld.top, "hand-seat": st.handSeat
    };
    this.press(picked);
    form.querySelectorAll("button[data-pick='trump']").forEach(function (b) {
      var suit = b.getAttribute("data-value");
      b.disabled = (st.kind === "orgi" && st.upSuit && suit !== st.upSuit)
        || (st.kind === "besser" && suit !== "C")
        || (st.kind === "kleines" && st.upSuit && suit === st.upSuit);
    });
    form.querySelectorAll("button[data-pick='meld-top']").forEach(function (b) {
      b.disabled = RANKS.indexOf(b.getAttribute("data-value")) < st.meld.length - 1;
    });
    var add = form.querySelector("[data-action='add-meld']");
    if (add) { add.disabled = st.meld.seat === null || !st.meld.suit || !st.meld.top; }
    this.renderHead();
    this.renderMelds();
    this.renderPoints(null);
    this.renderHands();
    this.renderPlays();
  };

  DealEntry.prototype.renderPoints = function (typing) {
    var st = this.state;
    [0, 1].forEach(function (team) {
      var input = this.form.querySelector("input[name='points" + team + "']");
      if (!input || team === typing) { return; }
      input.value = st.points[team] === null || isNaN(st.points[team]) ? "" : st.points[team];
      input.classList.toggle("is-auto", !st.revoke && st.lastTyped === 1 - team);
    }, this);
    var sum = this.form.querySelector("[data-bind='points-sum']");
    if (sum) {
      var total = (st.points[0] || 0) + (st.points[1] || 0);
      sum.textContent = total;
      sum.parentNode.classList.toggle("is-off", !st.revoke && total !== 164 && st.points[0] !== null);
    }
  };

  DealEntry.prototype.showPointsRange = function (value) {
    var slot = this.form.querySelector("[data-error-for='card_points']");
    if (!slot) { return; }
    var wrong = value !== null && !isNaN(value) && !validPoints(value);
    slot.textContent = wrong ? fmt(this.S.pointsRange, { n: value }) : "";
    slot.classList.toggle("has-error", wrong);
    slot.closest(".section").classList.toggle("has-error", wrong);
  };

  /* A meld in words on the sheet's list (Klammern: Terz or Fünfzig), and whether its
     cards are red (a sequence of Hearts or Diamonds). */
  DealEntry.prototype.meldName = function (cards) {
    return cards.length >= 4 ? this.S.fuenfzig : this.S.terz;
  };

  DealEntry.prototype.meldRed = function (cards) {
    return cards[0][1] === "H" || cards[0][1] === "D";
  };

  DealEntry.prototype.renderHands = function () {
    var st = this.state;
    var owner = {};
    st.hands.forEach(function (h, s) { h.forEach(function (c) { owner[c] = s; }); });
    this.form.querySelectorAll("button[data-pick='hand-card']").forEach(function (b) {
      var c = b.getAttribute("data-value");
      var s = owner[c];
      b.setAttribute("data-owner", s === undefined ? "" : s);
      b.setAttribute("aria-pressed", s === st.handSeat ? "true" : "false");
    });
    this.form.querySelectorAll("[data-bind='hand-count']").forEach(function (e) {
      e.textContent = st.hands[+e.getAttribute("data-seat")].length + "/8";
    });
  };

  DealEntry.prototype.renderPlays = function () {
    var st = this.state;
    var self = this;
    var owner = {};
    st.hands.forEach(function (h, s) { h.forEach(function (c) { owner[c] = s; }); });
    this.form.querySelectorAll("button[data-pick='play-card']").forEach(function (b) {
      var c = b.getAttribute("data-value");
      b.disabled = st.plays.indexOf(c) >= 0 || owner[c] === undefined;
    });
    var list = this.form.querySelector("[data-bind='plays']");
    if (!list) { return; }
    list.innerHTML = "";
    for (var t = 0; t * 4 < st.plays.length; t++) {
      var li = document.createElement("li");
      li.textContent = st.plays.slice(t * 4, t * 4 + 4).map(function (c) {
        return self.cardLabel(c) + " (" + self.seatName(owner[c]) + ")";
      }).join(" · ");
      list.appendChild(li);
    }
    var count = this.form.querySelector("[data-bind='play-count']");
    if (count) { count.textContent = st.plays.length + "/32"; }
  };

  // --- errors --------------------------------------------------------------------------

  /* impossible_points covers several faults; the one people meet most on this sheet (two
     numbers that do not add up to 164) has its own, plainer template, which speaks of
     Klammern's deal; every other case is the library's. */
  DealEntry.prototype.variant = function (error) {
    var p = (error.params || {}).card_points;
    if (error.code === "impossible_points" && p && !("team" in error.params)
        && !this.state.revoke && p.reduce(function (a, b) { return a + b; }, 0) !== 164) {
      return "impossible_points.sum";
    }
    return window.Sheet.base.variant.call(this, error);
  };

  window.DealEntry = DealEntry;
})();
