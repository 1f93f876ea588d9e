// Hints while you play (opt-in): one line beside the decision saying what its buttons do
// here and what they risk, counted only from what this seat sees: the cards face up (the
// same count as the "cards out" tally), the player's own hand and the cards it put back
// into the Court. No bot search: plain counting. The switch is off until turned on,
// remembered per browser (localStorage `coup.hints`), and absent at a table whose host
// turned hints off (setting `hints`).
import { h } from "./dom.js";
import { num, t } from "./i18n.js";
import { seatName } from "./seats.js";
import { cardsOut } from "./story.js";

const STORE = "coup.hints";
const CLAIMS = { tax: "duke", assassinate: "assassin", steal: "captain", examine: "inquisitor" };

export function hintsOn() { try { return localStorage.getItem(STORE) === "1"; } catch { return false; } }
export function setHints(on) { try { localStorage.setItem(STORE, on ? "1" : "0"); } catch { /* private mode */ } }
export function hintsAllowed(msg) { return msg?.table?.settings?.hints !== false; }

// How many of `card` this seat cannot see: not face up, not in its hand, not put back by it.
export function unseen(view, card) {
  const row = cardsOut(view).find((r) => r.card === card);
  const copies = row ? row.copies : view.settings?.copies || 3;
  const mine = (view.players[view.seat]?.cards || []).filter((c) => c === card).length;
  const court = (view.known?.court || []).filter((c) => c === card).length;
  return { n: Math.max(0, copies - (row?.out || 0) - mine - court), of: copies };
}

function unseenText(view, card) {
  const { n, of } = unseen(view, card);
  return t("hints.unseen", { n: num(n), of: num(of), card: t(`char.${card}`) });
}

function holds(view, card) { return (view.players[view.seat]?.cards || []).includes(card); }
function variantCard(view) { return view.settings?.characters === "inquisitor" ? "inquisitor" : "ambassador"; }

// The hint for this seat's decision now, or "" when it has none.
export function hintText(view) {
  const legal = view.legal || [];
  if (!legal.length || view.seat === null || view.seat === undefined) return "";
  const pend = view.pending || {};
  const verbs = new Set(legal.map((m) => m.split(" ")[0]));
  const parts = [];
  switch (view.phase) {
    case "action": {
      const safe = [];
      const bluffs = [];
      for (const verb of verbs) {
        const card = verb === "exchange" ? variantCard(view) : CLAIMS[verb];
        if (!card) safe.push(t(`act.${verb}`));
        else if (holds(view, card)) safe.push(t(`act.${verb}`));
        else bluffs.push(t("hints.bluff_item", { move: t(`act.${verb}`), unseen: unseenText(view, card) }));
      }
      if (verbs.size === 1 && verbs.has("coup")) return t("hints.forced_coup");
      parts.push(t("hints.safe", { moves: safe.join(t("log.comma")) }));
      if (bluffs.length) parts.push(t("hints.bluffs", { moves: bluffs.join(t("log.comma")) }));
      break;
    }
    case "react": case "block": case "challenge_block": {
      const blocking = view.phase === "challenge_block";
      const who = blocking ? pend.block?.seat : pend.actor;
      const card = blocking ? pend.block?.claim : pend.claim;
      if (verbs.has("challenge") && card) {
        parts.push(t("hints.challenge", { name: seatName(view, who), card: t(`char.${card}`), unseen: unseenText(view, card) }));
      }
      for (const m of legal.filter((x) => x.startsWith("block "))) {
        const c = m.split(" ")[1];
        parts.push(holds(view, c) ? t("hints.block_true", { card: t(`char.${c}`) })
          : t("hints.block_bluff", { card: t(`char.${c}`), unseen: unseenText(view, c) }));
      }
      if (verbs.has("pass")) parts.push(t(blocking ? "hints.pass_block" : "hints.pass"));
      break;
    }
    case "prove": {
      const card = pend.challenged === "block" ? pend.block?.claim : pend.claim;
      parts.push(card && holds(view, card) ? t("hints.prove_hold", { card: t(`char.${card}`) }) : t("hints.prove_none"));
      break;
    }
    case "lose": parts.push(t("hints.lose")); break;
    case "exchange": parts.push(t("hints.exchange")); break;
    default: return "";
  }
  return parts.join(" ");
}

// The line shown beside the decision (null when off, not allowed here or nothing to say).
export function hintLine(msg) {
  if (!hintsOn() || !hintsAllowed(msg) || !msg.game) return null;
  const text = hintText(msg.game);
  return text ? h("p", { class: "hint-line", id: "hint-line", text }) : null;
}

// The switch (beside the "cards out" button).
export function hintsSwitch(msg, rerender) {
  if (!hintsAllowed(msg) || msg.you?.seat === null || msg.you?.seat === undefined) return null;
  const on = hintsOn();
  return h("button", { type: "button", class: "btn chip hints-button", id: "hints-button", "aria-pressed": on ? "true" : "false",
    title: t(on ? "hints.turn_off" : "hints.turn_on"),
    onclick: () => { setHints(!hintsOn()); rerender(); document.getElementById("hints-button")?.focus(); } }, t("hints.button"));
}
