// Talking to the server: HTTP calls and the one websocket per tab (docs/protocol.md).

export class ApiError extends Error {
  constructor(code, message, status) { super(message); this.code = code; this.status = status; }
}

export async function api(method, path, body) {
  let res;
  try {
    res = await fetch(path, {
      method, headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (err) {
    throw new ApiError("network", String(err), 0);
  }
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const e = data?.error || {};
    throw new ApiError(e.code || `http_${res.status}`, e.message || res.statusText, res.status);
  }
  return data;
}

// Seat tokens, one per table, in localStorage (coup.token.{table}).
export const tokens = {
  get(table) { try { return localStorage.getItem(`coup.token.${table}`); } catch { return null; } },
  set(table, token) { try { localStorage.setItem(`coup.token.${table}`, token); } catch { /* ignore */ } },
  drop(table) { try { localStorage.removeItem(`coup.token.${table}`); } catch { /* ignore */ } },
};

// This browser's own id (docs/protocol.md: create's and join's `device`), made once and
// kept: how the host's block knows a removed player again. Never shown.
export function device() {
  try {
    let id = localStorage.getItem("coup.device");
    if (!id || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) {
      const bytes = crypto.getRandomValues(new Uint8Array(16));
      id = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
      localStorage.setItem("coup.device", id);
    }
    return id;
  } catch { return null; }
}

// A live connection that reconnects with backoff and keeps the newest view.
export class TableSocket {
  constructor(table, { onView, onError, onStatus, name = () => "" }) {
    this.table = table;
    this.name = name; // a spectator's name, said in the hello (the host's lobby lists it)
    this.onView = onView; this.onError = onError; this.onStatus = onStatus;
    this.version = -1;
    this.backoff = 500;
    this.closed = false;
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map();
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(this.table)}`);
    this.ws = ws;
    this.fresh = true; // the first view of this connection: nothing in it is news
    this.onStatus?.("connecting");
    ws.onopen = () => {
      const token = tokens.get(this.table);
      const name = token ? "" : this.name().trim();
      ws.send(JSON.stringify(name ? { type: "hello", token, name } : { type: "hello", token }));
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "view") {
        this.backoff = 500;
        this.onStatus?.("online");
        if (msg.version < this.version) return; // the same version may come twice after hello
        this.version = msg.version;
        const fresh = this.fresh;
        this.fresh = false;
        this.onView(msg, fresh);
      } else if (msg.type === "error") {
        const ctx = msg.id !== undefined ? this.pending.get(msg.id) : undefined;
        if (msg.id !== undefined) this.pending.delete(msg.id);
        this.onError?.(msg, ctx);
      }
    };
    ws.onclose = (ev) => {
      // A socket closed on purpose (the page left the table) is no lost connection.
      if (this.ws !== ws || this.closed) return;
      this.onStatus?.("offline");
      if (ev.code === 4404) { this.closed = true; this.onError?.({ code: "no_table", message: "no such table" }); return; }
      if (ev.code === 4401) { tokens.drop(this.table); this.backoff = 100; }
      // 1001: this server process is going away (a restart); another one takes the
      // socket at once, so come back now (spread over 200 ms), not after the backoff
      const wait = ev.code === 1001 ? Math.random() * 200 : this.backoff;
      this.backoff = Math.min(this.backoff * 2, 10000);
      setTimeout(() => this.connect(), wait);
    };
  }

  // Send a message; returns its id. ctx is handed back with an error about it.
  send(msg, ctx) {
    const id = this.nextId++;
    this.pending.set(id, ctx ?? msg);
    if (this.pending.size > 100) this.pending.delete(this.pending.keys().next().value);
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ ...msg, id }));
      return id;
    }
    this.onError?.({ code: "offline", message: "not connected", id }, ctx ?? msg);
    return null;
  }

  // Reconnect now (e.g. after taking a seat: the hello must carry the new token).
  reconnect() {
    const old = this.ws;
    this.ws = null;
    if (old) { old.onclose = null; try { old.close(); } catch { /* ignore */ } }
    this.version = -1;
    this.connect();
  }

  close() {
    this.closed = true;
    const ws = this.ws;
    this.ws = null;
    if (ws) { ws.onclose = null; try { ws.close(); } catch { /* ignore */ } }
  }
}
