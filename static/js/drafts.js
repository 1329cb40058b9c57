// What a learner typed in the last moments before leaving the page is kept as a draft.
// htmx saves a draft 800 ms after typing stops; a click on a link, another form sent
// (the language switch) or the page going away in that gap would lose the last words.
// Those fields are sent at once with navigator.sendBeacon (the form's CSRF and
// submission token lines included), before the navigation's own request.
(function () {
  "use strict";

  var unsaved = new Set();

  function draftField(target) {
    return target && target.matches && target.matches("form.answer-form [data-hx-post]");
  }

  function flush(except) {
    unsaved.forEach(function (field) {
      var form = field.closest("form");
      if (!form || form === except || !navigator.sendBeacon) return;
      navigator.sendBeacon(field.getAttribute("data-hx-post"), new FormData(form));
    });
    unsaved.clear();
  }

  document.addEventListener("input", function (event) {
    if (draftField(event.target)) unsaved.add(event.target);
  });
  // Saved by htmx, or sent as the answer itself: nothing left to keep.
  document.addEventListener("htmx:beforeRequest", function (event) {
    unsaved.forEach(function (field) {
      if (field === event.detail.elt || field.form === event.detail.elt) unsaved.delete(field);
    });
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    unsaved.forEach(function (field) { if (field.form === form) unsaved.delete(field); });
    flush(form);
  }, true);
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[href]");
    if (link && !link.hasAttribute("data-hx-get")) flush(null);
  }, true);
  window.addEventListener("pagehide", function () { flush(null); });
})();
