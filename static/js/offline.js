/* Offline-tolerant pages, with the service worker (/sw.js) and the
   outbox (static/js/outbox.js, loaded before this file). The pages work without it.
   - Registers the service worker, which keeps the pages a coach visited.
   - A saved copy served without a signal says so: "Saved <time>; you are offline".
   - A result form sent without a signal (it carries an idempotency_key) is kept in
     the outbox and listed as "waiting to send"; it goes when the signal returns
     (the "online" event, the next page load, Background Sync where available), and
     the server accepts it once.
   - Another account on the phone, or a log-out: what was kept is forgotten. */
(function () {
  "use strict";

  var outbox = window.LeagueOutbox;
  var script = document.currentScript;
  var main = document.querySelector("main");
  var mark = document.querySelector('meta[name="league-user"]');
  var user = mark ? mark.content : "";
  var KEY = "idempotency_key";
  var SYNC_TAG = "league-outbox";
  if (!outbox || !main || !window.indexedDB || !window.caches) { return; }

  function when(iso) {
    var at = new Date(iso);
    return isNaN(at) ? "earlier" : at.toLocaleString([], { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
  }

  function note(text, kind, link) {
    var line = document.createElement("p");
    line.className = "offline-note" + (kind ? " " + kind : "");
    line.setAttribute("role", "status");
    line.textContent = text;
    if (link) {
      var a = document.createElement("a");
      a.href = link;
      a.textContent = "Open the page";
      line.appendChild(document.createTextNode(" "));
      line.appendChild(a);
    }
    main.insertBefore(line, main.firstChild);
    return line;
  }

  function showOutbox() {
    return outbox.all().then(function (items) {
      var old = document.getElementById("offline-outbox");
      if (old) { old.remove(); }
      items = items.filter(function (item) { return item.user === user; });
      if (!items.length) { return; }
      var box = document.createElement("section");
      box.id = "offline-outbox";
      box.className = "card offline-outbox";
      var title = document.createElement("h2");
      title.textContent = "Kept on this phone";
      box.appendChild(title);
      var list = document.createElement("ul");
      items.forEach(function (item) {
        var line = document.createElement("li");
        line.textContent = item.label + ": waiting to send (kept " + when(item.kept) + ")";
        list.appendChild(line);
      });
      box.appendChild(list);
      var notes = main.querySelectorAll(".offline-note");
      main.insertBefore(box, notes.length ? notes[notes.length - 1].nextSibling : main.firstChild);
    });
  }

  function answered(answers) {
    (answers || []).forEach(function (answer) {
      if (answer.sent) { note("Sent: " + answer.item.label + ".", "sent", answer.item.page); }
      else if (answer.status === 401) { note("Not sent: " + answer.item.label + ". Log in again and send it from the page.", "refused", answer.item.page); }
      else { note("Not accepted: " + answer.item.label + ". The page says why.", "refused", answer.item.page); }
    });
    return showOutbox();
  }

  function sendKept() {
    if (!navigator.onLine) { return Promise.resolve(); }
    return outbox.sendAll().then(answered, function () { return null; });
  }

  /* A saved copy shown again with a signal: its forms get the current CSRF token. */
  function freshTokens() {
    return fetch(location.href, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      return response.text();
    }).then(function (html) {
      var found = html.match(/name="csrfmiddlewaretoken" value="([^"]+)"/);
      if (!found) { return; }
      document.querySelectorAll('input[name="csrfmiddlewaretoken"]').forEach(function (input) { input.value = found[1]; });
    }).catch(function () { return null; });
  }

  function labelOf(form, submitter) {
    var button = submitter || form.querySelector("button[type=submit], button:not([type])");
    var what = button ? button.textContent.trim() : "Form";
    var page = document.title.split(" · ")[0];
    return what + (page ? " (" + page + ")" : "");
  }

  /* Without a signal, a result form is kept instead of lost. */
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var key = form.querySelector('input[name="' + KEY + '"]');
    if (!key || navigator.onLine || event.defaultPrevented) { return; }
    event.preventDefault();
    var data;
    try { data = new FormData(form, event.submitter); } catch (error) { data = new FormData(form); }
    outbox.keep({
      id: key.value, action: form.action, page: location.href.split("#")[0],
      body: new URLSearchParams(data).toString(), label: labelOf(form, event.submitter),
      user: user, kept: new Date().toISOString()
    }).then(function () {
      note("No signal: kept on this phone, waiting to send. It goes as soon as the signal returns.", "waiting");
      return showOutbox();
    }).then(function () {
      if (navigator.serviceWorker && navigator.serviceWorker.controller) {
        return navigator.serviceWorker.ready.then(function (registration) {
          return registration.sync ? registration.sync.register(SYNC_TAG) : null;
        });
      }
      return null;
    }).catch(function () { return null; });
  });

  var saved = document.documentElement.getAttribute("data-offline-saved");
  if (saved) { note("Saved " + when(saved) + "; you are offline.", "saved"); }

  window.addEventListener("online", function () {
    if (saved) { freshTokens(); }
    sendKept();
  });

  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.type === "outbox-answered") { answered(event.data.answers); }
    });
  }

  /* Whose page this is: another account than last time (or none) forgets what was
     kept for the previous one, here and in the worker. */
  var known = localStorage.getItem("league-user");
  var forgetting = Promise.resolve();
  if (known !== null && known !== user) {
    forgetting = outbox.forget(user);
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({ type: "forget", user: user });
    }
  }
  localStorage.setItem("league-user", user);
  forgetting.then(showOutbox).then(sendKept).catch(function () { return null; });

  if (navigator.serviceWorker && script && script.dataset.worker) {
    navigator.serviceWorker.register(script.dataset.worker, { scope: "/" }).catch(function () { return null; });
  }
}());
