// After the game: the story's statistics, the bluff timeline, the table's scoreboard and
// move labels — shared by the end screen, the lobby and the replay viewer (js/replay.js).
// The facts come from the server (`story` of docs/protocol.md); nothing is derived here.
import { clear, h, tNodes } from "./dom.js";
import { num, t } from "./i18n.js";
import { displayName, isBot } from "./names.js";
import { api } from "./net.js";

const COLUMNS = ["claims", "bluffs", "caught", "challenges", "challenges_won", "blocks", "coins"];

// A seat's name in a game's story; a bot's in the reader's language when the table shown
// says that seat is a bot's (the end screen; the replay viewer knows no seats' kinds).
export function playerName(names, seat) {
  const name = names?.[seat];
  return name ? displayName(name, isBot(seat)) : t("seat.unnamed", { n: num((seat ?? 0) + 1) });
}

function who(names, seat) {
  return h("b", { class: `who seat-colour-${(seat ?? 0) % 10}`, text: playerName(names, seat) });
}

function charWord(c) { return h("span", { class: `char-word c-${c}`, text: t(`char.${c}`) }); }

// One player's statistics per row; the winner first, then the others in reverse order of
// elimination (the last one out second).
export function statsTable(story) {
  const names = story.players;
  const order = [];
  if (story.winner !== null && story.winner !== undefined) order.push(story.winner);
  for (const seat of [...story.eliminated].reverse()) if (!order.includes(seat)) order.push(seat);
  for (const s of story.stats) if (!order.includes(s.seat)) order.push(s.seat);
  const head = h("tr", {}, h("th", { scope: "col", text: t("review.col_player") }),
    ...COLUMNS.map((c) => h("th", { scope: "col", text: t(`review.col_${c}`) })));
  const rows = order.map((seat) => {
    const s = story.stats[seat];
    const out = story.eliminated.indexOf(seat);
    const place = seat === story.winner ? h("span", { class: "badge b-winner", text: t("seat.winner") })
      : out >= 0 ? h("span", { class: "out-order", text: t("review.out_n", { n: num(out + 1) }) }) : null;
    return h("tr", { class: seat === story.winner ? "winner" : "", dataset: { seat: String(seat) } },
      h("th", { scope: "row" }, who(names, seat), place ? " " : "", place),
      ...COLUMNS.map((c) => h("td", { class: `stat-${c}`, text: num(s[c]) })));
  });
  // Focusable (it may scroll sideways on a phone) and named, for the keyboard.
  return h("div", { class: "stats-wrap", tabindex: "0", role: "region", "aria-label": t("review.stats") }, h("table", { class: "stats-table" }, h("thead", {}, head), h("tbody", {}, ...rows)));
}

export function eliminationLine(story) {
  if (!story.eliminated.length) return null;
  const parts = [];
  story.eliminated.forEach((seat, i) => { if (i) parts.push(t("log.comma")); parts.push(who(story.players, seat)); });
  return h("p", { class: "out-line" }, h("span", { class: "sub", text: t("review.out_order") }), " ", ...parts);
}

function claimChip(claim, names) {
  const verdict = claim.bluff ? (claim.caught ? "bluff_caught" : "bluff_free") : (claim.caught ? "true_lost" : "true");
  const label = tNodes(claim.kind === "block" ? "review.claim_block" : "review.claim_action",
    { name: who(names, claim.seat), card: charWord(claim.character) });
  const note = claim.challenger === null ? null
    : h("span", { class: "sub" }, " · ", tNodes("review.challenged_by", { name: who(names, claim.challenger) }));
  return h("li", { class: `claim-chip ${verdict}`, dataset: { verdict } }, label,
    h("span", { class: "verdict", text: t(`review.${verdict}`) }), note);
}

