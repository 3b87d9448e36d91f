// Accounts in the browser (docs/protocol.md, Identity): the "Sign in" / "Create account"
// dialog, the account menu of the top bar (profile, log out here or everywhere, change
// password, API tokens, delete the account), the report dialog, and small helpers the
// rating screens share (a rating with its `?`, a signed change, a date).
//
// An account's session is the HttpOnly cookie the server sets: the script never sees it, so
// the browser remembers only that it has one (`account` in settings.js). A guest who creates
// an account becomes that account on the server (same id, same games): its guest token is
// dropped here. Logging in to an account drops the guest token too (another identity).

import { h, replace, toast } from './dom.js';
import { api, ApiError } from './net.js';
import { load, save } from './settings.js';
import { T, lang } from './i18n.js';
import { go, redraw } from './router.js';
import { header } from './header.js';

/** The rated boards, in the order of the leaderboard's tabs. */
export const BOARDS = ['generals', 'stratego', 'stratego-barrage', 'banqi'];

/** A board's name: the catalogue's, else its id made readable (a board the client does not know yet). */
export function boardName(/** @type {string} */ board) {
  return /** @type {Record<string, string>} */ (T.boards.names)[board] ?? board.replace(/-/g, ' ');
}

/** A rating as shown: `1623`, or `1500?` while it is provisional. */
export function ratingText(/** @type {number|null|undefined} */ rating, /** @type {boolean|undefined} */ provisional) {
  if (rating == null) return '';
  return `${Math.round(rating)}${provisional ? '?' : ''}`;
}

/** A signed change: `+12`, `−7` (a real minus sign), `±0`. */
export function signed(/** @type {number} */ n) {
  const v = Math.round(n);
  return v > 0 ? `+${v}` : v < 0 ? `−${-v}` : '±0';
}

/** A day in the client's language (Unix milliseconds). */
export function dayText(/** @type {number|null|undefined} */ ms) {
  if (ms == null) return '—';
  try {
    return new Date(ms).toLocaleDateString(lang, { year: 'numeric', month: 'short', day: 'numeric' });
  } catch {
    return new Date(ms).toISOString().slice(0, 10);
  }
}

/** A profile's path. */
export function profilePath(/** @type {string} */ name) {
  return `/@/${encodeURIComponent(name)}`;
}

/** A link to a player's profile. */
export function playerLink(/** @type {string} */ name, props = {}) {
  return h('a', { href: profilePath(name), 'data-link': true, ...props }, name);
}

/** The server's sentence for a refused request. */
function message(/** @type {unknown} */ e) {
  return e instanceof Error ? e.message : String(e);
}

/** This browser's identity is now the account `r` (registered or logged in). */
function becomeAccount(/** @type {{id: string, name: string}} */ r) {
  // the guest token goes: the server made the guest this account, or the account is another identity
  save({ account: true, name: r.name, userId: r.id, token: undefined, moderator: false });
  redraw();
  // the moderator flag comes from /api/me
  checkSession();
}

/** Forget the account on this browser (logged out, deleted, or the session ended). */
function forgetAccount() {
  save({ account: false, moderator: false, name: undefined, userId: undefined, token: undefined, seats: {}, mySeeks: [] });
}

/**
 * At start-up: ask the server who this browser is (`GET /api/me`), so that the account and
 * moderator flags are right; a session that ended elsewhere is forgotten here.
 * @returns {Promise<void>}
 */
export async function checkSession() {
  const s = load();
  if (!s.token && !s.account) return;
  try {
    const me = await api('GET', '/api/me');
    const changed = !!me.account !== !!s.account || !!me.moderator !== !!s.moderator || me.name !== s.name;
    save({ name: me.name, userId: me.id, account: !!me.account, moderator: !!me.moderator });
    // only the bar changes: a game in progress keeps its connection and its setup
    if (changed) header(true);
  } catch (e) {
    if (e instanceof ApiError && e.status === 401 && s.account && !s.token) {
      forgetAccount();
      redraw();
    }
  }
}

/** A dialog that is removed from the page when it closes. */
function modal(/** @type {HTMLDialogElement} */ dlg) {
  dlg.addEventListener('close', () => dlg.remove());
  document.body.append(dlg);
  dlg.showModal();
  return dlg;
}

/** A labelled field of a dialog's form. */
function field(/** @type {string} */ id, /** @type {string} */ label, /** @type {HTMLElement} */ input, /** @type {string|null} */ help = null) {
  if (help) input.setAttribute('aria-describedby', `${id}-help`);
  return h('div', { class: 'field' }, h('label', { for: id }, label), input, help ? h('small', { class: 'help', id: `${id}-help` }, help) : null);
}

