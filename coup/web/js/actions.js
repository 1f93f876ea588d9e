// The decision panel: only the moves the server says are legal for this seat, as buttons.
// No rules here: the page groups and labels `view.legal`, nothing more.
import { cardFace } from "./cards.js";
import { h, tNodes } from "./dom.js";
import { num, t } from "./i18n.js";
import { seatName } from "./seats.js";

const TARGETED = new Set(["coup", "assassinate", "steal", "examine"]);
const CLAIMS = { tax: "duke", assassinate: "assassin", steal: "captain", examine: "inquisitor" };

export function parse(move) {
  const [verb, ...args] = String(move).split(" ");
  return { verb, args, move: String(move) };
}

// UI state that survives re-renders of the same decision.
export const ui = { key: "", verb: null, picked: [] };

export function decisionKey(view) {
  return `${view.history?.length ?? 0}|${view.phase}|${(view.legal || []).join(",")}`;
}

export function resetIfNew(view) {
  const key = decisionKey(view);
  if (key !== ui.key) { ui.key = key; ui.verb = null; ui.picked = []; }
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

function actButton(labelNode, move, ctx, extra = {}) {
  const cls = `btn act ${extra.cls || ""}`;
  return h("button", { type: "button", class: cls, dataset: { move }, disabled: ctx.busy,
    onclick: () => ctx.onMove(move) }, labelNode);
}

function variantCard(view) { return view.settings?.characters === "inquisitor" ? "inquisitor" : "ambassador"; }

// Returns the DOM for the decision panel.
export function decisionPanel(ctx) {
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
        const chips = [...targetsFor(view)].map(([seat, move]) =>
          h("button", { type: "button", class: "btn chip target-chip", dataset: { move, seat: String(seat) },
            disabled: ctx.busy, onclick: () => ctx.onMove(move) }, seatName(view, seat)));
        panel.append(
          h("p", { class: "prompt", text: t(`act.choose_target.${ui.verb}`) }),
          h("div", { class: "btn-row" }, ...chips,
            h("button", { type: "button", class: "btn ghost", dataset: { move: "cancel" },
              onclick: () => { ui.verb = null; rerender(); }, text: t("act.cancel") })));
        break;
      }
      panel.append(h("p", { class: "prompt", text: t("act.your_turn") }));
      const general = h("div", { class: "btn-row general" });
      const claims = h("div", { class: "btn-row claims" });
      const seen = new Set();
      for (const m of legal) {
        if (seen.has(m.verb)) continue;
        seen.add(m.verb);
        const claim = m.verb === "exchange" ? variantCard(view) : CLAIMS[m.verb];
        const label = h("span", { class: "act-label" },
          h("span", { class: "act-name", text: t(`act.${m.verb}`) }),
          h("span", { class: "act-hint", text: t(`act.${m.verb}.hint`) }));
        const btnCls = claim ? `claim c-${claim}` : "general";
        const btn = TARGETED.has(m.verb)
          ? h("button", { type: "button", class: `btn act ${btnCls}`, dataset: { verb: m.verb }, disabled: ctx.busy,
            onclick: () => { ui.verb = m.verb; rerender(); } }, label)
          : actButton(label, m.move, ctx, { cls: btnCls });
        if (!TARGETED.has(m.verb)) btn.dataset.verb = m.verb;
        if (claim) btn.prepend(h("span", { class: `claim-dot c-${claim}`, title: t(`char.${claim}`) }));
        (claim ? claims : general).append(btn);
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
      panel.append(h("p", { class: "prompt", text: t(key) }));
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
        cardFace(m.args[0], { size: "md", onClick: () => ctx.onMove(m.move), disabled: ctx.busy }))));
      panel.lastChild.querySelectorAll("button").forEach((b, i) => { b.dataset.move = legal[i].move; });
      break;
    }
    case "exchange": panel.append(exchangePicker(ctx, legal, my)); break;
    case "show": {
      const examiner = view.pending?.actor;
      panel.append(h("p", { class: "prompt" }, tNodes("act.prompt.show", { name: seatName(view, examiner) })));
      const pick = h("div", { class: "card-pick" });
      for (const m of legal) {
        const el = cardFace(m.args[0], { size: "md", onClick: () => ctx.onMove(m.move), disabled: ctx.busy });
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
    case "draft": {
      panel.append(h("p", { class: "prompt", text: t("act.prompt.draft") }));
      const pick = h("div", { class: "card-pick" });
      for (const m of legal) {
        const el = cardFace(m.args[0], { size: "md", onClick: () => ctx.onMove(m.move), disabled: ctx.busy });
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
    disabled: !match || ctx.busy, onclick: () => match && ctx.onMove(match.move) },
  match ? t("act.keep", { cards: chosen.map((c) => t(`char.${c}`)).join(t("log.and")) })
    : t("act.keep_choose", { n: num(need - chosen.length) }));
  box.append(h("div", { class: "btn-row" }, confirm));
  return box;
}
