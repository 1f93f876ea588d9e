// Names as the reader sees them: a bot's "Bot 3" in the reader's language ("ربات ۳"),
// a player's own name untouched. The controller tells which game seats are bots.
import { num, t } from "./i18n.js";

let bots = new Set();
export function setBots(seats) { bots = new Set(seats); }
// Whether a seat of the game now shown is a bot's.
export function isBot(seat) { return bots.has(seat); }

// A table seat's or player's name; `bot` says the name is a bot's.
export function displayName(name, bot) {
  const m = bot ? /^Bot (\d+)$/.exec(String(name || "")) : null;
  return m ? t("seat.bot_name", { n: num(Number(m[1])) }) : name;
}

export function playerName(view, seat) {
  const p = view.players?.[seat];
  if (!p) return "?";
  return p.name ? displayName(p.name, bots.has(seat)) : t("seat.unnamed", { n: num(seat + 1) });
}
