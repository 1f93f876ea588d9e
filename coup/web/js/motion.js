// Small animations that carry meaning, from the difference between two views of a game:
// coins fly between a seat and the treasury (or the robbed seat), a lost card flips face
// up, a proven card goes to the Court and a new one comes back, an eliminated seat dims.
// With prefers-reduced-motion nothing flies: the changed things fade in instead.
const reduced = () => globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

function layer() {
  let el = document.getElementById("flyers");
  if (!el) { el = document.createElement("div"); el.id = "flyers"; el.setAttribute("aria-hidden", "true"); document.body.append(el); }
  return el;
}

function seatEl(root, seat) { return root.querySelector(`.seat[data-seat="${seat}"], .me[data-seat="${seat}"]`); }

function centreOf(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2, seen: r.width > 0 && r.bottom > 0 && r.top < innerHeight };
}

function fly(cls, from, to, delay, ms = 550) {
  if (!from || !to) return;
  const a = centreOf(from);
  const b = centreOf(to);
  if (!a.seen && !b.seen) return;
  const el = document.createElement("span");
  el.className = `flyer ${cls}`;
  el.style.left = `${a.x}px`;
  el.style.top = `${a.y}px`;
  layer().append(el);
  const anim = el.animate([
    { transform: "translate(-50%, -50%) scale(0.9)", opacity: 0 },
    { transform: "translate(-50%, -50%) scale(1.1)", opacity: 1, offset: 0.15 },
    { transform: `translate(calc(${b.x - a.x}px - 50%), calc(${b.y - a.y}px - 50%)) scale(0.9)`, opacity: 1 },
  ], { duration: ms, delay, easing: "cubic-bezier(.45,.05,.35,1)", fill: "both" });
  anim.onfinish = () => el.remove();
  anim.oncancel = () => el.remove();
}

function mark(el, cls) {
  if (!el) return;
  el.classList.remove(cls);
  void el.offsetWidth;
  el.classList.add(cls);
}

function coins(root, before, after) {
  const gained = [];
  const lost = [];
  after.players.forEach((p, s) => {
    const d = p.coins - (before.players[s]?.coins ?? p.coins);
    if (d > 0) gained.push([s, d]);
    if (d < 0) lost.push([s, -d]);
    if (d) mark(seatEl(root, s)?.querySelector(".coin-count"), "bump");
  });
  if (after.treasury !== before.treasury) mark(root.querySelector(".treasury .pile-count"), "bump");
  if (reduced()) return;
  const bank = root.querySelector(".treasury .coin-stack");
  const coinsOf = (s) => seatEl(root, s)?.querySelector(".coins");
  // A steal: one seat's loss is another's gain and the treasury did not move.
  if (gained.length === 1 && lost.length === 1 && gained[0][1] === lost[0][1] && after.treasury === before.treasury) {
    for (let i = 0; i < Math.min(gained[0][1], 5); i++) fly("coin", coinsOf(lost[0][0]), coinsOf(gained[0][0]), i * 90);
    return;
  }
  for (const [s, n] of gained) for (let i = 0; i < Math.min(n, 5); i++) fly("coin", bank, coinsOf(s), i * 90);
  for (const [s, n] of lost) for (let i = 0; i < Math.min(n, 5); i++) fly("coin", coinsOf(s), bank, i * 90);
}

function cards(root, before, after) {
  after.players.forEach((p, s) => {
    const was = before.players[s];
    if (!was) return;
    const newly = (p.revealed || []).length - (was.revealed || []).length;
    if (newly > 0) {
      const faces = [...(seatEl(root, s)?.querySelectorAll(".card.revealed, .dead-card") || [])];
      for (const el of faces.slice(-newly)) mark(el, "flip-in");
    }
    if (was.alive && !p.alive) mark(seatEl(root, s), "just-out");
  });
  // A proven card goes back to the Court and a fresh one comes out.
  const court = root.querySelector(".court .deck");
  const fresh = (after.history || []).slice((before.history || []).length);
  for (const entry of fresh) {
    if (!String(entry.move).startsWith("reveal ")) continue;
    mark(court, "bump");
    if (reduced()) continue;
    const from = seatEl(root, entry.seat)?.querySelector(".seat-cards, .hand") || seatEl(root, entry.seat);
    fly("card-flyer", from, court, 0, 500);
    fly("card-flyer", court, from, 650, 500);
  }
}

// Called after a new view of the same game was rendered into `root`.
export function animate(root, before, after) {
  if (!before || !after || !before.players || before.players.length !== after.players.length) return;
  try {
    coins(root, before, after);
    cards(root, before, after);
  } catch (err) { console.warn("animation", err); }
}
