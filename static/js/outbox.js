/* The outbox: result forms a coach sent without a signal, kept on the
   phone until it returns. Shared by the page (static/js/offline.js) and the service
   worker (static/js/sw.js, which imports this file): IndexedDB "league-offline",
   store "outbox", one record per form, keyed by its idempotency_key, so the same
   form kept twice is one record and the server accepts it once whoever sends it.

   A record: {id, action (where the form posts), page (the page it was on), body
   (the form, url-encoded), label (what to call it), user (the page's user mark),
   kept (when)}. */
(function (scope) {
  "use strict";

  var DB = "league-offline";
  var STORE = "outbox";
  var PAGES = "league-pages-"; /* + the user's mark: the pages kept for that user */
  var META = "league-meta";     /* whose pages the worker keeps now */

  function openDb() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(DB, 1);
      request.onupgradeneeded = function () { request.result.createObjectStore(STORE, { keyPath: "id" }); };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function run(mode, work) {
    return openDb().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var request = work(tx.objectStore(STORE));
        tx.oncomplete = function () { db.close(); resolve(request ? request.result : undefined); };
        tx.onerror = tx.onabort = function () { db.close(); reject(tx.error); };
      });
    });
  }

  function keep(item) { return run("readwrite", function (store) { return store.put(item); }); }
  function all() { return run("readonly", function (store) { return store.getAll(); }); }
  function drop(id) { return run("readwrite", function (store) { return store.delete(id); }); }
  function clear() { return run("readwrite", function (store) { return store.clear(); }); }

  /* The page's CSRF token as the server gives it now: the kept form's token may be
     stale (a new login rotates it). Every page of a logged-in user has one (the
     log-out form). */
  function freshToken(page) {
    return fetch(page, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      if (!response.ok) { throw new Error("page " + response.status); }
      return response.text();
    }).then(function (html) {
      var found = html.match(/name="csrfmiddlewaretoken" value="([^"]+)"/);
      return found ? found[1] : "";
    });
  }

  /* Send one record. Resolves {item, sent, status}; the record leaves the outbox once
     the server answered (accepted, replayed or refused: a refusal is shown, not
     retried). Rejects, keeping it, when there is still no signal or the server fails. */
  function send(item) {
    return freshToken(item.page).then(function (token) {
      var body = new URLSearchParams(item.body);
      if (token) { body.set("csrfmiddlewaretoken", token); }
      return fetch(item.action, { method: "POST", body: body, credentials: "same-origin" });
    }).then(function (response) {
      if (response.status >= 500) { throw new Error("server " + response.status); }
      var loggedOut = /\/accounts\/login\//.test(response.url);
      return drop(item.id).then(function () {
        return { item: item, sent: response.ok && !loggedOut, status: loggedOut ? 401 : response.status };
      });
    });
  }

  var sending = null;

  /* Send every record, one after the other; resolves the list of what was answered.
     The page (its "online" event) and the worker (Background Sync) may both start
     when the signal returns: where the browser has Web Locks, one sends at a time
     across them, and the second finds the outbox emptied by the first, so nothing is
     posted twice (the server's idempotency key stays the guard where it has none). */
  function sendEach() {
    return all().then(function (items) {
      return items.reduce(function (chain, item) {
        return chain.then(function (done) {
          return send(item).then(function (answer) { done.push(answer); return done; }, function () { return done; });
        });
      }, Promise.resolve([]));
    });
  }

  function sendAll() {
    if (sending) { return sending; }
    var locks = scope.navigator && scope.navigator.locks;
    sending = (locks ? locks.request("league-outbox", sendEach) : sendEach()).then(function (done) { sending = null; return done; }, function (error) { sending = null; throw error; });
    return sending;
  }

  /* Forget what was kept for anyone but ``user`` (a log-out, another account on the
     phone): their pages and the whole outbox. */
  function forget(user) {
    return caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf(PAGES) === 0 && name !== PAGES + user;
      }).map(function (name) { return caches.delete(name); }));
    }).then(clear);
  }

  scope.LeagueOutbox = { PAGES: PAGES, META: META, keep: keep, all: all, drop: drop, clear: clear, sendAll: sendAll, forget: forget };
}(self));
