// The lobby: seats, names, bots, settings, links, start, who watches, former players.
// Host-only controls for the host.
import { pastGames, scoreboardBox } from "./aftergame.js";
import { copyText, drawInParts, h, toast } from "./dom.js";
import { num, t } from "./i18n.js";
import { nameField } from "./home.js";
import { displayName } from "./names.js";
import { seatProfile } from "./profile.js";
import { settingsForm, settingsSummary } from "./settings.js";

// A game can start once two seats are taken (the Start button; the page then loads the
// game's code ahead of it).
export const canStart = (table) => table.seats.filter(Boolean).length >= 2;

export function renderLobby(root, app) {
  const msg = app.msg;
  const table = msg.table;
  const you = msg.you || {};
  const seated = you.seat !== null && you.seat !== undefined;
  const host = !!you.host;
  const taken = table.seats.filter(Boolean).length;

  const field = nameField(app, "lobby-name");
  app.nameField = field;
  const full = taken === table.seats.length;
  const shut = !seated && (you.blocked || table.settings.locked);
  const who = seated
    ? h("p", { class: "lobby-you" }, t("lobby.you_sit", { n: num(you.seat + 1), name: you.name || "" }))
    : shut
      ? h("p", { class: "lobby-full hint", id: "lobby-shut", text: t(you.blocked ? "gone.blocked" : "lobby.locked_note") })
      : full && table.status !== "playing"
        ? h("p", { class: "lobby-full hint", text: t("lobby.full") })
        : h("div", { class: "lobby-join" },
          h("label", { class: "field-label", for: "lobby-name", text: t("home.your_name") }), field.input, field.count,
          h("p", { class: "hint", text: msg.table.status === "playing" ? t("lobby.running") : t("lobby.pick_seat") }));

  const rows = table.seats.map((s, i) => seatRow(app, s, i, { seated, host, table, shut }));
  const seatList = h("ol", { class: "lobby-seats" }, ...rows);
  const fill = host && table.status !== "playing" && taken < table.seats.length ? fillRow(app, table) : null;

  const actions = h("div", { class: "btn-row lobby-actions" });
  if (host) {
    const ready = canStart(table);
    actions.append(h("button", { type: "button", class: "btn primary big", id: "start", disabled: !ready,
      title: ready ? "" : t("lobby.need_two"), onclick: () => app.send({ type: "start" }),
      text: table.status === "over" ? t("end.rematch") : t("lobby.start") }));
    if (!ready) actions.append(h("span", { class: "hint", text: t("lobby.need_two") }));
  } else if (seated) {
    actions.append(h("span", { class: "waiting-host", text: t("lobby.wait_host") }),
      h("button", { type: "button", class: "btn ghost", id: "leave", onclick: () => app.send({ type: "leave" }), text: t("lobby.leave") }));
  } else {
    actions.append(h("span", { class: "hint", text: t("lobby.watching", { n: num(table.spectators || 0) }) }));
  }
  if (table.status === "over") {
    actions.append(h("button", { type: "button", class: "btn ghost", id: "back-to-game", onclick: () => app.showGame(), text: t("lobby.back_to_game") }));
  }

  // The start comes first: on a phone it is in view without scrolling.
  const main = h("section", { class: "lobby-main" },
    h("div", { class: "lobby-head" },
      h("h1", { text: t("lobby.title") }),
      h("span", { class: "lobby-status", text: t(`lobby.status.${table.status}`) })),
    actions, who,
    h("h2", { class: "sub", text: t("lobby.seats", { taken: num(taken), total: num(table.seats.length) }) }),
    fill, seatList, watchers(table), host ? lockSwitch(app, table) : null, host ? formerList(app, table) : null);
  const layout = h("div", { class: "lobby-layout" }, main);
  // The rest of the lobby: the link to send, the scores and past games, the settings, the
  // chat. Drawn again in place (a view came), all at once; coming from another screen, in
  // turns after the first lines (a table's link opened on a phone).
  const rest = [
    () => main.append(...[shareBox(app, table, seated), scoreboardBox(table.id, `${table.game}-${table.status}`),
      pastGames(table, app.go)].filter(Boolean)), // the scores and past games only once there are some
    () => layout.append(settingsBox(app, table, host)),
    () => layout.append(app.chatPanel()),
  ];
  drawInParts(root, layout, rest, root.querySelector(".lobby-layout"));
}

