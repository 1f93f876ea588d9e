// The game screen: seats around, the centre (treasury, Court, what is happening), your hand,
// your decision, the log and the chat.
import { decisionPanel, resetIfNew, targetsFor, ui } from "./actions.js";
import { endStory } from "./aftergame.js";
import { endRatings, seatProfile } from "./profile.js";
import { cardBack, cardFace, coinIcon } from "./cards.js";
import { clear, h, tNodes } from "./dom.js";
import { chatPanel } from "./chat.js";
import { hintLine, hintsSwitch } from "./hints.js";
import { num, t } from "./i18n.js";
import { allegianceBadge, reservePile } from "./reformation.js";
import { patch } from "./patch.js";
import { opponentOrder, seatName, seatStates, seatTile } from "./seats.js";
import { cardsOut, claimsBySeat } from "./story.js";
import { describePending, renderLog } from "./words.js";

// The game screen in `root`, updated in place when it is already there (`patch.js`; the end
// screen, filled by fetches as they come, is built anew each time). `guide`: the tutorial's
// panel, at the top of the board.
export function renderTable(root, ctx, guide = null) {
  const { view } = ctx;
  resetIfNew(view);
  ctx.targets = view.phase === "action" ? targetsFor(view) : new Map();
  ctx.claims = claimsBySeat(view);
  const me = ctx.me;
  const seated = me !== null && me !== undefined && view.players[me];

  const board = h("section", { class: `board${ui.verb ? " targeting" : ""}`, "aria-label": t("table.board") }, guide);
  const order = seated ? opponentOrder(view, me) : opponentOrder(view, null);
  const size = `n${order.length}${order.length >= 5 ? " many" : ""}${order.length >= 6 ? " compact" : ""}`;
  board.append(h("div", { class: `seats ${size}` }, ...order.map((s) => seatTile(ctx, s))));
  board.append(centre(ctx));
  if (seated) board.append(myArea(ctx));
  else board.append(h("div", { class: "spectating" }, h("span", { text: t("table.spectating") }), ctx.seatOffer?.("watch-take-seat")));

  const side = h("aside", { class: "side" },
    h("div", { class: "tabs", role: "tablist" },
      tabButton("log", ctx), tabButton("chat", ctx)),
    logPanel(ctx), chatPanel(ctx));
  side.dataset.tab = ctx.tab || "log";

  const keepScroll = root.querySelector(".log-list");
  const atBottom = !keepScroll || keepScroll.scrollHeight - keepScroll.scrollTop - keepScroll.clientHeight < 40;
  const chatScroll = root.querySelector(".chat-list");
  const chatAtBottom = !chatScroll || chatScroll.scrollHeight - chatScroll.scrollTop - chatScroll.clientHeight < 40;
  const layout = h("div", { class: "table-layout" }, board, side);
  const live = root.querySelector(":scope > .table-layout");
  if (live) {
    for (const el of [...root.children]) if (el !== live) el.remove();
    patch(live, layout);
  } else clear(root).append(layout);
  if (view.over && !ctx.endClosed && !ctx.endHeld) root.append(endScreen(ctx));
  const log = root.querySelector(".log-list");
  if (log && atBottom) log.scrollTop = log.scrollHeight;
  const chat = root.querySelector(".chat-list");
  if (chat && chatAtBottom) chat.scrollTop = chat.scrollHeight;
  tickCountdown(root, ctx);
}

function tabButton(name, ctx) {
  const unread = name === "chat" && ctx.unread ? h("span", { class: "unread", text: num(ctx.unread) }) : null;
  return h("button", { type: "button", role: "tab", class: `tab tab-${name}`, "aria-selected": (ctx.tab || "log") === name ? "true" : "false",
    onclick: () => ctx.setTab(name) }, t(`table.tab.${name}`), unread);
}

