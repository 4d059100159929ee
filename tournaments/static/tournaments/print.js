/* Print buttons ([data-action=print]) of the printable console pages. */
document.addEventListener("click", function (ev) {
  if (ev.target.closest("[data-action='print']")) { window.print(); }
});
