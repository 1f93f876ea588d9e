// Keyboard play: P pass, C challenge, B block, digits 1–9 the other buttons of the
// decision in order (actions, targets, cards, several blocks); each button shows its key.
// Never while typing in a field.
function typing(el) {
  return el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));
}

function buttons(root) {
  return [...root.querySelectorAll(".decision button, .seat.targetable")]
    .filter((b) => !b.disabled && b.offsetParent !== null);
}

export function installKeys(root, guarded) {
  let blockTurn = 0;
  document.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || typing(ev.target) || document.querySelector("dialog[open]")) return;
    if (root.dataset.screen !== "table") return;
    const key = ev.key.toLowerCase();
    let target = null;
    const list = buttons(root);
    if (key === "p") target = list.find((b) => b.dataset.move === "pass");
    else if (key === "c") target = list.find((b) => b.dataset.move === "challenge");
    else if (key === "b") {
      const blocks = list.filter((b) => (b.dataset.move || "").startsWith("block "));
      if (blocks.length > 1) { // several blocks: B moves among them, Enter confirms
        blocks[blockTurn++ % blocks.length].focus();
        ev.preventDefault();
        return;
      }
      target = blocks[0];
    } else if (/^[1-9]$/.test(key)) {
      const numbered = list.filter((b) => b.dataset.key);
      target = numbered.find((b) => b.dataset.key === key);
    }
    if (!target || guarded()) return;
    ev.preventDefault();
    target.click();
  });
}
