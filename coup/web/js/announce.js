// Announcements where the eye is: each public event of the game, queued, about two seconds
// each (less when more wait; stale ones dropped), never in the way of a click
// (pointer-events: none) nor over the now-line. The same words go to a live
// region for screen readers. A (re)connection never replays what happened before it.
import { h, tNodes } from "./dom.js";
import { t } from "./i18n.js";
import { play } from "./sound.js";
import { storyEvents } from "./story.js";
import { char, who } from "./words.js";

const SHOW_MS = 2000;
const QUICK_MS = 1300; // when one more waits
const RUSH_MS = 900; // when several wait: fast play keeps up
const STALE_MS = 4000; // one that waited longer is dropped, unless it tells who is out or won
const KEEP = 6; // at most this many waiting; the oldest droppable ones go first
const KEPT_KINDS = new Set(["out", "win"]);
const SOUND = { challenge: "challenge", caught: "loss", proved: "loss", loss: "loss", out: "loss", win: "win" };

const state = { game: null, seen: 0, queue: [], timer: 0, raf: 0, showing: false };

function box() { return document.getElementById("announce"); }

// Tell the screen reader (and only it) a sentence: each one is added to the live region,
// which keeps the last few.
export function speak(text) {
  const live = document.getElementById("live");
  if (!live || !text) return;
  live.append(h("p", { text }));
  while (live.childElementCount > 6) live.firstElementChild.remove();
}

function sentence(view, ev) {
  const p = {};
  for (const [k, v] of Object.entries(ev.params)) {
    p[k] = k === "card" ? char(v) : who(view, v);
  }
  const node = tNodes(ev.key, p);
  if (ev.forced) node.append(" ", h("span", { class: "forced-mark", text: t("log.forced") }));
  return node;
}

// Where the eye is, and never over what says what is happening now: the now-line (the
// banner) and the tile of the seat whose claim is in question stay in view. Preferred: just
// above a decision pinned to the bottom (phones), else over the centre of the table; the
// nearest free band of the window when that covers either (over the top bar if no other;
// in smaller type if it fits nowhere at full size).
function place(el, tight = false) {
  const item = el.firstElementChild;
  if (!item) return;
  item.classList.toggle("tight", tight); // smaller type, when the full size fits nowhere
  const dock = document.querySelector("#screen .dock.deciding");
  const pinned = dock && getComputedStyle(dock).position === "fixed" ? dock.getBoundingClientRect() : null;
  const high = item.offsetHeight;
  const lo = (document.querySelector(".topbar")?.getBoundingClientRect().bottom || 56) + 6;
  const hi = (pinned ? pinned.top : innerHeight) - 6; // the band's bottom edge
  const centre = document.querySelector("#screen .centre")?.getBoundingClientRect();
  const want = pinned ? hi - high
    : centre && centre.bottom > 80 && centre.top < innerHeight - 60 ? Math.max(lo, centre.top + 6) : lo + 20;
  const box = item.getBoundingClientRect();
  const taken = [document.querySelector("#screen .now")?.getBoundingClientRect(), ...claimantTiles()]
    .filter((r) => r && r.width && r.bottom > lo && r.top < hi && r.right > box.left && r.left < box.right)
    .map((r) => [r.top - 6, r.bottom + 6]).sort((x, y) => x[0] - y[0]);
  let top = null;
  let y = lo;
  const consider = (from, to) => { // a free band [from, to]: the place in it nearest the wish
    if (to - from < high) return;
    const at = Math.min(Math.max(want, from), to - high);
    if (top === null || Math.abs(at - want) < Math.abs(top - want)) top = at;
  };
  for (const [from, to] of taken) { consider(y, from); y = Math.max(y, to); }
  consider(y, hi);
  if (top === null && taken.length && taken[0][0] - 4 >= high) top = Math.min(want, taken[0][0] - high); // over the top bar
  if (top === null && !tight) { place(el, true); return; }
  el.style.bottom = "auto";
  el.style.top = `${Math.round(top ?? Math.max(lo, Math.min(want, hi - high)))}px`;
}

// The tiles of the seats whose claim or block is in question now.
function claimantTiles() {
  const pend = window.coupApp?.msg?.game?.pending;
  if (!pend) return [];
  const seats = [pend.actor, pend.block?.seat].filter((s) => s !== null && s !== undefined);
  return seats.map((s) => document.querySelector(`#screen .seat[data-seat="${s}"]`)?.getBoundingClientRect());
}

// While one shows, it follows the page: the table may change under it between views
// (a countdown's line, a seat's badges), and it must keep clear of the now-line.
function follow() {
  const el = box();
  if (!state.showing || !el) { state.raf = 0; return; }
  place(el);
  state.raf = requestAnimationFrame(follow);
}

function next() {
  const el = box();
  const now = performance.now();
  // Stale ones go (fast play), but never who is out or who won.
  state.queue = state.queue.filter((x) => KEPT_KINDS.has(x.kind) || now - x.at <= STALE_MS);
  const item = state.queue.shift();
  if (!el || !item) { state.showing = false; el?.classList.remove("show"); return; }
  state.showing = true;
  el.replaceChildren(h("div", { class: `announce-item k-${item.kind}`, dataset: { kind: item.kind } }, item.node));
  place(el);
  const ms = state.queue.length > 1 ? RUSH_MS : state.queue.length ? QUICK_MS : SHOW_MS;
  el.style.setProperty("--announce-ms", `${ms}ms`);
  el.classList.remove("show");
  void el.offsetWidth; // restart the animation
  el.classList.add("show");
  state.timer = setTimeout(next, ms);
  if (!state.raf) state.raf = requestAnimationFrame(follow);
}

// Called with every view the page renders. `fresh`: the first view of a connection.
export function announceView(view, game, fresh) {
  const length = (view?.history || []).length;
  if (!view || fresh || game !== state.game) {
    state.game = game; state.seen = length;
    return;
  }
  if (length < state.seen) { state.seen = length; return; }
  const events = storyEvents(view).filter((ev) => ev.index >= state.seen && ev.index < length);
  state.seen = length;
  for (const ev of events) {
    const node = sentence(view, ev);
    speak(node.textContent);
    if (SOUND[ev.kind]) play(SOUND[ev.kind]);
    if (ev.kind === "challenge") continue; // the banner says it; the screen shows the outcome
    state.queue.push({ node, kind: ev.kind, key: ev.key, at: performance.now() });
    if (state.queue.length > KEEP) {
      const drop = state.queue.findIndex((x) => !KEPT_KINDS.has(x.kind));
      state.queue.splice(drop < 0 ? 0 : drop, 1);
    }
  }
  if (state.queue.length && !state.showing) next();
}

// The page was drawn again (the pinned decision may have grown or gone): move the
// announcement on screen to where the eye is now.
export function placeAnnouncement() {
  const el = box();
  if (el && state.showing) place(el);
}

// Whether an announcement is on screen or waiting (the end of a game waits for them).
export function announcing() { return state.showing || state.queue.length > 0; }

// Stop showing announcements now (what happened stays counted: nothing is replayed).
export function hushAnnouncements() {
  clearTimeout(state.timer); cancelAnimationFrame(state.raf); state.raf = 0;
  state.queue = []; state.showing = false;
  box()?.classList.remove("show");
}

export function resetAnnouncements() {
  clearTimeout(state.timer); cancelAnimationFrame(state.raf); state.raf = 0;
  state.queue = []; state.showing = false; state.game = null; state.seen = 0;
  box()?.classList.remove("show");
}
