// What a learner typed in the last moments before leaving the page is kept as a draft.
// htmx saves a draft 800 ms after typing stops; a click on a link, another form sent
// (the language switch) or the page going away in that gap would lose the last words.
// Those fields are sent at once, in a request the browser keeps going as the page goes
// (the form's CSRF and submission token lines included), before the navigation's own
// request. Another form
// sent (the language switch, logging out) waits for them instead, a second at most: the
// switch reloads the same question, whose box came back empty when its draft, sent
// beside it, was stored after the page was read; a reload finds them in this tab.
(function () {
  "use strict";

  var unsaved = new Set();

  function draftField(target) {
    return target && target.matches && target.matches("form.answer-form [data-hx-post]");
  }

  // A field's draft sent now, kept going by the browser if the page goes meanwhile:
  // a keepalive fetch (its promise settles once the server has it), else a beacon.
  function send(field) {
    var url = field.getAttribute("data-hx-post");
    var body = new FormData(field.form);
    if (window.fetch) {
      return fetch(url, { method: "POST", body: body, credentials: "same-origin", keepalive: true })
        .catch(function () { /* kept if the server took it */ });
    }
    if (navigator.sendBeacon) navigator.sendBeacon(url, body);
    return Promise.resolve();
  }

  // Every unsaved field's draft sent now, but those of the form `except` (being sent).
  function flush(except) {
    var sent = [];
    unsaved.forEach(function (field) {
      if (field.form && field.form !== except) sent.push(send(field));
    });
    unsaved.clear();
    return sent;
  }

  // Options picked and not sent have no draft on the server: the forms they are in are
  // kept below for a reload or the language switch, which would show them unticked.
  var picked = new Set();
  function pickField(target) {
    return target && target.matches && target.matches("form.answer-form input[name=choice]");
  }

  document.addEventListener("input", function (event) {
    if (draftField(event.target)) unsaved.add(event.target);
  });
  document.addEventListener("change", function (event) {
    if (pickField(event.target)) picked.add(event.target.form);
  });
  // Saved by htmx, or sent as the answer itself: nothing left to keep.
  document.addEventListener("htmx:beforeRequest", function (event) {
    unsaved.forEach(function (field) {
      if (field === event.detail.elt || field.form === event.detail.elt) unsaved.delete(field);
    });
    picked.delete(event.detail.elt);
  });

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
    var saves = flush(form);
    var waited = new Promise(function (resolve) { setTimeout(resolve, 1000); });
    Promise.race([Promise.all(saves), waited]).then(function () {
      form.requestSubmit(event.submitter || undefined);
    });
  }, true);
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[href]");
    if (link && !link.hasAttribute("data-hx-get")) flush(null);
  }, true);
  // A reload (F5) asks for the page before that draft is stored: the box came back
  // empty, its words stored a moment later, and the learner would type them again. They
  // are kept for this tab (sessionStorage) as the page goes and put back once, into the
  // same box, when the same page loads within seconds; any other page drops them, so a
  // later visit cannot put old words over a draft typed since in another tab. Options
  // picked and not sent are kept the same way (the language switch reloads the page).
  var keptKey = "kept-drafts";
  function here() { return location.pathname + location.search; }  // htmx may replace it
  function keepForReload() {
    var values = {};
    var picks = {};
    unsaved.forEach(function (field) { if (field.id) values[field.id] = field.value; });
    picked.forEach(function (form) {
      if (!document.contains(form)) return;  // answered: its feedback replaced it
      form.querySelectorAll("input[name=choice]").forEach(function (box) {
        if (box.id) picks[box.id] = box.checked;
      });
    });
    if (!Object.keys(values).length && !Object.keys(picks).length) return;
    try {
      sessionStorage.setItem(keptKey, JSON.stringify({ page: here(), at: Date.now(), values: values, picks: picks }));
    } catch (e) { /* storage refused: the request sent as the page goes still keeps them */ }
  }
  window.addEventListener("pagehide", function () { keepForReload(); flush(null); });
  window.addEventListener("pageshow", function (event) {  // back from the cache: another page
    if (event.persisted) try { sessionStorage.removeItem(keptKey); } catch (e) { /* none */ }
  });
  document.addEventListener("DOMContentLoaded", function () {
    var kept;
    try {
      kept = JSON.parse(sessionStorage.getItem(keptKey) || "null");
      sessionStorage.removeItem(keptKey);
    } catch (e) { return; }
    if (!kept || kept.page !== here() || !(Date.now() - kept.at < 10000)) return;
    Object.keys(kept.values || {}).forEach(function (id) {
      var field = document.getElementById(id);
      if (!draftField(field) || field.value === kept.values[id]) return;
      field.value = kept.values[id];
      // Tracked as typed words are: sent again if the learner leaves at once.
      field.dispatchEvent(new Event("input", { bubbles: true }));
    });
    Object.keys(kept.picks || {}).forEach(function (id) {
      var box = document.getElementById(id);
      if (!pickField(box) || box.checked === kept.picks[id]) return;
      box.checked = kept.picks[id];
      picked.add(box.form);  // kept again if the learner leaves at once
    });
  });
})();
