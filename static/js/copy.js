/* A "Copy" button beside a read-only address (the season set-up page's join links).
   Without this file the address is still there, read-only and selectable: the
   button stays hidden. With it, the button copies the address and says "Copied";
   tapping the address selects all of it. Served from the site under the strict
   Content-Security-Policy (script-src 'self'): no inline script. */
(function () {
  "use strict";

  function said(button, text) {
    var state = document.getElementById(button.getAttribute("aria-describedby"));
    if (state) state.textContent = text;
  }

  function fallback(input) {
    input.focus();
    input.select();
    try {
      return document.execCommand("copy");
    } catch (error) {
      return false;
    }
  }

  function ready(button) {
    var input = document.getElementById(button.dataset.copy);
    if (!input) return;
    button.hidden = false;
    input.addEventListener("focus", function () { input.select(); });
    button.addEventListener("click", function () {
      var done = function () { said(button, "Copied"); };
      var failed = function () {
        said(button, fallback(input) ? "Copied" : "Selected: copy it with your device's menu");
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(input.value).then(done, failed);
      } else {
        failed();
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("button[data-copy]"), ready);
  });
})();