/** The error line of a dialog: read out when it changes. */
function errorLine() {
  return h('p', { class: 'form-error', role: 'alert' });
}

/**
 * The sign-in dialog, which also creates accounts (`mode`: 'login' or 'register').
 * @param {'login'|'register'} mode
 */
export function authDialog(mode = 'login') {
  const A = T.account;
  const name = h('input', { id: 'auth-name', name: 'username', autocomplete: 'username', required: true, minlength: '2', maxlength: '20', spellcheck: 'false', autocapitalize: 'off' });
  const password = h('input', { id: 'auth-password', name: 'password', type: 'password', required: true, minlength: '8', maxlength: '128' });
  const error = errorLine();
  const title = h('h2', { id: 'auth-title' });
  const intro = h('p', { class: 'muted small' });
  const nameHelp = h('small', { class: 'help', id: 'auth-name-help' });
  const passwordHelp = h('small', { class: 'help', id: 'auth-password-help' });
  name.setAttribute('aria-describedby', 'auth-name-help');
  password.setAttribute('aria-describedby', 'auth-password-help');
  const submit = h('button', { class: 'btn primary', type: 'submit', id: 'auth-submit' });
  const other = h('button', { class: 'btn link switch-mode', type: 'button', id: 'auth-switch' });
  const draw = () => {
    const reg = mode === 'register';
    title.textContent = reg ? A.createTitle : A.signInTitle;
    intro.textContent = reg ? (load().token ? A.createGuestIntro : A.createIntro) : A.signInIntro;
    nameHelp.textContent = reg ? A.nameRule : '';
    passwordHelp.textContent = reg ? A.passwordRule : '';
    password.setAttribute('autocomplete', reg ? 'new-password' : 'current-password');
    submit.textContent = reg ? A.create : A.signIn;
    other.textContent = reg ? A.haveAccount : A.noAccount;
    error.textContent = '';
  };
  other.addEventListener('click', () => { mode = mode === 'login' ? 'register' : 'login'; draw(); name.focus(); });
  const form = h('form', { class: 'auth-form', onsubmit: async (/** @type {Event} */ e) => {
    e.preventDefault();
    submit.disabled = true;
    error.textContent = '';
    try {
      const body = { name: name.value.trim(), password: password.value };
      const r = await api('POST', mode === 'register' ? '/api/accounts' : '/api/session', body);
      dlg.close();
      toast(mode === 'register' ? A.created(r.name) : A.welcomeBack(r.name), 'good');
      becomeAccount(r);
    } catch (err) {
      error.textContent = message(err);
      submit.disabled = false;
    }
  } },
    title, intro,
    h('div', { class: 'field' }, h('label', { for: 'auth-name' }, A.name), name, nameHelp),
    h('div', { class: 'field' }, h('label', { for: 'auth-password' }, A.password), password, passwordHelp),
    error,
    h('div', { class: 'btn-row wrap' }, submit, h('button', { class: 'btn ghost', type: 'button', onclick: () => dlg.close() }, A.cancel)),
    other);
  const dlg = h('dialog', { class: 'settings auth', 'aria-labelledby': 'auth-title' }, form);
  draw();
  modal(dlg);
  name.focus();
  return dlg;
}

/** Change the password: the other sessions end. */
function passwordDialog() {
  const A = T.account;
  const old = h('input', { id: 'pw-old', type: 'password', autocomplete: 'current-password', required: true });
  const fresh = h('input', { id: 'pw-new', type: 'password', autocomplete: 'new-password', required: true, minlength: '8', maxlength: '128' });
  const error = errorLine();
  const dlg = h('dialog', { class: 'settings', 'aria-labelledby': 'pw-title' },
    h('form', { onsubmit: async (/** @type {Event} */ e) => {
      e.preventDefault();
      try {
        await api('POST', '/api/account/password', { old: old.value, new: fresh.value });
        dlg.close();
        toast(A.passwordChanged, 'good');
      } catch (err) {
        error.textContent = message(err);
      }
    } },
      h('h2', { id: 'pw-title' }, A.changePassword),
      field('pw-old', A.oldPassword, old),
      field('pw-new', A.newPassword, fresh, A.passwordRule),
      h('p', { class: 'muted small' }, A.otherSessionsEnd),
      error,
      h('div', { class: 'btn-row wrap' }, h('button', { class: 'btn primary', type: 'submit' }, A.changePassword),
        h('button', { class: 'btn ghost', type: 'button', onclick: () => dlg.close() }, A.cancel))));
  modal(dlg);
  old.focus();
}