// The table's link to send: copy, share, its QR code, and a seated player's own link back.
function shareBox(app, table, seated) {
  const link = `${location.origin}/t/${table.id}`;
  const canShare = typeof navigator.share === "function";
  return h("div", { class: "share" },
    h("label", { class: "field-label", for: "table-link", text: t("lobby.table_link") }),
    h("div", { class: "copy-row" },
      h("input", { id: "table-link", dir: "ltr", readonly: true, value: link, onfocus: (e) => e.target.select() }),
      h("button", { type: "button", class: "btn", id: "copy-link", onclick: async () => toast(await copyText(link) ? t("lobby.copied") : t("lobby.copy_failed")), text: t("lobby.copy") }),
      canShare ? h("button", { type: "button", class: "btn", id: "share-link", text: t("lobby.share"),
        onclick: () => navigator.share({ title: t("app.name"), text: t("lobby.share_text"), url: link }).catch(() => {}) }) : null),
    h("details", { class: "qr", open: app.qrOpen, ontoggle: (e) => { app.qrOpen = e.target.open; } },
      h("summary", { text: t("lobby.qr") }),
      h("img", { class: "qr-code", id: "qr-code", src: `/api/tables/${encodeURIComponent(table.id)}/qr.svg`,
        alt: t("lobby.qr_alt"), width: "200", height: "200", loading: "lazy" })),
    seated ? h("div", { class: "copy-row rejoin" },
      h("span", { class: "hint", text: t("lobby.rejoin_hint") }),
      h("button", { type: "button", class: "btn ghost", id: "copy-rejoin",
        onclick: async () => toast(await copyText(app.rejoinLink()) ? t("lobby.copied") : t("lobby.copy_failed")), text: t("lobby.copy_rejoin") })) : null);
}

// The table's settings: the host's form, a summary for everyone else.
function settingsBox(app, table, host) {
  const box = h("div", { class: "lobby-settings" }, h("h2", { class: "sub", text: t("lobby.settings") }));
  if (host) {
    const form = settingsForm(app.config, table.settings, {
      onChange: () => app.send({ type: "settings", settings: form.read() }),
    });
    box.append(form.el);
  } else box.append(settingsSummary(table.settings));
  return box;
}

// The host's choice of a bot for an empty seat: its level and its personality. The lobby is
// drawn anew at every view, so a choice not yet sent is kept in `app.botChoices` by seat and
// drawn again as the host left it.
function botPicker(app, i, table) {
  const config = app.config || {};
  const levels = config.levels || ["easy", "medium", "hard"];
  const kinds = ["random", ...(config.personalities || [])];
  const choices = (app.botChoices ||= {});
  const chosen = choices[i] || { level: table.settings.bot_level, personality: "random" };
  const remember = () => { choices[i] = { level: level.value, personality: personality.value }; };
  const level = h("select", { class: "bot-level", "aria-label": t("bot.personality.level"), dataset: { seat: String(i) }, onchange: remember },
    ...levels.map((l) => h("option", { value: l, selected: l === chosen.level, text: t(`level.${l}`) })));
  const personality = h("select", { class: "bot-personality", "aria-label": t("bot.personality.label"), dataset: { seat: String(i) }, onchange: remember },
    ...kinds.map((p) => h("option", { value: p, selected: p === chosen.personality, title: t(`bot.personality.${p}.about`), text: t(`bot.personality.${p}`) })));
  const add = h("button", { type: "button", class: "btn add-bot", dataset: { seat: String(i) },
    onclick: () => {
      delete choices[i];
      app.send({ type: "add_bot", seat: i, level: level.value, personality: personality.value });
    },
    text: t("lobby.add_bot") });
  return [level, personality, add];
}

