// The decision panel: only the moves the server says are legal for this seat, as buttons.
// No rules here: the page groups and labels `view.legal`, nothing more.
import { cardFace } from "./cards.js";
import { h, tNodes } from "./dom.js";
import { num, t } from "./i18n.js";
import { actionHint, allegiancePanel, forbiddenChips, picksSeat, REFORM_VERBS, selfChip, unavailableActions } from "./reformation.js";
import { seatName } from "./seats.js";
import { describePending } from "./words.js";

const ACTIONS = new Set(["income", "foreign_aid", "coup", "tax", "assassinate", "steal", "exchange", "examine", "draft",
  "convert", "embezzle", "allegiance"]);
const TARGETED = new Set(["coup", "assassinate", "steal", "examine"]);
const CLAIMS = { tax: "duke", assassinate: "assassin", steal: "captain", examine: "inquisitor" };

export function parse(move) {
  const [verb, ...args] = String(move).split(" ");
  return { verb, args, move: String(move) };
}

// UI state that survives re-renders of the same decision. `shownAt`: when the decision
// appeared; for GUARD_MS after it the buttons ignore clicks (a tap meant for the last
// question never answers the next one).
export const ui = { key: "", verb: null, picked: [], shownAt: 0 };
export const GUARD_MS = 400;
const COSTS = { coup: 7, assassinate: 3 }; // shown on the disabled buttons; the server decides

export function guardLeft() { return Math.max(0, ui.shownAt + GUARD_MS - performance.now()); }

// One decision: the same while others pass or chat, new when this seat's question changes.
export function decisionKey(view) {
  const turns = (view.history || []).filter((e) => ACTIONS.has(String(e.move).split(" ")[0])).length;
  const pend = view.pending || {};
  return `${turns}|${view.phase}|${pend.block?.seat ?? ""}|${pend.challenger ?? ""}|${(view.legal || []).join(",")}`;
}

export function resetIfNew(view) {
  const key = decisionKey(view);
  if (key !== ui.key) {
    ui.key = key; ui.verb = null; ui.picked = [];
    ui.shownAt = (view.legal || []).length ? performance.now() : 0;
  }
}

// Map seat -> move for the verb being targeted.
export function targetsFor(view) {
  const map = new Map();
  if (!ui.verb) return map;
  for (const m of (view.legal || []).map(parse)) {
    if (m.verb === ui.verb && m.args.length === 1) map.set(Number(m.args[0]), m.move);
  }
  return map;
}

const off = (ctx) => ctx.busy || ctx.offline;

function actButton(labelNode, move, ctx, extra = {}) {
  const cls = `btn act ${extra.cls || ""}`;
  return h("button", { type: "button", class: cls, dataset: { move }, disabled: off(ctx),
    onclick: () => ctx.onMove(move) }, labelNode);
}

function variantCard(view) { return view.settings?.characters === "inquisitor" ? "inquisitor" : "ambassador"; }

// Returns the DOM for the decision panel: its buttons numbered for the keyboard (1–9),
// and, for a moment after a new decision appears, not clickable yet.
export function decisionPanel(ctx) {
  const panel = buildPanel(ctx);
  // P pass, C challenge, B block (when there is one block); digits for the rest, in order.
  const blocks = panel.querySelectorAll('button[data-move^="block "]').length;
  let n = 0;
  for (const b of panel.querySelectorAll("button")) {
    if (b.disabled) continue;
    const move = b.dataset.move || "";
    let key = { pass: "P", challenge: "C" }[move] || (blocks === 1 && move.startsWith("block ") ? "B" : null);
    if (!key && n < 9) { n += 1; key = String(n); b.dataset.key = key; }
    if (!key) continue;
    b.setAttribute("aria-keyshortcuts", key);
    b.append(h("kbd", { class: "key", "aria-hidden": "true", text: key }));
  }
  const left = guardLeft();
  if (left > 0) {
    for (const b of panel.querySelectorAll("button:not([disabled])")) { b.disabled = true; b.dataset.guard = ""; }
    // The screen drawn again once the guard is over: the page's buttons are its own, kept
    // by the in-place update, not this panel's.
    clearTimeout(guardTimer);
    guardTimer = setTimeout(() => ctx.rerender(), left);
  }
  return panel;
}
let guardTimer = 0;