function centre(ctx) {
  const { view, msg } = ctx;
  const deadline = msg.table?.deadline;
  const mine = ctx.me !== null && ctx.me !== undefined && (view.legal || []).length > 0;
  const banner = h("div", { class: `banner${mine ? " mine" : ""}`, role: "status" },
    h("div", { class: "banner-text" }, describePending(view, ctx.me)),
    mine ? h("div", { class: "banner-you", text: t("table.your_decision") }) : null,
    view.over && ctx.endClosed ? h("button", { type: "button", class: "btn chip", id: "show-result", onclick: ctx.onShowEnd, text: t("end.show") }) : null,
    waitingLine(ctx));
  const clock = deadline && !view.over
    ? h("div", { class: `countdown k-${deadline.kind}`, dataset: { at: String(deadline.at), seconds: String(deadline.seconds) } },
      h("span", { class: "countdown-kind", text: t(`deadline.${deadline.kind}`) }),
      h("div", { class: "countdown-bar" }, h("div", { class: "countdown-fill" })),
      h("span", { class: "countdown-text" }))
    : null;
  const bank = h("div", { class: "bank" },
    h("div", { class: "pile treasury", title: t("table.treasury") },
      h("div", { class: "coin-stack" }, coinIcon(), coinIcon(), coinIcon()),
      h("div", { class: "pile-label" }, h("span", { class: "pile-name", text: t("table.treasury") }),
        h("b", { class: "pile-count", dataset: { value: String(view.treasury) }, text: num(view.treasury) }))),
    h("div", { class: "pile court", title: t("table.court") },
      h("div", { class: "deck" }, cardBack("xs"), cardBack("xs")),
      h("div", { class: "pile-label" }, h("span", { class: "pile-name", text: t("table.court") }),
        h("b", { class: "pile-count", dataset: { value: String(view.court) }, text: num(view.court) }))));
  const reserve = reservePile(view);
  if (reserve) bank.querySelector(".treasury").after(reserve);
  bank.append(tallyButton(ctx), hintsSwitch(ctx.msg, ctx.rerender) || "");
  return h("div", { class: "centre" }, bank, h("div", { class: "now" }, banner, clock),
    ctx.tallyOpen ? tally(view, ctx) : null);
}

// "Cards out": how many of each character are face up — counting is a core skill.
function tallyButton(ctx) {
  return h("button", { type: "button", class: "btn chip tally-button", id: "tally-button",
    "aria-expanded": ctx.tallyOpen ? "true" : "false", "aria-controls": "tally",
    onclick: () => ctx.toggleTally() }, t("tally.button"));
}

function tally(view, ctx) {
  return h("div", { class: "tally", id: "tally" },
    h("div", { class: "tally-head" }, h("h3", { class: "tally-title", text: t("tally.title") }),
      h("button", { type: "button", class: "btn ghost tally-close", id: "tally-close", "aria-label": t("rules.close"),
        onclick: () => ctx.toggleTally(), text: "×" })),
    h("ul", { class: "tally-list" }, ...cardsOut(view).map(({ card, out, copies }) =>
      h("li", { class: `tally-row${out >= copies ? " all-out" : ""}`, dataset: { card, out: String(out) } },
        h("span", { class: `claim-dot c-${card}`, "aria-hidden": "true" }),
        h("span", { class: "tally-card", text: t(`char.${card}`) }),
        h("b", { class: "tally-count", text: t("tally.count", { n: num(out), of: num(copies) }) })))));
}

function waitingLine(ctx) {
  const { view } = ctx;
  if (view.over) return null;
  const names = (view.waiting || []).filter((s) => s !== ctx.me).map((s) => seatName(view, s));
  if (!names.length) return null;
  const reacting = ["react", "block", "challenge_block"].includes(view.phase);
  const passed = reacting ? (view.passed || []).map((s) => seatName(view, s)) : [];
  return h("div", { class: "banner-wait" },
    t("table.waiting_for", { names: names.join(t("log.comma")) }),
    passed.length ? h("span", { class: "passed-line", text: ` · ${t("table.passed", { names: passed.join(t("log.comma")) })}` }) : null);
}

