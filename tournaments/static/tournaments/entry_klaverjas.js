/* Klaverjas score sheet: builds a Klaverjas summary record (spec/deal-record.md, "Other
   presets": forehand's team plays, card points and roem per team, an optional revoke)
   and shows before saving whether the makers go nat or a team takes the pit. When one
   team has all 162 card points it asks whether that team took all 8 tricks (the pit) or
   7 and a trick without points, and sends tricks_won (RULES.md: required then). Same
   interface as DealEntry (entry.js); the error display, the team names, the revoke and
   the verdict box are the sheets' library's (sheet.js); tablet.js drives it. */
(function () {
  "use strict";

  var VALUE = 162;

  function KlaverjasEntry(form, config) {
    window.Sheet.attach(this, form, config);
  }

  var P = KlaverjasEntry.prototype;
  window.Sheet.share(KlaverjasEntry);
  window.Sheet.teamPoints(KlaverjasEntry, VALUE);
  window.Sheet.partnerships(KlaverjasEntry);

  P.clear = function () {
    this.state = {
      dealer: 0, trump: null, points: [null, null], lastTyped: null, roem: [0, 0],
      allTricks: null, revoke: false, revokeSeat: null, revokeSuit: null, revokeRank: null
    };
  };

  P.makers = function () { return (this.state.dealer + 1) % 2; };

  P.click = function (ev) {
    var button = ev.target.closest("button[data-pick], button[data-action]");
    if (!button || !this.form.contains(button)) { return; }
    ev.preventDefault();
    this.dirty = true;
    var st = this.state;
    var value = button.getAttribute("data-value");
    if (button.getAttribute("data-action") === "roem") {
      var team = +button.getAttribute("data-team");
      st.roem[team] = Math.max(0, st.roem[team] + (+value));
    }
    switch (button.getAttribute("data-pick")) {
      case "dealer": st.dealer = +value; break;
      case "trump": st.trump = value; break;
      case "all-tricks": st.allTricks = value === "8"; break;
      case "revoke": st.revoke = !st.revoke; this.complete(st.lastTyped); break;
      case "revoke-seat": st.revokeSeat = +value; break;
      case "revoke-suit": st.revokeSuit = value; break;
      case "revoke-rank": st.revokeRank = value; break;
    }
    this.render();
  };

  P.build = function () {
    var st = this.state;
    var S = this.S;
    var errors = [];
    var record = {
      format: "klammern-deal/1", dealer: st.dealer,
      contract: { kind: "klaverjas", declarer: (st.dealer + 1) % 4, trump: st.trump }
    };
    if (!st.trump) { errors.push({ field: "contract.trump", message: S.pickTrumpK }); }
    var p = st.points;
    if (p[0] === null || p[1] === null || isNaN(p[0]) || isNaN(p[1])) {
      errors.push({ field: "card_points", message: S.pickPointsK });
    }
    record.card_points = [p[0], p[1]];
    if (st.roem[0] % 10 || st.roem[1] % 10) { errors.push({ field: "roem", message: S.pickRoem }); }
    record.roem = st.roem.slice();
    var all = this.allPointsTeam();
    if (all !== null && st.allTricks === null) {
      errors.push({ field: "tricks_won", message: S.pickAllTricks });
    } else if (all !== null) {
      record.tricks_won = all === 0 ? (st.allTricks ? [8, 0] : [7, 1]) : (st.allTricks ? [0, 8] : [1, 7]);
    }
    this.revokeRecord(record, errors, S.pickRevoke);
    return { record: record, errors: errors };
  };

  P.load = function (record, number) {
    this.clear();
    this.dirty = false;
    this.number = number;
    var st = this.state;
    st.dealer = record.dealer || 0;
    st.trump = (record.contract || {}).trump || null;
    st.points = (record.card_points || [null, null]).slice();
    st.roem = (record.roem || [0, 0]).slice();
    if (record.tricks_won) { st.allTricks = record.tricks_won.indexOf(8) >= 0; }
    this.loadRevoke(record);
    this.render();
  };

  // What the engine will say (RULES.md, Klaverjas): pit for a team with all 162, nat when
  // the makers' points and roem are not more than the defenders'.
  P.verdict = function () {
    var st = this.state;
    var p = st.points;
    if (st.revoke || p[0] === null || p[1] === null || isNaN(p[0]) || isNaN(p[1])) { return null; }
    var makers = this.makers();
    var all = this.allPointsTeam();
    var pit = all !== null && st.allTricks ? all : null;
    var own = p[makers] + st.roem[makers] + (pit === makers ? 100 : 0);
    var other = p[1 - makers] + st.roem[1 - makers] + (pit === 1 - makers ? 100 : 0);
    return { nat: own <= other, pit: pit, makers: makers };
  };

  P.render = function () {
    var st = this.state;
    var form = this.form;
    var self = this;
    form.classList.toggle("is-revoke", st.revoke);
    this.press({
      dealer: st.dealer, trump: st.trump, revoke: st.revoke ? "1" : null,
      "all-tricks": st.allTricks === null ? null : (st.allTricks ? "8" : "7"),
      "revoke-seat": st.revokeSeat, "revoke-suit": st.revokeSuit, "revoke-rank": st.revokeRank
    });
    this.renderHead();
    form.querySelectorAll("[data-bind='makers']").forEach(function (e) {
      e.textContent = self.teamName(self.makers()) + " " + (self.S.plays || "");
      e.className = "badge makers team-" + self.makers();
    });
    form.querySelectorAll("[data-bind='roem']").forEach(function (e) {
      e.textContent = st.roem[+e.getAttribute("data-team")];
    });
    this.renderPoints(null);
    this.renderTricks();
    this.renderVerdict();
  };

  P.renderVerdict = function () {
    var v = this.verdict();
    var lines = [];
    if (v && v.pit !== null) { lines.push(["pit", this.teamName(v.pit) + ": " + this.S.pit]); }
    if (v && v.nat) { lines.push(["nat", this.teamName(v.makers) + ": " + this.S.nat]); }
    if (v && !v.nat) { lines.push(["made", this.teamName(v.makers) + ": " + this.S.made]); }
    this.drawVerdict(lines);
  };

  window.KlaverjasEntry = KlaverjasEntry;
})();
