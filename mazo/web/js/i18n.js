// Interface languages. Every visible string goes through t(key, params).
// Dictionaries live in /static/i18n/<lang>.json and all have the same keys
// (tests/server/test_web_assets.py checks it). Keys may be built at run time
// (t("act." + word)); t() then falls back to the given fallback or the key.

export const LANGUAGES = ["en", "es", "it", "ja"];
const STORE_KEY = "mazo.lang";

let current = "en";
let dict = {};
let fallbackDict = {};
const listeners = [];

function pickDefault() {
  try {
    const saved = localStorage.getItem(STORE_KEY);
    if (saved && LANGUAGES.includes(saved)) return saved;
  } catch (_) {
    // storage may be disabled: use the browser's language
  }
  const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  for (const l of langs) {
    const short = String(l).slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(short)) return short;
  }
  return "en";
}

async function fetchDict(lang) {
  const res = await fetch(`/static/i18n/${lang}.json`);
  if (!res.ok) throw new Error(`cannot load language ${lang}`);
  return res.json();
}

export function lang() {
  return current;
}

/** Has the dictionary this key? */
export function has(key) {
  return Object.prototype.hasOwnProperty.call(dict, key) || Object.prototype.hasOwnProperty.call(fallbackDict, key);
}

/** The text of `key` with {name} placeholders filled from params. */
export function t(key, params, fallback) {
  let s = dict[key];
  if (s === undefined) s = fallbackDict[key];
  if (s === undefined) s = fallback !== undefined ? fallback : key;
  if (params) {
    s = s.replace(/\{(\w+)\}/g, (m, name) => (params[name] !== undefined && params[name] !== null ? String(params[name]) : m));
  }
  return s;
}

/** Fill every element with data-i18n (text), data-i18n-title, data-i18n-placeholder, data-i18n-aria. */
export function translateDom(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
}

export async function setLanguage(l) {
  if (!LANGUAGES.includes(l)) l = "en";
  const d = await fetchDict(l);
  dict = d;
  current = l;
  try {
    localStorage.setItem(STORE_KEY, l);
  } catch (_) {
    // not remembered: fine
  }
  document.documentElement.lang = l;
  translateDom();
  for (const fn of listeners) fn(l);
}

export function onLanguageChange(fn) {
  listeners.push(fn);
}

/** Load the dictionaries and wire the <select id="lang"> picker. */
export async function initI18n(select) {
  try {
    fallbackDict = await fetchDict("en");
  } catch (_) {
    fallbackDict = {};
  }
  const l = pickDefault();
  if (select) {
    select.replaceChildren();
    for (const code of LANGUAGES) {
      const opt = document.createElement("option");
      opt.value = code;
      opt.textContent = fallbackDict["lang.name." + code] || code;
      select.append(opt);
    }
    select.value = l;
    select.addEventListener("change", () => setLanguage(select.value));
  }
  await setLanguage(l);
  if (select) {
    // language names are written in their own language in every dictionary
    for (const opt of select.options) opt.textContent = t("lang.name." + opt.value);
  }
}