function myArea(ctx) {
  const { view } = ctx;
  const me = ctx.me;
  const p = view.players[me];
  const states = seatStates(ctx, me);
  const isTurn = !view.over && view.turn === me;
  const hand = h("div", { class: "hand" });
  for (const c of p.cards || []) hand.append(cardFace(c, { size: "lg" }));
  for (const c of p.revealed || []) hand.append(cardFace(c, { size: "lg", revealed: true }));
  const handWrap = h("div", { class: "hand-wrap" }, hand,
    (p.cards || []).length ? h("div", { class: "hand-hint", text: t("table.hand_hint") }) : null);
  const known = view.known?.court?.length
    ? h("div", { class: "known-court", text: t("table.known_court", { cards: view.known.court.map((c) => t(`char.${c}`)).join(t("log.and")) }) })
    : null;
  const picking = ["lose", "exchange", "show"].includes(view.phase) && (view.legal || []).length > 0;
  const deciding = (view.legal || []).length > 0 && !ctx.standins?.[me];
  return h("section", { class: `me${isTurn ? " is-turn" : ""}${picking ? " picking" : ""}${deciding ? " deciding" : ""} ${states.map((s) => `is-${s}`).join(" ")}`, dataset: { seat: String(me) } },
    h("div", { class: "me-head" },
      h("span", { class: `avatar seat-colour-${me % 10}`, text: [...seatName(view, me)][0]?.toUpperCase() || "?" }),
      h("span", { class: "seat-name", text: seatName(view, me) }),
      h("span", { class: "you-tag", text: t("table.you") }),
      allegianceBadge(view, me),
      h("div", { class: "coins big", title: t("seat.coins") }, coinIcon(), h("span", { class: "coin-count", text: num(p.coins) })),
      h("div", { class: "seat-states" }, ...states.map((s) => h("span", { class: `badge b-${s}`, dataset: { state: s }, text: t(`seat.${s}`) })))),
    h("div", { class: "me-main" }, handWrap, h("div", { class: "decision-wrap" },
      ctx.standins?.[me] ? null : dock(ctx), idleLine(ctx), known, seatLine(ctx))));
}

// The decision. On a phone it is pinned to the bottom of the screen, with its own clock.
function dock(ctx) {
  const { view, msg } = ctx;
  const deciding = (view.legal || []).length > 0;
  const deadline = msg.table?.deadline;
  const clock = deciding && deadline && (deadline.seats || []).includes(ctx.me)
    ? h("div", { class: `countdown dock-clock k-${deadline.kind}`, dataset: { at: String(deadline.at), seconds: String(deadline.seconds) } },
      h("div", { class: "countdown-bar" }, h("div", { class: "countdown-fill" })),
      h("span", { class: "countdown-text" }))
    : null;
  return h("div", { class: `dock${deciding ? " deciding" : ""}`, role: deciding ? "region" : null,
    "aria-label": deciding ? t("table.your_decision") : null }, clock, decisionPanel(ctx), deciding ? hintLine(ctx.msg) : null);
}

// A bot plays for me (the host handed my seat over): take it back. Or leave the game.
function seatLine(ctx) {
  const { view } = ctx;
  if (view.over) return null;
  if (ctx.standins?.[ctx.me] === "host") {
    return h("div", { class: "standin-note" }, h("p", { text: t("table.bot_plays_for_you") }),
      h("button", { type: "button", class: "btn primary", id: "take-back", onclick: ctx.onTakeBack, text: t("table.take_back") }));
  }
  if (ctx.msg.you?.host || !view.players[ctx.me]?.alive) return null;
  if (!ctx.leaving) {
    return h("button", { type: "button", class: "btn ghost leave-game", id: "leave-game", onclick: () => ctx.setLeaving(true), text: t("table.leave") });
  }
  return h("div", { class: "leave-confirm" }, h("p", { text: t("table.leave_explain") }),
    h("div", { class: "btn-row" },
      h("button", { type: "button", class: "btn danger", id: "leave-confirm", onclick: ctx.onLeave, text: t("table.leave_confirm") }),
      h("button", { type: "button", class: "btn ghost", id: "leave-cancel", onclick: () => ctx.setLeaving(false), text: t("act.cancel") })));
}

function idleLine(ctx) {
  const { view } = ctx;
  if (view.over || (view.legal || []).length) return null;
  const p = view.players[ctx.me];
  if (!p.alive) return h("p", { class: "idle out-note", text: t("table.you_are_out") });
  const names = (view.waiting || []).map((s) => seatName(view, s));
  if (!names.length) return null;
  return h("p", { class: "idle", text: t("table.not_your_move", { names: names.join(t("log.comma")) }) });
}

function logPanel(ctx) {
  const timeouts = new Map((ctx.msg.table?.timeouts || []).map((x) => [x.index, x.seat]));
  const items = renderLog(ctx.view, new Set(timeouts.keys()), ctx.msg.table?.handoffs || []);
  // Focusable, so a keyboard can scroll it; the live region (#live) speaks the news.
  const list = h("ol", { class: "log-list", tabindex: "0", "aria-label": t("table.tab.log") }, ...items);
  if (timeouts.size) list.dataset.timeouts = String(timeouts.size);
  const commitment = ctx.msg.table?.commitment;
  const fair = commitment
    ? h("div", { class: "fair", title: t("fair.explain") },
      h("span", { class: "fair-label", text: t("fair.commitment") }),
      h("code", { class: "fair-hash", text: commitment }))
    : null;
  return h("div", { class: "panel log", role: "tabpanel" }, h("h2", { class: "panel-title", text: t("table.tab.log") }), fair, list);
}

