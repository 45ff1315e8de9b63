// The page's service worker: keeps the shell (the page, its scripts, styles, icons and
// words) so the table opens even while the server is down and can say it is unreachable.
// The shell is fetched fresh whenever the server answers (network first), so an update
// is never hidden behind the cache; the table's state (/api/…) is never cached, apart
// from the page's own words (/api/labels).
const CACHE = "pdk-shell-v1";
const SHELL = [
  "/",
  "/static/style.css",
  "/static/app.js",
  "/static/page.js",
  "/static/seat.js",
  "/static/cards.js",
  "/static/touch.js",
  "/static/motion.js",
  "/static/sound.js",
  "/static/rules-view.js",
  "/static/replay-view.js",
  "/static/table-view.js",
  "/static/icon.svg",
  "/static/icon-192.png",
  "/manifest.webmanifest",
  "/api/labels?lang=en",
  "/api/labels?lang=zh",
];

self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (e) => {
  e.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== "GET" || url.origin !== location.origin) return;
  const shell = url.pathname === "/" ? "/" : url.pathname + (url.pathname === "/api/labels" ? url.search : "");
  if (url.pathname.startsWith("/api/") && url.pathname !== "/api/labels") return;
  e.respondWith(
    fetch(e.request)
      .then((res) => {
        if (res.ok) {
          const copy = res.clone();
          caches.open(CACHE).then((c) => c.put(shell, copy));
        }
        return res;
      })
      .catch(() => caches.match(shell).then((hit) => hit || Response.error())),
  );
});
