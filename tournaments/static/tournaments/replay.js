/* Stepping through a hand record (templates/hand_records/_replay.html) without reloading
   the page: a step link ([data-step]) fetches the same page at that step and swaps in its
   #replay section; the arrow keys step back and forth. Without JavaScript the links load
   the page at that step, so everything works by touch either way. */
(function () {
  "use strict";
  var busy = false;
  var pending = null; /* the step asked for while another was loading: the latest wins */

  /* An SVG link's href is an SVGAnimatedString, not a string: resolve the attribute. */
  function target(link) {
    return new URL(link.getAttribute("href"), window.location.href).href;
  }

  function swap(url, push) {
    if (busy) { pending = { url: url, push: push }; return; }
    busy = true;
    fetch(url, { credentials: "same-origin", headers: { "X-Requested-With": "replay" } })
      .then(function (response) {
        if (!response.ok) { throw new Error(String(response.status)); }
        return response.text();
      })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("replay");
        var old = document.getElementById("replay");
        if (!fresh || !old) { window.location.href = url; return; }
        old.replaceWith(fresh);
        if (push) { history.pushState({ replay: url }, "", url); }
        var next = fresh.querySelector(".replay-nav a[rel='next']") || fresh.querySelector(".replay-nav a");
        if (next && document.activeElement === document.body) { next.focus({ preventScroll: true }); }
      })
      .catch(function () { window.location.href = url; })
      .finally(function () {
        busy = false;
        if (pending) { var next = pending; pending = null; swap(next.url, next.push); }
      });
  }

  document.addEventListener("click", function (ev) {
    var link = ev.target.closest("#replay a[data-step]");
    if (!link || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) { return; }
    ev.preventDefault();
    swap(target(link), true);
  });

  document.addEventListener("keydown", function (ev) {
    if (ev.target.closest("input, textarea, select")) { return; }
    var rel = ev.key === "ArrowRight" ? "next" : ev.key === "ArrowLeft" ? "prev" : null;
    var link = rel && document.querySelector("#replay .replay-nav a[rel='" + rel + "']");
    if (link) { ev.preventDefault(); swap(target(link), true); }
  });

  window.addEventListener("popstate", function () { swap(window.location.href, false); });

  /* "What if": a tap on a card's value asks the API for the perfect line after that card
     (GET .../line/?after=<step>&card=<card>) and shows it under the cards. */
  var SUITS = { C: "\u2663", S: "\u2660", H: "\u2665", D: "\u2666" };

  /* A card in the page's rank letters (data-rank-labels, the server's rank_labels:
     German B D K A, Dutch B V H A, French V D R A, English J Q K A; "10" for a Ten). */
  function cardText(text, section) {
    var labels = JSON.parse(section.dataset.rankLabels || "{}");
    return (labels[text[0]] || (text[0] === "T" ? "10" : text[0])) + SUITS[text[1]];
  }

  function showLine(box, section, body) {
    box.textContent = "";
    var head = document.createElement("p");
    var strong = document.createElement("strong");
    strong.textContent = section.dataset.labelWhatIf + " " + cardText(body.card, section) + " (" +
      (body.cost ? "\u2212" + body.cost : "0") + "):";
    head.appendChild(strong);
    box.appendChild(head);
    var list = document.createElement("ol");
    list.className = "perfect-line";
    var item = null;
    var trick = null;
    body.line.forEach(function (step) {
      if (step.trick !== trick) {
        trick = step.trick;
        item = document.createElement("li");
        item.textContent = section.dataset.labelTrick + " " + trick + ": ";
        list.appendChild(item);
      }
      var card = document.createElement("span");
      card.className = "line-card";
      card.textContent = (step.seat + 1) + "\u00a0" + cardText(step.card, section) + " ";
      item.appendChild(card);
    });
    box.appendChild(list);
    box.hidden = false;
  }

  function whatIf(chip) {
    var section = chip.closest("#replay");
    var box = section.querySelector(".what-if");
    var url = section.dataset.lineUrl + "?after=" + section.dataset.step + "&card=" + chip.dataset.card;
    var headers = { Accept: "application/json" };
    if (section.dataset.device) { headers.Authorization = "Device " + section.dataset.device; }
    fetch(url, { credentials: "same-origin", headers: headers })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (body) {
        if (body) {
          section.querySelectorAll(".card-value.is-asked").forEach(function (c) { c.classList.remove("is-asked"); });
          chip.classList.add("is-asked");
          showLine(box, section, body);
        }
      });
  }

  document.addEventListener("click", function (ev) {
    var chip = ev.target.closest("#replay .card-value[data-card]");
    if (chip) { whatIf(chip); }
  });

  document.addEventListener("keydown", function (ev) {
    var chip = ev.target.closest && ev.target.closest("#replay .card-value[data-card]");
    if (chip && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); whatIf(chip); }
  });

  /* The chips are buttons only where this script runs. */
  function arm() {
    document.querySelectorAll("#replay .card-value[data-card]").forEach(function (chip) {
      chip.setAttribute("role", "button");
      chip.setAttribute("tabindex", "0");
    });
  }
  arm();
  new MutationObserver(arm).observe(document.body, { childList: true, subtree: true });
})();