/** The account's named API tokens: list, create (the secret shown once), revoke. */
function tokensDialog() {
  const A = T.account;
  const list = h('ul', { class: 'list tokens', 'aria-label': A.tokens });
  const shown = h('div', { class: 'token-shown', 'aria-live': 'polite' });
  const name = h('input', { id: 'token-name', required: true, maxlength: '40', autocomplete: 'off' });
  const error = errorLine();
  const refresh = async () => {
    try {
      const r = await api('GET', '/api/account/tokens');
      const tokens = /** @type {any[]} */ (r.tokens ?? []);
      if (!tokens.length) return replace(list, h('li', { class: 'empty' }, A.noTokens));
      replace(list, ...tokens.map((t) => h('li', { class: 'row' },
        h('span', { class: 'grow' }, h('strong', {}, t.name), h('br'), h('small', { class: 'muted' }, A.tokenDates(dayText(t.created), t.last_used ? dayText(t.last_used) : A.never))),
        h('button', { class: 'btn small danger', type: 'button', 'aria-label': A.revokeLabel(t.name), onclick: async () => {
          try { await api('DELETE', `/api/account/tokens/${encodeURIComponent(t.id)}`); refresh(); } catch (err) { error.textContent = message(err); }
        } }, A.revoke))));
    } catch (err) {
      error.textContent = message(err);
    }
  };
  const dlg = h('dialog', { class: 'settings tokens-dialog', 'aria-labelledby': 'tokens-title' },
    h('h2', { id: 'tokens-title' }, A.tokens),
    h('p', { class: 'muted small' }, A.tokensIntro),
    list,
    h('form', { class: 'token-new', onsubmit: async (/** @type {Event} */ e) => {
      e.preventDefault();
      error.textContent = '';
      try {
        const r = await api('POST', '/api/account/tokens', { name: name.value.trim() });
        name.value = '';
        const secret = h('input', { id: 'token-secret', readonly: true, value: r.token });
        replace(shown, h('label', { for: 'token-secret' }, A.tokenOnce(r.name)),
          h('div', { class: 'inline' }, secret, h('button', { class: 'btn small', type: 'button', onclick: () => {
            navigator.clipboard?.writeText(r.token).then(() => toast(A.copied, 'good'), () => secret.select());
          } }, A.copy)));
        refresh();
      } catch (err) {
        error.textContent = message(err);
      }
    } }, field('token-name', A.tokenName, name), h('button', { class: 'btn', type: 'submit' }, A.newToken)),
    shown, error,
    h('div', { class: 'btn-row' }, h('button', { class: 'btn primary', type: 'button', onclick: () => dlg.close() }, A.done)));
  modal(dlg);
  refresh();
}

/** Delete the account: its games stay, under the name "deleted player". */
function deleteDialog() {
  const A = T.account;
  const password = h('input', { id: 'delete-password', type: 'password', autocomplete: 'current-password', required: true });
  const error = errorLine();
  const dlg = h('dialog', { class: 'settings', 'aria-labelledby': 'delete-title' },
    h('form', { onsubmit: async (/** @type {Event} */ e) => {
      e.preventDefault();
      try {
        await api('DELETE', '/api/account', { password: password.value });
        dlg.close();
        forgetAccount();
        toast(A.deleted, 'good');
        go('/');
      } catch (err) {
        error.textContent = message(err);
      }
    } },
      h('h2', { id: 'delete-title' }, A.deleteTitle),
      h('p', {}, A.deleteText),
      field('delete-password', A.password, password),
      error,
      h('div', { class: 'btn-row wrap' }, h('button', { class: 'btn danger', type: 'submit' }, A.deleteConfirm),
        h('button', { class: 'btn ghost', type: 'button', onclick: () => dlg.close() }, A.cancel))));
  modal(dlg);
  password.focus();
}

/** Log out of this device, or of every device. */
async function logOut(/** @type {boolean} */ everywhere) {
  try {
    await api('DELETE', everywhere ? '/api/session?everywhere=true' : '/api/session');
  } catch (e) {
    // a session that had already ended is logged out all the same
    if (!(e instanceof ApiError && e.status === 401)) return toast(message(e), 'error');
  }
  forgetAccount();
  toast(everywhere ? T.account.loggedOutEverywhere : T.account.loggedOut, 'good');
  go('/');
}

