// The phone app's service worker: the app opens from cache with no network, reads fall
// back to the last answer, and a new version replaces the cache as a whole.
const VERSION = "{{ version }}";
const CACHE = `companion-${VERSION}`;
const SHELL = [{% for url in shell %}"{{ url|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];

importScripts("/static/frontend/haptics.js", "/static/frontend/sw-push.js");

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
    await self.clients.claim();
  })());
});

async function networkFirst(request, { ignoreVary = false } = {}) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) cache.put(request, response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match(request, { ignoreVary });
    if (!cached) throw error;
    // Marked, so that the app neither measures its clock on it nor calls it fresh.
    const headers = new Headers(cached.headers);
    headers.set("X-Offline-Cache", "1");
    return new Response(await cached.blob(), { status: cached.status, headers });
  }
}

async function cacheFirst(request) {
  const cached = await caches.match(request);
  return cached || fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;            // writes go through the app's outbox
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // Any page of the app opens the cached shell when offline.
    event.respondWith(fetch(request).catch(async () => (await caches.match("/")) || Response.error()));
  } else if (url.pathname.startsWith("/static/")) {
    event.respondWith(cacheFirst(request));
  } else if (url.pathname.startsWith("/jsi18n/")) {
    // Its address names the language: the copy the install fetched (with the worker's own
    // Accept-Language and cookies, which the answer's Vary names) is the same catalogue.
    event.respondWith(networkFirst(request, { ignoreVary: true }));
  } else if (url.pathname.startsWith("/api/") || url.pathname === "/manifest.webmanifest") {
    event.respondWith(networkFirst(request));
  }
});