function buildPanel(ctx) {
  const { view } = ctx;
  const legal = (view.legal || []).map(parse);
  const panel = h("div", { class: "decision", dataset: { phase: view.phase } });
  if (!legal.length) return panel;
  const rerender = () => ctx.rerender();
  const me = ctx.me;
  const my = view.players[me];

  switch (view.phase) {
    case "action": {
      if (ui.verb) {
        const targets = targetsFor(view);
        const chips = [...targets].map(([seat, move]) =>
          h("button", { type: "button", class: "btn chip target-chip", dataset: { move, seat: String(seat) },
            disabled: off(ctx), onclick: () => ctx.onMove(move) }, seatName(view, seat)));
        panel.append(
          h("p", { class: "prompt", text: t(`act.choose_target.${ui.verb}`) }),
          h("div", { class: "btn-row" }, selfChip(ctx, ui.verb, off(ctx)), ...chips, ...forbiddenChips(ctx, ui.verb, targets),
            h("button", { type: "button", class: "btn ghost", dataset: { move: "cancel" },
              onclick: () => { ui.verb = null; rerender(); }, text: t("act.cancel") })));
        break;
      }
      const forced = legal.every((m) => m.verb === "coup");
      panel.append(h("p", { class: "prompt", text: forced ? t("act.forced_coup", { n: num(my.coins) }) : t("act.your_turn") }));
      const general = h("div", { class: "btn-row general" });
      const claims = h("div", { class: "btn-row claims" });
      const seen = new Set();
      for (const m of legal) {
        if (seen.has(m.verb)) continue;
        seen.add(m.verb);
        const claim = m.verb === "exchange" ? variantCard(view) : CLAIMS[m.verb];
        const label = h("span", { class: "act-label" },
          h("span", { class: "act-name", text: t(`act.${m.verb}`) }),
          h("span", { class: "act-hint", text: actionHint(view, m.verb) }));
        const btnCls = claim ? `claim c-${claim}` : REFORM_VERBS.has(m.verb) ? "general reform" : "general";
        const btn = TARGETED.has(m.verb) || picksSeat(m.verb)
          ? h("button", { type: "button", class: `btn act ${btnCls}`, dataset: { verb: m.verb }, disabled: off(ctx),
            onclick: () => { ui.verb = m.verb; rerender(); } }, label)
          : actButton(label, m.move, ctx, { cls: btnCls });
        if (!TARGETED.has(m.verb)) btn.dataset.verb = m.verb;
        if (claim) btn.prepend(h("span", { class: `claim-dot c-${claim}`, title: t(`char.${claim}`) }));
        (claim ? claims : general).append(btn);
      }
      if (!forced) {
        for (const [verb, cost] of Object.entries(COSTS)) {
          if (seen.has(verb) || my.coins >= cost) continue;
          const claim = CLAIMS[verb];
          const why = t("act.need_coins", { n: num(cost), have: num(my.coins) });
          const btn = h("button", { type: "button", class: `btn act ${claim ? `claim c-${claim}` : "general"} unaffordable`,
            disabled: true, dataset: { verb }, title: why },
          h("span", { class: "act-label" }, h("span", { class: "act-name", text: t(`act.${verb}`) }),
            h("span", { class: "act-hint", text: why })));
          if (claim) btn.prepend(h("span", { class: `claim-dot c-${claim}`, title: t(`char.${claim}`) }));
          (claim ? claims : general).append(btn);
        }
        general.append(...unavailableActions(ctx, seen));
      }
      panel.append(general);
      if (claims.childNodes.length) panel.append(h("p", { class: "sub", text: t("act.claims_note") }), claims);
      break;
    }
    case "react": case "block": case "challenge_block": {
      const canBlock = legal.some((m) => m.verb === "block");
      const canChallenge = legal.some((m) => m.verb === "challenge");
      const key = view.phase === "challenge_block" ? "act.prompt.challenge_block"
        : view.phase === "block" ? "act.prompt.block"
          : canBlock && canChallenge ? "act.prompt.react"
            : canBlock ? "act.prompt.react_block" : "act.prompt.react_challenge";
      // The question itself, in the panel: on a phone the banner may be off screen.
      panel.append(h("p", { class: "question" }, describePending(view, me)), h("p", { class: "prompt", text: t(key) }));
      const row = h("div", { class: "btn-row" });
      for (const m of legal) {
        if (m.verb === "pass") row.append(actButton(t("act.pass"), m.move, ctx, { cls: "pass" }));
        else if (m.verb === "challenge") row.append(actButton(t("act.challenge"), m.move, ctx, { cls: "danger" }));
        else if (m.verb === "block") {
          row.append(actButton(tNodes("act.block_as", { card: t(`char.${m.args[0]}`) }), m.move, ctx,
            { cls: `claim c-${m.args[0]}` }));
        }
      }
      panel.append(row);
      break;
    }
    case "prove": {
      panel.append(h("p", { class: "prompt", text: t("act.prompt.prove") }));
      const row = h("div", { class: "btn-row" });
      for (const m of legal.filter((x) => x.verb === "reveal")) {
        row.append(actButton(tNodes("act.reveal", { card: t(`char.${m.args[0]}`) }), m.move, ctx, { cls: `claim c-${m.args[0]}` }));
      }
      for (const m of legal.filter((x) => x.verb === "lose")) {
        row.append(actButton(tNodes("act.decline_lose", { card: t(`char.${m.args[0]}`) }), m.move, ctx, { cls: "danger" }));
      }
      panel.append(row);
      break;
    }
    case "lose": {
      panel.append(h("p", { class: "prompt", text: t("act.prompt.lose") }));
      panel.append(h("div", { class: "card-pick" }, ...legal.map((m) =>
        cardFace(m.args[0], { size: "md", onClick: () => ctx.onMove(m.move), disabled: off(ctx) }))));
      panel.lastChild.querySelectorAll("button").forEach((b, i) => { b.dataset.move = legal[i].move; });
      break;
    }
    case "exchange": panel.append(exchangePicker(ctx, legal, my)); break;
    case "show": {
      const examiner = view.pending?.actor;
      panel.append(h("p", { class: "prompt" }, tNodes("act.prompt.show", { name: seatName(view, examiner) })));
      const pick = h("div", { class: "card-pick" });
      for (const m of legal) {
        const el = cardFace(m.args[0], { size: "md", onClick: () => ctx.onMove(m.move), disabled: off(ctx) });
        el.dataset.move = m.move;
        pick.append(el);
      }
      panel.append(pick);
      break;
    }
    case "examine": {
      const shown = view.private?.shown;
      panel.append(h("p", { class: "prompt" }, tNodes("act.prompt.examine", {
        name: seatName(view, shown?.seat ?? view.pending?.target) })));
      if (shown?.card) panel.append(h("div", { class: "card-pick" }, cardFace(shown.card, { size: "md" })));
      const row = h("div", { class: "btn-row" });
      for (const m of legal) row.append(actButton(t(`act.${m.verb}`), m.move, ctx, { cls: m.verb === "swap" ? "danger" : "" }));
      panel.append(row);
      break;
    }
    case "allegiance": panel.append(allegiancePanel(ctx, legal, actButton)); break;
    case "draft": {
      panel.append(h("p", { class: "prompt", text: t("act.prompt.draft") }));
      const pick = h("div", { class: "card-pick" });
      for (const m of legal) {
        const el = cardFace(m.args[0], { size: "md", onClick: () => ctx.onMove(m.move), disabled: off(ctx) });
        el.dataset.move = m.move;
        pick.append(el);
      }
      panel.append(pick);
      break;
    }
    default: {
      const row = h("div", { class: "btn-row" });
      for (const m of legal) row.append(actButton(m.move, m.move, ctx));
      panel.append(row);
    }
  }
  return panel;
}

