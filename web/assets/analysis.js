// A finished game's analysis on the replay screen (issue 16): asked of the server
// (POST /api/games/{id}/analysis, computed in the background), drawn as a win-probability
// graph over the plies for each seat, as that seat could judge it then (hand-made SVG, like
// the profile's rating chart), with the turning points (each jumps to its ply) and, on the
// board, what the seat being viewed believed each hidden enemy piece to be: its likeliest
// rank and how likely.

import { h, replace } from './dom.js';
import { api } from './net.js';
import { T } from './i18n.js';
import { seatName } from './games.js';
import { pieceName } from './pieces.js';

/**
 * @typedef {{square: string, ranks: [string, number][]}} HiddenPiece
 * @typedef {{ply: number, before: number, after: number}} TurningPoint
 * @typedef {{seat: string, win: number[], result: number, hidden: HiddenPiece[][], turning_points: TurningPoint[]}} SeatAnalysis
 * @typedef {{game: string, plies: number, samples: number, seed: number, seats: SeatAnalysis[]}} Analysis
 */

const SVG = 'http://www.w3.org/2000/svg';

/** An SVG element with attributes. */
function s(/** @type {string} */ tag, /** @type {Record<string, string|number>} */ attrs = {}, /** @type {(Node|string)[]} */ ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

const pct = (/** @type {number} */ p) => Math.round(p * 100);

/**
 * The analysis panel of the replay of game `id`. `jump(ply)` shows a ply; the replay calls
 * `update(ply, view, board)` whenever it draws a position.
 * @param {string} id @param {import('./games.js').GameSpec} g @param {(ply: number) => void} jump
 */
export function analysisPanel(id, g, jump) {
  const A = T.analysis;
  /** @type {Analysis|null} */
  let data = null;
  let at = 0;
  let view = 'full';
  /** @type {import('./board.js').Board|null} */
  let board = null;
  const status = h('p', { class: 'muted analysis-status', role: 'status', 'aria-live': 'polite' });
  const button = h('button', { class: 'btn small', type: 'button', id: 'replay-analyse', onclick: () => request() }, A.analyse);
  const graph = h('div', { class: 'analysis-graph' });
  const turns = h('ol', { class: 'turning-points', 'aria-label': A.turningPoints });
  const turnsBox = h('div', { class: 'turning-box', hidden: true }, h('h3', {}, A.turningPoints), turns);
  const heatBox = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', id: 'replay-heat', onchange: () => draw() }));
  const heatHint = h('p', { class: 'muted small' });
  const heatRow = h('div', { class: 'analysis-heat', hidden: true }, h('label', { class: 'check' }, heatBox, ` ${A.heat}`), heatHint);
  const el = h('section', { class: 'analysis', 'aria-label': A.title },
    h('h2', {}, A.title), h('p', { class: 'muted small' }, A.about), button, status, graph, turnsBox, heatRow);

  /** @type {ReturnType<typeof setTimeout>|null} */
  let timer = null;
  const poll = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      if (!document.body.contains(el)) return;
      api('GET', `/api/games/${id}/analysis`).then(answer, failed);
    }, 700);
  };
  const failed = (/** @type {Error} */ e) => {
    status.textContent = A.failed(String(e.message));
    button.hidden = false;
  };
  /** @param {any} r  the answer of GET or POST /api/games/{id}/analysis */
  const answer = (r) => {
    if (r.status === 'done') {
      data = /** @type {Analysis} */ (r.analysis);
      button.hidden = true;
      status.textContent = A.done(data.plies, data.samples);
      drawGraph();
      draw();
    } else if (r.status === 'queued' || r.status === 'running') {
      button.hidden = true;
      status.textContent = r.status === 'queued' ? A.queued : A.running;
      poll();
    } else if (r.status === 'failed') {
      failed(new Error(r.error ?? ''));
    } else {
      button.hidden = false;
      status.textContent = '';
    }
  };
  const request = () => {
    button.hidden = true;
    status.textContent = A.queued;
    api('POST', `/api/games/${id}/analysis`).then(answer, failed);
  };
  // a game the server will not analyse (not over, or not the caller's to see) says why
  api('GET', `/api/games/${id}/analysis`).then(answer, (/** @type {Error} */ e) => {
    button.hidden = true;
    status.textContent = String(e.message);
  });

  const seatsShown = () => (data ? data.seats.filter((a) => view === 'full' || a.seat === view) : []);

  /** The graph: each seat's win probability over the plies, a marker at the ply shown. */
  const drawGraph = () => {
    if (!data) return;
    const W = 320, H = 150, left = 34, right = 10, top = 10, bottom = 22;
    const n = Math.max(1, data.plies);
    const x = (/** @type {number} */ i) => left + (i * (W - left - right)) / n;
    const y = (/** @type {number} */ p) => top + (1 - p) * (H - top - bottom);
    const summary = data.seats.map((a) => A.graphSummary(seatName(a.seat), pct(a.win[0]), pct(a.win[a.win.length - 1]), pct(Math.min(...a.win)), pct(Math.max(...a.win)))).join(' ');
    const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'win-chart', role: 'img', 'aria-labelledby': 'win-chart-t win-chart-d' },
      s('title', { id: 'win-chart-t' }, A.graphTitle), s('desc', { id: 'win-chart-d' }, summary));
    for (const p of [0, 0.5, 1]) {
      svg.append(s('line', { x1: left, x2: W - right, y1: y(p), y2: y(p), class: 'grid' }),
        s('text', { x: left - 5, y: y(p) + 4, 'text-anchor': 'end', class: 'axis' }, `${pct(p)}%`));
    }
    svg.append(s('text', { x: left, y: H - 6, 'text-anchor': 'start', class: 'axis' }, '0'),
      s('text', { x: W - right, y: H - 6, 'text-anchor': 'end', class: 'axis' }, String(data.plies)));
    data.seats.forEach((a) => {
      const i = g.seats.indexOf(a.seat);
      const pts = a.win.map((w, k) => `${x(k).toFixed(1)},${y(w).toFixed(1)}`).join(' ');
      svg.append(s('polyline', { points: pts, class: `line seat-${i}`, 'data-seat': a.seat }));
    });
    svg.append(s('line', { x1: x(at), x2: x(at), y1: top, y2: H - bottom, class: 'now' }));
    // a click on the graph shows the ply under it
    svg.addEventListener('click', (e) => {
      const r = svg.getBoundingClientRect();
      const vx = ((e.clientX - r.left) * W) / r.width;
      jump(Math.round(((vx - left) * n) / (W - left - right)));
    });
    const legend = h('p', { class: 'legend' }, ...data.seats.map((a) => h('span', { class: `key seat-${g.seats.indexOf(a.seat)}` }, seatName(a.seat))));
    replace(graph, svg, legend);
  };

  /** The turning points of the seats shown, the marker and the beliefs on the board. */
  const draw = () => {
    if (!data) return;
    const marker = graph.querySelector('line.now');
    if (marker) {
      const W = 320, left = 34, right = 10;
      const xx = left + (at * (W - left - right)) / Math.max(1, data.plies);
      marker.setAttribute('x1', String(xx));
      marker.setAttribute('x2', String(xx));
    }
    const points = seatsShown().flatMap((a) => a.turning_points.map((t) => ({ ...t, seat: a.seat }))).sort((p, q) => p.ply - q.ply);
    replace(turns, ...points.map((t) => h('li', { class: t.ply === at ? 'current' : '' },
      h('button', { type: 'button', class: 'link', dataset: { ply: String(t.ply) }, onclick: () => jump(t.ply) },
        A.turn(t.ply, seatName(t.seat), pct(t.before), pct(t.after))))));
    turnsBox.hidden = points.length === 0;
    heatRow.hidden = !board;
    const seat = data.seats.find((a) => a.seat === view);
    heatBox.disabled = !seat;
    heatHint.textContent = seat ? '' : A.heatNeedsSeat;
    if (!board) return;
    board.el.querySelectorAll('.belief').forEach((b) => b.remove());
    if (!seat || !heatBox.checked) return;
    for (const p of seat.hidden[at] ?? []) {
      const cell = board.cells.get(p.square);
      const [code, prob] = p.ranks[0] ?? [];
      if (!cell || code == null || prob == null) continue;
      const words = A.belief(pieceName(g.name, code), pct(prob));
      cell.append(h('span', { class: 'belief', title: words, 'aria-label': words, style: `--p:${prob.toFixed(2)}` }, `${code} ${pct(prob)}%`));
    }
  };

  return {
    el,
    /** @param {number} ply @param {string} v @param {import('./board.js').Board} b */
    update(ply, v, b) {
      at = ply;
      view = v;
      board = b;
      draw();
    },
  };
}