// One row per turn: who acted, everyone's face-down cards then, each claim true or bluff.
export function timeline(story, { onPick = null, current = null } = {}) {
  const names = story.players;
  const rows = story.turns.map((turn, i) => {
    const hands = h("div", { class: "tl-hands" }, ...turn.hands.map((cards, seat) => cards.length
      ? h("span", { class: "tl-hand" }, h("span", { class: "tl-name", text: playerName(names, seat) }),
        ...cards.map((c) => h("span", { class: `tl-card c-${c}`, text: t(`char.${c}`) })))
      : null));
    const claims = turn.claims.length ? h("ul", { class: "tl-claims" }, ...turn.claims.map((c) => claimChip(c, names)))
      : h("p", { class: "sub tl-none", text: t("review.no_claim") });
    const title = h("span", { class: "tl-title" }, t("review.turn", { n: num(i + 1) }), " · ", who(names, turn.seat));
    const attrs = { class: `tl-row${current === i ? " current" : ""}`, dataset: { entry: String(turn.entry) } };
    const head = onPick ? h("button", { type: "button", class: "tl-jump", onclick: () => onPick(turn.entry), title: t("review.jump") }, title) : title;
    return h("li", attrs, head, hands, claims);
  });
  return h("ol", { class: "timeline" }, ...rows);
}

// A move in words for the coach's list: "Steal → Bahareh", "Block as Captain", "Pass".
export function moveLabel(move, names) {
  const [verb, ...args] = String(move).split(" ");
  const arg = args[0];
  const target = arg !== undefined && /^\d+$/.test(arg) ? playerName(names, Number(arg)) : null;
  const card = (c) => t(`char.${c}`);
  switch (verb) {
    case "income": case "foreign_aid": case "tax": case "exchange": case "pass": case "challenge": case "return": case "swap":
      return t(`act.${verb}`);
    case "coup": case "assassinate": case "steal": case "examine":
      return t("review.move_target", { action: t(`act.${verb}`), name: target });
    case "block": return t("act.block_as", { card: card(arg) });
    case "reveal": return t("act.reveal", { card: card(arg) });
    case "lose": return t("review.move_lose", { card: card(arg) });
    case "keep": return t("act.keep", { cards: args.map(card).join(t("log.and")) });
    case "show": return t("review.move_show", { card: card(arg) });
    case "draft": return t("review.move_draft", { card: card(arg) });
    default: return String(move);
  }
}

// The table's scoreboard (games and wins by player), filled in when the server answers;
// asked once per table and number of games (the views re-render the page often).
const boards = new Map();

export function scoreboardBox(tableId, games = null) {
  const box = h("div", { class: "scoreboard", id: "scoreboard", hidden: true });
  const key = `${tableId}/${games}`;
  if (!boards.has(key) || games === null) {
    boards.set(key, api("GET", `/api/tables/${encodeURIComponent(tableId)}/scoreboard`).then((r) => r.scoreboard));
  }
  boards.get(key).then((scoreboard) => {
    if (!scoreboard.games) return;
    const rows = scoreboard.players.map((p) => h("tr", {},
      h("th", { scope: "row", dir: "auto", text: p.name }), h("td", { text: num(p.games) }), h("td", { text: num(p.wins) })));
    box.append(h("h3", { text: t("review.scoreboard") }),
      h("table", { class: "stats-table score-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("review.col_player") }),
          h("th", { scope: "col", text: t("review.col_games") }), h("th", { scope: "col", text: t("review.col_wins") }))),
        h("tbody", {}, ...rows)));
    box.hidden = false;
  }).catch(() => { /* no scoreboard: nothing to show */ });
  return box;
}

export function replayHref(tableId, game) { return `/t/${encodeURIComponent(tableId)}/games/${game}/replay`; }

// Links to the table's finished games' replays (games 1..last; the running one is not over).
export function pastGames(table, go) {
  const last = table.status === "over" ? table.game : table.game - 1;
  if (!last || last < 1) return null;
  const links = [];
  for (let n = last; n >= 1 && links.length < 12; n--) {
    const href = replayHref(table.id, n);
    links.push(h("li", {}, h("a", { href, class: "past-game", onclick: (e) => { e.preventDefault(); go(href); } },
      t("review.game_n", { n: num(n) }))));
  }
  return h("div", { class: "past-games" }, h("h3", { text: t("review.past_games") }), h("ul", {}, ...links));
}

