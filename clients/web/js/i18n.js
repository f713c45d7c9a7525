// The page's own texts: one JSON object per language at /play/i18n/<lang>.json, which the
// server reads from the page's gettext catalog (clients/web/locales, see clients/web_messages.py).
// Chosen by ?lang=, then the switch's last choice, then the browser's languages.

export const LANGUAGES = { en: "English", "pt-BR": "Português (Brasil)" };
const STORE_KEY = "bgb.lang";
let current = "en";
let messages = {};
let fallback = {};

/** The language to use: ?lang=, the saved choice, the browser's, else English. */
export function chooseLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  const saved = safeStorage()?.getItem(STORE_KEY);
  const wanted = [asked, saved, ...(navigator.languages || [navigator.language])];
  for (const tag of wanted) {
    const found = match(tag);
    if (found) return found;
  }
  return "en";
}

function match(tag) {
  if (!tag) return null;
  const lower = tag.toLowerCase();
  for (const code of Object.keys(LANGUAGES)) {
    if (code.toLowerCase() === lower) return code;
  }
  const base = lower.split("-")[0];
  if (base === "pt") return "pt-BR";
  if (base === "en") return "en";
  return null;
}

function safeStorage() {
  try { return window.localStorage; } catch { return null; }
}

async function fetchMessages(lang) {
  const response = await fetch(`/play/i18n/${lang}.json`);
  if (!response.ok) throw new Error(`no messages for ${lang}`);
  return response.json();
}

/** Load `lang`'s messages (English stays loaded as the fallback of a missing key). */
export async function loadLanguage(lang) {
  fallback = await fetchMessages("en");
  messages = lang === "en" ? fallback : await fetchMessages(lang);
  current = lang;
  document.documentElement.lang = lang;
}

/** The current language code ("en" or "pt-BR"). */
export function language() {
  return current;
}

/** Remember a choice of language for the next visits. */
export function saveLanguage(lang) {
  safeStorage()?.setItem(STORE_KEY, lang);
}

/** Whether a message exists for `key`. */
export function has(key) {
  return key in messages || key in fallback;
}

/** The text of `key` with {name} placeholders filled from `params`. */
export function t(key, params = {}) {
  const text = messages[key] ?? fallback[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** The text of `key` agreeing with the count `n`: its singular `key.one` for exactly 1 (a signed
 * change, +1 or -1, by its size) when the catalog has one, else `key` (the plural, 0 too). */
export function tCount(key, n, params = {}) {
  const one = Math.abs(Number(n)) === 1 && has(`${key}.one`);
  return t(one ? `${key}.one` : key, params);
}

/** The text of `key` if it exists, else `otherwise`. */
export function tOr(key, otherwise, params = {}) {
  return has(key) ? t(key, params) : otherwise;
}

/** Fill every [data-i18n] element under `root` with its message. */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
}

/** `href` (a page of this site) carrying the page's `?lang=` when the page was opened with
 * one, so that a link followed from here (a seat's, the lobby's) keeps the language. */
export function withLanguage(href) {
  const asked = new URLSearchParams(location.search).get("lang");
  if (!asked) return href;
  const url = new URL(href, location.href);
  url.searchParams.set("lang", current);
  return /^[a-z]+:/i.test(href) ? url.href : url.pathname + url.search + url.hash;
}
