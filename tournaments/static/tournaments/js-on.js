/* Loaded in <head> before anything is drawn: marks the page as running JavaScript, so
   that notes for browsers without it (.nojs-banner) stay hidden. */
document.documentElement.classList.add("js");
