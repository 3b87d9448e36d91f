// The client's languages: English, Filipino (Tagalog) and Traditional Chinese. The language
// comes from a `?lang=` link parameter, else the one chosen before (localStorage), else the
// browser's languages, else English; `T` is its message catalogue (a live binding: after
// setLang every module reads the new words) and <html lang> follows it.

import en from './i18n/en.js';
import fil from './i18n/fil.js';
import zhHant from './i18n/zh-Hant.js';

/** @typedef {import('./i18n/en.js').Catalogue} Catalogue */
/** @typedef {'en'|'fil'|'zh-Hant'} Lang */

/** @type {Record<Lang, Catalogue>} */
export const CATALOGUES = { en, fil, 'zh-Hant': zhHant };

/** The languages, in the picker's order. */
export const LANGS = /** @type {Lang[]} */ (['en', 'fil', 'zh-Hant']);

const KEY = 'salpakan.lang';

/** The current catalogue. */
export let T = en;
/** @type {Lang} */
export let lang = 'en';

/**
 * The language a tag names (`fil`, `tl-PH`, `zh-TW`, `zh-Hant-HK`, `zh`…), or null.
 * @param {string|null|undefined} tag
 * @returns {Lang|null}
 */
export function langOf(tag) {
  if (!tag) return null;
  const t = tag.toLowerCase();
  if (t === 'en' || t.startsWith('en-')) return 'en';
  if (t === 'fil' || t.startsWith('fil-') || t === 'tl' || t.startsWith('tl-')) return 'fil';
  // Traditional Chinese: zh-Hant, zh-TW, zh-HK, zh-MO, and plain zh (the only Chinese offered)
  if (t === 'zh' || t.startsWith('zh-')) return 'zh-Hant';
  return null;
}

/**
 * The language to use: a `?lang=` parameter, else the remembered choice, else the first of
 * the browser's languages that the client has.
 * @returns {Lang}
 */
export function detectLang() {
  const asked = langOf(new URLSearchParams(location.search).get('lang'));
  if (asked) return asked;
  let kept = null;
  try { kept = langOf(localStorage.getItem(KEY)); } catch { /* no storage */ }
  if (kept) return kept;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const l = langOf(tag);
    if (l) return l;
  }
  return 'en';
}

/**
 * Use a language: its catalogue, <html lang>, and (when `remember`) the choice for next time.
 * @param {Lang} l @param {boolean} [remember]
 */
export function setLang(l, remember = true) {
  lang = l;
  T = CATALOGUES[l];
  document.documentElement.lang = l;
  if (remember) {
    try { localStorage.setItem(KEY, l); } catch { /* no storage */ }
  }
}

/** Start-up: the detected language; a `?lang=` link is remembered like a choice. */
export function initLang() {
  const fromLink = langOf(new URLSearchParams(location.search).get('lang'));
  setLang(detectLang(), !!fromLink);
}
