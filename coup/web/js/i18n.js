// Catalog-based translation: every visible string comes from coup/web/i18n/<lang>.json.
// Adding a language = adding its JSON file and one line in LANGUAGES. A key is the
// language's tag as the page's `lang` gets it ("pt-BR": Brazilian Portuguese); `numbers`
// is the locale numbers are written in when it is not the tag itself (Arabic with the
// digits 0-9, as its catalog writes them), `digits` that locale's digits when not 0-9.

export const LANGUAGES = {
  en: { name: "English", dir: "ltr" },
  fa: { name: "فارسی", dir: "rtl", digits: "۰۱۲۳۴۵۶۷۸۹" },
  ro: { name: "Română", dir: "ltr" },
  ja: { name: "日本語", dir: "ltr" },
  he: { name: "עברית", dir: "rtl" },
  id: { name: "Bahasa Indonesia", dir: "ltr" },
  es: { name: "Español", dir: "ltr" },
  de: { name: "Deutsch", dir: "ltr" },
  fr: { name: "Français", dir: "ltr" },
  "pt-BR": { name: "Português (Brasil)", dir: "ltr" },
  ar: { name: "العربية", dir: "rtl", numbers: "ar-u-nu-latn" },
};
const STORE_KEY = "coup.lang";
const catalogs = {};
let current = "en";
const listeners = [];

// One of our languages for a language tag ("de-AT", "pt", "PT-br"): the same tag, else
// the one with the same base language ("de" for "de-AT", "pt-BR" for "pt" or "pt-PT");
// null when none.
export function matchLanguage(tag) {
  const want = String(tag ?? "").trim().toLowerCase();
  if (!want) return null;
  const codes = Object.keys(LANGUAGES);
  const base = (code) => code.toLowerCase().split("-")[0];
  return codes.find((code) => code.toLowerCase() === want)
    ?? codes.find((code) => base(code) === base(want)) ?? null;
}

// The URL's ?lang=, else the language chosen before on this browser, else the first of
// the browser's preferred languages we have, else English.
export function pickLanguage() {
  const url = matchLanguage(new URLSearchParams(location.search).get("lang"));
  if (url) return url;
  let saved = null;
  try { saved = matchLanguage(localStorage.getItem(STORE_KEY)); } catch { /* private mode */ }
  if (saved) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const lang = matchLanguage(tag);
    if (lang) return lang;
  }
  return "en";
}

async function load(lang) {
  if (catalogs[lang]) return catalogs[lang];
  const res = await fetch(new URL(`../i18n/${lang}.json`, import.meta.url));
  if (!res.ok) throw new Error(`catalog ${lang}: HTTP ${res.status}`);
  catalogs[lang] = await res.json();
  return catalogs[lang];
}

export async function setLanguage(lang, persist = false) {
  lang = matchLanguage(lang) ?? "en";
  await load("en");
  try { await load(lang); } catch (err) { console.warn(err); lang = "en"; }
  current = lang;
  if (persist) { try { localStorage.setItem(STORE_KEY, lang); } catch { /* ignore */ } }
  const root = document.documentElement;
  root.lang = lang;
  root.dir = LANGUAGES[lang].dir;
  translateTree(document);
  for (const fn of listeners) fn(lang);
}

export const language = () => current;
export const isRtl = () => LANGUAGES[current].dir === "rtl";
export function onLanguage(fn) { listeners.push(fn); }

// t("log.tax", {name: "Sepideh"}) — {placeholders} are replaced as plain text.
export function t(key, params = {}) {
  let s = catalogs[current]?.[key];
  if (s === undefined) s = catalogs.en?.[key];
  if (s === undefined) return key;
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

export function has(key) {
  return catalogs[current]?.[key] !== undefined || catalogs.en?.[key] !== undefined;
}

// Numbers in the reader's digits (Persian digits for fa, 0-9 for ar as its catalog has them).
// Whole numbers under 1,000 (coins, seats, counts: nearly every number on the table) are
// written digit by digit in the language's `digits`, which are Intl's for its locale (a
// browser test holds them equal); the others go through Intl.NumberFormat, for grouping
// and signs. Making a formatter loads the locale's data, tens of milliseconds on a phone's
// CPU, so it is made once per language and only when first needed.
const LATIN_DIGITS = "0123456789";
const numberFormats = {};
export function num(n) {
  const lang = LANGUAGES[current];
  if (Number.isInteger(n) && n >= 0 && n < 1000) {
    const digits = lang.digits ?? LATIN_DIGITS;
    return String(n).replace(/[0-9]/g, (d) => digits[d]);
  }
  const locale = lang.numbers ?? current;
  try {
    numberFormats[locale] ??= new Intl.NumberFormat(locale);
    return numberFormats[locale].format(n);
  } catch { return String(n); }
}

// Elements carry data-i18n="key" (text), data-i18n-placeholder, data-i18n-title, data-i18n-aria.
// Only what changes is written: the page's own first lines, already in English, are not
// laid out and painted again when the app starts in English.
export function translateTree(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    const text = t(el.dataset.i18n);
    if (el.textContent !== text) el.textContent = text;
  }
  const attrs = [["data-i18n-placeholder", "placeholder"], ["data-i18n-title", "title"], ["data-i18n-aria", "aria-label"]];
  for (const [from, to] of attrs) {
    for (const el of root.querySelectorAll(`[${from}]`)) {
      const text = t(el.getAttribute(from));
      if (el.getAttribute(to) !== text) el.setAttribute(to, text);
    }
  }
}

export function character(c) { return t(`char.${c}`); }
