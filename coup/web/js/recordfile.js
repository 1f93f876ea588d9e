// "Open a record" on the home page: drop (or choose) a coup-record/1 file; the server's
// engine replays it (POST /api/replay) and the replay viewer shows it at /replay. A record
// that does not replay gets the server's one-line reason, as `coup replay` prints it.
import { h, icon } from "./dom.js";
import { t } from "./i18n.js";

export const MAX_RECORD = 256 * 1024; // the server's bound (docs/protocol.md)
// The opened record's text, kept for this tab: reloading /replay replays it again.
const KEPT = "coup.replay.record";

// The replay of the record this tab opened last, asked of the server again (a reload of
// /replay); null when there is none.
export async function keptReplay() {
  let text = null;
  try { text = sessionStorage.getItem(KEPT); } catch { text = null; }
  if (!text) return null;
  const { data } = await send(text);
  return data || null;
}

async function send(text) {
  let res;
  try {
    res = await fetch("/api/replay", { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
  } catch { return { error: t("error.network") }; }
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (res.ok && data) return { data };
  const e = data?.error || {};
  if (e.code === "bad_record") return { error: e.message };
  if (e.code === "too_large") return { error: t("review.too_large") };
  if (e.code === "bad_json") return { error: t("review.not_json") };
  return { error: e.code ? t(`error.${e.code}`) : t("error.network") };
}

export function recordPanel(app) {
  const reason = h("pre", { class: "record-reason", id: "record-reason", dir: "ltr", hidden: true });
  const reasonBox = h("div", { class: "record-error", hidden: true }, h("p", { text: t("review.bad_record") }), reason);
  const input = h("input", { type: "file", id: "record-file", accept: ".json,application/json", class: "visually-hidden",
    onchange: () => { if (input.files?.[0]) open(input.files[0]); } });
  const zone = h("label", { class: "drop-zone", for: "record-file", id: "record-drop" },
    icon("M12 3v11M7 9.5l5 5 5-5M5 20h14", "drop-icon"),
    h("span", { text: t("review.drop") }),
    h("span", { class: "btn chip", text: t("review.choose") }));

  async function open(file) {
    reasonBox.hidden = true;
    if (file.size > MAX_RECORD) { show(t("review.too_large")); return; }
    zone.classList.add("busy");
    const text = await file.text();
    const { data, error } = await send(text);
    zone.classList.remove("busy");
    if (error) { show(error); return; }
    try { sessionStorage.setItem(KEPT, text); } catch { /* private mode or full: kept in memory only */ }
    app.uploaded = data;
    app.go("/replay");
  }
  function show(text) { reason.textContent = text; reason.hidden = false; reasonBox.hidden = false; }

  zone.addEventListener("dragover", (e) => { e.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => {
    e.preventDefault(); zone.classList.remove("over");
    const file = e.dataTransfer?.files?.[0];
    if (file) open(file);
  });
  return h("div", { class: "panel-card open-record", id: "open-record" },
    h("h2", { text: t("review.open") }), h("p", { class: "hint", text: t("review.open_hint") }), input, zone, reasonBox);
}
