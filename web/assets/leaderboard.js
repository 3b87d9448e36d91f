// The leaderboard of a board (/leaderboard/{board}): one tab per rated board, then its top
// players (GET /api/leaderboard/{board}): rank, name, rating, games and the week's trend.

import { h, replace } from './dom.js';
import { api } from './net.js';
import { T } from './i18n.js';
import { main } from './router.js';
import { header } from './header.js';
import { BOARDS, boardName, playerLink, signed } from './account.js';

/** The leaderboard page of `board`. */
export function leaderboardScreen(/** @type {string} */ board) {
  header();
  const L = T.leaderboard;
  document.title = T.app.title(L.title(boardName(board)));
  const boards = BOARDS.includes(board) ? BOARDS : [...BOARDS, board];
  const tabs = h('nav', { class: 'board-tabs', 'aria-label': L.boards },
    h('ul', {}, boards.map((b) => h('li', {}, h('a', { href: `/leaderboard/${b}`, 'data-link': true, class: 'board-tab', 'aria-current': b === board ? 'page' : null }, boardName(b))))));
  const body = h('div', { class: 'leaderboard-body', 'aria-busy': 'true' }, h('p', { class: 'muted' }, L.loading));
  replace(main, h('div', { class: 'leaderboard page-narrow' },
    h('h1', {}, L.title(boardName(board))),
    tabs,
    h('section', { class: 'card' }, body),
    h('p', { class: 'muted small' }, L.rules)));
  api('GET', `/api/leaderboard/${encodeURIComponent(board)}`).then((r) => {
    body.removeAttribute('aria-busy');
    const players = /** @type {any[]} */ (r.players ?? []);
    if (!players.length) return replace(body, h('p', { class: 'empty' }, L.empty));
    replace(body, h('table', { class: 'rank-table', id: 'leaderboard' },
      h('caption', { class: 'sr-only' }, L.title(boardName(board))),
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col', class: 'num' }, L.rank), h('th', { scope: 'col' }, L.player), h('th', { scope: 'col', class: 'num' }, L.rating),
        h('th', { scope: 'col', class: 'num wide-only' }, L.rd), h('th', { scope: 'col', class: 'num' }, L.games), h('th', { scope: 'col', class: 'num' }, L.trend))),
      h('tbody', {}, players.map((p) => h('tr', { dataset: { player: p.name } },
        h('td', { class: 'num rank' }, String(p.rank)),
        h('td', { class: 'who-cell' }, playerLink(p.name), p.bot ? h('span', { class: 'badge' }, T.profile.bot) : null),
        h('td', { class: 'num strong' }, String(Math.round(p.rating))),
        h('td', { class: 'num wide-only muted' }, `±${Math.round(p.rd)}`),
        h('td', { class: 'num' }, String(p.games)),
        h('td', { class: `num trend ${p.trend > 0 ? 'up' : p.trend < 0 ? 'down' : ''}`, 'aria-label': L.trendLabel(signed(p.trend ?? 0)) }, trendText(p.trend ?? 0)))))));
  }, (e) => {
    body.removeAttribute('aria-busy');
    replace(body, h('p', { class: 'empty', role: 'alert' }, String(e.message)));
  });
}

/** The week's change with an arrow: `▲ 12`, `▼ 7`, `–`. */
function trendText(/** @type {number} */ n) {
  const v = Math.round(n);
  return v > 0 ? `▲ ${v}` : v < 0 ? `▼ ${-v}` : '–';
}
