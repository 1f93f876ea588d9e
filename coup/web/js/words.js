// The public history of a game, in words: one entry per turn, each a chain of events
// ("Sepideh claims Ambassador to exchange — Bahareh challenges — Sepideh reveals Ambassador").
import { h, tNodes } from "./dom.js";
import { t } from "./i18n.js";
import { playerName } from "./names.js";
import { REFORM_VERBS, reformationLines } from "./reformation.js";

const ACTIONS = new Set(["income", "foreign_aid", "coup", "tax", "assassinate", "steal", "exchange", "examine"]);

const nameOf = playerName;

export function who(view, seat) {
  return h("b", { class: `who seat-colour-${seat % 10}`, text: nameOf(view, seat) });
}

export function char(c) { return h("span", { class: `char-word c-${c}`, text: t(`char.${c}`) }); }

// Returns [{seat, parts: [Node...], kind}] oldest first.
export function narrate(view, timeouts = new Set()) {
  const variant = view.settings?.characters === "inquisitor" ? "inquisitor" : "ambassador";
  const turns = [];
  const reform = reformationLines(view);
  let cur = null;
  let examiner = null;
  let examined = null;
  (view.history || []).forEach((entry, index) => {
    const seat = entry.seat;
    const [verb, ...args] = String(entry.move).split(" ");
    const arg = args[0];
    const target = arg !== undefined && /^\d+$/.test(arg) ? Number(arg) : null;
    if (ACTIONS.has(verb) || REFORM_VERBS.has(verb) || verb === "draft" || !cur) {
      cur = { seat, parts: [], kind: verb, first: index };
      turns.push(cur);
    }
    let node = null;
    const p = { name: who(view, seat) };
    const reformed = reform.get(index);
    if (reformed) node = reformed((s) => who(view, s), char);
    else switch (verb) {
      case "income": node = tNodes("log.income", p); break;
      case "foreign_aid": node = tNodes("log.foreign_aid", p); break;
      case "coup": node = tNodes("log.coup", { ...p, target: who(view, target) }); break;
      case "tax": node = tNodes("log.tax", { ...p, card: char("duke") }); break;
      case "assassinate": node = tNodes("log.assassinate", { ...p, card: char("assassin"), target: who(view, target) }); break;
      case "steal": node = tNodes("log.steal", { ...p, card: char("captain"), target: who(view, target) }); break;
      case "exchange": node = tNodes("log.exchange", { ...p, card: char(variant) }); break;
      case "examine":
        examiner = seat; examined = target;
        node = tNodes("log.examine", { ...p, card: char("inquisitor"), target: who(view, target) }); break;
      case "pass": node = null; break;
      case "challenge": node = tNodes("log.challenge", p); break;
      case "block": node = tNodes("log.block", { ...p, card: char(arg) }); break;
      case "reveal": node = tNodes("log.reveal", { ...p, card: char(arg) }); break;
      case "lose":
        node = tNodes(entry.out ? "log.lose_out" : "log.lose", { ...p, card: char(arg) }); break;
      case "keep":
        node = args.length
          ? tNodes("log.keep_known", { ...p, cards: args.map((c) => t(`char.${c}`)).join(t("log.and")) })
          : tNodes("log.keep", p);
        break;
      case "show":
        node = arg
          ? tNodes("log.show_known", { ...p, card: char(arg), target: who(view, examiner ?? seat) })
          : tNodes("log.show", { ...p, target: who(view, examiner ?? seat) });
        break;
      case "return": node = tNodes("log.return", { ...p, target: who(view, examined ?? seat) }); break;
      case "swap": node = tNodes("log.swap", { ...p, target: who(view, examined ?? seat) }); break;
      case "draft":
        node = arg ? tNodes("log.draft_known", { ...p, card: char(arg) }) : tNodes("log.draft", p); break;
      default: node = document.createTextNode(`${nameOf(view, seat)}: ${entry.move}`);
    }
    if (node && entry.forced) { // the engine played it: the only legal move
      const wrap = document.createDocumentFragment();
      wrap.append(node, " ", h("span", { class: "forced-mark", text: t("log.forced") }));
      node = wrap;
    }
    if (node && timeouts.has(index)) {
      const wrap = document.createDocumentFragment();
      wrap.append(node, " ", h("span", { class: "timeout-mark", text: t("log.timeout") }));
      node = wrap;
    }
    if (node) cur.parts.push(node);
  });
  return turns.filter((turn) => turn.parts.length);
}

// handoffs: [{index, seat, reason}] from the table: a bot took a seat over or gave it back.
export function renderLog(view, timeouts = new Set(), handoffs = []) {
  const turns = narrate(view, timeouts);
  const items = [];
  const pending = [...handoffs].sort((a, b) => a.index - b.index);
  const handoffItem = (x) => h("li", { class: "log-turn kind-handoff", dataset: { reason: x.reason } },
    tNodes(`log.handoff.${x.reason}`, { name: who(view, x.seat) }));
  turns.forEach((turn, i) => {
    while (pending.length && pending[0].index <= turn.first) items.push(handoffItem(pending.shift()));
    items.push(turnItem(turn, i));
  });
  items.push(...pending.map(handoffItem));
  if (view.over && view.winner !== null && view.winner !== undefined) {
    items.push(h("li", { class: "log-turn kind-win" }, tNodes("log.win", { name: who(view, view.winner) })));
  }
  return items;
}

function turnItem(turn, i) {
  const li = h("li", { class: `log-turn kind-${turn.kind}`, dataset: { index: String(i) } });
  turn.parts.forEach((part, j) => {
    if (j) li.append(h("span", { class: "dash", text: " — " }));
    li.append(part);
  });
  return li;
}

// Claims against you, said to you ("… to assassinate you"): the question you answer.
const AGAINST_YOU = new Set(["assassinate", "steal", "examine"]);

// One sentence about what is happening now (for the banner over the table, and over the
// decision it asks: "Bot 3 claims Assassin to assassinate you"). `me`: the reader's seat.
export function describePending(view, me = null) {
  const pend = view.pending;
  const variant = view.settings?.characters === "inquisitor" ? "inquisitor" : "ambassador";
  const phase = view.phase;
  if (phase === "draft") return tNodes("now.draft");
  if (phase === "allegiance") return tNodes("now.allegiance", { name: who(view, view.turn) });
  if (phase === "over") return tNodes("now.over", { name: who(view, view.winner) });
  if (phase === "action") return tNodes("now.action", { name: who(view, view.turn) });
  if (!pend) return document.createTextNode("");
  const actor = who(view, pend.actor);
  const target = pend.target !== null && pend.target !== undefined ? who(view, pend.target) : "";
  const you = me !== null && me !== undefined && pend.target === me && AGAINST_YOU.has(pend.action);
  const key = you ? `now.claim_you.${pend.action}` : `now.claim.${pend.action}`;
  const card = pend.action === "exchange" ? char(variant) : pend.claim ? char(pend.claim) : "";
  const frag = document.createDocumentFragment();
  frag.append(tNodes(key, { name: actor, target, card }));
  if (pend.block) {
    frag.append(h("span", { class: "dash", text: " — " }),
      tNodes("log.block", { name: who(view, pend.block.seat), card: char(pend.block.claim) }));
  }
  if (pend.challenger !== null && pend.challenger !== undefined) {
    frag.append(h("span", { class: "dash", text: " — " }), tNodes("log.challenge", { name: who(view, pend.challenger) }));
  }
  return frag;
}
