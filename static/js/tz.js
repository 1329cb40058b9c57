// Tell the portal the browser's time zone, so dates show in the learner's own zone
// (a zone chosen on the profile wins). A cookie, read on the next request.
(function () {
  "use strict";
  var zone;
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (e) { return; }
  if (!zone || !/^[A-Za-z0-9_+\-\/]{1,64}$/.test(zone)) return;
  var current = document.cookie.match(/(?:^|; )tz=([^;]*)/);
  if (current && current[1] === zone) return;
  var secure = location.protocol === "https:" ? "; Secure" : "";
  // Written as is: the pattern above allows only cookie-safe characters, and the server
  // reads the zone by name (an encoded "Asia%2FTokyo" used to fall back to UTC).
  document.cookie = "tz=" + zone + "; Path=/; Max-Age=31536000; SameSite=Lax" + secure;
})();