// The coach's progress on this player's decisions, shown on the end screen as soon as the
// game is over: the server queued the analysis of every person's seat when the game ended
// (docs/protocol.md, the coach), so this only reads its status. One poll per game and seat,
// whatever the number of renders; it stops when done, failed, or nobody shows it.
const coachWatches = new Map();
const FINAL = ["done", "failed"];

function coachText(res) {
  if (res.status === "done" && res.coach) return t("end.coach_ready", { n: num(res.coach.decisions.length), m: num(res.coach.mistakes) });
  if (res.status === "failed") return t("review.coach_failed");
  if (res.status === "running" && res.total) return t("review.coach_running", { done: num(res.done), total: num(res.total) });
  return t("review.coach_queued");
}

function fillCoach(box, res) {
  box.dataset.status = res.status;
  const bar = res.status === "done" ? null
    : res.total ? h("progress", { max: String(res.total), value: String(res.done) }) : res.status === "failed" ? null : h("progress", {});
  clear(box).append(h("p", { class: "sub", text: coachText(res) }));
  if (bar) box.append(bar);
}

function coachLine(url) {
  const box = h("div", { class: "end-coach coach", id: "end-coach", role: "status" });
  let w = coachWatches.get(url);
  if (!w) { w = { last: null, boxes: new Set(), polling: false }; coachWatches.set(url, w); }
  w.boxes.add(box);
  fillCoach(box, w.last || { status: "queued", done: 0, total: null });
  if (!w.polling && !(w.last && FINAL.includes(w.last.status))) { w.polling = true; pollCoach(w, url); }
  return box;
}

async function pollCoach(w, url) {
  let res;
  try { res = await api("GET", url); } catch { res = { status: "failed" }; }
  w.last = res;
  for (const box of [...w.boxes]) { if (box.isConnected) fillCoach(box, res); else w.boxes.delete(box); }
  if (FINAL.includes(res.status) || !w.boxes.size) { w.polling = false; return; }
  setTimeout(() => pollCoach(w, url), 1500);
}

// The end screen's part: statistics, order of elimination, the replay link, the coach's
// progress on this player's decisions, the scoreboard and the bluff timeline (folded).
// The story is fetched once per game.
const stories = new Map();

export function endStory(table, go, me = null) {
  const game = table.game;
  const box = h("div", { class: "end-story", id: "end-story" });
  const key = `${table.id}/${game}`;
  const base = `/api/tables/${encodeURIComponent(table.id)}/games/${game}`;
  const mine = me !== null && me !== undefined;
  if (!stories.has(key)) {
    stories.set(key, api("GET", `${base}/replay`).then((r) => r.story).catch(() => null));
    if (mine) { try { sessionStorage.setItem(`coup.coach.${table.id}.${game}`, String(me)); } catch { /* ignore */ } }
  }
  const coach = mine ? coachLine(`${base}/coach/${me}`) : null;
  const href = replayHref(table.id, game);
  if (coach) box.append(coach);  // shown at once (a poll finds it in the page)
  stories.get(key).then((story) => {
    if (!story) return;
    const head = [h("h3", { text: t("review.stats") }), statsTable(story), eliminationLine(story),
      h("a", { class: "btn", id: "watch-replay", href, onclick: (e) => { e.preventDefault(); go(href); }, text: t("review.watch") })].filter(Boolean);
    const tail = [scoreboardBox(table.id, `${game}-over`),
      h("details", { class: "end-timeline" }, h("summary", { text: t("review.timeline") }), timeline(story))];
    if (coach) { coach.before(...head); coach.after(...tail); } else box.append(...head, ...tail);
  });
  return box;
}
