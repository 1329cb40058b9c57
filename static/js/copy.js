// A "Copy" button next to a one-time link in the admin (the invite link shown after
// creating an invite). The page works without it: the link is plain text to select.
// Each slot is <span class="copy-slot" data-copy-text="…" data-copy-label="…"
// data-copied-label="…" data-copy-fallback="…">; the button is made here, so no button
// appears when scripts are off.
(function () {
  "use strict";

  function selectText(slot) {
    // Select the link itself (the text just before the slot), for Ctrl+C.
    var node = slot.previousSibling;
    var text = slot.getAttribute("data-copy-text");
    if (!node || node.nodeType !== Node.TEXT_NODE) return;
    var start = node.data.lastIndexOf(text);
    if (start < 0) return;
    var range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, start + text.length);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function setUp(slot) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "button copy-button";
    button.textContent = slot.getAttribute("data-copy-label");
    var status = document.createElement("span");
    status.className = "copy-status";
    status.setAttribute("role", "status");
    button.addEventListener("click", function () {
      var text = slot.getAttribute("data-copy-text");
      function fallback() {
        selectText(slot);
        status.textContent = slot.getAttribute("data-copy-fallback");
      }
      if (!navigator.clipboard || !window.isSecureContext) {
        fallback();
        return;
      }
      navigator.clipboard.writeText(text).then(function () {
        status.textContent = slot.getAttribute("data-copied-label");
      }, fallback);
    });
    slot.appendChild(button);
    slot.appendChild(status);
  }

  function init() {
    var slots = document.querySelectorAll(".copy-slot[data-copy-text]");
    for (var i = 0; i < slots.length; i++) setUp(slots[i]);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
