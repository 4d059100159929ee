/* Deal entry form: builds a klammern-deal/1 record (summary or full) from taps and shows
   the engine's errors next to the fields they concern. Used by the table tablet (with an
   outbox, tablet.js) and by the organiser's deal page in the console (console_deal.js). */
(function () {
  "use strict";

  var RANKS = ["7", "8", "9", "T", "J", "Q", "K", "A"];
  var SUITS = ["C", "S", "H", "D"];
  var SYMBOL = { C: "♣", S: "♠", H: "♥", D: "♦" };

  /* Card points of one team: a whole number from 0 to 164 (RULES.md: a deal holds 164,
     melds and Bella come on top and are entered on their own). */
  function validPoints(n) { return typeof n === "number" && !isNaN(n) && n >= 0 && n <= 164; }

  function fmt(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, k) { return values[k]; });
  }

  /* What every score sheet does when it is made (this one and the presets' sheets,
     entry_klaverjas.js, entry_belote.js and entry_solo.js): it keeps its form, strings and rank labels,
     starts clear, and on submit hands the built record to onSubmit or shows the errors. */
  function attach(sheet, form, config) {
    sheet.form = form;
    sheet.config = config;
    sheet.S = config.strings || {};
    sheet.rankLabels = JSON.parse(form.getAttribute("data-rank-labels") || "{}");
    sheet.onSubmit = null;
    sheet.clear();
    form.addEventListener("click", function (ev) { sheet.click(ev); });
    form.addEventListener("input", function (ev) { sheet.input(ev); });
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var built = sheet.build();
      sheet.clearErrors();
      if (built.errors.length) { sheet.showErrors(built.errors); return; }
      if (sheet.onSubmit) { sheet.onSubmit(built.record, sheet.number); }
    });
  }

  function DealEntry(form, config) {
    var self = this;
    attach(this, form, config);
    var paste = form.querySelector("[data-action='paste-hands']");
    if (paste) {
      paste.addEventListener("click", function () { self.pasteHands(); });
    }
  }

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

  DealEntry.prototype.reset = function (number, dealer) {
    this.clear();
    this.dirty = false;
    this.number = number;
    this.state.dealer = dealer;
    this.applyBoard();
    this.clearErrors();
    this.render();
  };

  /* A duplicate tournament deals every deal from a board (config.boards, by deal number):
     its dealer, upcard and hands are given, so the table enters only what happened. */
  DealEntry.prototype.applyBoard = function () {
    var board = this.config.boards && this.config.boards[this.number];
    if (!board) { return; }
    var st = this.state;
    st.dealer = board.dealer;
    if (board.upcard) { // a game that turns no card up (the Schieber) has none
      st.upRank = board.upcard[0];
      st.upSuit = board.upcard[1];
    }
    st.hands = board.hands.map(function (h) { return h.slice(); });
  };

  DealEntry.prototype.cardLabel = function (card) {
    if (!card) { return ""; }
    return (this.rankLabels[card[0]] || card[0]) + SYMBOL[card[1]];
  };

  DealEntry.prototype.seatName = function (seat) {
    var name = this.config.seats[seat];
    return name || fmt(this.S.seat || "Seat %(n)s", { n: seat + 1 });
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

  /* Marks the buttons of each pick in ``picked`` pressed when they hold its value. */
  DealEntry.prototype.press = function (picked) {
    this.form.querySelectorAll("button[data-pick]").forEach(function (b) {
      var key = b.getAttribute("data-pick");
      if (!(key in picked)) { return; }
      var v = picked[key];
      var on = v !== null && v !== undefined && String(v) === b.getAttribute("data-value");
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
  };

  /* The deal's number and the dealer's name in the sheet's head. */
  DealEntry.prototype.renderHead = function () {
    var self = this;
    this.form.querySelectorAll("[data-bind='number']").forEach(function (e) { e.textContent = self.number || ""; });
    this.form.querySelectorAll("[data-bind='dealer-name']").forEach(function (e) {
      e.textContent = self.seatName(self.state.dealer);
    });
    var board = this.config.boards && this.config.boards[this.number];
    this.form.querySelectorAll("[data-bind='board']").forEach(function (e) {
      e.hidden = !board;
      e.textContent = board ? fmt(self.S.board || "Board %(n)s", { n: self.number }) : "";
    });
    // the page's views of the boards (tablet/table.html): the one of this deal shows
    document.querySelectorAll("[data-board-view]").forEach(function (e) {
      e.hidden = +e.getAttribute("data-board-view") !== self.number;
    });
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

  DealEntry.prototype.renderMelds = function () {
    var list = this.form.querySelector("[data-bind='melds']");
    if (!list) { return; }
    var self = this;
    list.innerHTML = "";
    this.state.melds.forEach(function (m, i) {
      var li = document.createElement("li");
      li.className = "meld-item";
      var name = self.meldName(m.cards);
      var text = document.createElement("span");
      text.innerHTML = "<b></b> · <span class='meld-name'></span> <span class='cards'></span>";
      text.querySelector("b").textContent = self.seatName(m.seat);
      text.querySelector(".meld-name").textContent = name;
      text.querySelector(".cards").textContent = m.cards.map(function (c) { return self.cardLabel(c); }).join(" ");
      text.querySelector(".cards").classList.toggle("red", self.meldRed(m.cards));
      var rm = document.createElement("button");
      rm.type = "button";
      rm.className = "btn btn-small btn-ghost";
      rm.setAttribute("data-action", "remove-meld");
      rm.setAttribute("data-value", i);
      rm.setAttribute("aria-label", self.S.remove);
      rm.textContent = "✕";
      var err = document.createElement("div");
      err.className = "field-error";
      err.setAttribute("data-error-for", "melds[" + i + "]");
      li.appendChild(text);
      li.appendChild(rm);
      li.appendChild(err);
      list.appendChild(li);
    });
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

  DealEntry.prototype.localize = function (error) {
    var templates = this.config.errorTemplates || {};
    var template = error.code
      ? templates[this.variant(error)] || templates[error.code + "." + (error.field || "")]
        || templates[error.code] : null;
    if (!template) { return this.humanize(error.message || error.detail || ""); }
    var self = this;
    var missing = false;
    var text = template.replace(/\{(\w+)\}/g, function (_, key) {
      var params = Object.assign({}, error.params || {});
      if (params.card_points) {
        params.card_points_sum = params.card_points.reduce(function (a, b) { return a + b; }, 0);
      }
      if (!(key in params)) { missing = true; return ""; }
      return self.param(key, params[key]);
    });
    return missing ? this.humanize(error.message || text) : text;
  };

  /* The engine's own English words, for people: "seat 2" (seats 0-3) becomes the player's
     name (or "Seat 3"), a card's record text ("JH") its rank and suit symbol. */
  DealEntry.prototype.humanize = function (message) {
    var self = this;
    return String(message)
      .replace(/\bseat ([0-3])\b/gi, function (_, n) { return self.seatName(+n); })
      .replace(/\b(10|[789TJQKA])([CSHD])\b/g, function (_, rank, suit) {
        return self.cardLabel((rank === "10" ? "T" : rank) + suit);
      });
  };

  /* impossible_points covers several faults; the one people meet most on this sheet (two
     numbers that do not add up to 164) has its own, plainer template, which speaks of
     Klammern's deal. The preset sheets, which share this method, leave plainSum unset. */
  DealEntry.prototype.plainSum = true;

  DealEntry.prototype.variant = function (error) {
    if (error.code === "illegal_play" && error.params && error.params.rule) {
      return "illegal_play." + error.params.rule;
    }
    var p = (error.params || {}).card_points;
    if (error.code === "impossible_points" && this.plainSum && p && !("team" in error.params)
        && !this.state.revoke && p.reduce(function (a, b) { return a + b; }, 0) !== 164) {
      return "impossible_points.sum";
    }
    return "";
  };

  DealEntry.prototype.param = function (key, value) {
    var self = this;
    var S = this.S;
    if (["seat", "expected", "next_seat"].indexOf(key) >= 0) { return this.seatName(value); }
    if (key === "seats") { return value.map(function (s) { return self.seatName(s); }).join(", "); }
    if (["trump", "upcard_suit", "led_suit", "suit"].indexOf(key) >= 0) { return S["suit" + value] || value; }
    if (key === "card") { return this.cardLabel(value); }
    if (["cards", "missing", "legal", "run"].indexOf(key) >= 0) {
      return value.map(function (c) { return self.cardLabel(c); }).join(" ");
    }
    if (key === "card_points") { return value.join(":"); }
    if (key === "card_points_sum") { return String(value); }
    return String(value);
  };

  DealEntry.prototype.clearErrors = function () {
    this.form.querySelectorAll("[data-error-for]").forEach(function (e) {
      e.textContent = "";
      e.classList.remove("has-error");
    });
    this.form.querySelectorAll(".section.has-error").forEach(function (e) { e.classList.remove("has-error"); });
  };

  DealEntry.prototype.slotFor = function (field) {
    var candidates = [];
    if (field) {
      candidates.push(field);
      var base = field.replace(/\[\d+\]$/, "");
      if (/^(hands|plays)\[/.test(field)) { candidates.push(base); }
      candidates.push(field.split(".")[0]);
      candidates.push(base.split(".")[0]);
    }
    candidates.push("_general");
    for (var i = 0; i < candidates.length; i++) {
      var slot = this.form.querySelector("[data-error-for='" + candidates[i] + "']");
      if (slot && slot.offsetParent !== null) { return slot; }
    }
    return this.form.querySelector("[data-error-for='_general']");
  };

  DealEntry.prototype.showErrors = function (errors) {
    var first = null;
    var shown = {};
    errors.forEach(function (error) {
      var slot = this.slotFor(error.field);
      var message = this.localize(error);
      var key = (slot.getAttribute("data-error-for") || "") + "|" + message;
      if (shown[key]) { return; }
      shown[key] = true;
      var line = document.createElement("div");
      line.textContent = message;
      slot.appendChild(line);
      slot.classList.add("has-error");
      var section = slot.closest(".section");
      if (section) { section.classList.add("has-error"); }
      first = first || slot;
    }, this);
    if (first && first.scrollIntoView) { first.scrollIntoView({ block: "center", behavior: "smooth" }); }
  };

  /* The methods a preset's sheet takes over as they are: clearing for a new deal, the
     head, pressed buttons, the list of melds (named by the sheet's meldName), and the
     whole error display (engine codes to the page's language, seat names, card labels). */
  var SHARED = [
    "reset", "applyBoard", "cardLabel", "seatName", "press", "renderHead", "localize", "humanize", "variant",
    "param", "clearErrors", "slotFor", "showErrors", "renderMelds"
  ];

  /* The two teams' card points of the points sheets (entry_klaverjas.js, entry_belote.js):
     one is typed and the other is VALUE - x (both are typed after a revoke); while one
     team has all of them the sheet asks whether it took all 8 tricks. The sheet keeps
     points, lastTyped, allTricks and revoke in its state and draws its own verdict. */
  DealEntry.teamPoints = function (Sheet, VALUE) {
    var P = Sheet.prototype;

    P.input = function (ev) {
      var name = ev.target.getAttribute("name");
      if (name !== "points0" && name !== "points1") { return; }
      var st = this.state;
      var team = name === "points0" ? 0 : 1;
      var raw = ev.target.value.trim();
      this.dirty = true;
      st.points[team] = raw === "" ? null : parseInt(raw, 10);
      st.lastTyped = team;
      st.allTricks = null;
      this.complete(team);
      this.renderPoints(team);
      this.renderTricks();
      this.renderVerdict();
    };

    // The team with all the card points (no revoke), which must say how many tricks it took.
    P.allPointsTeam = function () {
      var p = this.state.points;
      if (this.state.revoke) { return null; }
      return p[0] === VALUE && p[1] === 0 ? 0 : (p[1] === VALUE && p[0] === 0 ? 1 : null);
    };

    // the other team's points are VALUE - x (not after a revoke: then both are typed)
    P.complete = function (team) {
      var st = this.state;
      if (team === null || st.revoke) { return; }
      var own = st.points[team];
      st.points[1 - team] = own === null || isNaN(own) ? null : VALUE - own;
    };

    // The question "all 8 tricks?" shows only while one team has all the card points.
    P.renderTricks = function () {
      var section = this.form.querySelector("[data-section='all-tricks']");
      if (!section) { return; }
      var all = this.allPointsTeam();
      section.hidden = all === null;
      var name = section.querySelector("[data-bind='all-tricks-team']");
      if (name && all !== null) { name.textContent = this.teamName(all); }
      this.press({ "all-tricks": this.state.allTricks === null ? null : (this.state.allTricks ? "8" : "7") });
    };

    P.renderPoints = function (typing) {
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
        sum.parentNode.classList.toggle("is-off", !st.revoke && total !== VALUE && st.points[0] !== null);
      }
    };
  };

  /* What the sheets of two partnerships with a taker share (entry_belote.js,
     entry_contree.js): a team by its players' names, the revoke (who and which card) in
     the record and back, and the verdict's lines drawn in the sheet's verdict box. */
  DealEntry.partnerships = function (Sheet) {
    var P = Sheet.prototype;

    P.teamName = function (team) { return this.seatName(team) + " & " + this.seatName(team + 2); };

    P.revokeRecord = function (record, errors, message) {
      var st = this.state;
      if (!st.revoke) { return; }
      if (st.revokeSeat === null || !st.revokeSuit || !st.revokeRank) {
        errors.push({ field: "revoke", message: message });
      }
      record.revoke = { seat: st.revokeSeat, card: (st.revokeRank || "") + (st.revokeSuit || "") };
    };

    P.loadRevoke = function (record) {
      var st = this.state;
      if (!record.revoke) { return; }
      st.revoke = true;
      st.revokeSeat = record.revoke.seat;
      st.revokeRank = (record.revoke.card || "")[0] || null;
      st.revokeSuit = (record.revoke.card || "")[1] || null;
    };

    // lines: [class, text] pairs, each drawn as a "verdict-line is-<class>"
    P.drawVerdict = function (lines) {
      var box = this.form.querySelector("[data-bind='verdict']");
      if (!box) { return; }
      box.innerHTML = "";
      lines.forEach(function (line) {
        var el = document.createElement("div");
        el.className = "verdict-line is-" + line[0];
        el.textContent = line[1];
        box.appendChild(el);
      });
    };
  };

  DealEntry.share = function (Sheet) {
    SHARED.forEach(function (name) { Sheet.prototype[name] = DealEntry.prototype[name]; });
  };

  /* Announced combinations (Belote's melds, the Schieber's Weis), the same for every
     sheet that has them but for its deck's ranks (low to high, natural order). */
  DealEntry.combinations = function (Sheet, ranks) {
    Sheet.prototype.addMeld = function () {
      var m = this.state.meld;
      var cards = [];
      if (m.seat === null) { return; }
      if (m.kind === "four") {
        if (!m.four) { return; }
        cards = SUITS.map(function (s) { return m.four + s; });
      } else {
        if (!m.suit || !m.top) { return; }
        var top = ranks.indexOf(m.top);
        for (var i = top - m.length + 1; i <= top; i++) { cards.push(ranks[i] + m.suit); }
      }
      this.state.melds.push({ seat: m.seat, cards: cards });
      this.state.meld = { seat: null, kind: m.kind, length: 3, suit: null, top: null, four: null };
    };
  };

  // Whether strength a beats strength b (the first entry that differs decides).
  DealEntry.stronger = function (a, b) {
    for (var i = 0; i < a.length; i++) {
      if (a[i] !== b[i]) { return a[i] > b[i]; }
    }
    return false;
  };

  // Four cards of one rank.
  DealEntry.isFour = function (cards) {
    return cards.length === 4 && cards.every(function (c) { return c[0] === cards[0][0]; });
  };

  window.DealEntry = DealEntry;
  window.DealEntry.attach = attach;
  window.DealEntry.fmt = fmt;
  window.DealEntry.SUITS = SUITS;
  window.DealEntry.RANKS = RANKS;
})();
