// A player's profile (/@/{name}): reputation (completion, kudos), the rating of each board
// with its history drawn as a small SVG chart (hand-made: a line over the rated games, read
// at a phone's width), win/draw/loss counts, member since and last seen, the finished games
// with links to their replays (paged), and the report button.

import { h, replace, toast } from './dom.js';
import { api, signedIn } from './net.js';
import { load } from './settings.js';
import { T } from './i18n.js';
import { main } from './router.js';
import { header } from './header.js';
import { gameTitle } from './games.js';
import { reasonText } from './words.js';
import { boardName, dayText, playerLink, ratingText, reportDialog, signed } from './account.js';

const SVG = 'http://www.w3.org/2000/svg';

/** An SVG element with attributes. */
function s(/** @type {string} */ tag, /** @type {Record<string, string|number>} */ attrs = {}, /** @type {(Node|string)[]} */ ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

/** A round step for the chart's grid: 25, 50, 100, 200… so that 2 to 4 lines fit `span`. */
function gridStep(/** @type {number} */ span) {
  for (const step of [25, 50, 100, 200, 250, 500]) if (span / step <= 4) return step;
  return 1000;
}

let chartIds = 0;

/**
 * A rating history as a line chart: one point per rated game (game number across, rating up),
 * a grid with round ratings, the first and last days under the ends, the latest rating at its
 * point. Its summary is read out by screen readers.
 * @param {[number, number][]} history  [Unix ms, rating after the game], oldest first
 * @param {string} board
 */
export function ratingChart(history, board) {
  const P = T.profile;
  const pts = [...history].sort((a, b) => a[0] - b[0]);
  const W = 320, H = 160, left = 38, right = 14, top = 14, bottom = 24;
  const ratings = pts.map((p) => p[1]);
  const lo = Math.min(...ratings), hi = Math.max(...ratings);
  const step = gridStep(Math.max(hi - lo, 50));
  let min = Math.floor(lo / step) * step, max = Math.ceil(hi / step) * step;
  if (max - min < step * 2) { min -= step; max += step; }
  const x = (/** @type {number} */ i) => left + (pts.length === 1 ? (W - left - right) / 2 : (i * (W - left - right)) / (pts.length - 1));
  const y = (/** @type {number} */ r) => top + ((max - r) * (H - top - bottom)) / (max - min);
  const id = `chart-${++chartIds}`;
  const first = ratings[0], last = ratings[ratings.length - 1];
  const summary = P.chartSummary(boardName(board), Math.round(first), Math.round(last), pts.length, Math.round(hi), Math.round(lo));
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'rating-chart', role: 'img', 'aria-labelledby': `${id}-t ${id}-d` },
    s('title', { id: `${id}-t` }, P.chartTitle(boardName(board))),
    s('desc', { id: `${id}-d` }, summary));
  for (let r = min; r <= max; r += step) {
    svg.append(s('line', { x1: left, x2: W - right, y1: y(r), y2: y(r), class: 'grid' }),
      s('text', { x: left - 5, y: y(r) + 4, 'text-anchor': 'end', class: 'axis' }, String(r)));
  }
  const line = pts.map((p, i) => `${x(i).toFixed(1)},${y(p[1]).toFixed(1)}`).join(' ');
  if (pts.length > 1) {
    svg.append(s('polygon', { points: `${x(0).toFixed(1)},${H - bottom} ${line} ${x(pts.length - 1).toFixed(1)},${H - bottom}`, class: 'area' }),
      s('polyline', { points: line, class: 'line' }));
  }
  const lx = x(pts.length - 1), ly = y(last);
  svg.append(s('circle', { cx: lx, cy: ly, r: 4, class: 'dot' }),
    s('text', { x: lx - 6, y: ly - 8 < top + 4 ? ly + 16 : ly - 8, 'text-anchor': 'end', class: 'value' }, String(Math.round(last))));
  // the days of the first and last rated games under the ends of the line
  // (one day said once when every game was on it)
  const firstDay = dayText(pts[0][0]), lastDay = dayText(pts[pts.length - 1][0]);
  svg.append(s('text', { x: left, y: H - 6, 'text-anchor': 'start', class: 'axis' }, firstDay));
  if (lastDay !== firstDay) svg.append(s('text', { x: W - right, y: H - 6, 'text-anchor': 'end', class: 'axis' }, lastDay));
  return svg;
}

