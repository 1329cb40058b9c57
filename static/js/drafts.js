// What a learner typed in the last moments before leaving the page is kept as a draft.
// htmx saves a draft 800 ms after typing stops; a click on a link, another form sent
// (the language switch) or the page going away in that gap would lose the last words.
// Those fields are sent at once with navigator.sendBeacon (the form's CSRF and
// submission token lines included), before the navigation's own request. Another form
// sent (the language switch, logging out) waits for them instead, a second at most: the
// switch reloads the same question, whose box came back empty when its draft, sent
// beside it, was stored after the page was read.
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

  function stored(field) {
    return fetch(field.getAttribute("data-hx-post"), {
      method: "POST", body: new FormData(field.form), credentials: "same-origin", keepalive: true
    }).catch(function () { /* as a beacon's: kept if the server takes it */ });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    unsaved.forEach(function (field) { if (field.form === form) unsaved.delete(field); });
    // An answer form or any form htmx sends stays on the page: nothing to wait for.
    var staysHere = form.matches("form.answer-form, [data-hx-post], [hx-post]");
    if (!unsaved.size || staysHere || !window.fetch || !form.requestSubmit) {
      flush(form);
      return;
    }
    event.preventDefault();
    var saves = Array.from(unsaved).filter(function (field) { return field.form; }).map(stored);
    unsaved.clear();
    var waited = new Promise(function (resolve) { setTimeout(resolve, 1000); });
    Promise.race([Promise.all(saves), waited]).then(function () {
      form.requestSubmit(event.submitter || undefined);
    });
  }, true);
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[href]");
    if (link && !link.hasAttribute("data-hx-get")) flush(null);
  }, true);
  window.addEventListener("pagehide", function () { flush(null); });
})();
