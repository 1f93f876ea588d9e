// The service worker (served as /sw.js so that it covers the whole site). It keeps the
// static files — the page, scripts, styles, catalogs, icons — so the page opens without
// a connection and can say "you are offline". It never stores views, tokens or anything
// under /api/ or /ws/: those always go to the server.
const CACHE = "coup-static-v1";
// Every script, stylesheet and catalog (a test checks this list against the folder).
const SHELL = [
  "/", "/static/css/coup.css", "/static/css/table.css", "/static/css/review.css", "/static/css/tutorial.css", "/static/manifest.webmanifest", "/static/icons/icon.svg",
  "/static/js/actions.js", "/static/js/announce.js", "/static/js/app.js", "/static/js/cards.js", "/static/js/chat.js",
  "/static/js/dom.js", "/static/js/home.js", "/static/js/i18n.js", "/static/js/keys.js",
  "/static/js/lobby.js", "/static/js/motion.js", "/static/js/names.js", "/static/js/net.js",
  "/static/js/reformation.js", "/static/js/rules.js", "/static/js/seats.js", "/static/js/settings.js", "/static/js/sound.js",
  "/static/js/story.js", "/static/js/table.js", "/static/js/words.js", "/static/js/patch.js", "/static/js/morphdom.js",
  "/static/js/aftergame.js", "/static/js/recordfile.js", "/static/js/replay.js",
  "/static/js/tutorial.js", "/static/js/lessons.js", "/static/js/hints.js", "/static/js/passkey.js", "/static/js/profile.js",
  "/static/i18n/en.json", "/static/i18n/fa.json", "/static/i18n/he.json", "/static/i18n/id.json",
  "/static/i18n/ja.json", "/static/i18n/ro.json", "/static/i18n/es.json", "/static/i18n/de.json",
  "/static/i18n/fr.json", "/static/i18n/pt-BR.json", "/static/i18n/ar.json",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

function isStatic(url) { return url.origin === self.location.origin && url.pathname.startsWith("/static/"); }

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.mode === "navigate" && (url.pathname === "/" || url.pathname.startsWith("/t/"))) {
    // The page is the same for every table: fresh from the server, the kept copy offline.
    // (Cached under "/" without query or fragment: a rejoin link's token never is.)
    event.respondWith(fetch(req).then((res) => {
      if (res.ok) { const copy = res.clone(); caches.open(CACHE).then((c) => c.put("/", copy)); }
      return res;
    }).catch(() => caches.match("/")));
    return;
  }
  if (!isStatic(url)) return; // /api/…, /ws/…, /sw.js: always the network
  // Static files: fresh from the server (so a new version never mixes with an old one),
  // the kept copy when the server cannot be reached.
  event.respondWith(fetch(req).then((res) => {
    if (res.ok) { const copy = res.clone(); caches.open(CACHE).then((c) => c.put(req, copy)); }
    return res;
  }).catch(() => caches.match(req).then((kept) => kept || Response.error())));
});
