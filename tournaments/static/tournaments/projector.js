/* Projector: show seating and standings in turn, full screen. Standings longer than the
   screen are shown page by page (as many rows as fit), each page for the same time, with
   "page 1/2" in the label and one dot per slide. The standings refresh themselves through
   htmx (the current page is kept); the seating reloads with the page every few minutes.
   ?seconds=N sets the time per slide (at least 3). */
(function () {
  "use strict";
  var seating = document.querySelector(".proj-slide[data-slide='seating']");
  var standing = document.querySelector(".proj-slide[data-slide='standings']");
  // seating (not of a finished tournament), standings, then any further slide (the bracket)
  var slides = [seating, standing].filter(Boolean).concat(Array.prototype.filter.call(
    document.querySelectorAll(".proj-slide"), function (s) { return s !== seating && s !== standing; }));
  var S = slides.indexOf(standing);  // the standings' place among the slides
  var dotsBox = document.querySelector(".proj-dots");
  var label = document.getElementById("proj-label");
  var params = new URLSearchParams(location.search);
  var seconds = Math.max(3, +(params.get("seconds") || 15));
  var step = { slide: -1, page: 0, pages: 1 };

  function rows() {
    return Array.prototype.slice.call(standing.querySelectorAll("#standings tbody tr"));
  }

  /* Split the rows into pages: each page holds the rows that fit between the table's
     first row and the bottom of the screen (less what the slide shows below the table),
     measured row by row with every row shown, so a taller row (a wrapped name) counts as
     what it is. Returns the index of each page's first row. */
  function pageStarts() {
    var all = rows();
    if (!all.length) { return [0]; }
    all.forEach(function (r) { r.classList.remove("is-off-page"); });
    var top = all[0].getBoundingClientRect().top;
    var reserve = standing.getBoundingClientRect().bottom - all[all.length - 1].getBoundingClientRect().bottom;
    var free = window.innerHeight - top - Math.max(reserve, 0) - 8;
    var starts = [0];
    var used = 0;
    all.forEach(function (r, i) {
      var height = r.getBoundingClientRect().height;
      if (used > 0 && used + height > free) { starts.push(i); used = 0; }
      used += height;
    });
    return starts;
  }

  function showPage() {
    var all = rows();
    var starts = pageStarts();
    step.pages = starts.length;
    step.page = Math.min(step.page, step.pages - 1);
    var first = starts[step.page];
    var end = step.page + 1 < starts.length ? starts[step.page + 1] : all.length;
    all.forEach(function (r, i) { r.classList.toggle("is-off-page", i < first || i >= end); });
    standing.setAttribute("data-page", String(step.page + 1));
    standing.setAttribute("data-pages", String(step.pages));
  }

  function labelText() {
    var slide = slides[step.slide];
    var text = slide.getAttribute("data-label");
    if (slide === standing && step.pages > 1) {
      text += " · " + slide.getAttribute("data-page-label") + " " + (step.page + 1) + "/" + step.pages;
    }
    return text;
  }

  function drawDots() {
    var count = slides.length - 1 + step.pages;
    var current = step.slide < S ? step.slide : step.slide === S ? S + step.page : step.slide - 1 + step.pages;
    dotsBox.innerHTML = "";
    for (var i = 0; i < count; i++) {
      var dot = document.createElement("i");
      if (i === current) { dot.className = "on"; }
      dotsBox.appendChild(dot);
    }
  }

  // The rows per page are measured with the page laid out as it will be shown: the slide
  // active, its label in place (a longer label can wrap the heading), the fonts loaded.
  function render() {
    slides.forEach(function (s, i) { s.classList.toggle("is-active", i === step.slide); });
    label.textContent = labelText();
    // The label names the page count, and a longer label can wrap the heading and move
    // the table down: measure again until the label no longer changes.
    for (var tries = 0; step.slide === S && tries < 4; tries++) {
      showPage();
      var text = labelText();
      if (text === label.textContent) { break; }
      label.textContent = text;
    }
    drawDots();
  }

  function measureAgain() {
    if (step.slide === S) { render(); }
  }

  function next() {
    if (step.slide === S && step.page + 1 < step.pages) {
      step.page += 1;
    } else {
      step.slide = (step.slide + 1) % slides.length;
      step.page = 0;
    }
    render();
  }

  next();
  setInterval(next, seconds * 1000);
  // The polled standings replace the table: page the new rows in the same task as the swap
  // (before the browser paints them all), and again once htmx has settled them.
  document.body.addEventListener("htmx:afterSwap", measureAgain);
  document.body.addEventListener("htmx:afterSettle", measureAgain);
  window.addEventListener("resize", measureAgain);
  window.addEventListener("load", measureAgain);
  if (document.fonts && document.fonts.ready) { document.fonts.ready.then(measureAgain); }
  setTimeout(function () { location.reload(); }, 5 * 60 * 1000);
  document.addEventListener("dblclick", function () {
    if (document.fullscreenElement) { document.exitFullscreen(); }
    else if (document.documentElement.requestFullscreen) { document.documentElement.requestFullscreen(); }
  });
})();
