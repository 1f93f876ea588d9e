// The page's controller: routing (/ and /t/{table}), the connection, and which screen shows.
import { clear, clearToast, copyText, h, nextTask, toast } from "./dom.js";
import { LANGUAGES, has, language, onLanguage, pickLanguage, setLanguage, t } from "./i18n.js";
import { checkedName, renderHome } from "./home.js";
import { ApiError, api, device, TableSocket, tokens } from "./net.js";
import { FALLBACK_CONFIG } from "./settings.js";

const screen = document.getElementById("screen");

// The screens' code past the home loads when a screen first needs it (the home does not
// wait for the table's): `parts.lobby`, `parts.table`, ... once loaded. A table's page asks
// for the lobby's while its connection opens, and for the game's once a game can start
// (two seats taken) or shows, not as the lobby shows: compiling it there was most of the
// blocking time of a lobby opened from a link, on a phone's CPU. Every file the first
// screen waits for is one more request on a phone's slow network before it shows: what
// only the game uses (keyboard play, which seats bots play) comes with the game's code,
// the speaker's sound once the first screen is up, the tutorials' progress with the home's
// side panel. The page carries the home's look (css/coup.css); the tables' (table.css,
// review.css, and the tutorial's) come with their code, so the first paint parses only
// the home's.
const together = (...loads) => Promise.all(loads).then((mods) => Object.assign({}, ...mods));
const TABLE_STYLES = ["table.css", "review.css"];
const PARTS = {
  lobby: () => together(import("./lobby.js"), import("./chat.js"), stylesheets(TABLE_STYLES)),
  table: () => together(import("./table.js"), import("./actions.js"), import("./announce.js"),
    import("./motion.js"), import("./tutorial.js"), import("./names.js"), import("./keys.js"),
    stylesheets([...TABLE_STYLES, "tutorial.css"])).then((mod) => {
    mod.installKeys(screen, () => guardLeft() > 0 || app.busy || !app.online);
    return mod;
  }),
  sound: () => import("./sound.js"),
  lessons: () => import("./lessons.js"),
  replay: () => together(import("./replay.js"), stylesheets(TABLE_STYLES)),
  profile: () => import("./profile.js"),
  record: () => import("./recordfile.js"),
  rules: () => import("./rules.js"),
};
const parts = {};
const loading = {};

// A screen's stylesheets, linked once and waited for (a screen never shows unstyled), each
// in its place in the order below whatever order they come in: later ones win ties, as
// they did when the page carried them all.
const SHEETS = ["table.css", "tutorial.css", "review.css"];
const sheets = {};
function stylesheets(names) {
  return Promise.all(names.map((name) => (sheets[name] ??= new Promise((done, fail) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = new URL(`../css/${name}`, import.meta.url).href;
    link.dataset.sheet = name;
    link.onload = () => done();
    link.onerror = () => { delete sheets[name]; link.remove(); fail(new Error(`${name} did not load`)); };
    const next = [...document.head.querySelectorAll("link[data-sheet]")]
      .find((other) => SHEETS.indexOf(other.dataset.sheet) > SHEETS.indexOf(name));
    document.head.insertBefore(link, next ?? null);
  })))).then(() => ({})); // no names of its own for `together` to merge
}
function need(name) {
  loading[name] ??= PARTS[name]().then((mod) => { parts[name] = mod; return mod; },
    (err) => { delete loading[name]; throw err; }); // offline: asked again next time
  return loading[name];
}
// Render once `name` has loaded (a screen shown before its code came).
function renderWhenLoaded(name) { need(name).then(() => render(), () => showOffline()); }
const guardLeft = () => parts.table?.guardLeft() ?? 0;