/** The profile page of `name`. */
export function profileScreen(/** @type {string} */ name) {
  header();
  const P = T.profile;
  document.title = T.app.title(name);
  const root = h('div', { class: 'profile page-narrow', 'aria-busy': 'true' }, h('p', { class: 'card' }, P.loading));
  replace(main, root);
  api('GET', `/api/players/${encodeURIComponent(name)}`).then((p) => {
    root.removeAttribute('aria-busy');
    drawProfile(root, p);
  }, (e) => {
    root.removeAttribute('aria-busy');
    replace(root, h('div', { class: 'card', role: 'alert' }, h('h1', {}, P.notFound), h('p', {}, String(e.message)),
      h('a', { class: 'btn', href: '/', 'data-link': true }, T.game.back)));
  });
}

/** @param {HTMLElement} root @param {any} p  the answer of GET /api/players/{name} */
function drawProfile(root, p) {
  const P = T.profile;
  const me = load();
  const mine = !!me.account && me.name?.toLowerCase() === String(p.name).toLowerCase();
  const rep = p.reputation ?? {};
  const head = h('section', { class: 'card profile-head' },
    h('h1', {}, p.name, p.bot ? h('span', { class: 'badge' }, P.bot) : null),
    h('p', { class: 'muted' }, P.memberSince(dayText(p.member_since)), ' · ', P.lastSeen(dayText(p.last_seen))),
    p.marked ? h('p', { class: 'notice', id: 'marked' }, P.marked(typeof p.marked === 'string' ? p.marked : JSON.stringify(p.marked))) : null,
    !mine && signedIn() && !p.bot ? h('div', { class: 'btn-row' },
      h('button', { class: 'btn small ghost', type: 'button', id: 'report', onclick: () => reportDialog(p.name) }, P.report)) : null);
  const stat = (/** @type {string} */ value, /** @type {string} */ label, /** @type {string} */ key) =>
    h('div', { class: 'stat', dataset: { stat: key } }, h('strong', {}, value), h('span', {}, label));
  const reputation = h('section', { class: 'card', 'aria-labelledby': 'rep-title' },
    h('h2', { id: 'rep-title' }, P.reputation),
    h('div', { class: 'stats' },
      stat(rep.completion == null ? '—' : `${Math.round(rep.completion)}%`, P.completion, 'completion'),
      stat(String(rep.finished ?? 0), P.finished, 'finished'),
      stat(String(rep.abandoned ?? 0), P.abandoned, 'abandoned'),
      stat(String(rep.kudos ?? 0), P.kudos, 'kudos')),
    h('p', { class: 'muted small' }, rep.completion == null ? P.completionLater : P.completionHelp));
  const boards = Object.entries(p.ratings ?? {});
  const ratings = h('section', { class: 'ratings', 'aria-labelledby': 'ratings-title' },
    h('h2', { id: 'ratings-title', class: 'section-title' }, P.ratings),
    boards.length ? boards.map(([board, r]) => ratingCard(board, /** @type {any} */ (r))) : h('p', { class: 'card muted' }, P.noRatings));
  const kinds = Object.entries(p.record ?? {});
  const record = kinds.length ? h('section', { class: 'card', 'aria-labelledby': 'record-title' },
    h('h2', { id: 'record-title' }, P.record),
    h('table', { class: 'rank-table record-table' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, P.game), h('th', { scope: 'col', class: 'num' }, P.wins), h('th', { scope: 'col', class: 'num' }, P.draws), h('th', { scope: 'col', class: 'num' }, P.losses))),
      h('tbody', {}, kinds.map(([kind, c]) => h('tr', {}, h('th', { scope: 'row' }, gameTitle(kind)),
        h('td', { class: 'num' }, String(/** @type {any} */ (c).wins ?? 0)), h('td', { class: 'num' }, String(/** @type {any} */ (c).draws ?? 0)), h('td', { class: 'num' }, String(/** @type {any} */ (c).losses ?? 0)))))))
    : null;
  const games = h('ul', { class: 'list history', id: 'history', 'aria-label': P.games });
  const more = h('button', { class: 'btn small', type: 'button', hidden: true }, P.more);
  const history = h('section', { class: 'card games-card', 'aria-labelledby': 'games-title' }, h('h2', { id: 'games-title' }, P.games), games, more);
  // two columns on a wide screen; on a phone one: ratings, reputation, record, then the games
  replace(root, head, h('div', { class: 'profile-grid' }, h('div', { class: 'profile-main' }, ratings, history), h('div', { class: 'profile-side' }, reputation, record)));
  /** @type {string|null} */
  let cursor = null;
  const page = async () => {
    more.disabled = true;
    try {
      const q = new URLSearchParams({ limit: '20' });
      if (cursor) q.set('before', cursor);
      const r = await api('GET', `/api/players/${encodeURIComponent(p.name)}/games?${q}`);
      const rows = /** @type {any[]} */ (r.games ?? []);
      if (!cursor && !rows.length) games.append(h('li', { class: 'empty' }, P.noGames));
      games.append(...rows.map(gameRow));
      cursor = r.next == null ? null : String(r.next);
      more.hidden = !cursor;
    } catch (e) {
      toast(String(/** @type {Error} */ (e).message), 'error');
    }
    more.disabled = false;
  };
  more.addEventListener('click', page);
  page();
}