/**
 * The account's place in the top bar: "Sign in" for a guest or a newcomer; for an account,
 * its name (linking to its profile) and a menu button.
 */
export function accountControl() {
  const A = T.account;
  const s = load();
  if (!s.account) {
    return h('div', { class: 'account-ctl' },
      s.name ? h('span', { class: 'me', title: T.nav.you }, s.name) : null,
      h('button', { type: 'button', class: 'btn small signin', id: 'sign-in', onclick: () => authDialog('login') }, A.signIn),
      h('button', { type: 'button', class: 'btn small signin create-account', id: 'create-account', onclick: () => authDialog('register') }, A.createAccount));
  }
  const panel = h('div', { class: 'account-menu', id: 'account-menu', hidden: true });
  const button = h('button', { type: 'button', class: 'icon-btn menu-btn', id: 'account-button', 'aria-expanded': 'false', 'aria-controls': 'account-menu', 'aria-label': A.menu,
    html: '<svg viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="8" r="4" fill="none" stroke="currentColor" stroke-width="2.2"/><path d="M4 21c.8-4.2 4-6.5 8-6.5s7.2 2.3 8 6.5" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/></svg>' });
  const close = () => {
    panel.hidden = true;
    button.setAttribute('aria-expanded', 'false');
    document.removeEventListener('click', outside, true);
  };
  const outside = (/** @type {Event} */ e) => { if (!wrap.contains(/** @type {Node} */ (e.target))) close(); };
  const item = (/** @type {string} */ label, /** @type {() => void} */ fn, cls = '') =>
    h('li', {}, h('button', { type: 'button', class: `menu-item ${cls}`, onclick: () => { close(); fn(); } }, label));
  const link = (/** @type {string} */ label, /** @type {string} */ href) =>
    h('li', {}, h('a', { class: 'menu-item', href, 'data-link': true, onclick: close }, label));
  replace(panel, h('ul', {},
    link(A.profile, profilePath(s.name ?? '')),
    link(T.nav.leaderboard, '/leaderboard/generals'),
    s.moderator ? link(A.moderation, '/moderation') : null,
    item(A.changePassword, passwordDialog),
    item(A.tokens, tokensDialog),
    item(A.logOut, () => logOut(false)),
    item(A.logOutEverywhere, () => logOut(true)),
    item(A.deleteAccount, deleteDialog, 'danger')));
  button.addEventListener('click', () => {
    const open = panel.hidden;
    panel.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    if (open) document.addEventListener('click', outside, true);
    else close();
  });
  panel.addEventListener('keydown', (e) => { if (e.key === 'Escape') { close(); button.focus(); } });
  const wrap = h('div', { class: 'account-ctl' },
    h('a', { class: 'me', href: profilePath(s.name ?? ''), 'data-link': true, id: 'my-profile', title: A.profile }, s.name ?? ''),
    button, panel);
  return wrap;
}

/**
 * The report dialog: a reason and a few words for the moderators about `name` (and the
 * game it happened in, when there is one).
 * @param {string} name @param {string|null} [game]
 */
export function reportDialog(name, game = null) {
  const R = T.report;
  const reason = h('select', { id: 'report-reason', required: true },
    ['cheating', 'abuse', 'stalling', 'other'].map((r) => h('option', { value: r }, /** @type {Record<string, string>} */ (R.reasons)[r])));
  const text = h('textarea', { id: 'report-text', maxlength: '500', rows: '4' });
  const error = errorLine();
  const dlg = h('dialog', { class: 'settings report', 'aria-labelledby': 'report-title' },
    h('form', { onsubmit: async (/** @type {Event} */ e) => {
      e.preventDefault();
      try {
        /** @type {Record<string, any>} */
        const body = { name, reason: reason.value, text: text.value.trim() };
        if (game) body.game = game;
        await api('POST', '/api/reports', body);
        dlg.close();
        toast(R.sent, 'good');
      } catch (err) {
        error.textContent = message(err);
      }
    } },
      h('h2', { id: 'report-title' }, R.title(name)),
      h('p', { class: 'muted small' }, game ? R.aboutGame : R.intro),
      field('report-reason', R.reason, reason),
      field('report-text', R.text, text, R.textHelp),
      error,
      h('div', { class: 'btn-row wrap' }, h('button', { class: 'btn primary', type: 'submit' }, R.send),
        h('button', { class: 'btn ghost', type: 'button', onclick: () => dlg.close() }, R.cancel))));
  modal(dlg);
  return dlg;
}
