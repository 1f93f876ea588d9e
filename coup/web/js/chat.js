// The chat panel, in the lobby and at the table: the lines said, and the form to say one
// (a spectator gives a name, unless the host closed the chat to spectators).
import { h } from "./dom.js";
import { t } from "./i18n.js";

export function chatPanel(ctx) {
  const list = h("ol", { class: "chat-list", tabindex: "0", "aria-label": t("table.tab.chat") });
  const watching = ctx.me === null || ctx.me === undefined;
  const open = ctx.msg.table?.settings?.spectator_chat !== false;
  for (const m of ctx.msg.chat || []) {
    const li = h("li", { class: `chat-msg${m.seat === ctx.me && !m.watching ? " mine" : ""}${m.watching ? " watching" : ""}` });
    li.append(h("b", { class: `who seat-colour-${(m.seat ?? 0) % 10}`, text: m.name || "?" }),
      ...(m.watching ? [h("span", { class: "tag tag-watch", text: t("chat.watching") })] : []), document.createTextNode(" "));
    li.append(h("span", { class: "chat-text", dir: "auto", text: m.text }));
    list.append(li);
  }
  if (!list.childNodes.length) list.append(h("li", { class: "empty", text: t("chat.empty") }));
  const closed = watching && !open;
  const input = h("input", { type: "text", name: "chat", maxlength: "300", autocomplete: "off",
    placeholder: closed ? t("chat.spectator") : watching ? t("chat.placeholder_watching") : t("chat.placeholder"),
    disabled: closed, "aria-label": t("chat.placeholder"),
    "aria-describedby": ctx.chatRefused ? "chat-refused" : null, "aria-invalid": ctx.chatRefused ? "true" : null });
  if (ctx.chatRefused) input.value = ctx.chatRefused.text;
  const refused = ctx.chatRefused
    ? h("p", { class: "chat-refused", id: "chat-refused", role: "alert", text: ctx.chatRefused.reason }) : null;
  const name = watching && open ? h("input", { type: "text", name: "chat_name", id: "chat-name", autocomplete: "nickname",
    value: ctx.name(), placeholder: t("home.your_name"), "aria-label": t("home.your_name"), class: "chat-name" }) : null;
  const form = h("form", { class: "chat-form", onsubmit: (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (name) ctx.setName(name.value);
    ctx.onChat(text, name ? name.value.trim() : undefined);
    input.value = "";
  } }, name, input, h("button", { type: "submit", class: "btn", disabled: closed, text: t("chat.send") }));
  const toggle = ctx.msg.you?.host ? h("label", { class: "chat-toggle" },
    h("input", { type: "checkbox", id: "spectator-chat", checked: open, onchange: (ev) => ctx.onSpectatorChat(ev.target.checked) }),
    h("span", { text: t("chat.spectators_may") })) : null;
  return h("div", { class: "panel chat", role: "tabpanel" }, h("h2", { class: "panel-title", text: t("table.tab.chat") }), toggle, list, form, refused);
}
