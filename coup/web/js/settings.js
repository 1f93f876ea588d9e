// The table settings form (home page and the host's lobby panel). Choices come from /api/config.
import { h } from "./dom.js";
import { num, t } from "./i18n.js";

export const FALLBACK_CONFIG = {
  seats: { min: 2, max: 10 },
  characters: ["ambassador", "inquisitor"],
  levels: ["easy", "medium", "hard"],
  personalities: ["honest", "bluffer", "skeptic", "vengeful", "cautious"],
  turn_timer: { choices: [0, 30, 60], min: 5, max: 3600 },
  reaction_timer: { choices: [0, 10, 15, 30], min: 3, max: 600 },
  defaults: { seats: 4, characters: "ambassador", draft: true, reformation: false, turn_timer: 0, reaction_timer: 15, bot_level: "easy", hints: true },
  limits: { name: 24, chat: 300, message_bytes: 4096 },
};

function timerLabel(s) { return s === 0 ? t("settings.off") : t("settings.seconds", { n: num(s) }); }

function timerField(name, cfg, value, onChange) {
  const choices = cfg.choices;
  const custom = !choices.includes(value);
  const select = h("select", { name, id: `set-${name}` },
    ...choices.map((c) => h("option", { value: String(c), selected: !custom && c === value, text: timerLabel(c) })),
    h("option", { value: "custom", selected: custom, text: t("settings.custom") }));
  const input = h("input", { type: "number", name: `${name}_custom`, min: String(cfg.min), max: String(cfg.max),
    value: String(custom ? value : Math.max(cfg.min, 45)), class: `custom-seconds${custom ? "" : " hidden"}`,
    "aria-label": t("settings.custom_seconds") });
  const unit = h("span", { class: `unit${custom ? "" : " hidden"}`, text: t("settings.seconds_unit") });
  select.addEventListener("change", () => {
    const isCustom = select.value === "custom";
    input.classList.toggle("hidden", !isCustom); unit.classList.toggle("hidden", !isCustom);
    onChange?.();
  });
  input.addEventListener("change", () => onChange?.());
  return h("div", { class: "field-inline" }, select, input, unit);
}

// Returns {el, read()} ; read() gives a settings object for the protocol.
export function settingsForm(config, values, { onChange, disabled = false } = {}) {
  const v = { ...config.defaults, ...values };
  const seats = h("select", { name: "seats", id: "set-seats" });
  for (let n = config.seats.min; n <= config.seats.max; n++) {
    seats.append(h("option", { value: String(n), selected: n === v.seats, text: num(n) }));
  }
  const chars = h("div", { class: "segmented", role: "radiogroup" },
    ...config.characters.map((c) => h("label", { class: `seg c-${c}` },
      h("input", { type: "radio", name: "characters", value: c, checked: c === v.characters }),
      h("span", { text: t(`char.${c}`) }))));
  const draft = h("input", { type: "checkbox", name: "draft", id: "set-draft", checked: !!v.draft });
  const reformation = h("input", { type: "checkbox", name: "reformation", id: "set-reformation", checked: !!v.reformation });
  const hints = h("input", { type: "checkbox", name: "hints", id: "set-hints", checked: v.hints !== false });
  const level = h("select", { name: "bot_level", id: "set-level" },
    ...config.levels.map((l) => h("option", { value: l, selected: l === v.bot_level, text: t(`level.${l}`) })));
  const turn = timerField("turn_timer", config.turn_timer, v.turn_timer, onChange);
  const reaction = timerField("reaction_timer", config.reaction_timer, v.reaction_timer, onChange);
  // A label names its control: `for` a single control's id, or the group it labels.
  const row = (label, control, hint) => {
    const id = control.matches("select, input") ? control.id : control.querySelector("select")?.id;
    const labelled = control.matches("[role=radiogroup]");
    if (labelled) control.setAttribute("aria-label", t(label));
    return h("div", { class: "field" },
      h("label", { class: "field-label", for: labelled ? null : id, text: t(label) }), control,
      hint ? h("div", { class: "hint", text: t(hint) }) : null);
  };
  const el = h("fieldset", { class: "settings", disabled },
    row("settings.seats", seats),
    row("settings.characters", chars, "settings.characters_hint"),
    h("div", { class: "field toggle" }, h("label", { class: "switch" }, draft, h("span", { class: "slider" })),
      h("label", { for: "set-draft", class: "field-label", text: t("settings.draft") }),
      h("div", { class: "hint", text: t("settings.draft_hint") })),
    h("div", { class: "field toggle" }, h("label", { class: "switch" }, reformation, h("span", { class: "slider" })),
      h("label", { for: "set-reformation", class: "field-label", text: t("settings.reformation") }),
      h("div", { class: "hint", text: t("settings.reformation_hint") })),
    h("div", { class: "field toggle" }, h("label", { class: "switch" }, hints, h("span", { class: "slider" })),
      h("label", { for: "set-hints", class: "field-label", text: t("settings.hints") }),
      h("div", { class: "hint", text: t("settings.hints_hint") })),
    row("settings.turn_timer", turn),
    row("settings.reaction_timer", reaction),
    row("settings.bot_level", level));
  if (onChange) el.addEventListener("change", (ev) => { if (!ev.target.matches("select[name$=timer], input[name$=_custom]")) onChange(); });
  const timerValue = (wrap, name) => {
    const sel = wrap.querySelector(`select[name=${name}]`);
    if (sel.value !== "custom") return Number(sel.value);
    return Math.round(Number(wrap.querySelector(`input[name=${name}_custom]`).value));
  };
  const read = () => ({
    seats: Number(seats.value),
    characters: el.querySelector("input[name=characters]:checked")?.value || "ambassador",
    draft: draft.checked,
    reformation: reformation.checked,
    hints: hints.checked,
    turn_timer: timerValue(turn, "turn_timer"),
    reaction_timer: timerValue(reaction, "reaction_timer"),
    bot_level: level.value,
  });
  return { el, read };
}

export function settingsSummary(s) {
  const item = (k, v) => h("li", {}, h("span", { class: "k", text: t(k) }), h("b", { text: v }));
  return h("ul", { class: "settings-summary" },
    item("settings.seats", num(s.seats)),
    item("settings.characters", t(`char.${s.characters}`)),
    item("settings.draft", s.draft ? t("settings.on") : t("settings.off")),
    item("settings.reformation", s.reformation ? t("settings.on") : t("settings.off")),
    item("settings.turn_timer", timerLabel(s.turn_timer)),
    item("settings.reaction_timer", timerLabel(s.reaction_timer)),
    item("settings.bot_level", t(`level.${s.bot_level}`)));
}
