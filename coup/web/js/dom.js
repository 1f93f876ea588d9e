// Tiny DOM helpers. User-provided text only ever goes through textContent / text nodes.
import { t } from "./i18n.js";

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k.startsWith("on") && typeof v === "function") listen(el, k.slice(2), v);
    else if (k === "style") el.style.cssText = String(v); // CSSOM: the CSP refuses style attributes
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// A screen drawn in parts: `first` (its first lines) in place of what `root` held, then each
// of `rest`. Drawn again in place (`again`: the screen was already shown), all at once.
// Coming in place of another screen, each of `rest` runs in a task of its own after a
// painted frame, while `first` is still shown: short tasks, not one long one that a tap
// would wait behind on a phone's CPU.
export function drawInParts(root, first, rest, again) {
  clear(root).append(first);
  if (again) for (const step of rest) step();
  else inTurn(rest, () => first.isConnected);
}

function inTurn(steps, alive) {
  const [step, ...rest] = steps;
  if (!step) return;
  requestAnimationFrame(() => setTimeout(() => {
    if (!alive()) return;
    step();
    inTurn(rest, alive);
  }));
}

// The next task: what comes after `await nextTask()` runs after the browser had its turn
// (input, a frame).
export const nextTask = () => new Promise((done) => setTimeout(done));

// An element's handlers live in an object it carries, behind one shared listener per event
// type: an element kept by an in-place update (`patch.js`) takes the new render's handlers
// with its attributes, so it never answers with an older render's closure.
function dispatch(ev) { this.__on?.[ev.type]?.call(this, ev); }

function listen(el, type, fn) {
  (el.__on ||= {})[type] = fn;
  el.addEventListener(type, dispatch);
}

// `from` (in the page) takes the handlers of `to` (its new render), and only those.
export function takeHandlers(from, to) {
  for (const type of Object.keys(to.__on || {})) from.addEventListener(type, dispatch);
  from.__on = to.__on;
}

// A translated sentence whose {placeholders} are filled with nodes or plain text.
export function tNodes(key, params = {}) {
  const template = t(key, {});
  const frag = document.createDocumentFragment();
  let last = 0;
  for (const m of template.matchAll(/\{(\w+)\}/g)) {
    frag.append(document.createTextNode(template.slice(last, m.index)));
    const v = params[m[1]];
    if (v instanceof Node) frag.append(v);
    else frag.append(document.createTextNode(v === undefined ? m[0] : String(v)));
    last = m.index + m[0].length;
  }
  frag.append(document.createTextNode(template.slice(last)));
  return frag;
}

// An icon drawn in the page (an SVG element, one path in a 24-unit square), not a CSS image:
// each image is a document of its own to fetch and lay out.
const SVG_NS = "http://www.w3.org/2000/svg";
export function icon(d, cls) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", cls);
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG_NS, "path");
  path.setAttribute("d", d);
  path.setAttribute("fill-rule", "evenodd");
  svg.append(path);
  return svg;
}

export function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); return el; }

export function $(sel, root = document) { return root.querySelector(sel); }
export function $$(sel, root = document) { return [...root.querySelectorAll(sel)]; }

let toastTimer = 0;
export function toast(message, kind = "info") {
  let el = document.getElementById("toast");
  if (!el) { el = h("div", { id: "toast", role: "status", "aria-live": "polite" }); document.body.append(el); }
  el.textContent = message;
  el.className = `toast show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.className = `toast ${kind}`; }, kind === "error" ? 5000 : 2500);
}

// A toast belongs to the screen it was shown on: going to another screen clears it.
export function clearToast() {
  clearTimeout(toastTimer);
  const el = document.getElementById("toast");
  if (el) { el.className = "toast"; el.textContent = ""; }
}

export async function copyText(text) {
  try { await navigator.clipboard.writeText(text); return true; } catch { /* fall back */ }
  const ta = h("textarea", { style: "position:fixed;opacity:0" });
  ta.value = text; document.body.append(ta); ta.select();
  let ok = false; try { ok = document.execCommand("copy"); } catch { ok = false; }
  ta.remove(); return ok;
}
