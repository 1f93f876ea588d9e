// "Learn to play": the guided first game. The table is a real one (setting `tutorial`):
// a fixed deal, the bots' moves scripted by the server (coup/server/tutorial.py, whose
// script and steps /api/config lists). This module shows the steps above the table: each
// points at its part of the table, waits for the player's move or for "Next", and says
// what happened. Back re-reads a step, Skip plays the step's move, Leave goes home;
// progress is kept in this browser (lessons.js).
import { guardLeft } from "./actions.js";
import { speak } from "./announce.js";
import { h } from "./dom.js";
import { num, t } from "./i18n.js";
import { EPILOGUES, progress, save, startTutorial } from "./lessons.js";
import { seatName } from "./seats.js";

const TARGETS = {
  me: ".me", treasury: ".pile.treasury", court: ".pile.court", reserve: ".pile.reserve",
  decision: ".me .dock", log: ".panel.log",
};
let spoken = ""; // the step last told to the screen reader
let focused = ""; // what the guide last focused: the step and the control

// The game's moves the script lists (neither a pass nor one the engine played), and how
// many of the script's the game played; null once it left the script.
export function position(script, history) {
  const moves = (history || []).filter((e) => !e.forced && e.move !== "pass").slice(0, script.moves.length);
  for (let i = 0; i < moves.length; i += 1) {
    const want = script.moves[i];
    if (moves[i].seat !== want.seat || !same(want.move, String(moves[i].move))) return null;
  }
  return moves.length;
}

function same(want, move) {
  const [verb, arg] = want.split(" ");
  return move === want || (arg === "*" && move.split(" ")[0] === verb);
}

// The legal move a step waits for ("keep *": the first keep), or null.
export function stepMove(step, legal) {
  if (!step?.move) return null;
  return (legal || []).find((m) => same(step.move, m)) || null;
}

function guide(app) {
  const msg = app.msg;
  const name = msg?.table?.settings?.tutorial;
  const script = name ? app.config.tutorials?.[name] : null;
  if (!script || !msg.game || msg.you?.seat !== 0) return null;
  let p = progress();
  if (!p || p.table !== msg.table.id) { p = { table: msg.table.id, name, step: 0, back: 0, closed: false }; save(p); }
  return { script, p, view: msg.game, name };
}

// The guide's panel for the table screen (null when this table has none or it was closed).
export function tutorialPanel(app) {
  const g = guide(app);
  if (!g) return null;
  const { script, p, view } = g;
  if (p.closed) return view.over ? whatNext(app, g) : null;
  const steps = script.steps;
  const at = position(script, view.history);
  // steps that wait for a move are done once the game went past their place
  while (p.step < steps.length && steps[p.step].move && at !== null && at > steps[p.step].at) p.step += 1;
  p.back = Math.min(p.back || 0, p.step);
  save(p);
  if (at === null) return offScript(app, g);
  if (p.step >= steps.length) { p.closed = true; save(p); return view.over ? whatNext(app, g) : null; }
  const index = p.step - p.back;
  const step = steps[index];
  const reviewing = p.back > 0;
  const reached = at >= step.at;
  const names = { bot1: seatName(view, 1), bot2: seatName(view, 2), you: seatName(view, 0) };
  const text = reached || reviewing ? t(`tut.${step.key}`, names) : t("tut.waiting");
  const move = !reviewing && reached ? stepMove(step, view.legal) : null;
  const readStep = !step.move || reviewing;
  const next = readStep ? h("button", { type: "button", class: "btn primary", id: "tut-next", onclick: () => {
    if (p.back > 0) p.back -= 1; else p.step += 1;
    save(p); app.rerender(true);
  }, text: t(p.step + 1 >= steps.length && !reviewing ? "tut.finish" : "tut.next") }) : null;
  const panel = h("section", { class: "tutorial", id: "tutorial", "aria-labelledby": "tut-title",
    dataset: { step: step.key, target: step.target, waiting: reached || reviewing ? "" : "1" } },
  h("div", { class: "tut-head" },
    h("h2", { class: "tut-title", id: "tut-title", text: t(`tut.title.${g.name}`) }),
    h("span", { class: "tut-count", text: t("tut.count", { n: num(index + 1), of: num(steps.length) }) })),
  h("p", { class: "tut-text", id: "tut-text", text }),
  h("div", { class: "tut-buttons" },
    h("button", { type: "button", class: "btn ghost", id: "tut-back", disabled: index === 0, onclick: () => {
      p.back = (p.back || 0) + 1; save(p); app.rerender(true);
    }, text: t("tut.back") }),
    next,
    !readStep ? h("button", { type: "button", class: "btn", id: "tut-skip", disabled: !move, onclick: () => {
      if (move) afterGuard(() => app.move(move));
    }, text: t("tut.skip") }) : null,
    h("button", { type: "button", class: "btn ghost", id: "tut-leave", onclick: () => app.go("/"), text: t("tut.leave") })));
  panel.dataset.move = move || "";
  return panel;
}

