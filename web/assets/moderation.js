// The moderators' page (/moderation): the reports players sent (GET /api/moderation/reports),
// and for each reported account a note to mark it with, or closing it
// (POST /api/moderation/accounts/{name}). The server answers only accounts with the
// moderator flag; everyone else is told the page is for moderators.

import { h, replace, toast } from './dom.js';
import { api, ApiError } from './net.js';
import { load } from './settings.js';
import { T } from './i18n.js';
import { main } from './router.js';
import { header } from './header.js';
import { dayText, playerLink } from './account.js';

/** The moderation page. */
export function moderationScreen() {
  header();
  const M = T.moderation;
  document.title = T.app.title(M.title);
  const list = h('ul', { class: 'list reports', id: 'reports', 'aria-label': M.reports });
  replace(main, h('div', { class: 'moderation page-narrow' }, h('h1', {}, M.title), h('section', { class: 'card' }, h('h2', {}, M.reports), list)));
  if (!load().account) return replace(list, h('li', { class: 'empty' }, M.onlyModerators));
  replace(list, h('li', { class: 'empty' }, M.loading));
  // the server says who moderates (a flag set from the command line may be new to this browser)
  const refresh = () => api('GET', '/api/moderation/reports').then((r) => {
    const reports = /** @type {any[]} */ (r.reports ?? []);
    if (!reports.length) return replace(list, h('li', { class: 'empty' }, M.none));
    replace(list, ...reports.map((x, i) => reportRow(x, i, refresh)));
  }, (e) => replace(list, h('li', { class: 'empty' }, e instanceof ApiError && (e.status === 403 || e.status === 401) ? M.onlyModerators : String(e.message))));
  refresh();
}

/** One report, with the actions on the reported account. */
function reportRow(/** @type {any} */ r, /** @type {number} */ i, /** @type {() => void} */ refresh) {
  const M = T.moderation;
  const target = String(r.name ?? r.reported ?? '');
  const by = r.by ?? r.reporter ?? null;
  const note = h('input', { id: `note-${i}`, maxlength: '200', autocomplete: 'off', placeholder: M.notePlaceholder });
  const act = async (/** @type {Record<string, string>} */ body, /** @type {string} */ done) => {
    try {
      await api('POST', `/api/moderation/accounts/${encodeURIComponent(target)}`, body);
      toast(done, 'good');
      refresh();
    } catch (e) {
      toast(String(/** @type {Error} */ (e).message), 'error');
    }
  };
  const reason = /** @type {Record<string, string>} */ (T.report.reasons)[r.reason] ?? String(r.reason ?? '');
  return h('li', { class: 'report-row', dataset: { report: String(r.id ?? i) } },
    h('p', {}, h('strong', {}, playerLink(target)), ' · ', reason, (r.at ?? r.created) ? h('small', { class: 'muted' }, ` · ${dayText(r.at ?? r.created)}`) : null),
    by ? h('p', { class: 'small muted' }, M.by, ' ', playerLink(String(by))) : null,
    r.text ? h('blockquote', { class: 'report-text' }, String(r.text)) : null,
    r.game ? h('p', { class: 'small' }, h('a', { href: `/replay/${r.game}`, 'data-link': true }, M.game)) : null,
    r.marked ? h('p', { class: 'notice' }, T.profile.marked(String(r.marked))) : null,
    r.closed ? h('p', { class: 'notice' }, M.closed) : null,
    h('form', { class: 'inline mod-actions', onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); act({ action: 'mark', note: note.value.trim() }, M.markedDone(target)); } },
      h('label', { for: `note-${i}`, class: 'sr-only' }, M.note(target)), note,
      h('button', { class: 'btn small', type: 'submit' }, M.mark),
      h('button', { class: 'btn small danger', type: 'button', onclick: () => { if (confirm(M.closeConfirm(target))) act({ action: 'close' }, M.closedDone(target)); } }, M.close)));
}
