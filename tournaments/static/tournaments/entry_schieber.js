/* Schieberjass score sheet: builds a Schieber summary record (spec/deal-record.md,
   "Schieberjass": the choice of forehand or, pushed ("geschoben"), of forehand's partner,
   the mode (a trump suit, Obenabe or Undenufe), card points per team (157 with the last
   trick's 5), the Weis as cards, the seat of the Stöck, an optional revoke) and shows
   before saving which team's Weis score and whether a team takes the Match (all 9
   tricks, 257) as the engine will score them (RULES.md, "Schieberjass"). When one team
   has all 157 card points it asks whether that team took all 9 tricks and sends
   tricks_won (required then). Its words and the suits' symbols (French or Swiss, as the
   club plays) come from the sheet's hidden [data-text] spans; the error display is
   the sheets' library's (sheet.js); tablet.js drives it. */
(function () {
  "use strict";

  var VALUE = 157;
  var RANKS = ["6", "7", "8", "9", "T", "J", "Q", "K", "A"];
  var SUITS = window.Sheet.SUITS;
  var FOURS = { J: 200, 9: 150, A: 100, T: 100, K: 100, Q: 100 };
  var RUNS = [0, 0, 0, 20, 50, 100, 150, 200, 250, 300];

  function SchieberEntry(form, config) {
    this.T = {};
    var texts = this.T;
    form.querySelectorAll("[data-text]").forEach(function (e) {
      texts[e.getAttribute("data-text")] = e.textContent.trim();
    });
    window.Sheet.attach(this, form, config);
  }

  var P = SchieberEntry.prototype;
  window.Sheet.share(SchieberEntry);
  window.Sheet.combinations(SchieberEntry, RANKS);
  window.Sheet.teamPoints(SchieberEntry, VALUE);

  // A card in the club's suits: "10♠", or "10 Rosen" where the suits have no sign.
  P.cardLabel = function (card) {
    if (!card) { return ""; }
    var suit = this.T["sym" + card[1]] || card[1];
    return (this.rankLabels[card[0]] || card[0]) + (suit.length > 1 ? " " + suit : suit);
  };

  P.clear = function () {
    this.state = {
      dealer: 0, pushed: null, mode: null, trump: null,
      points: [null, null], lastTyped: null, allTricks: null, melds: [], stoeck: null,
      revoke: false, revokeSeat: null, revokeSuit: null, revokeRank: null,
      meld: { seat: null, kind: "run", length: 3, suit: null, top: null, four: null }
    };
  };

  P.teamName = function (team) { return this.seatName(team) + " & " + this.seatName(team + 2); };

  P.forehand = function () { return (this.state.dealer + 1) % 4; };

  // Forehand chooses, or pushes and the partner chooses; null until said.
  P.chooser = function () {
    var st = this.state;
    if (st.pushed === null) { return null; }
    return (this.forehand() + (st.pushed ? 2 : 0)) % 4;
  };

  P.click = function (ev) {
    var button = ev.target.closest("button[data-pick], button[data-action]");
    if (!button || !this.form.contains(button)) { return; }
    ev.preventDefault();
    this.dirty = true;
    var st = this.state;
    var value = button.getAttribute("data-value");
    var action = button.getAttribute("data-action");
    if (action === "add-meld") { this.addMeld(); }
    if (action === "remove-meld") { st.melds.splice(+value, 1); }
    switch (button.getAttribute("data-pick")) {
      case "dealer": st.dealer = +value; break;
      case "pushed": st.pushed = value === "1"; break;
      case "trump": st.mode = "trump"; st.trump = value; break;
      case "mode": st.mode = value; st.trump = null; st.stoeck = null; break;
      case "all-tricks": st.allTricks = value === "8"; break;
      case "stoeck": st.stoeck = st.stoeck === +value ? null : +value; break;
      case "revoke": st.revoke = !st.revoke; this.complete(st.lastTyped); break;
      case "revoke-seat": st.revokeSeat = +value; break;
      case "revoke-suit": st.revokeSuit = value; break;
      case "revoke-rank": st.revokeRank = value; break;
      case "meld-seat": st.meld.seat = +value; break;
      case "meld-kind": st.meld.kind = value; break;
      case "meld-length":
        st.meld.length = +value;
        if (st.meld.top && RANKS.indexOf(st.meld.top) < st.meld.length - 1) { st.meld.top = null; }
        break;
      case "meld-suit": st.meld.suit = value; break;
      case "meld-top": st.meld.top = value; break;
      case "meld-four": st.meld.four = value; break;
    }
    this.render();
  };

  // --- Weis ----------------------------------------------------------------------------


  P.meldValue = function (cards) {
    if (window.Sheet.isFour(cards)) { return FOURS[cards[0][0]] || 0; }
    return RUNS[Math.min(cards.length, 9)];
  };

  /* A Weis's strength (RULES.md): value, number of cards, top card in natural order, a
     trump sequence, then the seat first in play from forehand. */
  P.meldStrength = function (meld) {
    var cards = meld.cards;
    var four = window.Sheet.isFour(cards);
    var top = Math.max.apply(null, cards.map(function (c) { return RANKS.indexOf(c[0]); }));
    var st = this.state;
    return [
      this.meldValue(cards), cards.length, top,
      !four && st.mode === "trump" && cards[0][1] === st.trump ? 1 : 0,
      -((meld.seat - this.forehand() + 4) % 4)
    ];
  };

  // The team whose Weis score, and how much; null without any.
  P.meldScore = function () {
    var self = this;
    var best = null;
    var bestKey = null;
    this.state.melds.forEach(function (m) {
      var key = self.meldStrength(m);
      if (bestKey === null || window.Sheet.stronger(key, bestKey)) { best = m; bestKey = key; }
    });
    if (best === null) { return null; }
    var team = best.seat % 2;
    var points = this.state.melds.filter(function (m) { return m.seat % 2 === team; })
      .reduce(function (sum, m) { return sum + self.meldValue(m.cards); }, 0);
    return { team: team, points: points };
  };

  P.meldName = function (cards) {
    var name = window.Sheet.isFour(cards) ? this.T.four : (this.T.run || "").replace("{n}", cards.length);
    return name + " (" + this.meldValue(cards) + ")";
  };

  P.meldRed = function () { return false; };

  // --- the record ----------------------------------------------------------------------

  P.build = function () {
    var st = this.state;
    var T = this.T;
    var errors = [];
    var record = { format: "klammern-deal/1", dealer: st.dealer };
    if (st.pushed === null) { errors.push({ field: "contract.pushed", message: T.pickPushed }); }
    if (!st.mode) { errors.push({ field: "contract.mode", message: T.pickMode }); }
    record.contract = {
      kind: "schieber", chooser: this.chooser(), mode: st.mode || "trump", pushed: !!st.pushed
    };
    if (st.mode === "trump") { record.contract.trump = st.trump; }
    var p = st.points;
    if (p[0] === null || p[1] === null || isNaN(p[0]) || isNaN(p[1])) {
      errors.push({ field: "card_points", message: T.pickPoints });
    }
    record.card_points = [p[0], p[1]];
    var all = this.allPointsTeam();
    if (all !== null && st.allTricks === null) {
      errors.push({ field: "tricks_won", message: T.pickMatch });
    } else if (all !== null) {
      record.tricks_won = all === 0 ? (st.allTricks ? [9, 0] : [8, 1]) : (st.allTricks ? [0, 9] : [1, 8]);
    }
    if (st.melds.length) {
      record.weis = st.melds.map(function (m) { return { seat: m.seat, cards: m.cards.slice() }; });
    }
    if (st.stoeck !== null && st.mode === "trump") { record.stoeck = st.stoeck; }
    if (st.revoke) {
      if (st.revokeSeat === null || !st.revokeSuit || !st.revokeRank) {
        errors.push({ field: "revoke", message: T.pickRevoke });
      }
      record.revoke = { seat: st.revokeSeat, card: (st.revokeRank || "") + (st.revokeSuit || "") };
    }
    return { record: record, errors: errors };
  };

  P.load = function (record, number) {
    this.clear();
    this.dirty = false;
    this.number = number;
    var st = this.state;
    var contract = record.contract || {};
    st.dealer = record.dealer || 0;
    st.pushed = typeof contract.pushed === "boolean" ? contract.pushed : null;
    st.mode = contract.mode || null;
    st.trump = contract.trump || null;
    st.points = (record.card_points || [null, null]).slice();
    if (record.tricks_won) { st.allTricks = record.tricks_won.indexOf(9) >= 0; }
    st.melds = (record.weis || []).map(function (m) { return { seat: m.seat, cards: m.cards.slice() }; });
    st.stoeck = typeof record.stoeck === "number" ? record.stoeck : null;
    if (record.revoke) {
      st.revoke = true;
      st.revokeSeat = record.revoke.seat;
      st.revokeRank = (record.revoke.card || "")[0] || null;
      st.revokeSuit = (record.revoke.card || "")[1] || null;
    }
    this.render();
  };

  /* What the engine will score beyond the card points: the Weis of the team with the
     best one, the Stöck and the Match (all 9 tricks, 257). No made or failed. */
  P.verdict = function () {
    var st = this.state;
    if (st.revoke) { return null; }
    var all = this.allPointsTeam();
    return {
      match: all !== null && st.allTricks ? all : null,
      weis: this.meldScore(),
      stoeck: st.stoeck !== null && st.mode === "trump" ? st.stoeck % 2 : null
    };
  };

  // --- drawing -------------------------------------------------------------------------

  P.render = function () {
    var st = this.state;
    var form = this.form;
    var self = this;
    form.classList.toggle("is-revoke", st.revoke);
    form.classList.toggle("is-trump", st.mode === "trump");
    form.classList.toggle("meld-four", st.meld.kind === "four");
    this.press({
      dealer: st.dealer, pushed: st.pushed === null ? null : (st.pushed ? "1" : "0"),
      trump: st.mode === "trump" ? st.trump : null, mode: st.mode === "trump" ? null : st.mode,
      stoeck: st.stoeck, revoke: st.revoke ? "1" : null, "revoke-seat": st.revokeSeat,
      "revoke-suit": st.revokeSuit, "revoke-rank": st.revokeRank,
      "meld-seat": st.meld.seat, "meld-kind": st.meld.kind, "meld-length": st.meld.length,
      "meld-suit": st.meld.suit, "meld-top": st.meld.top, "meld-four": st.meld.four
    });
    this.renderHead();
    form.querySelectorAll("[data-bind='forehand-name']").forEach(function (e) {
      e.textContent = self.seatName(self.forehand());
    });
    form.querySelectorAll("[data-bind='partner-name']").forEach(function (e) {
      e.textContent = self.seatName((self.forehand() + 2) % 4);
    });
    form.querySelectorAll("[data-bind='chooser']").forEach(function (e) {
      var chooser = self.chooser();
      e.style.display = chooser === null ? "none" : "";  // a badge's display outranks [hidden]
      if (chooser === null) { return; }
      e.textContent = self.seatName(chooser) + " " + self.T.chooses + (st.pushed ? " (" + self.T.pushed + ")" : "");
      e.className = "badge makers team-" + (chooser % 2);
    });
    form.querySelectorAll("button[data-pick='meld-top']").forEach(function (b) {
      b.disabled = RANKS.indexOf(b.getAttribute("data-value")) < st.meld.length - 1;
    });
    var add = form.querySelector("[data-action='add-meld']");
    if (add) {
      var m = st.meld;
      add.disabled = m.seat === null || (m.kind === "four" ? !m.four : !m.suit || !m.top);
    }
    this.renderMelds();
    this.renderPoints(null);
    this.renderTricks();
    this.renderVerdict();
  };

  /* The factor of every point of the deal when the tournament plays with multipliers
     (RULES.md: Diamonds and Clubs x1, Hearts and Spades x2, Obenabe and Undenufe x3). */
  P.multiplier = function () {
    var st = this.state;
    if (!this.config.multipliers || st.mode === null) { return 1; }
    if (st.mode !== "trump") { return 3; }
    return st.trump === "H" || st.trump === "S" ? 2 : 1;
  };

  P.renderVerdict = function () {
    var box = this.form.querySelector("[data-bind='verdict']");
    if (!box) { return; }
    var v = this.verdict();
    var m = this.multiplier();
    var times = m > 1 ? " (\u00d7" + m + ")" : "";
    var lines = [];
    if (v && v.match !== null) { lines.push(["pit", this.teamName(v.match) + ": " + this.T.match + times]); }
    if (v && v.weis) { lines.push(["made", this.T.weisScores + ": " + this.teamName(v.weis.team) + " " + v.weis.points * m + times]); }
    if (v && v.stoeck !== null) { lines.push(["made", this.T.stoeck + ": " + this.teamName(v.stoeck) + " " + 20 * m + times]); }
    box.innerHTML = "";
    lines.forEach(function (line) {
      var el = document.createElement("div");
      el.className = "verdict-line is-" + line[0];
      el.textContent = line[1];
      box.appendChild(el);
    });
  };

  window.SchieberEntry = SchieberEntry;
})();
