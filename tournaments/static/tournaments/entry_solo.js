/* Score sheet of Klammern for 2 or 3 players: builds a summary record (spec/deal-record.md,
   "Other presets": who took the deal and with which trump, each player's points) or a
   thrown-in deal. Same interface as DealEntry (entry.js); its error display is the
   sheets' library's (sheet.js); tablet.js drives it. */
(function () {
  "use strict";

  function SoloEntry(form, config) {
    this.players = config.players || 3;
    window.Sheet.attach(this, form, config);
  }

  var P = SoloEntry.prototype;
  window.Sheet.share(SoloEntry);

  P.clear = function () {
    var points = [];
    for (var i = 0; i < this.players; i++) { points.push(null); }
    this.state = { dealer: 0, thrownIn: false, declarer: null, trump: null, points: points };
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
      case "trump": st.trump = value; break;
    }
    this.render();
  };

  P.input = function (ev) {
    var name = ev.target.getAttribute("name") || "";
    var match = /^points(\d)$/.exec(name);
    if (!match) { return; }
    var raw = ev.target.value.trim();
    this.dirty = true;
    this.state.points[+match[1]] = raw === "" ? null : parseInt(raw, 10);
  };

  P.build = function () {
    var st = this.state;
    var S = this.S;
    var errors = [];
    var record = { format: "klammern-deal/1", dealer: st.dealer };
    if (st.thrownIn) {
      record.contract = { kind: "thrown_in" };
      return { record: record, errors: errors };
    }
    if (st.declarer === null) { errors.push({ field: "contract.declarer", message: S.pickDeclarer }); }
    if (!st.trump) { errors.push({ field: "contract.trump", message: S.pickTrump }); }
    record.contract = { kind: "take", declarer: st.declarer, trump: st.trump };
    if (st.points.some(function (p) { return p === null || isNaN(p); })) {
      errors.push({ field: "card_points", message: S.pickPlayerPoints });
    }
    record.card_points = st.points.slice();
    return { record: record, errors: errors };
  };

  P.load = function (record, number) {
    this.clear();
    this.dirty = false;
    this.number = number;
    var st = this.state;
    var c = record.contract || {};
    st.dealer = record.dealer || 0;
    st.thrownIn = c.kind === "thrown_in";
    st.declarer = c.declarer === undefined ? null : c.declarer;
    st.trump = c.trump || null;
    if (record.card_points) { st.points = record.card_points.slice(); }
    this.render();
  };

  P.render = function () {
    var st = this.state;
    var form = this.form;
    form.classList.toggle("is-thrown-in", st.thrownIn);
    this.press({
      dealer: st.dealer, thrown: st.thrownIn ? "1" : null, declarer: st.declarer, trump: st.trump
    });
    this.renderHead();
    st.points.forEach(function (p, seat) {
      var input = form.querySelector("input[name='points" + seat + "']");
      if (input && document.activeElement !== input) { input.value = p === null || isNaN(p) ? "" : p; }
    });
  };

  window.SoloEntry = SoloEntry;
})();
