// The language switch returns to this very place on the page: the address's #fragment
// (the question a learner was on), which a browser never sends, is added to the
// form's `next`. Without JavaScript the switch returns to the page's top.
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.hasAttribute("data-keep-fragment") || !location.hash) return;
    var next = form.querySelector("input[name=next]");
    if (next && next.value.indexOf("#") === -1) next.value += location.hash;
  });
})();
