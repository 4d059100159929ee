/* Belote Contrée score sheet: builds a contrée summary record (spec/deal-record.md,
   "Belote Contrée": the contract as the auction ended, its taker, value 80 to 160 or
   capot, trump and doubling, the card points per team, tricks_won when one team has all
   162, an optional revoke; or a deal thrown in after four passes) and previews the score
   as RULES.md ("Belote Contrée") counts it: made with at least the value in points made
   (a capot contract: all 8 tricks), the defenders' points rounded to ten and the takers
   the rest of 160 (250 with all 8 tricks); failed: the defenders 160 (250 for capot);
   coinched ×2, surcoinched ×4 of the game's value to the winners; a revoke gives the
   clean team the game's value times the doubling. The team points, the "all 8 tricks?"
   question, the revoke and the verdict box are shared with Belote's sheet (sheet.js);
   its own words come from the sheet's hidden [data-text] spans. */
(function () {
  "use strict";

  var VALUE = 162;        // card points of a deal, the last trick's 10 included
  var ALL_TRICKS = 252;   // points made by a team with all 8 tricks (162 + 90)
  var GAME = 160;         // the game's value
  var CAPOT_GAME = 250;   // the game's value of a capot contract
  var MULTIPLIER = [1, 2, 4];
  var SYMBOL = window.Sheet.SYMBOL;

  function ContreeEntry(form, config) {
    this.T = {};
    var texts = this.T;
    form.querySelectorAll("[data-text]").forEach(function (e) {
      texts[e.getAttribute("data-text")] = e.textContent.trim();
    });
    window.Sheet.attach(this, form, config);
  }

  var P = ContreeEntry.prototype;
  window.Sheet.share(ContreeEntry);
  window.Sheet.teamPoints(ContreeEntry, VALUE);
  window.Sheet.partnerships(ContreeEntry);

  P.clear = function () {
    this.state = {
      dealer: 0, thrownIn: false, declarer: null, value: null, trump: null, doubling: 0,
      points: [null, null], lastTyped: null, allTricks: null,
      revoke: false, revokeSeat: null, revokeSuit: null, revokeRank: null
    };
  };

  P.click = function (ev) {
    var button = ev.target.closest("button[data-pick]");
    if (!button || !this.form.contains(button)) { return; }
    ev.preventDefault();
    this.dirty = true;
    var st = this.state;
    var value = button.getAttribute("data-value");
    switch (button.getAttribute("data-pick")) {
      case "dealer": st.dealer = +value; break;
      case "thrown": st.thrownIn = !st.thrownIn; break;
      case "declarer": st.declarer = +value; break;
      case "value": st.value = value === "capot" ? "capot" : +value; break;
      case "trump": st.trump = value; break;
      case "doubling": st.doubling = +value; break;
      case "all-tricks": st.allTricks = value === "8"; break;
      case "revoke": st.revoke = !st.revoke; this.complete(st.lastTyped); break;
      case "revoke-seat": st.revokeSeat = +value; break;
      case "revoke-suit": st.revokeSuit = value; break;
      case "revoke-rank": st.revokeRank = value; break;
    }
    this.render();
  };

  // --- the record ----------------------------------------------------------------------

  P.build = function () {
    var st = this.state;
    var T = this.T;
    var errors = [];
    var record = { format: "klammern-deal/1", dealer: st.dealer };
    if (st.thrownIn) {
      record.contract = { kind: "thrown_in" };
      return { record: record, errors: errors };
    }
    if (st.declarer === null) { errors.push({ field: "contract.declarer", message: T.pickTaker }); }
    if (st.value === null) { errors.push({ field: "contract.value", message: T.pickValue }); }
    if (!st.trump) { errors.push({ field: "contract.trump", message: T.pickTrump }); }
    record.contract = {
      kind: "contree", declarer: st.declarer, trump: st.trump, value: st.value, doubling: st.doubling
    };
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
    st.thrownIn = contract.kind === "thrown_in";
    st.declarer = typeof contract.declarer === "number" ? contract.declarer : null;
    st.value = contract.value === undefined ? null : contract.value;
    st.trump = contract.trump || null;
    st.doubling = contract.doubling || 0;
    st.points = (record.card_points || [null, null]).slice();
    if (record.tricks_won) { st.allTricks = record.tricks_won.indexOf(8) >= 0; }
    this.loadRevoke(record);
    this.render();
  };

  /* The score as the engine will count it (RULES.md, "Belote Contrée"), or null while
     the sheet lacks what it needs: { made, capot (team with all 8 tricks or null),
     takers, points: [team 0, team 1] }. */
  P.verdict = function () {
    var st = this.state;
    var p = st.points;
    if (st.thrownIn || st.declarer === null || st.value === null) { return null; }
    var takers = st.declarer % 2;
    var game = (st.value === "capot" ? CAPOT_GAME : GAME) * MULTIPLIER[st.doubling];
    var points = [0, 0];
    if (st.revoke) {
      if (st.revokeSeat === null) { return null; }
      points[1 - st.revokeSeat % 2] = game;
      return { revoke: true, takers: takers, capot: null, points: points };
    }
    if (p[0] === null || p[1] === null || isNaN(p[0]) || isNaN(p[1])) { return null; }
    var all = this.allPointsTeam();
    if (all !== null && st.allTricks === null) { return null; }
    var capot = all !== null && st.allTricks ? all : null;
    var own = [p[0], p[1]];
    if (capot !== null) { own[capot] = ALL_TRICKS; }
    var made = st.value === "capot" ? capot === takers : own[takers] >= st.value;
    var winners = made ? takers : 1 - takers;
    if (!made || st.doubling) {
      points[winners] = game;
    } else if (capot === takers) {
      points[takers] = CAPOT_GAME;
    } else {
      // the defenders' points to the nearest ten (a 5 rounds up), the takers the rest
      points[1 - takers] = Math.floor((own[1 - takers] + 5) / 10) * 10;
      points[takers] = GAME - points[1 - takers];
    }
    return { made: made, takers: takers, capot: capot, points: points };
  };

  // The contract in words: "100 ♥ coinched".
  P.contractWords = function () {
    var st = this.state;
    var words = [st.value === "capot" ? this.T.capotValue : String(st.value)];
    if (st.trump) { words.push(SYMBOL[st.trump]); }
    if (st.doubling) { words.push(st.doubling === 2 ? this.T.surcoinched : this.T.coinched); }
    return words.join(" ");
  };

  // --- drawing -------------------------------------------------------------------------

  P.render = function () {
    var st = this.state;
    var form = this.form;
    var self = this;
    form.classList.toggle("is-revoke", st.revoke);
    form.classList.toggle("is-thrown-in", st.thrownIn);
    this.press({
      dealer: st.dealer, thrown: st.thrownIn ? "1" : null, declarer: st.declarer,
      value: st.value, trump: st.trump, doubling: st.doubling,
      revoke: st.revoke ? "1" : null, "revoke-seat": st.revokeSeat,
      "revoke-suit": st.revokeSuit, "revoke-rank": st.revokeRank
    });
    this.renderHead();
    form.querySelectorAll("[data-bind='takers']").forEach(function (e) {
      var none = st.thrownIn || st.declarer === null || st.value === null;
      e.style.display = none ? "none" : "";  // a badge's display outranks [hidden]
      if (none) { return; }
      e.textContent = self.teamName(st.declarer % 2) + " · " + self.contractWords();
      e.className = "badge makers team-" + (st.declarer % 2);
    });
    this.renderPoints(null);
    this.renderTricks();
    this.renderVerdict();
  };

  P.renderVerdict = function () {
    var v = this.verdict();
    var lines = [];
    if (v && v.capot !== null) { lines.push(["pit", this.teamName(v.capot) + ": " + this.T.capot]); }
    if (v && v.revoke) { lines.push(["nat", this.T.revoked]); }
    if (v && v.made === false) { lines.push(["nat", this.teamName(v.takers) + ": " + this.T.failed]); }
    if (v && v.made) { lines.push(["made", this.teamName(v.takers) + ": " + this.T.made]); }
    if (v) {
      lines.push(["score", this.T.score + " " + this.teamName(0) + " " + v.points[0]
        + " : " + v.points[1] + " " + this.teamName(1)]);
    }
    this.drawVerdict(lines);
  };

  window.ContreeEntry = ContreeEntry;
})();