function sameCards(a, b) {
  return a.length === b.length && [...a].sort().join(" ") === [...b].sort().join(" ");
}

function exchangePicker(ctx, legal, my) {
  const { view } = ctx;
  const drawn = view.private?.drawn || [];
  const pool = [...(my.cards || []).map((c) => ({ c, from: "hand" })), ...drawn.map((c) => ({ c, from: "court" }))];
  const need = legal[0]?.args.length || my.influence;
  const box = h("div", { class: "exchange" });
  box.append(h("p", { class: "prompt", text: t("act.prompt.exchange", { n: num(need) }) }));
  const pick = h("div", { class: "card-pick" });
  pool.forEach((item, i) => {
    const selected = ui.picked.includes(i);
    const el = cardFace(item.c, {
      size: "md", selected, tag: item.from === "court" ? t("act.drawn") : t("act.yours"),
      onClick: () => {
        if (selected) ui.picked = ui.picked.filter((x) => x !== i);
        else if (ui.picked.length < need) ui.picked = [...ui.picked, i];
        else ui.picked = [...ui.picked.slice(1), i];
        ctx.rerender();
      },
    });
    el.dataset.index = String(i);
    pick.append(el);
  });
  box.append(pick);
  const chosen = ui.picked.map((i) => pool[i].c);
  const match = legal.find((m) => m.verb === "keep" && sameCards(m.args, chosen));
  const confirm = h("button", { type: "button", class: "btn primary", dataset: { move: match ? match.move : "" },
    disabled: !match || off(ctx), onclick: () => match && ctx.onMove(match.move) },
  match ? t("act.keep", { cards: chosen.map((c) => t(`char.${c}`)).join(t("log.and")) })
    : t("act.keep_choose", { n: num(need - chosen.length) }));
  box.append(h("div", { class: "btn-row" }, confirm));
  return box;
}
