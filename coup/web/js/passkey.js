// Passkeys for profiles (docs/protocol.md, *Profiles*): the browser's side of WebAuthn's
// ceremonies with navigator.credentials, and the profile's API calls. The server keeps the
// challenges and the session (an HttpOnly cookie: this page never sees it).
import { api } from "./net.js";

const b64 = {
  decode(text) {
    const s = String(text).replace(/-/g, "+").replace(/_/g, "/");
    const raw = atob(s + "=".repeat((4 - (s.length % 4)) % 4));
    return Uint8Array.from(raw, (c) => c.charCodeAt(0)).buffer;
  },
  encode(buffer) {
    const bytes = new Uint8Array(buffer);
    let raw = "";
    for (const b of bytes) raw += String.fromCharCode(b);
    return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  },
};

export function passkeysHere() { return Boolean(window.PublicKeyCredential && navigator.credentials); }

function creationOptions(o) {
  return {
    ...o,
    challenge: b64.decode(o.challenge),
    user: { ...o.user, id: b64.decode(o.user.id) },
    excludeCredentials: (o.excludeCredentials || []).map((c) => ({ ...c, id: b64.decode(c.id) })),
  };
}

function requestOptions(o) {
  return { ...o, challenge: b64.decode(o.challenge),
    allowCredentials: (o.allowCredentials || []).map((c) => ({ ...c, id: b64.decode(c.id) })) };
}

function created(cred) {
  const r = cred.response;
  return { id: cred.id, rawId: b64.encode(cred.rawId), type: cred.type,
    response: { clientDataJSON: b64.encode(r.clientDataJSON), attestationObject: b64.encode(r.attestationObject),
      transports: r.getTransports ? r.getTransports() : [] },
    clientExtensionResults: cred.getClientExtensionResults ? cred.getClientExtensionResults() : {} };
}

function asserted(cred) {
  const r = cred.response;
  return { id: cred.id, rawId: b64.encode(cred.rawId), type: cred.type,
    response: { clientDataJSON: b64.encode(r.clientDataJSON), authenticatorData: b64.encode(r.authenticatorData),
      signature: b64.encode(r.signature), userHandle: r.userHandle ? b64.encode(r.userHandle) : null },
    clientExtensionResults: cred.getClientExtensionResults ? cred.getClientExtensionResults() : {} };
}

async function registerWith(optionsPath, body, answerPath) {
  const ceremony = await api("POST", optionsPath, body);
  const cred = await navigator.credentials.create({ publicKey: creationOptions(ceremony.options) });
  return (await api("POST", answerPath, { ceremony: ceremony.ceremony, credential: created(cred) })).profile;
}

// A new profile: the name, then the device's own lock makes its passkey.
export function makeProfile(name) { return registerWith("/api/profiles/options", { name }, "/api/profiles"); }

// Signing in with any passkey of this site (the device offers the ones it holds).
export async function signIn() {
  const ceremony = await api("POST", "/api/session/options", {});
  const cred = await navigator.credentials.get({ publicKey: requestOptions(ceremony.options) });
  return (await api("POST", "/api/session", { ceremony: ceremony.ceremony, credential: asserted(cred) })).profile;
}

// A second device: the one-time link's code spent on a passkey made here.
export function useLink(code) { return registerWith("/api/links/options", { code }, "/api/links"); }

export async function whoAmI() { return api("GET", "/api/profiles/me"); }
export async function signOut() { return api("POST", "/api/session/end", {}); }
export async function newLink() { return api("POST", "/api/profiles/me/link", {}); }
export async function setHidden(hidden) { return api("POST", "/api/profiles/me/settings", { hidden }); }
export async function deleteProfile() { return api("POST", "/api/profiles/me/delete", {}); }
