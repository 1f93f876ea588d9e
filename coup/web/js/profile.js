// Profiles on the page: the home page's panel (make one, sign in and out, another device's
// one-time link), the profile page /p/{name}, the leaderboard /leaderboard, the one-time
// link's page /link, a game's rating changes on the end screen and a seat's profile link.
import { clear, h, tNodes, toast } from "./dom.js";
import { character, has, num, t } from "./i18n.js";
import { api } from "./net.js";
import { deleteProfile, makeProfile, newLink, passkeysHere, setHidden, signIn, signOut, useLink, whoAmI } from "./passkey.js";

const SVG = "http://www.w3.org/2000/svg";
const state = { me: undefined, here: true, use: "", pages: new Map(), games: new Map(), link: null };

function failed(err) {
  const code = err?.code;
  if (err?.name === "NotAllowedError" || err?.name === "AbortError") toast(t("profile.failed"), "error");
  else toast(code && has(`error.${code}`) ? t(`error.${code}`) : (err?.message || t("profile.failed")), "error");
}

// Who is signed in (asked once per page load; the answer is kept).
export async function refreshMe() {
  try {
    const got = await whoAmI();
    state.me = got.profile; state.here = got.here; state.use = got.use || "";
  } catch { state.me = null; }
  return state.me;
}

export function profileHref(name) { return `/p/${encodeURIComponent(name)}`; }

function link(app, href, text, attrs = {}) {
  return h("a", { href, ...attrs, onclick: (e) => { e.preventDefault(); app.go(href); } }, text);
}

function raterName(row) {
  if (row.kind === "bot") {
    const [, level, personality] = String(row.id || row.profile_id || row.other_id).split(":");
    const lv = has(`level.${level}`) ? t(`level.${level}`) : level;
    return personality && has(`bot.personality.${personality}`) ? t("board.bot_personality", { level: lv, personality: t(`bot.personality.${personality}`) })
      : t("board.bot", { level: lv });
  }
  return row.name || t("profile.deleted");
}

function rating(value, margin) {
  return h("span", { class: "rating" }, h("b", { text: num(Math.round(value)) }),
    margin !== undefined ? h("span", { class: "rating-margin", text: ` ± ${num(Math.round(margin))}` }) : null);
}

// ---- the home page's panel ----------------------------------------------------------
export function profilePanel(app) {
  const box = h("div", { class: "panel-card profile-panel", id: "profile-panel" });
  const draw = () => {
    clear(box).append(h("h2", { text: t("profile.title") }));
    if (!state.here) { box.append(h("p", { class: "hint", id: "profile-not-here", text: t("profile.not_here", { url: hereUrl() }) })); return; }
    if (state.me === undefined) { refreshMe().then(draw); return; }
    if (state.me) {
      const me = state.me;
      box.append(h("p", { id: "profile-signed-in" }, tNodes("profile.signed_in", { name: link(app, profileHref(me.name), me.name, { id: "my-profile" }) })));
      const shown = h("div", { class: "profile-link", id: "device-link" });
      box.append(h("div", { class: "btn-row" },
        h("button", { type: "button", class: "btn", id: "add-device", onclick: async () => {
          try { state.link = await newLink(); showLink(shown); } catch (err) { failed(err); }
        }, text: t("profile.add_device") }),
        link(app, "/leaderboard", t("board.title"), { class: "btn ghost", id: "to-leaderboard" }),
        h("button", { type: "button", class: "btn ghost", id: "sign-out", onclick: async () => {
          try { await signOut(); } catch (err) { failed(err); }
          state.me = null; draw();
        }, text: t("profile.sign_out") })), shown);
      return;
    }
    box.append(h("p", { class: "hint", text: t("profile.pitch") }));
    if (!passkeysHere()) { box.append(h("p", { class: "hint", text: t("profile.no_passkeys") })); return; }
    const input = h("input", { id: "profile-name", type: "text", value: app.name(), autocomplete: "nickname", maxlength: 64 });
    box.append(h("form", { class: "profile-make", onsubmit: async (ev) => {
      ev.preventDefault();
      const name = input.value.trim();
      if (!name) { input.focus(); return; }
      try { state.me = await makeProfile(name); app.setName(name); toast(t("profile.made")); draw(); } catch (err) { failed(err); }
    } }, h("label", { class: "field-label", for: "profile-name", text: t("profile.name") }),
    h("div", { class: "copy-row" }, input, h("button", { type: "submit", class: "btn primary", id: "make-profile", text: t("profile.create") }))),
    h("div", { class: "btn-row" },
      h("button", { type: "button", class: "btn", id: "sign-in", onclick: async () => {
        try { state.me = await signIn(); draw(); } catch (err) { failed(err); }
      }, text: t("profile.sign_in") }),
      link(app, "/leaderboard", t("board.title"), { class: "btn ghost", id: "to-leaderboard" })));
  };
  draw();
  return box;
}

