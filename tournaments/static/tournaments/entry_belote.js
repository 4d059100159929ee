/* Belote score sheet: builds a Belote summary record (spec/deal-record.md, "Belote": the
   upcard, the taker with trump and the round it was taken in, card points per team, the
   announcements as cards, the seat of belote-rebelote, an optional revoke; or a deal
   thrown in) and shows before saving whether the takers make it, go "dedans" or a team
   takes the capot (RULES.md, "Belote"). When one team has all 162 card points it asks
   whether that team took all 8 tricks (capot) or 7 and a trick without points, and sends
   tricks_won (required then). Its own words come from the sheet's hidden [data-text]
   spans; the error display is the sheets' library's (sheet.js); tablet.js drives it. */
(function () {
  "use strict";

  var VALUE = 162;
  var CAPOT = 252;
  var RANKS = window.Sheet.RANKS;
  var FOURS = { J: 200, 9: 150, A: 100, T: 100, K: 100, Q: 100 };
  var SUITS = window.Sheet.SUITS;

  function BeloteEntry(form, config) {
    this.T = {};
    var texts = this.T;
    form.querySelectorAll("[data-text]").forEach(function (e) {
      texts[e.getAttribute("data-text")] = e.textContent.trim();
    });
    window.Sheet.attach(this, form, config);
  }

  var P = BeloteEntry.prototype;
  window.Sheet.share(BeloteEntry);
  window.Sheet.combinations(BeloteEntry, RANKS);
  window.Sheet.teamPoints(BeloteEntry, VALUE);
  window.Sheet.partnerships(BeloteEntry);

  P.clear = function () {
    this.state = {
      dealer: 0, thrownIn: false, upSuit: null, upRank: null, declarer: null, trump: null,
      points: [null, null], lastTyped: null, allTricks: null, melds: [], bella: null,
      revoke: false, revokeSeat: null, revokeSuit: null, revokeRank: null,
      meld: { seat: null, kind: "run", length: 3, suit: null, top: null, four: null }
    };
  };

  P.round = function () {
    var st = this.state;
    if (!st.trump || !st.upSuit) { return null; }
    return st.trump === st.upSuit ? 1 : 2;
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
      case "thrown": st.thrownIn = !st.thrownIn; break;
      case "up-suit": st.upSuit = value; break;
      case "up-rank": st.upRank = value; break;
      case "declarer": st.declarer = +value; break;
      case "trump": st.trump = value; break;
      case "all-tricks": st.allTricks = value === "8"; break;
      case "bella": st.bella = st.bella === +value ? null : +value; break;
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

  // --- announcements -------------------------------------------------------------------


  /* A meld's value and its strength in the contest (RULES.md: value, cards, top card in
     natural order, a trump sequence, then the seat first in play from forehand). */
  P.meldValue = function (cards) {
    if (window.Sheet.isFour(cards)) { return FOURS[cards[0][0]] || 0; }
    return cards.length >= 5 ? 100 : (cards.length === 4 ? 50 : 20);
  };

  P.meldStrength = function (meld) {
    var cards = meld.cards;
    var four = window.Sheet.isFour(cards);
    var top = Math.max.apply(null, cards.map(function (c) { return RANKS.indexOf(c[0]); }));
    var forehand = (this.state.dealer + 1) % 4;
    return [
      this.meldValue(cards), cards.length, top,
      !four && cards[0][1] === this.state.trump ? 1 : 0,
      -((meld.seat - forehand + 4) % 4)
    ];
  };

  // The team whose announcements score, and how much they score; null without any.
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

  // On the list of announcements: "Tierce (20)", "Carré (200)"; a four is of all suits.
  P.meldName = function (cards) {
    var name = window.Sheet.isFour(cards) ? this.T.four : this.T["run" + Math.min(cards.length, 5)];
    return name + " (" + this.meldValue(cards) + ")";
  };

  P.meldRed = function (cards) {
    return !window.Sheet.isFour(cards) && (cards[0][1] === "H" || cards[0][1] === "D");
  };

  // --- the record ----------------------------------------------------------------------

  P.build = function () {
    var st = this.state;
    var T = this.T;
    var errors = [];
    var record = { format: "klammern-deal/1", dealer: st.dealer };
    if (!st.upSuit || !st.upRank) { errors.push({ field: "upcard", message: T.pickUpcard }); }
    record.upcard = (st.upRank || "") + (st.upSuit || "");
    if (st.thrownIn) {
      record.contract = { kind: "thrown_in" };
      return { record: record, errors: errors };
    }
    if (st.declarer === null) { errors.push({ field: "contract.declarer", message: T.pickTaker }); }
    if (!st.trump) { errors.push({ field: "contract.trump", message: T.pickTrump }); }
    record.contract = { kind: "belote", declarer: st.declarer, trump: st.trump, round: this.round() || 1 };
    var p = st.points;
    if (p[0] === null || p[1] === null || isNaN(p[0]) || isNaN(p[1])) {
      errors.push({ field: "card_points", message: T.pickPoints });
    }
    record.card_points = [p[0], p[1]];
    var all = this.allPointsTeam();
    if (all !== null && st.allTricks === null) {
      errors.push({ field: "tricks_won", message: T.pickCapot });
    } else if (all !== null) {
      record.tricks_won = all === 0 ? (st.allTricks ? [8, 0] : [7, 1]) : (st.allTricks ? [0, 8] : [1, 7]);
    }
    if (st.melds.length) {
      record.melds = st.melds.map(function (m) { return { seat: m.seat, cards: m.cards.slice() }; });
    }
    if (st.bella !== null) { record.bella = st.bella; }
    this.revokeRecord(record, errors, T.pickRevoke);
    return { record: record, errors: errors };
  };

  P.load = function (record, number) {
    this.clear();
    this.dirty = false;
    this.number = number;
    var st = this.state;
    var contract = record.contract || {};
    st.dealer = record.dealer || 0;
    st.upRank = (record.upcard || "")[0] || null;
    st.upSuit = (record.upcard || "")[1] || null;
    st.thrownIn = contract.kind === "thrown_in";
    st.declarer = typeof contract.declarer === "number" ? contract.declarer : null;
    st.trump = contract.trump || null;
    st.points = (record.card_points || [null, null]).slice();
    if (record.tricks_won) { st.allTricks = record.tricks_won.indexOf(8) >= 0; }
    st.melds = (record.melds || []).map(function (m) { return { seat: m.seat, cards: m.cards.slice() }; });
    st.bella = typeof record.bella === "number" ? record.bella : null;
    this.loadRevoke(record);
    this.render();
  };

  /* What the engine will say (RULES.md, Belote): a capot for a team with all 8 tricks
     (252 card points), "dedans" when the takers' points (cards, their announcements,
     their belote) are not more than the defenders'. */
  P.verdict = function () {
    var st = this.state;
    var p = st.points;
    if (st.thrownIn || st.revoke || st.declarer === null) { return null; }
    if (p[0] === null || p[1] === null || isNaN(p[0]) || isNaN(p[1])) { return null; }
    var takers = st.declarer % 2;
    var all = this.allPointsTeam();
    var capot = all !== null && st.allTricks ? all : null;
    var own = [p[0], p[1]];
    if (capot !== null) { own[capot] = CAPOT; }
    var melds = this.meldScore();
    if (melds) { own[melds.team] += melds.points; }
    if (st.bella !== null) { own[st.bella % 2] += 20; }
    return { dedans: own[takers] <= own[1 - takers], capot: capot, takers: takers };
  };

  // --- drawing -------------------------------------------------------------------------

  P.render = function () {
    var st = this.state;
    var form = this.form;
    var self = this;
    form.classList.toggle("is-revoke", st.revoke);
    form.classList.toggle("is-thrown-in", st.thrownIn);
    form.classList.toggle("meld-four", st.meld.kind === "four");
    this.press({
      dealer: st.dealer, thrown: st.thrownIn ? "1" : null, "up-suit": st.upSuit,
      "up-rank": st.upRank, declarer: st.declarer, trump: st.trump, bella: st.bella,
      revoke: st.revoke ? "1" : null, "revoke-seat": st.revokeSeat,
      "revoke-suit": st.revokeSuit, "revoke-rank": st.revokeRank,
      "meld-seat": st.meld.seat, "meld-kind": st.meld.kind, "meld-length": st.meld.length,
      "meld-suit": st.meld.suit, "meld-top": st.meld.top, "meld-four": st.meld.four
    });
    this.renderHead();
    form.querySelectorAll("[data-bind='takers']").forEach(function (e) {
      var none = st.thrownIn || st.declarer === null;
      e.style.display = none ? "none" : "";  // a badge's display outranks [hidden]
      if (none) { return; }
      e.textContent = self.teamName(st.declarer % 2) + " " + self.T.takes;
      e.className = "badge makers team-" + (st.declarer % 2);
    });
    form.querySelectorAll("[data-bind='round']").forEach(function (e) {
      var round = self.round();
      e.textContent = round === null ? "" : self.T["round" + round];
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

  P.renderVerdict = function () {
    var v = this.verdict();
    var lines = [];
    if (v && v.capot !== null) { lines.push(["pit", this.teamName(v.capot) + ": " + this.T.capot]); }
    if (v && v.dedans) { lines.push(["nat", this.teamName(v.takers) + ": " + this.T.dedans]); }
    if (v && !v.dedans) { lines.push(["made", this.teamName(v.takers) + ": " + this.T.made]); }
    this.drawVerdict(lines);
  };

  window.BeloteEntry = BeloteEntry;
})();