const app = {
  config: FALLBACK_CONFIG,
  table: null, // table id on /t/{table}
  socket: null,
  msg: null,
  tab: "log",
  unread: 0,
  seenChat: 0,
  busy: false,
  forceLobby: false,
  endClosed: null,
  endHeld: null, // the game whose end screen waits for the last announcements
  clockOffset: 0,
  online: false,
  tallyOpen: false,
  leaving: false, // asked "leave the game?" and waiting for the answer
  chatRefused: null, // {text, reason}: the chat line the server refused, and why
  routed: null, // the path last routed (a new one clears the toast)
  playNow: false, // fill the empty seats with bots and start, once the lobby shows

  name() { try { return localStorage.getItem("coup.name") || ""; } catch { return ""; } },
  setName(v) { try { localStorage.setItem("coup.name", v); } catch { /* ignore */ } },
  recent() { try { return JSON.parse(localStorage.getItem("coup.recent") || "[]"); } catch { return []; } },
  remember(table, name) {
    const list = app.recent().filter((r) => r.table !== table);
    list.unshift({ table, name, at: Date.now() });
    try { localStorage.setItem("coup.recent", JSON.stringify(list.slice(0, 6))); } catch { /* ignore */ }
  },
  rejoinLink() { return `${location.origin}/t/${app.table}#token=${tokens.get(app.table) || ""}`; },

  go(path) { history.pushState({}, "", path); route(); },

  async createTable(name, settings, playNow = false) {
    try {
      const made = await api("POST", "/api/tables", { name, settings, device: device() });
      tokens.set(made.table, made.token);
      app.remember(made.table, name);
      app.playNow = playNow;
      app.go(`/t/${made.table}`);
      return made;
    } catch (err) { showError(err); return null; }
  },

  // `seat` null: the lowest free seat. Without a name yet, the lobby asks for one.
  async takeSeat(seat) {
    const inLobby = app.nameField?.input?.isConnected;
    const name = inLobby ? checkedName(app.nameField) : app.name().trim();
    if (!name) {
      if (!inLobby) { app.showLobby(); document.getElementById("lobby-name")?.focus(); }
      return;
    }
    try {
      const got = await api("POST", `/api/tables/${encodeURIComponent(app.table)}/seats`, { name, seat, device: device() });
      tokens.set(app.table, got.token);
      app.remember(app.table, name);
      app.forceLobby = true; // seated for the next game: the lobby shows where
      app.socket?.reconnect();
    } catch (err) { showError(err); }
  },

  send(message) { app.socket?.send(message); },

  move(move) {
    if (!app.msg || app.busy || !app.online || guardLeft() > 0) return;
    app.busy = true;
    const version = app.msg.version;
    app.socket.send({ type: "move", move, version }, { type: "move", move });
    render();
    // Never leave the buttons disabled if neither a view nor an error comes back.
    setTimeout(() => { if (app.busy && app.msg?.version === version) { app.busy = false; render(); } }, 6000);
  },

  showGame() { app.forceLobby = false; render(); },
  showLobby() { app.forceLobby = true; render(); },

  chatPanel() { return parts.lobby.chatPanel(tableCtx()); }, // in the lobby, once its code came
  rerender() { render(); },
  parts, // the screens' code loaded so far (PARTS), and what loads more
  need,
};
window.coupApp = app; // for debugging and tests

function errorText(err) {
  const code = err instanceof ApiError || err?.code ? err.code : "internal";
  return has(`error.${code}`) ? t(`error.${code}`) : (err.message || t("error.internal"));
}

function showError(err) { toast(errorText(err), "error"); }

