// Seat tiles: who sits where, their coins, face-down and face-up cards, and their state.
import { cardBack, coinIcon } from "./cards.js";
import { h } from "./dom.js";
import { num, t } from "./i18n.js";
import { playerName } from "./names.js";
import { allegianceBadge } from "./reformation.js";
import { claimsText } from "./story.js";

const REACTING = new Set(["react", "block", "challenge_block"]);

export function seatName(view, seat) { return playerName(view, seat); }

// State words for one seat: thinking / passed / out / disconnected / idle / bot.
export function seatStates(ctx, seat) {
  const { view, presence = {} } = ctx;
  const p = view.players[seat];
  const states = [];
  if (!p.alive && !view.over) states.push("out");
  else if (view.over && view.winner === seat) states.push("winner");
  else if (view.over && !p.alive) states.push("out");
  if (!view.over && p.alive && (view.waiting || []).includes(seat)) states.push("thinking");
  if (REACTING.has(view.phase) && (view.passed || []).includes(seat)) states.push("passed");
  const pr = presence[seat];
  if (pr === "disconnected" || pr === "away") states.push("disconnected");
  else if (ctx.idle?.has(seat) && !view.over && p.alive) states.push("idle");
  else if (ctx.stalled?.has(seat) && !view.over && p.alive) states.push("stalled");
  const standin = ctx.standins?.[seat];
  if (standin && !view.over) states.push(standin === "left" ? "left" : "standin");
  return states;
}

function badge(state) {
  return h("span", { class: `badge b-${state}`, dataset: { state }, text: t(`seat.${state}`) });
}

// One opponent (or, for spectators, any player). ctx.targets: Map seat -> move (when choosing a target).
export function seatTile(ctx, seat) {
  const { view } = ctx;
  const p = view.players[seat];
  const states = seatStates(ctx, seat);
  const isTurn = !view.over && view.turn === seat;
  const target = ctx.targets?.get(seat);
  const pend = view.pending;
  const roles = [];
  if (pend && pend.actor === seat) roles.push("actor");
  if (pend && pend.target === seat) roles.push("target");
  const cls = ["seat", ...states.map((s) => `is-${s}`), isTurn ? "is-turn" : "", target ? "targetable" : "",
    ...roles.map((r) => `is-${r}`), ctx.bots?.has(seat) ? "is-bot" : ""].filter(Boolean).join(" ");
  const cards = [];
  const hidden = p.cards && (view.over || seat === ctx.me) ? p.cards : null;
  if (hidden) for (const c of hidden) cards.push(deadCard(c, false));
  else for (let i = 0; i < p.influence; i++) cards.push(cardBack("sm"));
  for (const c of p.revealed || []) cards.push(deadCard(c));
  const claimed = claimsText(view, seat, ctx.claims);
  const known = view.known?.hands?.[String(seat)];
  const body = [
    h("div", { class: "seat-head" },
      h("span", { class: `avatar seat-colour-${seat % 10}`, text: initial(seatName(view, seat)) }),
      h("span", { class: "seat-name", text: seatName(view, seat) }),
      allegianceBadge(view, seat, { short: true }),
      ctx.bots?.has(seat) ? h("span", { class: "tag-bot", text: t("seat.bot") }) : null,
      isTurn ? h("span", { class: "turn-mark", title: t("seat.turn"), text: t("seat.turn") }) : null),
    h("div", { class: "seat-body" },
      h("div", { class: "coins", title: t("seat.coins") }, coinIcon(), h("span", { class: "coin-count", text: num(p.coins) })),
      h("div", { class: "seat-cards" }, ...cards)),
    h("div", { class: "seat-states" }, ...states.map(badge),
      roles.includes("target") ? h("span", { class: "badge b-target", text: t("seat.targeted") }) : null,
      claimBubble(view, seat)),
    stallClock(ctx, seat),
    claimed ? h("div", { class: "seat-claimed", title: t("seat.claimed_title") },
      h("span", { class: "visually-hidden", text: `${t("seat.claimed_title")}: ` }), claimed) : null,
  ];
  if (known && known.length && !view.over) {
    body.push(h("div", { class: "seat-known", text: t("seat.known", { cards: known.map((c) => t(`char.${c}`)).join(t("log.and")) }) }));
  }
  if (ctx.canHand?.(seat) && !target) { // (never a button inside the seat's own button)
    body.push(h("button", { type: "button", class: "btn chip hand-to-bot", dataset: { handSeat: String(seat) },
      onclick: (ev) => { ev.stopPropagation(); ctx.onHandToBot(seat); },
      "aria-label": t("seat.hand_to_bot_aria", { name: seatName(view, seat) }), text: t("seat.hand_to_bot"),
      title: t(states.includes("disconnected") ? "seat.hand_why_away" : states.includes("stalled") ? "seat.hand_why_stalled" : "seat.hand_why_idle",
        { name: seatName(view, seat) }) }));
  }
  const attrs = { class: cls, dataset: { seat: String(seat), states: states.join(" ") } };
  if (target) {
    return h("button", { ...attrs, type: "button", "aria-label": t("act.target_aria", { name: seatName(view, seat) }),
      onclick: () => ctx.onMove(target) }, ...body);
  }
  return h("div", attrs, ...body);
}

// A connected player who has not answered for long: the clock everyone sees runs on
// their tile too (docs/protocol.md, *Timers*; the app ticks every `.countdown`).
function stallClock(ctx, seat) {
  const d = ctx.msg?.table?.deadline;
  if (!d || d.kind !== "stall" || !(d.seats || []).includes(seat) || ctx.view.over) return null;
  return h("div", { class: "countdown seat-clock k-stall", title: t("deadline.stall"),
    dataset: { at: String(d.at), seconds: String(d.seconds) } },
  h("div", { class: "countdown-bar" }, h("div", { class: "countdown-fill" })), h("span", { class: "countdown-text" }));
}

// "claims Duke" / "blocks: Contessa" on the tile of whoever is claiming right now.
function claimBubble(view, seat) {
  const pend = view.pending;
  if (!pend || view.over) return null;
  let key = null;
  let card = null;
  if (pend.block && pend.block.seat === seat) { key = "seat.blocks"; card = pend.block.claim; }
  else if (pend.actor === seat && pend.claim) { key = "seat.claims"; card = pend.claim; }
  if (!key) return null;
  return h("span", { class: `badge b-claim c-${card}`, dataset: { claim: card } }, t(key, { card: t(`char.${card}`) }));
}

// A face-up (lost) card, small but with the character's name on it.
// (`lost` false: a face-down card shown at the end of the game.)
export function deadCard(c, lost = true) {
  return h("span", { class: `${lost ? "dead-card" : "shown-card"} c-${c}`, dataset: { card: c },
    title: lost ? `${t(`char.${c}`)} — ${t("card.lost")}` : t(`char.${c}`) },
  lost ? h("span", { class: "visually-hidden", text: `${t("card.lost")}: ` }) : null, t(`char.${c}`));
}

function initial(name) {
  const ch = [...String(name).trim()][0];
  return ch ? ch.toUpperCase() : "?";
}

// Seats to show around the table: clockwise starting after the viewer.
export function opponentOrder(view, me) {
  const n = view.players.length;
  if (me === null || me === undefined) return [...Array(n).keys()];
  const order = [];
  for (let i = 1; i < n; i++) order.push((me + i) % n);
  return order;
}
