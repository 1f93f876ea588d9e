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

const state = { game: null, seen: 0, queue: [], timer: 0, showing: false };

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
// banner) and the badge of the seat whose claim is in question stay in view. The first
// place that covers neither: just above a decision pinned to the bottom (phones), over the
// centre of the table, just under or over the now-line, under the top bar; else the one
// that covers least.
function place(el) {
  const item = el.firstElementChild;
  if (!item) return;
  const dock = document.querySelector("#screen .dock.deciding");
  const pinned = dock && getComputedStyle(dock).position === "fixed" ? dock.getBoundingClientRect() : null;
  const floor = pinned ? pinned.top - 6 : innerHeight - 6;
  const high = item.offsetHeight;
  const bar = document.querySelector(".topbar")?.getBoundingClientRect().bottom || 56;
  const now = document.querySelector("#screen .now")?.getBoundingClientRect();
  const centre = document.querySelector("#screen .centre")?.getBoundingClientRect();
  const guard = [now, ...claimantTiles()].filter((r) => r && r.bottom > 0 && r.top < innerHeight && r.width);
  const tops = [];
  if (pinned) tops.push(floor - high - 4);
  if (centre) tops.push(centre.top + 6);
  if (now) tops.push(now.bottom + 6, now.top - high - 6);
  tops.push(bar + 8, floor - high - 4);
  const box = item.getBoundingClientRect();
  let best = null;
  for (const top of tops) {
    if (top < bar + 4 || top + high > floor) continue;
    const covered = guard.reduce((sum, r) => sum + overlap(r, { top, bottom: top + high, left: box.left, right: box.right }), 0);
    if (!best || covered < best.covered) best = { top, covered };
    if (!covered) break;
  }
  el.style.bottom = "auto";
  el.style.top = `${Math.round(best ? best.top : bar + 8)}px`;
}

function overlap(a, b) {
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const hgt = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return w > 0 && hgt > 0 ? w * hgt : 0;
}

// The tiles of the seats whose claim or block is in question now.
function claimantTiles() {
  const pend = window.coupApp?.msg?.game?.pending;
  if (!pend) return [];
  const seats = [pend.actor, pend.block?.seat].filter((s) => s !== null && s !== undefined);
  return seats.map((s) => document.querySelector(`#screen .seat[data-seat="${s}"]`)?.getBoundingClientRect());
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
  clearTimeout(state.timer);
  state.queue = []; state.showing = false;
  box()?.classList.remove("show");
}

export function resetAnnouncements() {
  clearTimeout(state.timer);
  state.queue = []; state.showing = false; state.game = null; state.seen = 0;
  box()?.classList.remove("show");
}