function tableCtx() {
  const msg = app.msg;
  const seats = msg.table?.seats || [];
  const presence = {};
  const bots = new Set();
  seats.forEach((s, i) => {
    if (!s) return;
    if (s.kind === "bot") bots.add(i);
    else if (!s.connected) presence[i] = "disconnected";
  });
  const me = msg.you?.seat ?? null;
  return {
    msg, view: msg.game, me, presence, bots, busy: app.busy, tab: app.tab, unread: app.unread,
    clockOffset: app.clockOffset, offline: !app.online, tallyOpen: app.tallyOpen,
    standins: Object.fromEntries(seats.map((s, i) => [i, s?.standin || null])),
    leaving: app.leaving,
    setLeaving: (on) => { app.leaving = on; render(); document.getElementById(on ? "leave-confirm" : "leave-game")?.focus(); },
    onLeave: () => { app.leaving = false; app.send({ type: "leave" }); },
    onTakeBack: () => app.send({ type: "take_back" }),
    idle: new Set(seats.flatMap((s, i) => (s?.idle ? [i] : []))),
    // Only an absent or idle player's seat (the server refuses a present, playing one's).
    stalled: new Set(seats.flatMap((s, i) => (s?.stalled ? [i] : []))),
    // Only an absent, idle or stalled player's seat (the server refuses a present, playing one's).
    canHand: (seat) => Boolean(msg.you?.host && msg.table.status === "playing" && seats[seat]?.kind === "human"
      && !seats[seat].host && !seats[seat].standin && msg.game?.players[seat]?.alive
      && (!seats[seat].connected || seats[seat].idle || seats[seat].stalled)),
    onHandToBot: (seat) => app.send({ type: "hand_to_bot", seat }),
    onSpectatorChat: (on) => app.send({ type: "settings", settings: { spectator_chat: on } }),
    name: () => app.name(),
    setName: (v) => app.setName(v),
    toggleTally: () => { app.tallyOpen = !app.tallyOpen; render(); document.getElementById("tally-button")?.focus(); },
    onMove: (m) => app.move(m),
    onChat: (text, name) => {
      app.chatRefused = null;
      app.send(name === undefined ? { type: "chat", text } : { type: "chat", text, name });
    },
    chatRefused: app.chatRefused,
    onRematch: () => app.send({ type: "rematch" }),
    seatOffer: (id) => parts.lobby.seatOffer(app, id),
    go: (path) => app.go(path),
    onLobby: () => app.showLobby(),
    endClosed: app.endClosed === msg.table?.game,
    endHeld: app.endHeld === msg.table?.game,
    onCloseEnd: () => { app.endClosed = msg.table?.game; render(); },
    onShowEnd: () => { app.endClosed = null; render(); },
    setTab: (name) => { app.tab = name; if (name === "chat") app.unread = 0; render(); },
    rerender: () => render(),
  };
}

// The focused control, by what it does, so that a rebuilt screen can focus its twin.
function focusKey() {
  const el = document.activeElement;
  if (!el || el === document.body || !screen.contains(el)) return null;
  for (const attr of ["id", "data-move", "data-verb", "data-seat", "data-index"]) {
    const v = el.getAttribute(attr);
    if (v) return `[${attr}="${CSS.escape(v)}"]`;
  }
  return null;
}

function render() {
  const focused = focusKey();
  // Keep what the user is typing (chat, names) across re-renders.
  const keep = {};
  for (const el of screen.querySelectorAll("input[type=text], input:not([type])")) {
    const key = el.id || (el.closest(".chat-form") ? "chat" : el.name);
    if (key) keep[key] = { value: el.value, focus: document.activeElement === el, start: el.selectionStart };
  }
  const was = screen.dataset.screen;
  renderScreen();
  if (screen.dataset.screen !== was && was !== "loading") clearToast(); // e.g. the lobby became the game
  for (const el of screen.querySelectorAll("input[type=text], input:not([type])")) {
    const key = el.id || (el.closest(".chat-form") ? "chat" : el.name);
    const k = keep[key];
    if (!k || el.readOnly) continue;
    el.value = k.value;
    if (k.focus) { el.focus(); try { el.setSelectionRange(k.start, k.start); } catch { /* ignore */ } }
  }
  if (focused && (!document.activeElement || document.activeElement === document.body)) {
    screen.querySelector(`${focused}:not([disabled])`)?.focus();
  }
  fitDock();
}

// On a phone the decision is pinned to the bottom: leave room for it below the table.
function fitDock() {
  const dock = screen.querySelector(".dock.deciding");
  const pinned = dock && getComputedStyle(dock).position === "fixed";
  document.body.style.paddingBottom = pinned ? `${dock.offsetHeight + 8}px` : "";
  parts.table?.placeAnnouncement();
}

