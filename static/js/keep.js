// The language switch reloads the page in the other language: what was typed in an
// account form (setup, invite, password change) would be lost. Its text fields are kept
// for this tab (sessionStorage) across the switch and put back once; passwords never are.
(function () {
  "use strict";

  var key = "kept-fields:" + location.pathname;

  function keptFields(form) {
    return Array.prototype.filter.call(form.elements, function (field) {
      return field.name && field.tagName === "INPUT" &&
        ["text", "email", "search", "url"].indexOf(field.type) >= 0;
    });
  }

  document.addEventListener("submit", function (event) {
    if (!event.target.matches("form.language-form")) return;
    var values = {};
    document.querySelectorAll("form.account-form").forEach(function (form) {
      keptFields(form).forEach(function (field) {
        if (field.value) values[field.name] = field.value;
      });
    });
    try {
      if (Object.keys(values).length) sessionStorage.setItem(key, JSON.stringify(values));
    } catch (e) { /* storage refused: nothing kept, nothing broken */ }
  }, true);

  document.addEventListener("DOMContentLoaded", function () {
    var values;
    try {
      values = JSON.parse(sessionStorage.getItem(key) || "null");
      sessionStorage.removeItem(key);
    } catch (e) { return; }
    if (!values) return;
    document.querySelectorAll("form.account-form").forEach(function (form) {
      keptFields(form).forEach(function (field) {
        if (!field.value && values[field.name]) field.value = values[field.name];
      });
    });
  });
})();
