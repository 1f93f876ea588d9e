// Announcements where the eye is: each public event of the game, queued, about two seconds
// each, never in the way of a click (pointer-events: none). The same words go to a live
// region for screen readers. A (re)connection never replays what happened before it.
import { h, tNodes } from "./dom.js";
import { play } from "./sound.js";
import { storyEvents } from "./story.js";
import { char, who } from "./words.js";

const SHOW_MS = 2000;
const QUICK_MS = 1300; // when several wait in the queue
const KEEP = 4; // at most this many waiting; older ones are dropped
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
  return tNodes(ev.key, p);
}

// Where the eye is: just above a decision pinned to the bottom (phones), else over the
// centre of the table (the banner), else under the top bar.
function place(el) {
  const dock = document.querySelector("#screen .dock.deciding");
  if (dock && getComputedStyle(dock).position === "fixed") {
    el.style.top = "auto";
    el.style.bottom = `${dock.offsetHeight + 10}px`;
    return;
  }
  const centre = document.querySelector("#screen .centre")?.getBoundingClientRect();
  const top = centre && centre.bottom > 80 && centre.top < innerHeight - 60 ? Math.max(64, centre.top + 6) : 80;
  el.style.bottom = "auto";
  el.style.top = `${top}px`;
}

function next() {
  const el = box();
  const item = state.queue.shift();
  if (!el || !item) { state.showing = false; el?.classList.remove("show"); return; }
  state.showing = true;
  place(el);
  el.replaceChildren(h("div", { class: `announce-item k-${item.kind}` }, item.node));
  el.classList.remove("show");
  void el.offsetWidth; // restart the animation
  el.classList.add("show");
  state.timer = setTimeout(next, state.queue.length ? QUICK_MS : SHOW_MS);
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
    state.queue.push({ node, kind: ev.kind, key: ev.key });
    if (state.queue.length > KEEP) state.queue.shift();
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