function renderScreen() {
  const path = location.pathname;
  if (/^\/(replay|t\/[^/]+\/games\/\d+\/replay)\/?$/.test(path)) { route(); return; } // e.g. a new language
  const profilePage = path.match(/^\/p\/([^/]+)\/?$/);
  if (profilePage || path === "/leaderboard" || path === "/link") {
    if (!parts.profile) { renderWhenLoaded("profile"); return; }
    const { renderLeaderboard, renderLinkPage, renderProfilePage } = parts.profile;
    screen.dataset.screen = "profile";
    clear(document.getElementById("topbar-info"));
    if (profilePage) renderProfilePage(screen, app, decodeURIComponent(profilePage[1]));
    else if (path === "/link") renderLinkPage(screen, app);
    else renderLeaderboard(screen, app);
    return;
  }
  if (!path.startsWith("/t/")) {
    screen.dataset.screen = "home";
    clear(document.getElementById("topbar-info"));
    renderHome(screen, app);
    return;
  }
  const msg = app.msg;
  if (!msg) return;
  if (!parts.lobby) { renderWhenLoaded("lobby"); return; }
  const { goneNote, renderLobby } = parts.lobby;
  const info = clear(document.getElementById("topbar-info"));
  const link = `${location.origin}/t/${msg.table.id}`;
  info.append(h("button", { type: "button", class: "table-chip", id: "chip-link", title: t("lobby.copy"),
    onclick: async () => toast(await copyText(link) ? t("lobby.copied") : t("lobby.copy_failed")),
    text: t("table.chip", { id: msg.table.id.slice(0, 6) }) }));
  if (msg.you?.seat !== null && msg.you?.seat !== undefined && msg.table.status !== "lobby") {
    info.append(h("button", { type: "button", class: "table-chip rejoin-chip", id: "chip-rejoin", title: t("lobby.rejoin_hint"),
      onclick: async () => toast(await copyText(app.rejoinLink()) ? t("lobby.copied") : t("lobby.copy_failed")),
      text: t("table.my_link") }));
  }
  if (msg.you?.seat === null || msg.you?.seat === undefined) {
    // A seat is free between games: one tap sits down (the lobby shows its own buttons).
    const offer = msg.table.status === "over" && !app.forceLobby ? parts.lobby.seatOffer(app, "chip-take-seat") : null;
    if (offer) info.append(offer);
    else info.append(h("span", { class: "tag tag-watch", text: t("table.watching") }));
  }
  const status = msg.table.status;
  // Seated after the last game ended (a late friend): the lobby, until the next game.
  const me = msg.you?.seat;
  const newcomer = status === "over" && me !== null && me !== undefined && msg.game?.players?.[me]?.name !== msg.you.name;
  if (status === "lobby" || !msg.game || (status === "over" && (app.forceLobby || newcomer))) {
    screen.dataset.screen = "lobby";
    renderLobby(screen, app);
  } else if (!parts.table) {
    renderWhenLoaded("table");
    return;
  } else {
    const { markTutorial, renderTable, tutorialPanel } = parts.table;
    screen.dataset.screen = "table";
    const ctx = tableCtx();
    const mine = (msg.game.legal || []).length > 0;
    document.title = mine ? `● ${t("table.your_decision")} — ${t("app.name")}` : t("app.name");
    renderTable(screen, ctx, tutorialPanel(app));
    markTutorial(screen, screen.querySelector("#tutorial"));
    if (status === "over" && msg.you?.host) {
      const btns = screen.querySelector(".end-buttons");
      btns?.append(h("button", { type: "button", class: "btn ghost", id: "to-lobby", onclick: () => app.showLobby(), text: t("end.lobby") }));
    }
  }
  const gone = goneNote(msg);
  if (gone) screen.prepend(gone);
}

// Views that came before the code of their screen: shown in order once it has.
const early = [];
function onView(msg, fresh) {
  if (early.length || !parts.lobby || (msg.game && !parts.table)) {
    early.push([msg, fresh]);
    if (early.length === 1) showEarly();
    return;
  }
  showView(msg, fresh);
}

