// Sound and vibration for the moments that matter: your decision, a challenge, a loss,
// the win. Made with Web Audio (no audio files). Off until the player turns it on; the
// choice is remembered in this browser (localStorage coup.sound).
const KEY = "coup.sound";
let ctx = null;

export function soundOn() { try { return localStorage.getItem(KEY) === "on"; } catch { return false; } }

export function setSound(on) {
  try { localStorage.setItem(KEY, on ? "on" : "off"); } catch { /* private mode */ }
  if (on) audio(); // the click that turned it on unlocks audio on phones
}

function audio() {
  if (!ctx) {
    const Ctx = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (!Ctx) return null;
    try { ctx = new Ctx(); } catch { return null; }
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

// [frequency Hz, start s, length s, wave]
const TUNES = {
  decision: [[660, 0, 0.09, "sine"], [880, 0.1, 0.12, "sine"]],
  challenge: [[220, 0, 0.16, "square"], [196, 0.17, 0.2, "square"]],
  loss: [[392, 0, 0.14, "triangle"], [311, 0.15, 0.14, "triangle"], [247, 0.3, 0.24, "triangle"]],
  win: [[523, 0, 0.12, "sine"], [659, 0.13, 0.12, "sine"], [784, 0.26, 0.12, "sine"], [1047, 0.39, 0.3, "sine"]],
};
const BUZZ = { decision: [60], challenge: [40, 40, 40], loss: [120], win: [60, 60, 60, 60, 160] };

export function play(name) {
  if (!soundOn()) return;
  try { navigator.vibrate?.(BUZZ[name] || [50]); } catch { /* not allowed before a tap */ }
  const a = audio();
  if (!a) return;
  const now = a.currentTime + 0.02;
  for (const [freq, start, length, wave] of TUNES[name] || []) {
    const osc = a.createOscillator();
    const gain = a.createGain();
    osc.type = wave;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(wave === "square" ? 0.05 : 0.12, now + start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    osc.connect(gain).connect(a.destination);
    osc.start(now + start);
    osc.stop(now + start + length + 0.05);
  }
}