function hereUrl() { return state.use || `${location.protocol}//localhost${location.port ? `:${location.port}` : ""}`; }

function showLink(el) {
  const got = state.link;
  clear(el).append(h("p", { class: "hint", text: t("profile.link_hint") }),
    h("img", { class: "qr", src: got.qr, alt: t("profile.add_device"), width: 160, height: 160 }),
    h("input", { type: "text", readonly: true, dir: "ltr", id: "device-link-text", value: got.link, "aria-label": t("profile.add_device") }));
}

// ---- /link: another device's passkey ----------------------------------------------------
export function renderLinkPage(root, app) {
  const code = (location.hash.match(/code=([A-Za-z0-9_-]+)/) || [])[1] || state.linkCode;
  if (code) { state.linkCode = code; history.replaceState({}, "", "/link"); }
  clear(root).append(h("section", { class: "panel-card profile-page" }, h("h1", { text: t("profile.link_title") }),
    h("p", { class: "hint", text: t("profile.link_hint") }),
    h("button", { type: "button", class: "btn primary big", id: "use-link", disabled: !code, onclick: async () => {
      try { state.me = await useLink(code); state.linkCode = null; app.go(profileHref(state.me.name)); } catch (err) { failed(err); }
    }, text: t("profile.link_go") })));
}

// ---- /p/{name} -----------------------------------------------------------------------
async function loaded(key, url, rerender) {
  const got = state.pages.get(key);
  if (got) return got;
  state.pages.set(key, { loading: true });
  try { state.pages.set(key, await api("GET", url)); } catch (err) { state.pages.set(key, { error: err.code || "internal" }); }
  rerender();
  return null;
}

export function forget() { state.pages.clear(); }