async function showEarly() {
  try {
    while (early.length) {
      const [msg, fresh] = early[0];
      await need("lobby");
      if (msg.game) await need("table");
      if (early[0]?.[0] === msg) early.shift(); else return; // the table was left meanwhile
      showView(msg, fresh);
    }
  } catch {
    early.length = 0;
    showOffline();
  }
}

function showView(msg, fresh) {
  const prev = app.msg;
  app.msg = msg;
  app.busy = false;
  app.online = true;
  if (typeof msg.now === "number") app.clockOffset = msg.now - Date.now();
  const chat = msg.chat || [];
  const lastId = chat.length ? chat[chat.length - 1].id : 0;
  if (prev && lastId > app.seenChat && app.tab !== "chat") {
    app.unread += chat.filter((c) => c.id > app.seenChat && c.seat !== msg.you?.seat).length;
  }
  app.seenChat = Math.max(app.seenChat, lastId);
  if (prev && prev.table.game !== msg.table.game) app.forceLobby = false;
  const game = msg.game;
  const table = parts.table; // loaded when the game shows (onView)
  if (game) {
    const seats = msg.table.seats || [];
    table.setBots(game.players.map((p, i) => (seats[i]?.kind === "bot" && seats[i].name === p.name ? i : null)).filter((i) => i !== null));
  }
  const before = prev?.game && prev.table.game === msg.table.game ? prev.game : null;
  const decidedBefore = (before?.legal || []).length > 0 && table?.decisionKey(before) === table?.decisionKey(game);
  if (game?.over && before && !before.over && !fresh) holdEnd(msg.table.game);
  render();
  if (screen.dataset.screen === "table") {
    table.announceView(game, msg.table.game, fresh);
    if (!fresh) table.animate(screen, before, game);
    if ((game?.legal || []).length && !decidedBefore && !game.over) {
      const prompt = screen.querySelector(".decision .prompt")?.textContent || "";
      table.speak(`${t("table.your_decision")}: ${prompt}`);
      if (!fresh) parts.sound?.play("decision");
    }
  } else table?.resetAnnouncements();
  if (app.playNow && msg.you?.host && msg.table.status === "lobby") fillWithBots(msg);
  // Once a game can start, its code, so that Start shows it at once.
  if (!parts.table && parts.lobby.canStart(msg.table)) {
    need("table").catch(() => { /* asked again when a game shows */ });
  }
}

// The game just ended before our eyes: the table shows the last moves' announcements
// first, then the end screen (at most END_HOLD_MS later: the queue of a fast last turn,
// who is out and the win included). A page that connects to a game already over shows the
// end screen at once.
const END_HOLD_MS = 9000;
function holdEnd(game) {
  app.endHeld = game;
  const until = Date.now() + END_HOLD_MS;
  const release = () => {
    if (app.endHeld !== game) return;
    if (parts.table.announcing() && Date.now() < until) { setTimeout(release, 150); return; }
    app.endHeld = null;
    parts.table.hushAnnouncements();
    if (app.msg?.table.game === game) render();
  };
  setTimeout(release, 300); // the last view's announcements are queued after this render
}

// "Play now against bots": bots in every empty seat, then start.
function fillWithBots(msg) {
  app.playNow = false;
  msg.table.seats.forEach((s, i) => { if (!s) app.send({ type: "add_bot", seat: i }); });
  app.send({ type: "start" });
}

// The connection's state in the top bar. Leaving a table inside the app closes its
// socket on purpose: that is no lost connection (`leaveTable`).
function onStatus(s) {
  document.getElementById("net").dataset.state = s;
  document.body.dataset.net = s === "online" || !app.msg ? s : "offline";
  const was = app.online;
  app.online = s === "online";
  if (was !== app.online && app.msg) render();
}

