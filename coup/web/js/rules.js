// The rules summary card (one click away from every screen).
import { cardFace } from "./cards.js";
import { clear, h } from "./dom.js";
import { t } from "./i18n.js";
import { allegianceIcon } from "./reformation.js";

export function renderRules(dialog, variant = "ambassador", reformation = false) {
  const row = (name, effect, blocked) => h("tr", {}, h("th", { scope: "row", text: t(name) }), h("td", { text: t(effect) }), h("td", { text: t(blocked) }));
  const chars = ["duke", "assassin", "captain", variant, "contessa"];
  clear(dialog).append(h("div", { class: "rules" },
    h("div", { class: "rules-head" }, h("h2", { text: t("rules.title") }),
      h("button", { type: "button", class: "btn ghost close", id: "rules-close", "aria-label": t("rules.close"), onclick: () => dialog.close(), text: "×" })),
    h("p", { class: "rules-goal", text: t("rules.goal") }),
    h("div", { class: "rules-cards" }, ...chars.map((c) => cardFace(c, { size: "md" }))),
    h("h3", { text: t("rules.turn") }),
    h("p", { text: t("rules.turn_text") }),
    h("table", { class: "rules-table" },
      h("thead", {}, h("tr", {}, h("th", { text: t("rules.col.action") }), h("th", { text: t("rules.col.effect") }), h("th", { text: t("rules.col.blocked") }))),
      h("tbody", {},
        row("act.income", "rules.income", "rules.none"),
        row("act.foreign_aid", "rules.foreign_aid", "rules.by_duke"),
        row("act.coup", "rules.coup", "rules.none"),
        row("act.tax", "rules.tax", "rules.none"),
        row("act.assassinate", "rules.assassinate", "rules.by_contessa"),
        row("act.steal", "rules.steal", variant === "inquisitor" ? "rules.by_captain_inquisitor" : "rules.by_captain_ambassador"),
        row("act.exchange", variant === "inquisitor" ? "rules.exchange_inquisitor" : "rules.exchange", "rules.none"),
        variant === "inquisitor" ? row("act.examine", "rules.examine", "rules.none") : null)),
    h("h3", { text: t("rules.challenges") }), h("p", { text: t("rules.challenge_text") }),
    h("h3", { text: t("rules.blocks") }), h("p", { text: t("rules.block_text") }),
    h("h3", { text: t("rules.influence") }), h("p", { text: t("rules.influence_text") }),
    reformationRules(reformation)));
}

// The expansion, open when the table plays it.
function reformationRules(open) {
  const item = (key, icon) => h("li", {},
    icon ? allegianceIcon(icon) : h("span", { class: "ally-icon", "aria-hidden": "true" }), h("span", { text: t(key) }));
  return h("details", { class: "rules-reformation", open },
    h("summary", {}, h("h3", { text: t("rules.reformation") })),
    h("ul", { class: "rules-list" },
      item("rules.reformation_allegiance", "loyalist"),
      item("rules.reformation_restriction", "reformist"),
      item("rules.reformation_convert"),
      item("rules.reformation_embezzle")));
}
