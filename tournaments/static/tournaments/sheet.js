/* The score sheets' shared library: what every game's sheet (Klammern's entry.js and the
   presets' entry_*.js) builds on. Loaded before the sheet's own script, as window.Sheet:
   - attach: a sheet's set-up (its form, strings, rank labels, the submit that hands the
     built record to onSubmit or shows the errors);
   - base, share: the methods every sheet takes over as they are (clearing for a new deal
     and a duplicate board's prefill, the head, pressed buttons, the list of melds named
     by the sheet's meldName, and the whole error display: engine codes to the page's
     language, seat names, card labels);
   - teamPoints, partnerships, combinations: what groups of sheets share (two teams' card
     points, two partnerships with their revoke and verdict preview, announced
     combinations), mixed into a sheet's prototype;
   - RANKS, SUITS, SYMBOL, fmt, stronger, isFour: the deck and small helpers.
   The offline queue and the sending are tablet.js's (console_deal.js's in the console). */
(function () {
  "use strict";

  var RANKS = ["7", "8", "9", "T", "J", "Q", "K", "A"];
  var SUITS = ["C", "S", "H", "D"];
  var SYMBOL = { C: "♣", S: "♠", H: "♥", D: "♦" };

  function fmt(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, k) { return values[k]; });
  }

  /* What every score sheet does when it is made: it keeps its form, strings and rank
     labels, starts clear, and on submit hands the built record to onSubmit or shows the
     errors. */
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

  var lib = {};
  /* The methods every sheet takes over as they are (see share). */
  var base = {};

  base.reset = function (number, dealer) {
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
  base.applyBoard = function () {
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

  base.cardLabel = function (card) {
    if (!card) { return ""; }
    return (this.rankLabels[card[0]] || card[0]) + SYMBOL[card[1]];
  };

  base.seatName = function (seat) {
    var name = this.config.seats[seat];
    return name || fmt(this.S.seat || "Seat %(n)s", { n: seat + 1 });
  };

  /* Marks the buttons of each pick in ``picked`` pressed when they hold its value. */
  base.press = function (picked) {
    this.form.querySelectorAll("button[data-pick]").forEach(function (b) {
      var key = b.getAttribute("data-pick");
      if (!(key in picked)) { return; }
      var v = picked[key];
      var on = v !== null && v !== undefined && String(v) === b.getAttribute("data-value");
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
  };

  /* The deal's number and the dealer's name in the sheet's head. */
  base.renderHead = function () {
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

  base.renderMelds = function () {
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

  base.localize = function (error) {
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
  base.humanize = function (message) {
    var self = this;
    return String(message)
      .replace(/\bseat ([0-3])\b/gi, function (_, n) { return self.seatName(+n); })
      .replace(/\b(10|[789TJQKA])([CSHD])\b/g, function (_, rank, suit) {
        return self.cardLabel((rank === "10" ? "T" : rank) + suit);
      });
  };

  base.param = function (key, value) {
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

  base.clearErrors = function () {
    this.form.querySelectorAll("[data-error-for]").forEach(function (e) {
      e.textContent = "";
      e.classList.remove("has-error");
    });
    this.form.querySelectorAll(".section.has-error").forEach(function (e) { e.classList.remove("has-error"); });
  };

  base.slotFor = function (field) {
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

  base.showErrors = function (errors) {
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

  /* Some codes have a template per case (the rule an illegal play broke); a sheet may name
     more cases of its own (Klammern's entry.js: two numbers that do not add up). */
  base.variant = function (error) {
    if (error.code === "illegal_play" && error.params && error.params.rule) {
      return "illegal_play." + error.params.rule;
    }
    return "";
  };

  /* Gives a sheet's prototype every method of base; the sheet then defines (or overrides)
     its own. */
  lib.share = function (Sheet) {
    Object.keys(base).forEach(function (name) { Sheet.prototype[name] = base[name]; });
  };

  /* The two teams' card points of the points sheets (entry_klaverjas.js, entry_belote.js):
     one is typed and the other is VALUE - x (both are typed after a revoke); while one
     team has all of them the sheet asks whether it took all 8 tricks. The sheet keeps
     points, lastTyped, allTricks and revoke in its state and draws its own verdict. */
  lib.teamPoints = function (Sheet, VALUE) {
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

  /* What the sheets of two partnerships with a taker share (entry_belote.js, entry_klaverjas.js,
     entry_contree.js): a team by its players' names, the revoke (who and which card) in
     the record and back, and the verdict's lines drawn in the sheet's verdict box. */
  lib.partnerships = function (Sheet) {
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

  /* Announced combinations (Belote's melds, the Schieber's Weis), the same for every
     sheet that has them but for its deck's ranks (low to high, natural order). */
  lib.combinations = function (Sheet, ranks) {
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
  lib.stronger = function (a, b) {
    for (var i = 0; i < a.length; i++) {
      if (a[i] !== b[i]) { return a[i] > b[i]; }
    }
    return false;
  };

  // Four cards of one rank.
  lib.isFour = function (cards) {
    return cards.length === 4 && cards.every(function (c) { return c[0] === cards[0][0]; });
  };


  lib.attach = attach;
  lib.base = base;
  lib.fmt = fmt;
  lib.RANKS = RANKS;
  lib.SUITS = SUITS;
  lib.SYMBOL = SYMBOL;
  window.Sheet = lib;
})();
