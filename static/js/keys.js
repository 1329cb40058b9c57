// Keyboard shortcuts on question pages (listed in the page's "Keyboard shortcuts" help):
// 1–9 pick an option of the current question, Enter sends it, Ctrl+Enter sends from a
// text box, N goes to the next question (the card's "Next question", or whatever link
// its feedback offers next, once answered; else the next card on the page, else the next
// page). Never while typing in a field. Space on a link drawn as a button ("Answer
// again", "Next question") follows it, as Space presses a button, instead of scrolling.
(function () {
  "use strict";

  // Space on a link styled as a button: the page does not scroll on the key's press, and
  // the link is followed on its release, as a button is (Enter, and the href without
  // JavaScript, stay the link's own).
  var spaceOn = null;
  document.addEventListener("keydown", function (event) {
    if (event.key !== " " || event.ctrlKey || event.metaKey || event.altKey) return;
    var link = event.target.closest ? event.target.closest("a.button[href]") : null;
    if (!link) return;
    event.preventDefault();
    if (!event.repeat) spaceOn = link;
  });
  document.addEventListener("keyup", function (event) {
    if (event.key !== " ") return;
    var link = spaceOn;
    spaceOn = null;
    if (link && link === document.activeElement) { event.preventDefault(); link.click(); }
  });

  function currentCard() {
    var active = document.activeElement;
    var card = active && active.closest ? active.closest("article.question") : null;
    if (card) return card;
    var cards = document.querySelectorAll("article.question");
    for (var i = 0; i < cards.length; i++) {
      var box = cards[i].getBoundingClientRect();
      if (box.bottom > 0 && cards[i].querySelector("form.answer-form")) return cards[i];
    }
    return null;
  }

  function typing(target) {
    var tag = target.tagName;
    return tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable ||
      (tag === "INPUT" && !/^(radio|checkbox|button|submit)$/.test(target.type));
  }

  // A link to a question ("Continue", "Next question", an index entry) lands on its
  // card: a free or numeric question's text box takes the focus there, so the learner
  // types at once (a choice question's card keeps it, for 1–9). With no link, the
  // reviews page's one card takes the focus itself, not its text box (a phone would
  // open its keyboard over the card): keys 1–9 work at once, one Tab reaches the box.
  function focusLinkedBox() {
    var only = document.querySelector("[data-focus-on-load] article.question");
    if (only && !location.hash && document.activeElement === document.body) only.focus();
    var card = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    if (!card || !card.matches("article.question")) return;
    var box = card.querySelector("form.answer-form [name=text]");
    if (box && document.activeElement !== box) box.focus();
  }
  // Once the page has loaded: the browser focuses the linked card itself then.
  window.addEventListener("load", function () { setTimeout(focusLinkedBox, 0); });
  window.addEventListener("hashchange", focusLinkedBox);

  // A card takes the focus by its text box if it has one, else itself (a choice
  // question's card keeps it, for 1–9).
  function focusCard(card) {
    var box = card.querySelector("form.answer-form [name=text]");
    (box || card).focus();
  }

  // "Next review" swaps the page's main part: the new card (or the day's summary), not
  // the page, takes the focus once the old card is gone (the header's badge, swapped out
  // of band, settles first). Nothing is left listening if the request fails. After N a
  // text box takes it, as N does on a phase page; after a click or Enter, the card, as on
  // arrival (a phone would open its keyboard over the question).
  function focusAfterSwap(oldCard, intoBox) {
    var body = document.body;
    function done() {
      body.removeEventListener("htmx:afterSettle", settled);
      body.removeEventListener("htmx:responseError", done);
      body.removeEventListener("htmx:sendError", done);
    }
    function settled() {
      if (body.contains(oldCard)) return;
      done();
      var card = document.querySelector("article.question");
      var summary = document.getElementById("review-summary-title");
      if (card && intoBox) focusCard(card); else if (card) card.focus();
      else if (summary) summary.focus();
    }
    body.addEventListener("htmx:afterSettle", settled);
    body.addEventListener("htmx:responseError", done);
    body.addEventListener("htmx:sendError", done);
  }

  // N: follow the card's next link ("Next question", "Continue", "Next review", "Back to
  // phases"). On this page, a free or numeric question's text
  // box takes the focus, so the learner can type at once (a choice question's card keeps
  // it, for 1–9).
  function goNext(card) {
    var next = card.querySelector("a[data-next]");
    if (!next) return;
    nextByKey = true; // for the click listener below, which puts the focus after a swap
    try { next.click(); } finally { nextByKey = false; }
    var href = next.getAttribute("href") || "";
    var target = href.charAt(0) === "#" ? document.getElementById(href.slice(1)) : null;
    var box = target && target.querySelector("form.answer-form [name=text]");
    if (box) box.focus();
  }

  // N on a question not answered yet, which has no "Next question": the next card on the
  // page (its text box takes the focus, else the card, for 1–9), else the next page.
  function skipAhead(card) {
    var cards = document.querySelectorAll("article.question");
    for (var i = 0; i < cards.length - 1; i++) {
      if (cards[i] !== card) continue;
      var following = cards[i + 1];
      if (location.hash !== "#" + following.id) location.hash = following.id;
      focusCard(following);
      return true;
    }
    var nextPage = document.querySelector("a[rel=next]");
    if (!nextPage) return false;
    nextPage.click();
    return true;
  }

  // "Next review" however followed (a click, Enter on the link, N): the focus goes to the
  // new card, not to the page's body with the link it was on swapped away.
  var nextByKey = false;
  document.addEventListener("click", function (event) {
    var next = event.target.closest ? event.target.closest("a[data-next][data-hx-get]") : null;
    var card = next ? next.closest("article.question") : null;
    if (card) focusAfterSwap(card, nextByKey);
  });

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && target.tagName === "TEXTAREA") {
      var form = target.closest("form");
      if (form) { event.preventDefault(); form.requestSubmit(); }
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey || typing(target)) return;
    var card = currentCard();
    if (!card) return;
    if (/^[1-9]$/.test(event.key)) {
      var inputs = card.querySelectorAll("form.answer-form input[name=choice]");
      var input = inputs[Number(event.key) - 1];
      if (input) {
        event.preventDefault();
        if (input.type === "radio") input.checked = true; else input.checked = !input.checked;
        input.focus();
      }
    } else if (event.key === "Enter" && target.closest && target.closest("form.answer-form")) {
      var answerForm = target.closest("form.answer-form");
      if (target.type === "checkbox" || target.type === "radio") {
        event.preventDefault();
        answerForm.requestSubmit();
      }
    } else if (event.key === "n" || event.key === "N") {
      if (!card.querySelector("a[data-next]")) {
        if (skipAhead(card)) event.preventDefault();
        return;
      }
      event.preventDefault();
      var body = card.querySelector(".question-body");
      if (body && body.matches(".htmx-swapping, .htmx-settling")) {
        // The feedback is still settling: htmx then focuses its heading, which would take
        // the focus back from the next question's text box. Go once it has settled.
        body.addEventListener("htmx:afterSettle", function () { goNext(card); }, { once: true });
      } else {
        goNext(card);
      }
    }
  });
})();