// Run `fn` once the decision's click guard is over (a new decision takes no click for a
// moment; setTimeout may fire a fraction of a millisecond early: try again then).
function afterGuard(fn) {
  const left = guardLeft();
  if (left > 0) setTimeout(() => afterGuard(fn), left + 5); else fn();
}

// The player left the script: the bots play on their own and so does the player.
function offScript(app, g) {
  const { p } = g;
  return h("section", { class: "tutorial done", id: "tutorial", "aria-labelledby": "tut-title", dataset: { step: "off_script", target: "me" } },
    h("div", { class: "tut-head" }, h("h2", { class: "tut-title", id: "tut-title", text: t(`tut.title.${g.name}`) })),
    h("p", { class: "tut-text", id: "tut-text", text: t("tut.off_script") }),
    h("div", { class: "tut-buttons" }, h("button", { type: "button", class: "btn primary", id: "tut-next", onclick: () => {
      p.closed = true; save(p); app.rerender(true);
    }, text: t("tut.finish") })));
}

// After the game: the epilogues for the other tutorials.
function whatNext(app, g) {
  const others = EPILOGUES.filter((n) => n !== g.name);
  return h("section", { class: "tutorial done", id: "tutorial", "aria-labelledby": "tut-title", dataset: { step: "next", target: "" } },
    h("div", { class: "tut-head" }, h("h2", { class: "tut-title", id: "tut-title", text: t("tut.what_next") })),
    h("div", { class: "tut-buttons" }, ...others.map((n) => h("button", { type: "button", class: "btn", dataset: { tutorial: n },
      onclick: () => startTutorial(app, n, app.name() || t("tut.player")), text: t(`tut.start.${n}`) })),
    h("button", { type: "button", class: "btn ghost", id: "tut-leave", onclick: () => app.go("/"), text: t("home.go_home") })));
}

// After each render of the table: the step's highlight, the move it waits for, focus and
// the screen reader when the step changed.
export function markTutorial(root, panel) {
  for (const el of root.querySelectorAll(".tut-target, .tut-move")) el.classList.remove("tut-target", "tut-move");
  if (!panel) { spoken = ""; return; }
  const target = panel.dataset.target || "";
  const seat = target.match(/^seat:(\d+)$/);
  const el = seat ? root.querySelector(`.seat[data-seat="${seat[1]}"]`) : TARGETS[target] ? root.querySelector(TARGETS[target]) : null;
  el?.classList.add("tut-target");
  const move = panel.dataset.move;
  let button = null;
  if (move) {
    const [verb] = move.split(" ");
    button = root.querySelector(`.decision button[data-move="${CSS.escape(move)}"]`)
      || (move.startsWith("keep ") ? root.querySelector(".exchange .btn.primary:not([disabled])")
        || root.querySelector('.exchange .card-pick button[aria-pressed="false"]') : null)
      || root.querySelector(`.decision button[data-verb="${CSS.escape(verb)}"]`);
    button?.classList.add("tut-move");
  }
  const text = panel.querySelector(".tut-text")?.textContent || "";
  const said = `${panel.dataset.step}|${text}`;
  const control = button ? `${move}|${button.dataset.move || button.dataset.verb || button.dataset.index || ""}` : "next";
  if (said !== spoken) {
    spoken = said;
    speak(text);
    // after this render settles (a restored focus may have scrolled the page)
    requestAnimationFrame(() => { if ((el || panel).isConnected) (el || panel).scrollIntoView({ block: "nearest" }); });
  }
  const focus = button || panel.querySelector("#tut-next");
  const changed = `${said}|${control}` !== focused;
  focused = `${said}|${control}`;
  const lost = !document.activeElement || document.activeElement === document.body;
  if (!focus || !(changed || lost)) return;
  // Deferred past the guard, it focuses only if no later render chose otherwise: the page's
  // elements are kept across renders, so the control it meant may be there but no longer the
  // one wanted (a card just picked by keyboard, where Confirm is now the step's control).
  const intent = focused;
  const go = () => { if (focused === intent && focus.isConnected && !focus.disabled) focus.focus({ preventScroll: true }); };
  if (!focus.disabled) go(); else afterGuard(() => setTimeout(go, 20));
}