/** One board's rating: the number, its deviation, the counts and the chart. */
function ratingCard(/** @type {string} */ board, /** @type {any} */ r) {
  const P = T.profile;
  const history = /** @type {[number, number][]} */ ((r.history ?? []).filter((/** @type {any} */ x) => Array.isArray(x) && x.length >= 2));
  return h('article', { class: 'card rating-card', dataset: { board } },
    h('div', { class: 'rating-head' },
      h('h3', {}, boardName(board)),
      h('p', { class: 'rating-big' }, h('strong', {}, ratingText(r.rating, r.provisional)), h('small', { class: 'muted' }, ` ±${Math.round(r.rd ?? 0)}`)),
      r.provisional ? h('p', { class: 'muted small' }, P.provisional) : null,
      h('p', { class: 'wdl' }, P.counts(r.games ?? 0, r.wins ?? 0, r.draws ?? 0, r.losses ?? 0))),
    history.length ? ratingChart(history, board) : null);
}

/** The outcome of a listed game for the profile's player: 'win', 'loss' or 'draw'. */
function outcome(/** @type {any} */ g) {
  const r = g.result;
  if (r === 'win' || r === 'loss' || r === 'draw') return r;
  if (r && typeof r === 'object') return !r.winner ? 'draw' : r.winner === g.seat ? 'win' : 'loss';
  return 'draw';
}

/** A finished game of the history, with a link to its replay. */
function gameRow(/** @type {any} */ g) {
  const P = T.profile;
  const o = outcome(g);
  const opp = g.opponent ?? P.unknownPlayer;
  return h('li', { class: 'row', dataset: { game: g.game } },
    h('span', { class: `result-chip ${o}`, title: P.outcome[o] }, h('span', { 'aria-hidden': 'true' }, P.outcomeShort[o]), h('span', { class: 'sr-only' }, P.outcome[o])),
    h('span', { class: 'grow' },
      h('span', {}, P.vs, ' ', g.opponent_account && g.opponent ? playerLink(g.opponent) : h('span', {}, opp)), h('br'),
      h('small', { class: 'muted' }, [g.board ? boardName(g.board) : gameTitle(g.kind), g.rated ? P.rated : P.casual, reasonText(g.reason) || null, dayText(g.ended)].filter(Boolean).join(' · '))),
    g.rated && g.rating_diff != null ? h('span', { class: `diff ${g.rating_diff > 0 ? 'up' : g.rating_diff < 0 ? 'down' : ''}` }, signed(g.rating_diff)) : null,
    h('a', { class: 'btn small', href: `/replay/${g.game}`, 'data-link': true, 'aria-label': P.replayLabel(opp) }, T.lobby.replay));
}
