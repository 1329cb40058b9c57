// Tell the portal the browser's time zone, so dates show in the learner's own zone
// (a zone chosen on the profile wins). A cookie, read on the next request.
(function () {
  "use strict";
  var zone;
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (e) { return; }
  if (!zone || !/^[A-Za-z0-9_+\-\/]{1,64}$/.test(zone)) return;
  var current = document.cookie.match(/(?:^|; )tz=([^;]*)/);
  if (current && decodeURIComponent(current[1]) === zone) return;
  var secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = "tz=" + encodeURIComponent(zone) + "; Path=/; Max-Age=31536000; SameSite=Lax" + secure;
})();
