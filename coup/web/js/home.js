// The home page: your name, a new table with its settings, joining by link, your recent tables.
import { drawInParts, h, toast } from "./dom.js";
import { num, t } from "./i18n.js";
import { settingsForm } from "./settings.js";
import { cardFace } from "./cards.js";

// Panels whose code loads once the home shows (the first screen does not wait for it): a
// box in their place until it came, then the panel; at once on the home's next renders.
function later(app, name, make) {
  if (app.parts[name]) return make(app.parts[name]);
  const box = h("div", { class: "panel-card", "aria-busy": "true" });
  app.need(name).then((mod) => { if (box.parentNode) box.replaceWith(make(mod)); },
    () => box.remove()); // offline: the home without it
  return box;
}

export function tableIdFrom(text) {
  const s = String(text || "").trim();
  const m = s.match(/\/t\/([A-Za-z0-9_-]{6,64})/) || s.match(/^([A-Za-z0-9_-]{6,64})$/);
  return m ? m[1] : null;
}

// A name's length as the server counts it (docs/protocol.md, *Names and chat text*): every
// White_Space character is a space, runs of them one, none at the ends; then code points.
const SPACES = /[\t\n\v\f\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;
export function nameLength(text) { return [...String(text).replace(SPACES, " ").replace(/^ | $/g, "")].length; }

// A name input with its limit shown under it ("7 / 24").
export function nameField(app, id) {
  const limit = app.config.limits?.name || 24;
  const count = h("span", { class: "name-count", id: `${id}-count`, "aria-live": "polite" });
  const show = (value) => {
    const n = nameLength(value);
    count.textContent = t("home.name_count", { n: num(n), max: num(limit) });
    count.classList.toggle("over", n > limit);
  };
  const input = h("input", { id, type: "text", value: app.name(), autocomplete: "nickname",
    placeholder: t("home.name_placeholder"), "aria-describedby": `${id}-count`,
    oninput: (e) => { app.setName(e.target.value); show(e.target.value); } });
  show(app.name());
  return { input, count, limit };
}

// The name to send, or null (with the reason shown) when it would be refused.
export function checkedName(field) {
  const name = field.input.value.trim();
  if (!name || nameLength(name) > field.limit) {
    toast(t("error.bad_name", { max: num(field.limit) }), "error");
    field.input.focus();
    return null;
  }
  return name;
}

// The home: its first screen (the hero: name, Play now, Learn, New table), and the rest
// (the new table's form, the side panels). Coming in place of another screen (the page's
// own first lines, say), the first screen is built and shown in one frame, the form in
// the next and the side panels in the one after: short tasks for a phone's CPU, not one
// long one that a tap would wait behind. Shown again (a new language), the home changes at
// once, with what was typed in it.
export function renderHome(root, app) {
  const field = nameField(app, "home-name");
  let form = null; // the new table's settings: built with the rest, or first by Play now
  const settings = () => (form ??= settingsForm(app.config, {}));
  const playNow = h("button", { type: "button", class: "btn big play-now", id: "play-now", onclick: async () => {
    const name = checkedName(field);
    if (!name) return;
    playNow.disabled = true;
    try { await app.createTable(name, settings().read(), true); } finally { playNow.disabled = false; }
  } }, h("span", { text: t("home.play_now") }), h("span", { class: "hint", text: t("home.play_now_hint") }));
  const learn = async (ev, name) => {
    const btn = ev.currentTarget;
    const typed = field.input.value.trim();
    const player = typed ? checkedName(field) : t("tut.player");
    if (!player) return;
    btn.disabled = true;
    let lessons;
    try { lessons = await app.need("lessons"); } catch { btn.disabled = false; toast(t("offline.text"), "error"); return; }
    try { await lessons.startTutorial(app, name, player); } finally { btn.disabled = false; }
  };
  const learnNow = h("button", { type: "button", class: "btn big learn", id: "learn", onclick: (ev) => learn(ev, "base") },
    h("span", { text: t("home.learn") }), h("span", { class: "hint", text: t("home.learn_hint") }));
  const hero = h("section", { class: "hero" },
    h("div", { class: "hero-text" },
      h("h1", { class: "hero-title", text: t("app.name") }),
      h("p", { class: "tagline", text: t("home.tagline") }),
      h("div", { class: "field name-field" }, h("label", { class: "field-label", for: "home-name", text: t("home.your_name") }), field.input, field.count),
      h("div", { class: "hero-actions" }, playNow, learnNow, h("a", { class: "btn ghost big", href: "#new-table", id: "to-new-table",
        onclick: (e) => {
          e.preventDefault();
          const newTable = root.querySelector("#new-table");
          newTable?.scrollIntoView({ behavior: "smooth" });
          newTable?.querySelector("select")?.focus();
        },
        text: t("home.new_table") }))),
    h("div", { class: "hero-cards", "aria-hidden": "true" },
      ...["duke", "assassin", "captain", "ambassador", "contessa"].map((c) => cardFace(c, { size: "md" }))));
  // the rest: the new table's form, then the side panels
  let grid = null;
  const rest = [
    () => root.append(grid = h("div", { class: "home-grid" }, newTableForm(app, field, settings()))),
    () => grid.append(homeSide(app, learn)),
  ];
  drawInParts(root, hero, rest, root.querySelector(".home-grid"));
}

// The new table's form: its settings and Create.
function newTableForm(app, field, form) {
  const create = h("button", { type: "submit", class: "btn primary big", id: "create", text: t("home.create") });
  return h("form", { class: "panel-card new-table", id: "new-table", onsubmit: async (ev) => {
    ev.preventDefault();
    const name = checkedName(field);
    if (!name) return;
    create.disabled = true;
    try { await app.createTable(name, form.read()); } finally { create.disabled = false; }
  } }, h("h2", { text: t("home.new_table") }), form.el, create);
}

// The home's side panels: the tutorial's epilogues, your profile, joining by link, your
// recent tables, opening a record, what Coup is.
function homeSide(app, learn) {
  const learnBox = (lessons) => {
    const saved = lessons.progress();
    return h("div", { class: "panel-card learn-box" }, h("h2", { text: t("home.learn") }),
      h("p", { class: "hint", text: t("home.learn_more") }),
      h("div", { class: "btn-row" }, ...lessons.EPILOGUES.map((n) => h("button", { type: "button", class: "btn", dataset: { tutorial: n },
        onclick: (ev) => learn(ev, n), text: t(`tut.start.${n}`) }))),
      saved && !saved.closed ? h("a", { class: "btn ghost", id: "learn-continue", href: `/t/${saved.table}`,
        onclick: (e) => { e.preventDefault(); app.go(`/t/${saved.table}`); }, text: t("home.learn_continue") }) : null);
  };

  const joinInput = h("input", { id: "join-link", dir: "ltr", type: "text", placeholder: t("home.join_placeholder"), autocomplete: "off" });
  const join = h("form", { class: "panel-card join", onsubmit: (ev) => {
    ev.preventDefault();
    const id = tableIdFrom(joinInput.value);
    if (!id) { toast(t("home.join_bad"), "error"); return; }
    const frag = joinInput.value.match(/#token=([A-Za-z0-9_-]+)/);
    app.go(`/t/${id}${frag ? `#token=${frag[1]}` : ""}`);
  } }, h("h2", { text: t("home.join") }), h("p", { class: "hint", text: t("home.join_hint") }),
  h("div", { class: "copy-row" }, joinInput, h("button", { type: "submit", class: "btn", id: "join", text: t("home.join_go") })));

  const recent = app.recent();
  const recentBox = recent.length ? h("div", { class: "panel-card recent" }, h("h2", { text: t("home.recent") }),
    h("ul", {}, ...recent.map((r) => h("li", {}, h("a", { href: `/t/${r.table}`, onclick: (e) => { e.preventDefault(); app.go(`/t/${r.table}`); } },
      h("b", { text: r.name || "?" }), " · ", h("code", { text: r.table.slice(0, 8) })))))) : null;

  return h("div", { class: "home-side" }, later(app, "lessons", learnBox),
    later(app, "profile", (mod) => mod.profilePanel(app)), join, recentBox,
    later(app, "record", (mod) => mod.recordPanel(app)),
    h("div", { class: "panel-card about" }, h("h2", { text: t("home.about") }), h("p", { text: t("home.about_text") })));
}