// "Fill empty seats with bots": one bot in every empty seat, of the level and personality
// picked here (the table's bot level and a random personality unless changed).
function fillRow(app, table) {
  const config = app.config || {};
  const chosen = (app.fillChoice ||= { level: table.settings.bot_level, personality: "random" });
  const level = h("select", { class: "bot-level", id: "fill-level", "aria-label": t("bot.personality.level"),
    onchange: () => { chosen.level = level.value; } },
  ...(config.levels || ["easy", "medium", "hard"]).map((l) => h("option", { value: l, selected: l === chosen.level, text: t(`level.${l}`) })));
  const personality = h("select", { class: "bot-personality", id: "fill-personality", "aria-label": t("bot.personality.label"),
    onchange: () => { chosen.personality = personality.value; } },
  ...["random", ...(config.personalities || [])].map((p) => h("option", { value: p, selected: p === chosen.personality, text: t(`bot.personality.${p}`) })));
  return h("div", { class: "lobby-fill seat-controls" }, level, personality,
    h("button", { type: "button", class: "btn", id: "fill-bots", text: t("lobby.fill_bots"),
      onclick: () => app.send({ type: "fill_bots", level: level.value, personality: personality.value }) }));
}

// Who is watching: the names spectators gave, and how many gave none.
function watchers(table) {
  const names = table.watching || [];
  const others = Math.max(0, (table.spectators || 0) - names.length);
  if (!names.length && !others) return null;
  const parts = [...names];
  if (others) parts.push(t("lobby.watching_unnamed", { n: num(others) }));
  return h("p", { class: "lobby-watchers hint", id: "lobby-watchers" },
    h("b", { text: t("lobby.watching_title") }), " ", h("span", { dir: "auto", text: parts.join(t("log.comma")) }));
}

// The host's lock: nobody new sits (the host still adds bots). It may change mid-game.
function lockSwitch(app, table) {
  const box = h("input", { type: "checkbox", id: "lock-table", checked: !!table.settings.locked,
    onchange: () => app.send({ type: "settings", settings: { locked: box.checked } }) });
  return h("div", { class: "field toggle lobby-lock" }, h("label", { class: "switch" }, box, h("span", { class: "slider" })),
    h("label", { for: "lock-table", class: "field-label", text: t("lobby.lock") }),
    h("div", { class: "hint", text: t("lobby.lock_hint") }));
}

// Players the host removed or who left, each with the host's Blocked switch.
function formerList(app, table) {
  const former = table.former || [];
  if (!former.length) return null;
  return h("div", { class: "lobby-former", id: "lobby-former" }, h("h3", { class: "sub", text: t("lobby.former") }),
    h("ul", {}, ...former.map((f, i) => {
      const box = h("input", { type: "checkbox", id: `block-${i}`, checked: !!f.blocked, dataset: { index: String(i) },
        onchange: () => app.send({ type: "block", index: i, blocked: box.checked }) });
      return h("li", { class: "former-row", dataset: { index: String(i) } },
        h("span", { class: "seat-name", dir: "auto", text: f.name }),
        h("span", { class: "tag tag-off", text: t(`lobby.former_${f.gone}`) }),
        h("span", { class: "former-block" }, h("label", { class: "switch" }, box, h("span", { class: "slider" })),
          h("label", { for: `block-${i}`, text: t("lobby.blocked") })));
    })));
}

