// The tutorials ("Learn to play") as this browser knows them: how far the last one got
// (localStorage `coup.tutorial`), and starting one. The home reads it without the guide's
// code (tutorial.js), which loads with the table.
const STORE = "coup.tutorial";
export const EPILOGUES = ["inquisitor", "reformation"];

export function progress() { try { return JSON.parse(localStorage.getItem(STORE) || "null"); } catch { return null; } }
export function save(p) { try { localStorage.setItem(STORE, JSON.stringify(p)); } catch { /* private mode */ } }

// Start a tutorial (`name`: base, inquisitor, reformation): a table with its setting,
// bots in the two other seats, started at once.
export async function startTutorial(app, name, player) {
  const made = await app.createTable(player, { tutorial: name }, true);
  if (made) save({ table: made.table, name, step: 0, back: 0, closed: false });
}
