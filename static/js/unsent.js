// An answer whose reply never came (the network dropped, the browser went offline, a
// proxy answered 5xx while the server restarted) left its card as it was, without a
// word: htmx swaps nothing then, so the learner could take the answer for sent. The form
// now says so, the answer still in it. Sent again, the form's token is the same: an
// answer the portal did store shows its feedback and is not stored twice.
(function () {
  "use strict";

  function answerForm(event) {
    var form = event.detail && event.detail.elt;
    return form && form.matches && form.matches("form.answer-form") ? form : null;
  }

  function failed(event) {
    var form = answerForm(event);
    var text = document.body.getAttribute("data-send-failed");
    if (!form || !text) return;
    var message = form.querySelector("p.send-failed");
    if (!message) {
      message = document.createElement("p");
      message.className = "error send-failed";
      message.setAttribute("role", "alert");
      message.textContent = text;
      var first = form.querySelector("p.error, label, fieldset");
      form.insertBefore(message, first);
    }
  }

  document.body.addEventListener("htmx:sendError", failed);
  document.body.addEventListener("htmx:responseError", failed);
  // A new send clears what the last one was told: this script's message, and a refusal
  // the portal put above the card's body (a 413: the text too large to read stays in
  // its box), which a second refusal would otherwise stack above the first.
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var form = answerForm(event);
    if (!form) return;
    var message = form.querySelector("p.send-failed");
    if (message) message.remove();
    var body = form.closest(".question-body");
    var above = body && body.previousElementSibling;
    while (above && above.matches("div.problem")) {
      var told = above;
      above = above.previousElementSibling;
      told.remove();
    }
  });
})();