function onSocketError(err, ctx) {
  if (err.code === "stale") { app.busy = false; return; }
  if (ctx?.type === "move") { app.busy = false; render(); }
  if (err.code === "no_table") { showMissing(); return; }
  if (ctx?.type === "chat") { // the line stays in the input, the reason under it
    app.chatRefused = { text: ctx.text, reason: errorText(err) };
    const input = screen.querySelector('.chat-form input[name="chat"]');
    if (input && !input.value) input.value = ctx.text;
    render();
    return;
  }
  showError(err);
}

function showOffline() {
  screen.dataset.screen = "offline";
  clear(screen).append(h("section", { class: "panel-card missing offline" },
    h("h1", { text: t("offline.title") }), h("p", { text: t("offline.text") }),
    h("button", { type: "button", class: "btn primary", id: "offline-retry", onclick: () => location.reload(), text: t("offline.retry") })));
}

function showMissing() {
  screen.dataset.screen = "missing";
  clear(screen).append(h("section", { class: "panel-card missing" },
    h("h1", { text: t("error.no_table") }), h("p", { text: t("error.no_table_hint") }),
    h("a", { class: "btn primary", href: "/", text: t("home.go_home") })));
}

// Close the table's socket on purpose and say so: no "reconnecting" bar, no red dot.
function leaveTable() {
  early.length = 0;
  app.socket?.close(); app.socket = null; app.msg = null; app.table = null;
  document.getElementById("net").dataset.state = "online";
  document.body.dataset.net = "online";
  app.online = false;
}

async function route() {
  const path = location.pathname;
  if (path !== app.routed) { app.routed = path; clearToast(); } // a toast does not outlive its screen
  const replay = path.match(/^\/t\/([A-Za-z0-9_-]+)\/games\/(\d+)\/replay\/?$/);
  if (replay || path === "/replay") { // the replay viewer (js/replay.js): no socket
    leaveTable();
    clear(document.getElementById("topbar-info"));
    let viewer;
    try { viewer = await need("replay"); } catch { showOffline(); return; }
    if (location.pathname !== path) return; // gone elsewhere meanwhile
    if (replay) viewer.openReplay(screen, app, replay[1], Number(replay[2]));
    else viewer.openUploaded(screen, app);
    return;
  }
  const m = path.match(/^\/t\/([A-Za-z0-9_-]+)\/?$/);
  const frag = location.hash.match(/token=([A-Za-z0-9_-]+)/);
  if (m && frag) {
    tokens.set(m[1], frag[1]);
    history.replaceState({}, "", `/t/${m[1]}`);
  }
  if (!m) {
    leaveTable();
    parts.profile?.forget(); // a profile page or the leaderboard is asked again when it is opened again
    render();
    return;
  }
  if (app.table === m[1] && app.socket) { render(); return; }
  app.socket?.close();
  early.length = 0; // the last table's views
  app.table = m[1]; app.msg = null; app.unread = 0; app.chatRefused = null; app.seenChat = 0; app.forceLobby = false;
  parts.table?.resetAnnouncements();
  need("lobby").catch(() => { /* asked again when the first view comes */ });
  if (screen.dataset.screen !== "loading") { // the page's own loading screen stays till the lobby
    screen.dataset.screen = "loading";
    clear(screen).append(h("div", { class: "loading", "aria-busy": "true" }, h("span", { class: "spinner" })));
  }
  try {
    await api("GET", `/api/tables/${encodeURIComponent(app.table)}`);
  } catch (err) {
    if (err.code === "no_table" || err.status === 404) { showMissing(); return; }
  }
  app.socket = new TableSocket(app.table, { onView, onError: onSocketError, onStatus, name: () => app.name() });
}