function endScreen(ctx) {
  const { view, msg } = ctx;
  const winner = view.winner;
  const rows = view.players.map((p) => h("li", { class: `end-row${p.seat === winner ? " winner" : ""}` },
    h("span", { class: `avatar seat-colour-${p.seat % 10}`, text: [...seatName(view, p.seat)][0]?.toUpperCase() || "?" }),
    h("span", { class: "seat-name", text: seatName(view, p.seat) }),
    seatProfile(msg.table?.seats?.[p.seat]),
    p.seat === winner ? h("span", { class: "badge b-winner", text: t("seat.winner") }) : null,
    h("span", { class: "end-cards" },
      ...(p.cards || []).map((c) => cardFace(c, { size: "sm" })),
      ...(p.revealed || []).map((c) => cardFace(c, { size: "sm", revealed: true })))));
  const seed = msg.table?.seed;
  const fair = h("div", { class: "fair end-fair" },
    h("div", {}, h("span", { class: "fair-label", text: t("fair.commitment") }), h("code", { class: "fair-hash", text: msg.table?.commitment || "—" })),
    h("div", {}, h("span", { class: "fair-label", text: t("fair.seed") }), h("code", { class: "fair-seed", text: seed || t("fair.pending") })),
    h("div", { class: "fair-check", dataset: { state: "unknown" } }));
  if (seed && msg.table?.commitment) verify(seed, msg.table.commitment, fair.querySelector(".fair-check"));
  const game = msg.table?.game;
  const recordHref = game ? `/api/tables/${encodeURIComponent(msg.table.id)}/games/${game}/record` : null;
  const buttons = h("div", { class: "btn-row end-buttons" },
    recordHref ? h("a", { class: "btn", href: recordHref, download: `coup-${msg.table.id}-${game}.json`, id: "download-record", text: t("end.download") }) : null,
    msg.you?.host
      ? h("button", { type: "button", class: "btn primary", id: "rematch", disabled: msg.table?.status !== "over", onclick: ctx.onRematch, text: t("end.rematch") })
      : h("span", { class: "sub", text: t("end.rematch_wait") }),
    h("button", { type: "button", class: "btn ghost", id: "end-close", onclick: ctx.onCloseEnd, text: t("end.close") }));
  return h("div", { class: "end-screen", role: "dialog", "aria-modal": "true", "aria-labelledby": "end-title" },
    h("div", { class: "end-card" },
      h("div", { class: "end-crown" }),
      h("h2", { id: "end-title", class: "end-title" }, winner === null || winner === undefined ? t("end.no_winner")
        : tNodes(winner === ctx.me ? "end.you_win" : "end.wins", { name: h("b", { text: seatName(view, winner) }) })),
      // Watching, and a seat is free: sit down for the next game (at the top, in view).
      ctx.me === null || ctx.me === undefined ? ctx.seatOffer?.("end-take-seat") : null,
      h("ol", { class: "end-rows" }, ...rows), game ? endRatings(msg.table, game, ctx.rerender) : null,
      game ? endStory(msg.table, ctx.go, ctx.me) : null, fair, buttons));
}

async function verify(seed, commitment, el) {
  if (!globalThis.crypto?.subtle) { el.textContent = t("fair.cli"); return; }
  try {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(seed));
    const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
    const ok = hex === commitment.toLowerCase();
    el.dataset.state = ok ? "ok" : "bad";
    el.textContent = ok ? t("fair.verified") : t("fair.mismatch");
  } catch { el.textContent = t("fair.cli"); }
}

// Countdown: called on render and every 250 ms by the app.
export function tickCountdown(root, ctx) {
  for (const el of root.querySelectorAll(".countdown")) tickOne(el, ctx);
}

function tickOne(el, ctx) {
  const at = Number(el.dataset.at);
  const total = Number(el.dataset.seconds) * 1000 || 1;
  const left = Math.max(0, at - (Date.now() + (ctx.clockOffset || 0)));
  el.querySelector(".countdown-fill").style.width = `${Math.min(100, (left / total) * 100)}%`;
  el.querySelector(".countdown-text").textContent = t("table.seconds_left", { n: num(Math.ceil(left / 1000)) });
  el.classList.toggle("urgent", left < 5000);
}
