/* Projector: show seating and standings in turn, full screen; the standings refresh
   themselves through htmx, the seating reloads with the page every few minutes. */
(function () {
  "use strict";
  var slides = Array.prototype.slice.call(document.querySelectorAll(".proj-slide"));
  var dots = document.querySelectorAll(".proj-dots i");
  var label = document.getElementById("proj-label");
  var index = -1;
  var params = new URLSearchParams(location.search);
  var seconds = Math.max(5, +(params.get("seconds") || 15));
  function show() {
    index = (index + 1) % slides.length;
    slides.forEach(function (s, i) { s.classList.toggle("is-active", i === index); });
    Array.prototype.forEach.call(dots, function (d, i) { d.classList.toggle("on", i === index); });
    label.textContent = slides[index].getAttribute("data-label");
  }
  show();
  setInterval(show, seconds * 1000);
  setTimeout(function () { location.reload(); }, 5 * 60 * 1000);
  document.addEventListener("dblclick", function () {
    if (document.fullscreenElement) { document.exitFullscreen(); }
    else if (document.documentElement.requestFullscreen) { document.documentElement.requestFullscreen(); }
  });
})();
