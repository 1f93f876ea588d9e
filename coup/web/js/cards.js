// Character cards: colour, emblem, name and what the card does, in the reader's language.
import { h, icon } from "./dom.js";
import { t } from "./i18n.js";

const EMBLEMS = {
  duke: "M3 18h18v2H3zM3 7l4.5 4.5L12 4l4.5 7.5L21 7l-2 9H5z",
  assassin: "M12 1l2.2 10h-4.4zM7 11h10v2.2H7zM10.9 13.2h2.2v5.3h-2.2zM9.6 18.5h4.8V23H9.6z",
  captain:
    "M12 1.5a2.7 2.7 0 110 5.4 2.7 2.7 0 010-5.4zm0 1.6a1.1 1.1 0 100 2.2 1.1 1.1 0 000-2.2zM10.9 6.8h2.2v13c2.7-.4 4.8-2.3 5.5-4.8l-2.3.3 3-4.2 2.1 4.9-1.4-.5C19 19.7 15.8 22.5 12 22.5s-7-2.8-8-7l-1.4.5 2.1-4.9 3 4.2-2.3-.3c.7 2.5 2.8 4.4 5.5 4.8zM8 8.8h8V11H8z",
  ambassador:
    "M6 3h11a3 3 0 013 3v12a3 3 0 01-3 3H7a3 3 0 01-3-3V5a2 2 0 012-2zm2 5v2h8V8zm0 4v2h8v-2zm0 4v2h5v-2z",
  contessa:
    "M12 1.5c2.3 2.3 2.3 5.7 0 8-2.3-2.3-2.3-5.7 0-8zm0 13c2.3 2.3 2.3 5.7 0 8-2.3-2.3-2.3-5.7 0-8zM1.5 12c2.3-2.3 5.7-2.3 8 0-2.3 2.3-5.7 2.3-8 0zm13 0c2.3-2.3 5.7-2.3 8 0-2.3 2.3-5.7 2.3-8 0zM12 9.7a2.3 2.3 0 110 4.6 2.3 2.3 0 010-4.6z",
  inquisitor:
    "M12 4.5C5.8 4.5 1.5 12 1.5 12s4.3 7.5 10.5 7.5S22.5 12 22.5 12 18.2 4.5 12 4.5zm0 12.3a4.8 4.8 0 110-9.6 4.8 4.8 0 010 9.6zm0-7a2.2 2.2 0 100 4.4 2.2 2.2 0 000-4.4z",
  back: "M12 2l3 6 6.5 1-4.7 4.6 1.1 6.5L12 17l-5.9 3.1 1.1-6.5L2.5 9 9 8z",
};

export function emblem(name, cls = "emblem") { return icon(EMBLEMS[name] || EMBLEMS.back, cls); }

// opts: size "lg" | "md" | "sm"; revealed (face up in front of a player, lost influence);
//       tag: small label above (e.g. "new"); onClick: makes the card a button.
export function cardFace(character, opts = {}) {
  const size = opts.size || "md";
  const attrs = {
    class: `card face c-${character} ${size}${opts.revealed ? " revealed" : ""}${opts.selected ? " selected" : ""}`,
    dataset: { card: character },
    title: `${t(`char.${character}`)} — ${t(`card.${character}.action`)}`,
  };
  const body = [
    h("div", { class: "card-band" }, h("span", { class: "card-name", text: t(`char.${character}`) })),
    h("div", { class: "card-art" }, emblem(character),
      opts.tag ? h("span", { class: "card-tag", text: opts.tag }) : null),
  ];
  if (size !== "sm") {
    const action = t(`card.${character}.action`);
    const counter = t(`card.${character}.counter`);
    body.push(
      h("div", { class: "card-text" },
        action ? h("div", { class: "card-action", text: action }) : null,
        counter ? h("div", { class: "card-counter", text: counter }) : null),
    );
  }
  if (opts.revealed && size !== "sm") body.push(h("span", { class: "card-lost", text: t("card.lost") }));
  if (opts.onClick) {
    return h("button", { ...attrs, type: "button", "aria-pressed": opts.selected ? "true" : "false",
      onclick: opts.onClick, disabled: opts.disabled }, ...body);
  }
  return h("div", attrs, ...body);
}

export function cardBack(size = "sm") {
  return h("div", { class: `card back ${size}`, role: "img", title: t("card.hidden"), "aria-label": t("card.hidden") },
    h("div", { class: "back-inner" }, emblem("back", "emblem back-emblem"), h("span", { class: "back-word", text: t("app.name") })));
}

export function coinIcon() { return h("span", { class: "coin", "aria-hidden": "true" }); }
