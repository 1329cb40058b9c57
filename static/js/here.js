// The language switch returns to this very place on the page: the address's #fragment
// (the question a learner was on), which a browser never sends, is added to the
// form's `next`. Without JavaScript the switch returns to the page's top.
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.hasAttribute("data-keep-fragment")) return;
    var next = form.querySelector("input[name=next]");
    // The place now, not one a switch added before this page came back from the
    // back-forward cache.
    if (next) next.value = next.value.split("#")[0] + location.hash;
  });
})();
