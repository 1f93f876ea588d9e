// The big moments of a game, derived from the view's public history (the server stays the
// single source of truth): "Challenge wins — Bot 1 shows no Captain", "Block stands", …
// Also what each seat has claimed this game and how many of each character are face up.
import { t } from "./i18n.js";

const CLAIMED = { tax: "duke", assassinate: "assassin", steal: "captain", examine: "inquisitor" };
// The moves that begin a turn (Reformation's convert and embezzle too; allegiance and
// draft open the game).
const ACTIONS = new Set(["income", "foreign_aid", "coup", "tax", "assassinate", "steal", "exchange", "examine",
  "convert", "embezzle", "allegiance"]);

function variantOf(view) { return view.settings?.characters === "inquisitor" ? "inquisitor" : "ambassador"; }

// Every announcement the history holds: [{index, key, seat, params: {name?, target?, card?}, kind, forced}]
// (`forced`: the engine played that move, the only legal one).
// `index` is the history entry that made it true; the page shows those after what it saw.
export function storyEvents(view) {
  const out = [];
  const history = view.history || [];
  let turn = null;
  const say = (index, key, params, kind = "info") =>
    out.push({ index, key, params, kind, forced: Boolean(history[index]?.forced) && kind !== "out" && kind !== "win" });
  // "Block stands" comes right after the block's challenge failed, when it was challenged:
  // before the challenger's loss ("Block stands", then "Sara is out"), as it happened.
  const closeTurn = (index) => {
    if (!turn || !turn.block || turn.blockBroken) return;
    const ev = { index, key: "ann.block_stands", params: { name: turn.block.seat, card: turn.block.claim }, kind: "block" };
    if (turn.blockProved === null) out.push(ev);
    else out.splice(turn.blockProved, 0, ev);
  };
  history.forEach((entry, index) => {
    const seat = entry.seat;
    const [verb, arg] = String(entry.move).split(" ");
    if (ACTIONS.has(verb) || verb === "draft") {
      closeTurn(index - 1);
      const target = arg !== undefined && /^\d+$/.test(arg) ? Number(arg) : null;
      turn = { actor: seat, verb, target, claim: verb === "exchange" ? variantOf(view) : CLAIMED[verb] || null,
        block: null, blockBroken: false, blockProved: null, challenger: null, claimant: null, owed: null, proved: false };
      return;
    }
    if (!turn) return;
    if (verb === "block") { turn.block = { seat, claim: arg }; turn.challenger = null; turn.claimant = null; return; }
    if (verb === "challenge") {
      turn.challenger = seat;
      turn.claimant = turn.block ? turn.block.seat : turn.actor;
      turn.challengedClaim = turn.block ? turn.block.claim : turn.claim;
      say(index, "ann.challenge", { name: seat, target: turn.claimant }, "challenge");
      return;
    }
    if (verb === "reveal") {
      say(index, "ann.challenge_fails", { name: seat, card: arg }, "proved");
      if (turn.block && seat === turn.block.seat) turn.blockProved = out.length;
      turn.owed = turn.challenger; // the challenger pays
      turn.challenger = null;
      return;
    }
    if (verb === "lose") {
      if (turn.verb === "embezzle" && turn.challenger !== null) { // decided from the hand: who was right
        say(index, seat === turn.actor ? "ann.embezzle_duke" : "ann.embezzle_no_duke", { name: turn.actor },
          seat === turn.actor ? "caught" : "proved");
        turn.challenger = null;
        say(index, "ann.loses", { name: seat, card: arg }, "loss");
      } else if (turn.challenger !== null && seat === turn.claimant && turn.challengedClaim) {
        say(index, "ann.challenge_wins", { name: seat, card: turn.challengedClaim }, "caught");
        if (turn.block && seat === turn.block.seat) turn.blockBroken = true;
        turn.challenger = null;
      } else if (turn.owed === seat) {
        turn.owed = null;
        say(index, "ann.loses", { name: seat, card: arg }, "loss");
      } else if (seat === turn.target && turn.verb === "assassinate") {
        say(index, "ann.assassinated", { name: seat, card: arg }, "loss");
      } else if (seat === turn.target && turn.verb === "coup") {
        say(index, "ann.couped", { name: seat, card: arg }, "loss");
      } else {
        say(index, "ann.loses", { name: seat, card: arg }, "loss");
      }
      if (entry.out) say(index, "ann.out", { name: seat }, "out");
    }
  });
  if (turn && (view.phase === "action" || view.phase === "over")) closeTurn(history.length - 1);
  if (view.over && view.winner !== null && view.winner !== undefined) {
    say(history.length - 1, "ann.win", { name: view.winner }, "win");
  }
  return out;
}

// seat -> [[card, times], …] in the order first claimed: actions and blocks this game.
export function claimsBySeat(view) {
  const claims = new Map();
  for (const entry of view.history || []) {
    const [verb, arg] = String(entry.move).split(" ");
    const card = verb === "block" ? arg : verb === "exchange" ? variantOf(view) : CLAIMED[verb];
    if (!card) continue;
    if (!claims.has(entry.seat)) claims.set(entry.seat, new Map());
    const m = claims.get(entry.seat);
    m.set(card, (m.get(card) || 0) + 1);
  }
  return claims;
}

export function claimsText(view, seat, claims = claimsBySeat(view)) {
  const m = claims.get(seat);
  if (!m) return "";
  return [...m].map(([card, n]) => (n > 1 ? t("seat.claim_times", { card: t(`char.${card}`), n }) : t(`char.${card}`)))
    .join(t("log.comma"));
}

// [{card, out, copies}] for the characters of this game: face-up cards are public.
export function cardsOut(view) {
  const copies = view.settings?.copies || 3;
  const chars = ["duke", "assassin", "captain", variantOf(view), "contessa"];
  const counts = Object.fromEntries(chars.map((c) => [c, 0]));
  for (const p of view.players || []) for (const c of p.revealed || []) if (c in counts) counts[c] += 1;
  return chars.map((card) => ({ card, out: counts[card], copies }));
}
