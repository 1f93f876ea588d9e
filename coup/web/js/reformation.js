// Reformation at the table (docs/rules.md, "Reformation"): allegiance badges, the Treasury
// Reserve beside the treasury, the first player's choice, Convert and Embezzle with their
// cost, targets the same-allegiance rule forbids (shown disabled, with the reason), and the
// log's words for the new moves. No rules here either: the server says what is legal; this
// module labels it, and says why a seat the player may not target is not a target.
import { coinIcon } from "./cards.js";
import { h, icon, tNodes } from "./dom.js";
import { num, t } from "./i18n.js";

export const REFORM_VERBS = new Set(["allegiance", "convert", "embezzle"]);
const TARGETED = new Set(["coup", "assassinate", "steal", "examine"]);
const COST = { self: 1, other: 2 };

export function isReformation(view) { return Boolean(view?.settings?.reformation); }

// Icons that differ in shape, not only in colour: a shield (Loyalist), an open book (Reformist).
const ICON = {
  loyalist: "M12 2l8 3v6c0 5.2-3.4 9.6-8 11-4.6-1.4-8-5.8-8-11V5z",
  reformist: "M2 5.5C5 4 8.5 4 12 6.5 15.5 4 19 4 22 5.5V20c-3-1.5-6.5-1.5-10 1-3.5-2.5-7-2.5-10-1zM11 8v10.5M13 8v10.5",
};

export function allegianceIcon(allegiance) { return icon(ICON[allegiance] || ICON.loyalist, "ally-icon"); }

// The badge on a seat: icon, colour and word (null outside Reformation or before the choice).
export function allegianceBadge(view, seat, { short = false } = {}) {
  const a = isReformation(view) ? view.players?.[seat]?.allegiance : null;
  if (!a) return null;
  return h("span", { class: `ally ally-${a}${short ? " short" : ""}`, dataset: { allegiance: a }, title: t(`ref.${a}`) },
    allegianceIcon(a), h("span", { class: "ally-name", text: t(`ref.${a}`) }));
}

// The Treasury Reserve, beside the treasury.
export function reservePile(view) {
  if (!isReformation(view)) return null;
  const n = view.reserve ?? 0;
  return h("div", { class: "pile reserve", title: t("table.reserve_title") },
    h("div", { class: "coin-stack" }, coinIcon(), coinIcon()),
    h("div", { class: "pile-label" }, h("span", { class: "pile-name", text: t("table.reserve") }),
      h("b", { class: "pile-count", dataset: { value: String(n) }, text: num(n) })));
}

// Do all living players share one allegiance? (Then nobody is kept from being a target.)
function united(view) {
  return new Set(view.players.filter((p) => p.alive).map((p) => p.allegiance)).size <= 1;
}

// The first player's choice: two buttons, with the icons.
export function allegiancePanel(ctx, legal, button) {
  const panel = document.createDocumentFragment();
  panel.append(h("p", { class: "prompt", text: t("act.prompt.allegiance") }));
  const row = h("div", { class: "btn-row allegiance-pick" });
  for (const m of legal) {
    const a = m.args[0];
    const label = h("span", { class: `act-label ally ally-${a}` }, allegianceIcon(a), h("span", { class: "act-name", text: t(`ref.${a}`) }));
    row.append(button(label, m.move, ctx, { cls: `ally-choice ally-${a}` }));
  }
  panel.append(row);
  return panel;
}

// The hint under an action's name: its cost (Convert), what it takes (Embezzle).
export function actionHint(view, verb) {
  return t(`act.${verb}.hint`, { n: num(view.reserve ?? 0) });
}

// Is this verb chosen by picking a seat? (Convert: yourself or another player.)
export function picksSeat(verb) { return verb === "convert"; }

// While choosing whom to convert: "Yourself (1 coin)" first.
export function selfChip(ctx, verb, disabled) {
  if (verb !== "convert" || !(ctx.view.legal || []).includes("convert")) return null;
  return h("button", { type: "button", class: "btn chip target-chip self-chip", disabled,
    dataset: { move: "convert", seat: String(ctx.me) }, onclick: () => ctx.onMove("convert") },
  t("act.convert_self", { n: num(COST.self) }));
}

