// The language switch returns to this very place on the page: the address as it is now
// (htmx may have replaced it since the page came: an answer on the reviews page names
// its feedback) and its #fragment (the question a learner was on), which a browser never
// sends, become the form's `next`. Without JavaScript the switch returns to the page's top.
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.hasAttribute("data-keep-fragment")) return;
    var next = form.querySelector("input[name=next]");
    // The place now, not one a switch added before this page came back from the
    // back-forward cache.
    if (next) next.value = location.pathname + location.search + location.hash;
  });
})();