function setupChrome() {
  // The language select is made here, not written in the page: Chromium's autofill looks
  // over a page's form fields as its parsing ends, forcing a style and layout of the page
  // in the busiest moment of its first screen; with no field there, it has nothing to do.
  const select = h("select", { id: "lang-select", "data-i18n-aria": "app.language", "aria-label": t("app.language") },
    ...Object.entries(LANGUAGES).map(([code, info]) => h("option", { value: code, text: info.name })));
  const code = document.getElementById("lang-code"); // what a phone shows of the select
  code.after(select);
  select.value = language();
  code.textContent = language().toUpperCase();
  select.addEventListener("change", () => setLanguage(select.value, true));
  const playsReformation = () => Boolean(app.msg?.game?.settings?.reformation ?? app.msg?.table?.settings?.reformation);
  onLanguage(() => {
    select.value = language();
    code.textContent = language().toUpperCase();
    document.title = t("app.name");
    render();
    const dlg = document.getElementById("rules-dialog");
    if (dlg.open) parts.rules.renderRules(dlg, app.msg?.game?.settings?.characters || "ambassador", playsReformation());
  });
  const dialog = document.getElementById("rules-dialog");
  document.getElementById("rules-button").addEventListener("click", async () => {
    let rules;
    try { rules = await need("rules"); } catch { toast(t("offline.text"), "error"); return; }
    rules.renderRules(dialog, app.msg?.game?.settings?.characters || app.msg?.table?.settings?.characters || "ambassador",
      playsReformation());
    if (!dialog.open) dialog.showModal();
  });
  dialog.addEventListener("click", (ev) => { if (ev.target === dialog) dialog.close(); });
  document.getElementById("brand").addEventListener("click", (ev) => { ev.preventDefault(); app.go("/"); });
  window.addEventListener("popstate", route);
  document.getElementById("sound-button").addEventListener("click", async () => {
    let sound;
    try { sound = await need("sound"); } catch { toast(t("offline.text"), "error"); return; }
    sound.setSound(!sound.soundOn());
    showSound();
    if (sound.soundOn()) sound.play("decision");
  });
  onLanguage(showSound);
  showSound();
  window.addEventListener("resize", fitDock);
  window.addEventListener("scroll", () => parts.table?.placeAnnouncement(), { passive: true }); // the tiles moved under it
  window.addEventListener("offline", () => { if (!app.msg) showOffline(); });
  setInterval(() => { if (app.msg?.table?.deadline && screen.dataset.screen === "table") parts.table?.tickCountdown(screen, tableCtx()); }, 250);
}

// The speaker button as the sound's setting is (off until its code has come).
function showSound() {
  const button = document.getElementById("sound-button");
  const on = parts.sound?.soundOn() ?? false;
  button.setAttribute("aria-pressed", on ? "true" : "false");
  button.setAttribute("aria-label", t("sound.label"));
  button.title = t(on ? "sound.turn_off" : "sound.turn_on");
  button.dataset.on = on ? "1" : "0";
}

// Once the page has painted its own first lines (the browser's first contentful paint),
// so that a fast load shows them before the app replaces them: at once on a slow
// network, where the page paints long before its scripts come. At most a second (a
// browser without paint timing, a tab in the background).
function painted() {
  const FCP = "first-contentful-paint";
  return new Promise((done) => {
    if (performance.getEntriesByType?.("paint").some((e) => e.name === FCP)) { done(); return; }
    setTimeout(done, 1000);
    try {
      new PerformanceObserver((list, seen) => {
        if (list.getEntries().some((e) => e.name === FCP)) { seen.disconnect(); done(); }
      }).observe({ type: "paint" });
    } catch { done(); }
  });
}

async function main() {
  const config = api("GET", "/api/config"); // asked at once, while the catalogs load
  config.catch(() => { /* answered below */ });
  await setLanguage(pickLanguage());
  await nextTask(); // the language's work and the page's own controls: two short tasks
  setupChrome();
  document.title = t("app.name");
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => { /* http or private mode */ });
  try { app.config = { ...FALLBACK_CONFIG, ...(await config) }; } catch (err) {
    if (err.code === "network" || !navigator.onLine) { showOffline(); return; }
  }
  await painted(); // the page's own first lines are seen before the app replaces them
  await route();
  need("sound").then(showSound, () => { /* asked again when the button is pressed */ });
}

main();
export { app };