// Living players a targeted action may not name because they share the player's
// allegiance: disabled chips saying why.
export function forbiddenChips(ctx, verb, targets) {
  const { view } = ctx;
  if (!isReformation(view) || !TARGETED.has(verb) || united(view)) return [];
  const mine = view.players[ctx.me]?.allegiance;
  return view.players
    .filter((p) => p.alive && p.seat !== ctx.me && !targets.has(p.seat) && p.allegiance === mine)
    .map((p) => h("button", { type: "button", class: "btn chip target-chip forbidden", disabled: true,
      dataset: { seat: String(p.seat), reason: "allegiance" }, title: t("ref.same_allegiance", { allegiance: t(`ref.${mine}`) }) },
    allegianceIcon(mine), h("span", { text: p.name }),
    h("span", { class: "chip-reason", text: t("ref.same_allegiance", { allegiance: t(`ref.${mine}`) }) })));
}

// Convert and Embezzle the player cannot take now, disabled with the reason (coins, an empty
// Reserve) — so the cost is always in sight.
export function unavailableActions(ctx, seen) {
  const { view } = ctx;
  if (!isReformation(view)) return [];
  const coins = view.players[ctx.me]?.coins ?? 0;
  const out = [];
  if (!seen.has("convert")) out.push(["convert", t("act.need_coins", { n: num(COST.self), have: num(coins) })]);
  if (!seen.has("embezzle")) out.push(["embezzle", t("act.embezzle_empty")]);
  return out.map(([verb, why]) => h("button", { type: "button", class: "btn act general reform unaffordable", disabled: true,
    dataset: { verb }, title: why },
  h("span", { class: "act-label" }, h("span", { class: "act-name", text: t(`act.${verb}`) }),
    h("span", { class: "act-hint", text: why }))));
}

// The log's words for the new moves, by history index: Map index -> (who, char) => Node.
// Allegiances and the Reserve are followed through the history (every such move is public).
export function reformationLines(view) {
  const lines = new Map();
  if (!isReformation(view)) return lines;
  const n = view.players.length;
  let allegiance = [];
  let reserve = 0;
  let embezzle = null; // {actor, amount, challenger}
  (view.history || []).forEach((entry, index) => {
    const seat = entry.seat;
    const [verb, arg] = String(entry.move).split(" ");
    if (verb === "allegiance") {
      const other = arg === "loyalist" ? "reformist" : "loyalist";
      allegiance = [...Array(n).keys()].map((s) => ((s - seat + n) % n) % 2 === 0 ? arg : other);
      lines.set(index, (who) => tNodes("log.allegiance", { name: who(seat), allegiance: word(arg) }));
    } else if (verb === "convert") {
      const target = arg === undefined ? seat : Number(arg);
      const cost = arg === undefined ? COST.self : COST.other;
      reserve += cost;
      const now = allegiance[target] === "loyalist" ? "reformist" : "loyalist";
      allegiance[target] = now;
      lines.set(index, (who) => (arg === undefined
        ? tNodes("log.convert_self", { name: who(seat), n: num(cost), allegiance: word(now) })
        : tNodes("log.convert", { name: who(seat), n: num(cost), target: who(target), allegiance: word(now) })));
    } else if (verb === "embezzle") {
      embezzle = { actor: seat, amount: reserve, challenger: null };
      reserve = 0; // given back below if the embezzler is caught
      const amount = embezzle.amount;
      lines.set(index, (who) => tNodes("log.embezzle", { name: who(seat), n: num(amount) }));
    } else if (embezzle && verb === "challenge") {
      embezzle.challenger = seat;
    } else if (embezzle && verb === "lose" && embezzle.challenger !== null) {
      const { actor } = embezzle;
      const caught = seat === actor;
      if (caught) reserve += embezzle.amount;
      lines.set(index, (who, char) => tNodes(caught ? "log.embezzle_duke" : "log.embezzle_no_duke", {
        name: who(actor), loss: tNodes(entry.out ? "log.lose_out" : "log.lose", { name: who(seat), card: char(arg) }) }));
      embezzle = null;
    } else if (verb !== "pass" && verb !== "challenge") {
      embezzle = null;
    }
  });
  return lines;
}

function word(allegiance) {
  return h("span", { class: `ally-word ally-${allegiance}`, text: t(`ref.${allegiance}`) });
}
