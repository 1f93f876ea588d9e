// The replay viewer: a finished game (or an uploaded record) move by move — buttons, the
// ← / → keys and a slider; the table from one seat's view or with every hand open; the
// log in words beside it; the coach's notes on a chosen seat's decisions; the story.
// Data: `coup-replay/1` and `coup-coach/1` (docs/protocol.md, "After the game").
import { moveLabel, playerName, statsTable, eliminationLine, timeline, scoreboardBox } from "./aftergame.js";
import { cardBack, cardFace, coinIcon } from "./cards.js";
import { clear, h, tNodes } from "./dom.js";
import { isRtl, num, t } from "./i18n.js";
import { api } from "./net.js";
import { keptReplay } from "./recordfile.js";
import { describePending, renderLog } from "./words.js";

let keyHandler = null;
let pollTimer = 0;
let queueTimer = 0;

function stopListening() {
  if (keyHandler) document.removeEventListener("keydown", keyHandler);
  keyHandler = null;
  clearTimeout(pollTimer);
  clearTimeout(queueTimer);
}

function pct(x) { return num(Math.round(100 * x)); }

// `/t/{table}/games/{n}/replay`: fetch the game; a running game is refused by the server.
export async function openReplay(root, app, tableId, game) {
  stopListening();
  root.dataset.screen = "replay";
  clear(root).append(h("div", { class: "loading", "aria-busy": "true" }, h("span", { class: "spinner" })));
  let data;
  try {
    data = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/games/${game}/replay`);
  } catch (err) {
    const key = err.code === "game_running" ? "review.not_over" : err.code === "no_game" || err.code === "no_table" ? "review.missing"
      : err.code === "too_long" || err.code === "busy" ? `error.${err.code}` : "error.network";
    clear(root).append(h("div", { class: "panel-card replay-refused", id: "replay-refused" },
      h("p", { text: t(key) }),
      h("a", { class: "btn", href: `/t/${tableId}`, onclick: (e) => { e.preventDefault(); app.go(`/t/${tableId}`); }, text: t("review.back_to_table") })));
    return;
  }
  renderReplay(root, app, data, { tableId, game });
}

// An uploaded record's replay (kept in memory by js/recordfile.js, and its record in the
// tab's sessionStorage: a reload asks the server for the replay again), at `/replay`.
export async function openUploaded(root, app) {
  stopListening();
  if (!app.uploaded) app.uploaded = await keptReplay();
  if (location.pathname !== "/replay") return; // the reader went elsewhere meanwhile
  if (!app.uploaded) { app.go("/"); return; }
  root.dataset.screen = "replay";
  renderReplay(root, app, app.uploaded, {});
}

export function renderReplay(root, app, data, { tableId = null, game = null } = {}) {
  const names = data.players;
  const last = data.frames.length - 1;
  const st = { k: 0, as: "all", coachSeat: null, coach: null, progress: null, queue: null };

  const slider = h("input", { type: "range", id: "replay-slider", min: "0", max: String(last), value: "0", step: "1",
    "aria-label": t("review.slider"), oninput: (e) => go(Number(e.target.value)) });
  const counter = h("span", { class: "replay-counter", id: "replay-counter", "aria-live": "polite" });
  const btn = (id, label, icon, fn) => h("button", { type: "button", class: "btn chip", dir: "ltr", id, title: label, "aria-label": label, onclick: fn }, icon);
  const controls = h("div", { class: "replay-controls" },
    btn("replay-first", t("review.first"), isRtl() ? "▶|" : "|◀", () => go(0)),
    btn("replay-prev", t("review.prev"), isRtl() ? "▶" : "◀", () => go(st.k - 1)),
    slider,
    btn("replay-next", t("review.next"), isRtl() ? "◀" : "▶", () => go(st.k + 1)),
    btn("replay-last", t("review.last"), isRtl() ? "|◀" : "▶|", () => go(last)),
    counter);

  const asSelect = h("select", { id: "replay-as", onchange: (e) => { st.as = e.target.value === "all" ? "all" : Number(e.target.value); draw(); } },
    h("option", { value: "all", text: t("review.all_hands") }),
    ...names.map((n, i) => h("option", { value: String(i), text: t("review.seat_view", { name: playerName(names, i) }) })));
  const pickers = h("div", { class: "replay-pickers" },
    h("label", { class: "field-label" }, t("review.view_as"), " ", asSelect));
  if (tableId) {
    const coachSelect = h("select", { id: "coach-seat", onchange: (e) => chooseCoach(e.target.value === "" ? null : Number(e.target.value)) },
      h("option", { value: "", text: t("review.coach_none") }),
      ...names.map((n, i) => h("option", { value: String(i), text: playerName(names, i) })));
    pickers.append(h("label", { class: "field-label" }, t("review.coach_for"), " ", coachSelect));
  }

  const board = h("div", { class: "replay-board", id: "replay-board" });
  const now = h("p", { class: "replay-now", id: "replay-now" });
  const log = h("ol", { class: "log replay-log", id: "replay-log" });
  const coachBox = h("section", { class: "coach panel-card", id: "coach", hidden: !tableId });
  const title = tableId ? t("review.title_game", { n: num(game) }) : t("review.title_file");
  const back = tableId ? h("a", { class: "btn ghost", href: `/t/${tableId}`, onclick: (e) => { e.preventDefault(); app.go(`/t/${tableId}`); }, text: t("review.back_to_table") }) : null;
  const verified = data.verified ? h("span", { class: "badge b-ok", text: t("fair.verified") }) : null;

  const story = h("section", { class: "replay-story panel-card" },
    h("h2", { text: t("review.stats") }), statsTable(data.story), eliminationLine(data.story),
    tableId ? scoreboardBox(tableId) : null,
    h("h2", { text: t("review.timeline") }), h("div", { id: "replay-timeline" }));

  clear(root).append(h("div", { class: "replay" },
    h("header", { class: "replay-head" }, h("h1", { id: "replay-title", text: title }), verified, back),
    h("div", { class: "replay-main" },
      h("div", { class: "replay-stage panel-card" }, pickers, controls, now, board),
      h("aside", { class: "replay-side" }, coachBox, h("div", { class: "panel-card" }, h("h2", { text: t("review.log") }), log))),
    story));

  function go(k) {
    st.k = Math.max(0, Math.min(last, k));
    draw();
  }

  function frameView() {
    const f = data.frames[st.k];
    const seat = st.as === "all" ? null : st.as;
    const open = seat === null || st.k === last;
    const players = f.players.map((p) => ({ ...p, cards: open || p.seat === seat ? p.cards : null }));
    const history = (seat === null ? data.log.all : data.log.seats[seat]).slice(0, f.history);
    return { ...f, seat, players, settings: data.settings, history, over: st.k === last && data.over, winner: st.k === last ? data.winner : null };
  }

  function seatBox(view, p) {
    const cards = p.cards ? p.cards.map((c) => cardFace(c, { size: "sm" })) : Array.from({ length: p.influence }, () => cardBack("sm"));
    const drawn = view.phase === "exchange" && view.pending?.actor === p.seat && p.cards ? view.drawn || [] : [];
    cards.push(...drawn.map((c) => cardFace(c, { size: "sm", tag: t("act.drawn") })));
    const cls = ["replay-seat", `seat-colour-${p.seat % 10}`];
    if (!p.alive) cls.push("out");
    if (view.turn === p.seat && view.phase !== "over") cls.push("turn");
    if ((view.waiting || []).includes(p.seat)) cls.push("waiting");
    if (view.winner === p.seat) cls.push("winner");
    return h("div", { class: cls.join(" "), dataset: { seat: String(p.seat) } },
      h("div", { class: "replay-seat-head" }, h("b", { class: "seat-name", text: playerName(names, p.seat) }),
        h("span", { class: "coins" }, coinIcon(), h("span", { class: "coin-count", text: num(p.coins) }))),
      h("div", { class: "replay-cards" }, ...cards, ...p.revealed.map((c) => cardFace(c, { size: "sm", revealed: true }))));
  }

  function draw() {
    const view = frameView();
    slider.value = String(st.k);
    counter.textContent = t("review.step", { n: num(st.k), total: num(last) });
    clear(board).append(h("div", { class: "replay-centre" },
      h("span", {}, t("review.treasury", { n: num(view.treasury) })), " · ", h("span", {}, t("review.court", { n: num(view.court) }))),
    ...view.players.map((p) => seatBox(view, p)));
    clear(now).append(st.k < last ? nextMove() : describePending({ ...view, phase: "over", winner: data.winner }));
    clear(log).append(...renderLog(view));
    log.lastElementChild?.scrollIntoView?.({ block: "nearest" });
    const tl = document.getElementById("replay-timeline");
    if (tl) {
      const entry = data.frames[st.k].history;
      let current = -1;
      data.story.turns.forEach((turn, i) => { if (turn.entry <= entry) current = i; });
      clear(tl).append(timeline(data.story, { onPick: jumpToEntry, current }));
    }
    drawCoach();
    for (const b of ["replay-first", "replay-prev"]) document.getElementById(b).disabled = st.k === 0;
    for (const b of ["replay-next", "replay-last"]) document.getElementById(b).disabled = st.k === last;
  }

  function nextMove() {
    const m = data.moves[st.k];
    return tNodes("review.next_move", { name: h("b", { text: playerName(names, m.seat) }), move: moveLabel(m.move, names) });
  }

  function jumpToEntry(entry) {
    let k = 0;
    data.frames.forEach((f, i) => { if (f.history <= entry) k = i; });
    go(k);
  }

  function chooseCoach(seat) {
    st.coachSeat = seat; st.coach = null; st.progress = null;
    clearTimeout(pollTimer);
    if (seat !== null) poll(seat);
    draw();
  }

  async function poll(seat) {
    try {
      const res = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/games/${game}/coach/${seat}`);
      if (st.coachSeat !== seat) return;
      if (res.status === "done") { st.coach = res.coach; st.progress = null; draw(); return; }
      st.progress = res; drawCoach();
    } catch (err) {
      if (st.coachSeat !== seat) return;
      st.progress = { status: "failed" }; drawCoach(); return;
    }
    pollTimer = setTimeout(() => { if (document.body.contains(coachBox)) poll(seat); }, 1000);
  }

  function drawCoach() {
    if (!tableId) return;
    clear(coachBox).append(h("h2", { text: t("review.coach") }));
    if (st.coachSeat === null) {
      coachBox.append(h("p", { class: "sub", text: t("review.coach_pick") }));
      if (st.queue?.length) coachBox.append(queueList());
      return;
    }
    const name = playerName(names, st.coachSeat);
    if (!st.coach) {
      const p = st.progress || { status: "queued", done: 0, total: null };
      const text = p.status === "failed" ? t("review.coach_failed") : p.status === "running" && p.total
        ? t("review.coach_running", { done: num(p.done), total: num(p.total) }) : t("review.coach_queued");
      coachBox.append(h("p", { class: "coach-status", id: "coach-status", text }),
        p.total ? h("progress", { max: String(p.total), value: String(p.done) }) : h("progress", {}));
      return;
    }
    const notes = st.coach.decisions;
    const here = notes.find((d) => d.index === st.k);
    coachBox.append(h("p", { class: "sub", id: "coach-summary", text: t("review.coach_summary", { name, n: num(notes.length), m: num(st.coach.mistakes) }) }));
    if (here) coachBox.append(decisionNote(here));
    else coachBox.append(h("p", { class: "sub coach-none", text: t("review.coach_no_decision", { name }) }));
    const marks = notes.filter((d) => d.mistake);
    if (marks.length) {
      coachBox.append(h("h3", { text: t("review.mistakes") }), h("ul", { class: "coach-jumps" }, ...marks.map((d) =>
        h("li", {}, h("button", { type: "button", class: "btn chip coach-jump", dataset: { index: String(d.index) }, onclick: () => go(d.index) },
          t("review.move_n", { n: num(d.index + 1) }), " · ", moveLabel(d.played, names))))));
    }
    const next = notes.find((d) => d.index > st.k);
    if (next) coachBox.append(h("button", { type: "button", class: "btn ghost", id: "coach-next", onclick: () => go(next.index), text: t("review.coach_next") }));
  }

  // The analyses the server queued when the game ended (every person's seat) or that
  // someone asked for, with their progress, read without asking for any (docs/protocol.md).
  async function watchQueue() {
    let rows = null;
    try { rows = (await api("GET", `/api/tables/${encodeURIComponent(tableId)}/games/${game}/coach`)).seats; } catch { return; }
    if (!document.body.contains(coachBox)) return;
    st.queue = rows;
    if (st.coachSeat === null) drawCoach();
    if (rows.some((r) => r.status === "queued" || r.status === "running")) queueTimer = setTimeout(watchQueue, 1500);
  }

  function queueList() {
    const row = (r) => {
      const text = r.status === "done" ? t("review.coach_row_ready") : r.status === "failed" ? t("review.coach_failed")
        : r.status === "skipped" ? t("review.coach_row_skipped") : r.status === "running" && r.total ? t("review.coach_row_running", { done: num(r.done), total: num(r.total) }) : t("review.coach_row_queued");
      const pick = () => { document.getElementById("coach-seat").value = String(r.seat); chooseCoach(r.seat); };
      return h("li", { class: "coach-queued", dataset: { seat: String(r.seat), status: r.status } },
        h("button", { type: "button", class: "btn chip", onclick: pick, text: playerName(names, r.seat) }),
        h("span", { class: "sub", text }),
        r.status === "running" && r.total ? h("progress", { max: String(r.total), value: String(r.done) })
          : r.status === "queued" ? h("progress", {}) : null);
    };
    return h("div", { id: "coach-queue" }, h("p", { class: "sub", text: t("review.coach_queue") }),
      h("ul", { class: "coach-queue" }, ...st.queue.map(row)));
  }

  function decisionNote(d) {
    const out = h("div", { class: `coach-note${d.mistake ? " mistake" : ""}`, id: "coach-note", dataset: { index: String(d.index) } });
    if (d.claim) {
      out.append(h("p", { class: "coach-claim" }, tNodes("review.coach_claim", {
        name: h("b", { text: playerName(names, d.claim.seat) }), card: t(`char.${d.claim.character}`), p: pct(d.claim.bluff) })));
    }
    const ranked = [...d.moves].sort((a, b) => b.win - a.win);
    out.append(h("ul", { class: "coach-moves" }, ...ranked.map((m) => {
      const cls = ["coach-move"];
      if (m.move === d.played) cls.push("played");
      if (m.move === d.best) cls.push("best");
      return h("li", { class: cls.join(" ") },
        h("span", { class: "coach-move-name", text: moveLabel(m.move, names) }),
        h("span", { class: "coach-bar", style: `--w:${Math.round(100 * m.win)}%` }),
        h("span", { class: "coach-pct", text: t("review.pct", { p: pct(m.win) }) }),
        m.move === d.played ? h("span", { class: "badge", text: t("review.played") }) : null);
    })));
    out.append(d.mistake
      ? h("p", { class: "coach-verdict bad", text: t("review.coach_mistake", { move: moveLabel(d.best, names), p: pct(d.loss) }) })
      : h("p", { class: "coach-verdict good", text: t("review.coach_good") }));
    return out;
  }

  keyHandler = (e) => {
    if (!document.body.contains(board)) { stopListening(); return; }
    // The slider, the menus and text fields keep their own arrow keys.
    if (e.target instanceof HTMLElement && ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const back = isRtl() ? "ArrowRight" : "ArrowLeft";
    const fwd = isRtl() ? "ArrowLeft" : "ArrowRight";
    if (e.key === back) { e.preventDefault(); go(st.k - 1); }
    else if (e.key === fwd) { e.preventDefault(); go(st.k + 1); }
    else if (e.key === "Home") { e.preventDefault(); go(0); }
    else if (e.key === "End") { e.preventDefault(); go(last); }
  };
  document.addEventListener("keydown", keyHandler);
  draw();
  if (tableId) watchQueue();
  // A player who comes from the end screen sees the coach on their own decisions.
  let mine = null;
  try { mine = tableId ? sessionStorage.getItem(`coup.coach.${tableId}.${game}`) : null; } catch { mine = null; }
  if (mine !== null && /^\d+$/.test(mine) && Number(mine) < names.length) {
    document.getElementById("coach-seat").value = mine;
    chooseCoach(Number(mine));
  }
}
