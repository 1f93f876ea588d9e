// The game screen updated in place. Each view still builds the screen anew (`h()`), then
// the page's own elements are made like it (morphdom): an element that shows the same
// thing stays the same element. So a tap in flight lands (a click needs its press and its
// release on one element that stayed in the page: a view arriving between them used to
// replace the button, and the tap did nothing), focus and scroll stay where they were, and
// what runs on an element (a countdown's bar, an animation) runs on.
import morphdom from "./morphdom.js";
import { takeHandlers } from "./dom.js";

// What makes two elements the same one beyond their place: an id, or, for a decision's
// button, its move (a button never becomes another move's button under a finger).
function key(node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return undefined;
  if (node.id) return node.id;
  if (node.tagName === "BUTTON" && node.dataset.move && node.closest(".decision")) return `move ${node.dataset.move}`;
  return undefined;
}

function update(from, to) {
  takeHandlers(from, to);
  // Styles through the CSSOM: the page's Content-Security-Policy refuses style attributes
  // set as text, which is how morphdom copies attributes (equal ones it leaves alone).
  if (from.style.cssText !== to.style.cssText) from.style.cssText = to.style.cssText;
  // What is being typed stays as typed (no reset under an input method, caret kept).
  if (from === document.activeElement && (from.tagName === "INPUT" || from.tagName === "TEXTAREA")) to.value = from.value;
  return true;
}

// Make `live` (an element in the page) like `next` (the same part, just built): `live`
// keeps its identity and, where they match, its descendants theirs.
export function patch(live, next) {
  morphdom(live, next, { getNodeKey: key, onBeforeElUpdated: update });
}