export function renderProfilePage(root, app, name) {
  const data = state.pages.get(`p:${name}`);
  if (!data || data.loading) {
    if (!data) loaded(`p:${name}`, `/api/profiles/${encodeURIComponent(name)}`, () => app.rerender());
    if (state.me === undefined) refreshMe().then(() => app.rerender());
    clear(root).append(h("div", { class: "loading", "aria-busy": "true" }, h("span", { class: "spinner" })));
    return;
  }
  if (data.error) {
    clear(root).append(h("section", { class: "panel-card missing" }, h("h1", { text: t("profile.missing") }),
      link(app, "/leaderboard", t("board.title"), { class: "btn primary" })));
    return;
  }
  const p = data.profile;
  const stats = p.stats || {};
  const mine = state.me && state.me.id === p.id;
  const favourite = Object.entries(stats.characters || {}).sort((a, b) => b[1] - a[1])[0];
  const numbers = [["profile.games", p.games], ["profile.wins", p.wins], ["profile.claims", stats.claims],
    ["profile.bluffs", stats.bluffs], ["profile.caught", stats.caught], ["profile.challenges", stats.challenges],
    ["profile.challenges_won", stats.challenges_won], ["profile.blocks", stats.blocks], ["profile.streak", stats.best]];
  const sizes = Object.entries(stats.by_size || {}).sort((a, b) => Number(a[0]) - Number(b[0]));
  const page = h("section", { class: "profile-page", id: "profile-page" },
    h("div", { class: "panel-card profile-head" },
      h("h1", { class: "profile-name", text: raterName(p) }),
      h("div", { class: "profile-rating", id: "profile-rating" }, h("span", { class: "field-label", text: t("profile.rating") }), rating(p.rating, p.margin)),
      h("p", { class: "hint", text: t("profile.rating_how") }),
      chart(p.history || [])),
    h("div", { class: "panel-card" }, h("dl", { class: "profile-numbers" },
      ...numbers.map(([k, v]) => h("div", {}, h("dt", { text: t(k) }), h("dd", { text: num(v || 0) }))),
      h("div", {}, h("dt", { text: t("profile.favourite") }), h("dd", { text: favourite ? character(favourite[0]) : "—" }))),
    sizes.length ? h("div", { class: "stats-wrap" }, h("table", { class: "stats-table", id: "by-size" },
      h("caption", { text: t("profile.by_size") }),
      h("thead", {}, h("tr", {}, h("th", { text: "" }), h("th", { text: t("profile.games") }), h("th", { text: t("profile.wins") }))),
      h("tbody", {}, ...sizes.map(([n, [played, won]]) => h("tr", {}, h("th", { text: t("profile.size", { n: num(Number(n)) }) }),
        h("td", { text: num(played) }), h("td", { text: num(won) })))))) : null),
    h("div", { class: "panel-card" }, h("h2", { text: t("profile.last_games") }),
      h("ol", { class: "profile-games", id: "profile-games" }, ...(p.history || []).slice(-20).reverse().map((g) => h("li", {},
        h("span", { text: t("profile.place", { place: num(g.place), size: num(g.size) }) }), " ",
        rating(g.rating), " ",
        link(app, `/t/${encodeURIComponent(g.table_id)}/games/${g.game}/replay`, t("profile.replay")))))),
    (p.rivals || []).length ? h("div", { class: "panel-card" }, h("h2", { text: t("profile.rivals") }),
      h("ul", { class: "profile-rivals", id: "profile-rivals" }, ...p.rivals.map((r) => h("li", {},
        r.kind === "person" && r.name ? link(app, profileHref(r.name), r.name) : h("span", { text: raterName(r) }),
        " ", h("span", { class: "hint", text: t("profile.ahead", { ahead: num(r.ahead), games: num(r.games) }) }))))) : null,
    mine ? ownerBox(app, p) : null);
  clear(root).append(page);
}

function ownerBox(app, p) {
  return h("div", { class: "panel-card profile-owner" },
    h("label", { class: "chat-toggle" }, h("input", { type: "checkbox", id: "profile-hidden", checked: Boolean(p.hidden),
      onchange: async (ev) => { try { await setHidden(ev.target.checked); } catch (err) { failed(err); } } }),
    h("span", { text: t("profile.hidden") })),
    h("div", { class: "btn-row" },
      h("a", { class: "btn", href: "/api/profiles/me/export", download: "coup-profile.json", id: "profile-export", text: t("profile.export") }),
      h("button", { type: "button", class: "btn danger", id: "profile-delete", onclick: async () => {
        if (!window.confirm(t("profile.delete_confirm"))) return;
        try { await deleteProfile(); state.me = null; forget(); app.go("/"); } catch (err) { failed(err); }
      }, text: t("profile.delete") })));
}

