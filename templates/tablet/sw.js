{% load static %}/* Klammern table tablet: service worker, served by tournaments.web.tablet.service_worker
   at /t/sw.js (scope /t/). It keeps the tablet page and its static files so that a reload
   without network still shows the table; the deal entries themselves stay in the page's
   localStorage outbox (tablet.js), which sends them with their Idempotency-Key.

   - /t/<code>/ and /t/<code>/state/: network first, the last good answer as fallback (and
     after NETWORK_TIMEOUT on a bad connection). A page from the cache is marked
     data-from-cache="1" so the page shows its offline banner.
   - /static/...: cache first; names without a content hash are refreshed in the background.
   - Anything else, in particular every POST/PUT (deal entries, confirmations) and all of
     /api/, is not intercepted at all. */
"use strict";

var CACHE = "{{ cache_name }}";
var PREFIX = "klammern-tablet-";
var ASSETS = {{ assets_json|safe }};
var STATIC = "{% get_static_prefix %}";
var PAGE = /^\/t\/[^\/]+\/(state\/)?$/;
var HASHED = /\.[0-9a-f]{12}\.[a-z0-9]+$/;
var NETWORK_TIMEOUT = 6000;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    // one missing file must not stop the worker from installing; a hashed name never
    // changes, so the copy the page itself just loaded (HTTP cache) is taken, not
    // fetched again over the venue's link
    return Promise.all(ASSETS.map(function (url) {
      var mode = HASHED.test(url) ? "default" : "reload";
      return cache.add(new Request(url, { cache: mode })).catch(function () {});
    }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    var old = names.filter(function (name) { return name.indexOf(PREFIX) === 0 && name !== CACHE; });
    // the last good table pages move to the new cache: an update must not lose them
    return Promise.all(old.map(function (name) {
      return keepPages(name).then(function () { return caches.delete(name); });
    }));
  }).then(function () { return self.clients.claim(); }));
});

function keepPages(name) {
  return Promise.all([caches.open(name), caches.open(CACHE)]).then(function (both) {
    return both[0].keys().then(function (requests) {
      return Promise.all(requests.filter(function (request) {
        return PAGE.test(new URL(request.url).pathname);
      }).map(function (request) {
        return both[0].match(request).then(function (response) {
          return response ? both[1].put(request, response) : null;
        });
      }));
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }  // entries go straight to the network
  var url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.indexOf("/api/") === 0) { return; }
  if (PAGE.test(url.pathname)) {
    event.respondWith(networkFirst(event, url.pathname));
  } else if (url.pathname.indexOf(STATIC) === 0) {
    event.respondWith(cacheFirst(event, url));
  }
});

function store(key, response) {
  return caches.open(CACHE).then(function (cache) { return cache.put(key, response); });
}

function forget(key) {
  return caches.open(CACHE).then(function (cache) { return cache.delete(key); });
}

function fromCache(key) {
  return caches.open(CACHE).then(function (cache) {
    return cache.match(key, { ignoreVary: true, ignoreSearch: true });
  }).then(function (cached) {
    if (!cached) { return null; }
    return cached.text().then(function (text) {
      var headers = new Headers(cached.headers);
      headers.set("X-Klammern-From-Cache", "1");
      return new Response(text.replace(/data-from-cache="0"/g, 'data-from-cache="1"'),
                          { status: cached.status, statusText: cached.statusText, headers: headers });
    });
  });
}

function networkFirst(event, key) {
  var network = fetch(event.request).then(function (response) {
    if (response.ok && response.type === "basic") {
      event.waitUntil(store(key, response.clone()));
    } else if (response.status === 404 || response.status === 410) {
      event.waitUntil(forget(key));  // the code no longer works: keep no stale table
    }
    return response;
  });
  return new Promise(function (resolve, reject) {
    var settled = false;
    function answer(response) { if (!settled) { settled = true; resolve(response); } }
    var timer = setTimeout(function () {
      fromCache(key).then(function (cached) { if (cached) { answer(cached); } });
    }, NETWORK_TIMEOUT);
    network.then(function (response) { clearTimeout(timer); answer(response); }, function (error) {
      clearTimeout(timer);
      fromCache(key).then(function (cached) {
        if (settled) { return; }
        if (cached) { answer(cached); } else { settled = true; reject(error); }
      });
    });
  });
}

function cacheFirst(event, url) {
  return caches.open(CACHE).then(function (cache) {
    return cache.match(event.request, { ignoreVary: true }).then(function (cached) {
      var refresh = fetch(event.request).then(function (response) {
        if (response.ok && response.type === "basic") {
          return cache.put(event.request, response.clone()).then(function () { return response; });
        }
        return response;
      });
      if (!cached) { return refresh; }
      if (!HASHED.test(url.pathname)) { event.waitUntil(refresh.catch(function () {})); }
      return cached;
    });
  });
}

// The page asks to keep itself (its first load came before the worker controlled it).
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type !== "keep" || !Array.isArray(data.urls)) { return; }
  event.waitUntil(Promise.all(data.urls.map(function (href) {
    var url = new URL(href, self.location.origin);
    if (url.origin !== self.location.origin || !PAGE.test(url.pathname)) { return null; }
    return fetch(url.pathname, { credentials: "same-origin" }).then(function (response) {
      return response.ok ? store(url.pathname, response) : null;
    }).catch(function () {});
  })));
});
