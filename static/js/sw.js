/* The service worker, served at /sw.js by league/web/offline.py so that it
   looks after the whole site.
   - Pages: network first; the last copy of each page is kept, per user, and served
     when there is no signal, marked with when it was saved (static/js/offline.js
     shows "Saved <time>; you are offline"). Never kept: anything but a page (GET,
     same site, HTML, 200), the admin, the account pages, a POST's answer.
   - Static files: cache first (their names change with their content in production).
   - Result forms sent without a signal wait in the outbox (static/js/outbox.js) and
     go when it returns: Background Sync where the browser has it, otherwise from the
     page (offline.js, on "online" and on the next page load). */
/* global LeagueOutbox */
importScripts("__OUTBOX_SCRIPT__");

var OUTBOX_SCRIPT = new URL("__OUTBOX_SCRIPT__", self.location).pathname;
var STATIC_PREFIX = OUTBOX_SCRIPT.slice(0, OUTBOX_SCRIPT.indexOf("js/"));
var STATIC_CACHE = "league-static-v1";
var USER_KEY = "/__offline/user";
var USER_MARK = /<meta name="league-user" content="([^"]*)">/;
var NOT_KEPT = /^\/(admin|accounts)\//;
var SYNC_TAG = "league-outbox";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

function knownUser() {
  return caches.open(LeagueOutbox.META).then(function (cache) { return cache.match(USER_KEY); })
    .then(function (found) { return found ? found.text() : null; });
}

function rememberUser(user) {
  return caches.open(LeagueOutbox.META).then(function (cache) { return cache.put(USER_KEY, new Response(user)); });
}

/* Keep a page for the user it was made for; a page for someone else first forgets
   what was kept for the previous user. */
function keepPage(url, response) {
  var headers = new Headers(response.headers);
  headers.set("X-Offline-Saved", new Date().toISOString());
  return response.text().then(function (html) {
    var found = html.match(USER_MARK);
    var user = found ? found[1] : "";
    return knownUser().then(function (known) {
      return known !== null && known !== user ? LeagueOutbox.forget(user) : null;
    }).then(function () { return rememberUser(user); }).then(function () {
      return caches.open(LeagueOutbox.PAGES + user);
    }).then(function (cache) {
      return cache.put(url, new Response(html, { status: 200, statusText: "OK", headers: headers }));
    });
  });
}

function savedPage(url) {
  return knownUser().then(function (user) {
    return user === null ? null : caches.open(LeagueOutbox.PAGES + user).then(function (cache) { return cache.match(url); });
  }).then(function (saved) {
    if (!saved) { return null; }
    var at = saved.headers.get("X-Offline-Saved") || "";
    return saved.text().then(function (html) {
      return new Response(html.replace("<html ", '<html data-offline-saved="' + at + '" '), { status: 200, headers: saved.headers });
    });
  });
}

function notSaved() {
  var page = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">" +
    "<title>Offline · League Manager</title></head><body><main><h1>You are offline</h1>" +
    "<p>This page was not saved on this phone: open it again when you have a signal.</p>" +
    "<p><a href=\"/me/\">Your fixtures</a> (if you opened them before)</p></main></body></html>";
  return new Response(page, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

function isPage(response) {
  return response.ok && response.type === "basic" &&
    /text\/html/.test(response.headers.get("Content-Type") || "") &&
    !/no-store/.test(response.headers.get("Cache-Control") || "");
}

function networkFirst(event) {
  var url = event.request.url.split("#")[0];
  return fetch(event.request).then(function (response) {
    if (isPage(response)) { event.waitUntil(keepPage(url, response.clone())); }
    return response;
  }, function () {
    return savedPage(url).then(function (saved) { return saved || notSaved(); });
  });
}

function cacheFirst(request) {
  return caches.open(STATIC_CACHE).then(function (cache) {
    return cache.match(request).then(function (found) {
      return found || fetch(request).then(function (response) {
        if (response.ok) { cache.put(request, response.clone()); }
        return response;
      });
    });
  });
}

/* A result form posted while the phone believes it has a signal but has none: kept
   in the outbox, and the coach is sent back to the page (its saved copy), which
   lists it as waiting to send. */
function postOrKeep(event) {
  var copy = event.request.clone();
  return fetch(event.request).catch(function () {
    return copy.text().then(function (body) {
      var form = new URLSearchParams(body);
      var key = form.get("idempotency_key");
      var page = event.request.referrer || "/me/";
      if (!key) { return Response.error(); }
      return knownUser().then(function (user) {
        return LeagueOutbox.keep({ id: key, action: event.request.url, page: page, body: body, label: "A form you sent without a signal",
                                   user: user || "", kept: new Date().toISOString() });
      }).then(function () {
        if (self.registration.sync) { self.registration.sync.register(SYNC_TAG).catch(function () {}); }
        return Response.redirect(page, 303);
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.method === "POST") {
    if (request.mode === "navigate" && !NOT_KEPT.test(url.pathname)) { event.respondWith(postOrKeep(event)); }
    return;
  }
  if (request.method !== "GET") { return; }
  if (url.pathname.indexOf(STATIC_PREFIX) === 0) { event.respondWith(cacheFirst(request)); return; }
  if (request.mode === "navigate" && !NOT_KEPT.test(url.pathname)) { event.respondWith(networkFirst(event)); }
});

function tellPages(answers) {
  return self.clients.matchAll().then(function (pages) {
    pages.forEach(function (page) { page.postMessage({ type: "outbox-answered", answers: answers }); });
  });
}

self.addEventListener("sync", function (event) {
  if (event.tag === SYNC_TAG) { event.waitUntil(LeagueOutbox.sendAll().then(tellPages)); }
});

self.addEventListener("message", function (event) {
  if (event.data && event.data.type === "forget") { event.waitUntil(LeagueOutbox.forget(event.data.user || "")); }
});