// The rating after each game as a line (inline SVG drawn here: no chart library).
function chart(history) {
  if (!history.length) return null;
  const w = 320, hgt = 90, pad = 6;
  const values = [history[0].before, ...history.map((g) => g.rating)]; // from before the first
  const lo = Math.min(...values), hi = Math.max(...values);
  const span = hi - lo || 1;
  const points = values.map((v, i) => `${(pad + (i * (w - 2 * pad)) / (values.length - 1)).toFixed(1)},${(hgt - pad - ((v - lo) * (hgt - 2 * pad)) / span).toFixed(1)}`);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${hgt}`);
  svg.setAttribute("class", "rating-chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("profile.chart"));
  svg.setAttribute("dir", "ltr");
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("points", points.join(" "));
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "currentColor");
  line.setAttribute("stroke-width", "2");
  svg.append(line);
  return svg;
}

// ---- /leaderboard ----------------------------------------------------------------------
export function renderLeaderboard(root, app) {
  const mine = state.boardMine ? "1" : "0";
  const data = state.pages.get(`board:${mine}`);
  if (state.me === undefined) { refreshMe().then(() => app.rerender()); }
  if (!data || data.loading) {
    if (!data) loaded(`board:${mine}`, `/api/leaderboard${mine === "1" ? "?mine=1" : ""}`, () => app.rerender());
    clear(root).append(h("div", { class: "loading", "aria-busy": "true" }, h("span", { class: "spinner" })));
    return;
  }
  const rows = data.rows || [];
  clear(root).append(h("section", { class: "panel-card leaderboard", id: "leaderboard" },
    h("h1", { text: t("board.title") }),
    h("p", { class: "hint", text: t("board.min_games", { n: num(data.min_games || 0) }) }),
    state.me ? h("label", { class: "chat-toggle" }, h("input", { type: "checkbox", id: "board-mine", checked: state.boardMine,
      onchange: (ev) => { state.boardMine = ev.target.checked; app.rerender(); } }), h("span", { text: t("board.mine") })) : null,
    h("div", { class: "stats-wrap" }, h("table", { class: "stats-table board-table" },
      h("thead", {}, h("tr", {}, h("th", { text: t("board.rank") }), h("th", { text: t("board.player") }),
        h("th", { text: t("profile.rating") }), h("th", { text: t("profile.games") }))),
      h("tbody", {}, ...rows.map((r, i) => h("tr", { class: r.kind === "bot" ? "board-bot" : "" },
        h("td", { text: num(i + 1) }),
        h("th", {}, r.kind === "bot" ? h("span", { text: raterName(r) }) : link(app, profileHref(r.name), r.name)),
        h("td", {}, rating(r.rating, r.margin)), h("td", { text: num(r.games) }))))))));
}

// ---- the end screen: this game's rating changes ---------------------------------------
export function endRatings(table, game, rerender) {
  const key = `${table.id}:${game}`;
  const box = h("div", { class: "end-ratings", id: "end-ratings" });
  const fill = (rows) => {
    if (rows && rows.length) {
      box.append(h("h3", { text: t("end.ratings") }), h("ul", {}, ...rows.map((r) => h("li", { dataset: { rater: r.profile_id } },
        h("span", { class: "seat-name", text: raterName(r) }), " ",
        r.rated ? h("span", { class: "rating-move", text: `${num(Math.round(r.before))} → ${num(Math.round(r.rating))}` })
          : h("span", { class: "hint", text: t("end.not_rated") })))));
    }
    if (state.me === null && state.here) { // a guest: a profile keeps the next games
      box.append(h("a", { class: "btn ghost", href: "/#profile-panel", target: "_blank", rel: "noopener", id: "end-make-profile", text: t("profile.create") }));
    }
  };
  if (state.me === undefined) refreshMe().then(rerender);
  const got = state.games.get(key);
  if (got) fill(got);
  else if (got === null) fill(null);
  else {
    state.games.set(key, null);
    api("GET", `/api/tables/${encodeURIComponent(table.id)}/games/${game}/ratings`)
      .then((d) => { state.games.set(key, d.ratings); rerender(); }).catch(() => state.games.delete(key));
  }
  return box;
}

// A seat's profile: a link to its page; a person without one is marked a guest.
export function seatProfile(seat) {
  if (!seat || seat.kind !== "human") return null;
  if (!seat.profile) return h("span", { class: "tag tag-guest", text: t("profile.guest") });
  return h("a", { class: "tag tag-profile", href: profileHref(seat.profile), text: seat.profile, target: "_blank", rel: "noopener" });
}