// "Take a seat" for someone watching between games when a seat is free (and the host has
// neither locked the table nor blocked them): the lowest free seat, in one tap.
export function seatOffer(app, id) {
  const msg = app.msg;
  const table = msg?.table;
  const you = msg?.you || {};
  if (!table || table.status !== "over" || (you.seat !== null && you.seat !== undefined)) return null;
  if (you.blocked || table.settings.locked || !table.seats.some((s) => !s)) return null;
  return h("button", { type: "button", class: "btn primary take-seat", id, onclick: () => app.takeSeat(null), text: t("table.take_seat") });
}

// A removed player (or one who left) is told so, and whether they may sit again.
export function goneNote(msg) {
  const gone = msg?.you?.gone;
  if (!gone) return null;
  return h("div", { class: `gone-note${msg.you.blocked ? " blocked" : ""}`, id: "gone-note", role: "status" },
    h("b", { text: t(`gone.${gone}`) }), " ", t(msg.you.blocked ? "gone.blocked" : "gone.again"));
}

function seatRow(app, s, i, { seated, host, table, shut }) {
  const you = app.msg.you || {};
  const tags = [];
  const controls = [];
  if (!s) {
    const label = h("span", { class: "empty-seat", text: t("lobby.empty") });
    if (!seated && !shut && table.status !== "playing") {
      controls.push(h("button", { type: "button", class: "btn primary sit", dataset: { seat: String(i) },
        onclick: () => app.takeSeat(i), text: t("lobby.sit") }));
    }
    if (host) controls.push(...botPicker(app, i, table));
    return h("li", { class: "lobby-seat empty", dataset: { seat: String(i) } },
      h("span", { class: "seat-no", text: num(i + 1) }), label, h("span", { class: "seat-controls" }, ...controls));
  }
  if (s.host) tags.push(h("span", { class: "tag tag-host", text: t("lobby.host") }));
  const name = displayName(s.name, s.kind === "bot");
  if (s.kind === "bot") tags.push(h("span", { class: "tag tag-bot", text: t("lobby.bot", { level: t(`level.${s.level}`) }) }));
  if (s.kind === "bot" && s.personality) {
    tags.push(h("span", { class: "tag tag-personality", title: t(`bot.personality.${s.personality}.about`),
      text: t(`bot.personality.${s.personality}`) }));
  }
  if (i === you.seat) tags.push(h("span", { class: "tag tag-you", text: t("table.you") }));
  const profile = seatProfile(s);
  if (profile) tags.push(profile);
  if (s.standin) tags.push(h("span", { class: "tag tag-off", text: t(s.standin === "left" ? "seat.left" : "seat.standin") }));
  if (s.kind === "human" && !s.connected) tags.push(h("span", { class: "tag tag-off", text: t("seat.disconnected") }));
  if (host && !s.host) {
    const empties = table.seats.map((x, j) => (x ? null : j)).filter((j) => j !== null);
    if (empties.length) {
      const select = h("select", { class: "move-to", "aria-label": t("lobby.move_to"), dataset: { seat: String(i) } },
        h("option", { value: "", text: t("lobby.move_to") }),
        ...empties.map((j) => h("option", { value: String(j), text: t("lobby.seat_n", { n: num(j + 1) }) })));
      select.addEventListener("change", () => { if (select.value !== "") app.send({ type: "move_seat", from: i, to: Number(select.value) }); });
      controls.push(select);
    }
    controls.push(h("button", { type: "button", class: "btn ghost danger remove", dataset: { seat: String(i) },
      onclick: () => app.send({ type: "remove", seat: i }), text: t("lobby.remove") }));
  }
  return h("li", { class: `lobby-seat taken${i === you.seat ? " mine" : ""}`, dataset: { seat: String(i) } },
    h("span", { class: "seat-no", text: num(i + 1) }),
    h("span", { class: `avatar seat-colour-${i % 10}`, "aria-hidden": "true", text: [...name][0]?.toUpperCase() || "?" }),
    h("span", { class: "seat-name", text: name }), ...tags, h("span", { class: "seat-controls" }, ...controls));
}
