// The bar on top of every page: the brand, the lobby, rules and leaderboard links, the
// player's name with the account's menu or "Sign in" (account.js), the language picker and
// the settings (sound, animations).

import { h } from './dom.js';
import { load, save } from './settings.js';
import { T, LANGS, CATALOGUES, lang, setLang } from './i18n.js';
import { redraw, screen } from './router.js';
import { accountControl } from './account.js';

const GEAR = '<svg viewBox="0 0 24 24" aria-hidden="true" class="gear"><circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" stroke-width="3.2" stroke-dasharray="3.53 3.54"/><circle cx="12" cy="12" r="6.1" fill="none" stroke="currentColor" stroke-width="2.6"/></svg>';

/** Switch the client to a language: every screen is drawn again in it, and it is remembered. */
export function switchLang(/** @type {import('./i18n.js').Lang} */ l) {
  if (l === lang) return;
  setLang(l);
  // a ?lang= link parameter has done its work: drop it, so that the choice stands
  const url = new URL(location.href);
  if (url.searchParams.has('lang')) {
    url.searchParams.delete('lang');
    history.replaceState(null, '', url.pathname + url.search + url.hash);
  }
  if (screen.relabel) {
    header(true);
    screen.relabel();
  } else {
    redraw();
  }
}

/** The language picker: each language named in itself. */
function langPicker() {
  const sel = h('select', { id: 'lang', class: 'lang-picker', 'aria-label': T.lang.label, title: T.lang.label },
    LANGS.map((l) => h('option', { value: l, lang: l, selected: l === lang }, CATALOGUES[l].lang.name)));
  sel.addEventListener('change', () => switchLang(/** @type {import('./i18n.js').Lang} */ (sel.value)));
  return sel;
}

/** The settings dialog: sound (off by default) and animations, remembered in this browser. */
function settingsDialog() {
  const s = load();
  const S = T.settings;
  const toggle = (/** @type {'sound'|'motion'} */ name, /** @type {boolean} */ on, /** @type {string} */ label, /** @type {string} */ help) =>
    h('div', { class: 'field' },
      h('label', { class: 'switch' }, h('input', { type: 'checkbox', id: `setting-${name}`, name, checked: on, 'aria-describedby': `setting-${name}-help`,
        onchange: (/** @type {Event} */ e) => save({ [name]: /** @type {HTMLInputElement} */ (e.target).checked }) }), ` ${label}`),
      h('small', { class: 'help', id: `setting-${name}-help` }, help));
  return h('dialog', { class: 'settings', 'aria-labelledby': 'settings-title' },
    h('form', { method: 'dialog' },
      h('h2', { id: 'settings-title' }, S.title),
      toggle('sound', s.sound === true, S.sound, S.soundHelp),
      toggle('motion', s.motion !== false, S.motion, S.motionHelp),
      h('div', { class: 'btn-row' }, h('button', { class: 'btn primary', value: 'close' }, S.done))));
}

/** Draw (or redraw) the top bar; `keep`: the rules link keeps pointing where it did. */
export function header(keep = false) {
  const settings = settingsDialog();
  const bar = h('header', { class: 'topbar' },
    h('a', { href: '/', 'data-link': true, class: 'brand', 'aria-label': T.app.brandLabel },
      h('span', { class: 'brand-mark', html: '<svg viewBox="0 0 100 100" aria-hidden="true"><use href="#gg-5G"></use></svg>' }),
      h('span', { class: 'brand-name' }, 'salpakan')),
    h('nav', {},
      h('a', { href: '/', 'data-link': true, id: 'nav-lobby' }, T.nav.lobby),
      h('a', { href: '/rules/generals', 'data-link': true, id: 'nav-rules' }, T.nav.rules),
      h('a', { href: '/leaderboard/generals', 'data-link': true, id: 'nav-leaderboard', class: 'wide-only' }, T.nav.leaderboard),
      accountControl(),
      langPicker(),
      h('button', { type: 'button', class: 'icon-btn', 'aria-label': T.nav.settings, onclick: () => settings.showModal(), html: GEAR })),
    settings);
  const old = document.querySelector('header.topbar');
  if (old) {
    const rules = old.querySelector('#nav-rules')?.getAttribute('href');
    if (keep && rules) bar.querySelector('#nav-rules')?.setAttribute('href', rules);
    old.replaceWith(bar);
  } else document.body.prepend(bar);
}
