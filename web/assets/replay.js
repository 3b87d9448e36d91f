// The replay screen (/replay/<id>?ply=N&view=<seat>): a finished game's full record stepped
// through on the board, as everything or as one seat saw it, with the moves in the game's words,
// and its analysis on request (analysis.js).

import { h, replace, toast } from './dom.js';
import { Board } from './board.js';
import { pieceName } from './pieces.js';
import { spec, gameTitle, seatName } from './games.js';
import { replayRecord, viewOf, knows } from './record.js';
import { api } from './net.js';
import { T } from './i18n.js';
import { main, onLeave } from './router.js';
import { header } from './header.js';
import { reasonText } from './words.js';
import { analysisPanel } from './analysis.js';

/** @typedef {import('./games.js').GameSpec} GameSpec */

export async function replayScreen(/** @type {string} */ id) {
  header();
  const R = T.replay;
  document.title = T.app.title(R.title);
  replace(main, h('p', { class: 'card' }, R.loading));
  /** @type {string} */
  let text;
  try {
    text = await api('GET', `/api/games/${id}/record`);
  } catch (e) {
    return replace(main, h('div', { class: 'card' }, h('h2', {}, R.title), h('p', {}, String(/** @type {Error} */ (e).message)), h('a', { class: 'btn', href: '/', 'data-link': true }, R.back)));
  }
  let rep;
  try {
    rep = replayRecord(text);
  } catch {
    return replace(main, h('div', { class: 'card' }, h('h2', {}, R.title), h('p', {}, R.unreadable)));
  }
  const g = spec(rep.game);
  document.getElementById('nav-rules')?.setAttribute('href', `/rules/${g.name}`);
  // a seat's own copy (the game is on, or never reveals) lacks the other army: no board to replay
  if (rep.tags.Copy && rep.tags.Copy !== 'full') {
    // a finished game that never reveals: its players still get their own seat's analysis
    const over = !!rep.tags.Result && rep.tags.Result !== '*';
    return replace(main, h('div', { class: 'card' }, h('h2', {}, R.title), h('p', {}, R.ownCopyOnly),
      h('div', { class: 'btn-row wrap' }, h('a', { class: 'btn', href: `/api/games/${id}/record`, download: `salpakan-${id}.txt` }, R.downloadOwn), h('a', { class: 'btn', href: `/game/${id}`, 'data-link': true }, R.watch)),
      over ? analysisPanel(id, g, () => {}).el : null));
  }
  if (!rep.tags.WhiteSetup && !rep.tags.RedSetup && !rep.tags.Deal) {
    return replace(main, h('div', { class: 'card' }, h('h2', {}, R.title), h('p', {}, R.notPublished), h('a', { class: 'btn', href: `/game/${id}`, 'data-link': true }, R.watch)));
  }
  const last = rep.positions.length - 1;
  // a shared link opens at its ply and view: /replay/<id>?ply=N&view=white
  const q = new URLSearchParams(location.search);
  const askedPly = Number.parseInt(q.get('ply') ?? '', 10);
  let at = Number.isFinite(askedPly) ? Math.max(0, Math.min(last, askedPly)) : last;
  let view = g.seats.includes(q.get('view') ?? '') ? /** @type {string} */ (q.get('view')) : 'full';
  let flipped = view === g.seats[1];
  let board = new Board(g, flipped, {});
  const wrap = h('div', { class: 'board-wrap' }, board.el);
  const flip = () => {
    flipped = !flipped;
    board = new Board(g, flipped, {});
    wrap.replaceChildren(board.el);
    show(at);
  };
  const flipBtn = h('button', { class: 'btn small', type: 'button', id: 'replay-flip', 'aria-pressed': 'false', onclick: flip }, R.flip);
  const slider = h('input', { type: 'range', id: 'replay-ply', min: '0', max: String(last), value: String(at) });
  const label = h('p', { class: 'replay-label', role: 'status', 'aria-live': 'polite' });
  const viewSel = h('select', { id: 'replay-view', name: 'view' },
    h('option', { value: 'full' }, R.viewFull), ...g.seats.map((seat) => h('option', { value: seat }, R.viewSeat(seatName(seat)))));
  viewSel.value = view;
  viewSel.addEventListener('change', () => {
    view = viewSel.value;
    drawMoves();
    show(at);
  });
  const moves = h('ol', { class: 'moves', 'aria-label': R.movesList });
  /** @type {string[]} */
  let words = [];
  const drawMoves = () => {
    words = rep.plies.map((p, i) => replayWords(g, p, rep.positions[i], view));
    replace(moves, ...rep.plies.map((p, i) => h('li', {}, h('button', { type: 'button', class: 'link', dataset: { ply: String(i + 1) }, onclick: () => show(i + 1) }, words[i]))));
  };
  /** @type {ReturnType<typeof setInterval>|null} */
  let timer = null;
  const playBtn = h('button', { class: 'btn small', type: 'button', id: 'replay-play', 'aria-pressed': 'false', onclick: () => (timer ? pause() : play()) }, R.play);
  const pause = () => {
    if (timer) clearInterval(timer);
    timer = null;
    playBtn.textContent = R.play;
    playBtn.setAttribute('aria-pressed', 'false');
  };
  const play = () => {
    if (at >= last) show(0);
    timer = setInterval(() => { show(at + 1); if (at >= last) pause(); }, 900);
    playBtn.textContent = R.pause;
    playBtn.setAttribute('aria-pressed', 'true');
  };
  onLeave(pause);
  const link = () => `/replay/${id}?ply=${at}${view === 'full' ? '' : `&view=${view}`}`;
  const share = h('button', { class: 'btn small', type: 'button', id: 'replay-share', onclick: () => {
    const url = location.origin + link();
    navigator.clipboard?.writeText(url).then(() => toast(R.copied, 'good'), () => toast(url));
  } }, R.share);
  const analysis = analysisPanel(id, g, (ply) => show(ply));
  const show = (/** @type {number} */ i) => {
    at = Math.max(0, Math.min(last, i));
    slider.value = String(at);
    flipBtn.setAttribute('aria-pressed', String(flipped));
    const p = rep.plies[at - 1];
    board.render(viewOf(g.name, rep.positions[at], view), { last: p?.from ? { from: p.from, to: p.to ?? p.from } : null });
    analysis.update(at, view, board);
    label.textContent = at === 0 ? (g.name === 'banqi' ? R.startBanqi : view === 'full' ? R.startFull : R.startSeat(seatName(view))) : R.plyOf(at, rep.plies.length, words[at - 1]);
    moves.querySelectorAll('li').forEach((li, j) => li.classList.toggle('current', j === at - 1));
    // keep the current move in sight within the list (the page itself does not scroll)
    const cur = moves.querySelector('li.current');
    if (cur) moves.scrollTop += cur.getBoundingClientRect().top - moves.getBoundingClientRect().top - moves.clientHeight / 2;
    if (location.pathname === `/replay/${id}`) history.replaceState(null, '', link());
  };
  slider.addEventListener('input', () => show(Number(slider.value)));
  const resultWords = rep.tags.Result === '1-0' ? R.seatWon(seatName(g.seats[0])) : rep.tags.Result === '0-1' ? R.seatWon(seatName(g.seats[1])) : rep.tags.Result && rep.tags.Result !== '*' ? R.draw : R.unfinished;
  const one = rep.tags.White ?? rep.tags.Red ?? rep.tags.First ?? '', two = rep.tags.Black ?? rep.tags.Blue ?? rep.tags.Second ?? '';
  const players = two ? R.players(one, two) : one;
  drawMoves();
  replace(main, h('div', { class: 'game-screen replay' },
    h('div', { class: 'play-area' }, wrap),
    h('aside', { class: 'side-panel' },
      h('h1', {}, R.heading(gameTitle(g.name))),
      players ? h('p', {}, players) : null,
      h('p', { class: 'muted result-line' }, `${resultWords}${rep.tags.Reason ? ` ${reasonText(rep.tags.Reason) || rep.tags.Reason}` : ''} (${rep.tags.Result ?? '*'})`),
      h('div', { class: 'field replay-view' }, h('label', { for: 'replay-view' }, R.view), viewSel),
      h('label', { for: 'replay-ply' }, R.move), slider, label,
      h('div', { class: 'btn-row wrap' },
        h('button', { class: 'btn small icon', type: 'button', 'aria-label': R.first, onclick: () => show(0), html: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 5h2v14H6zM20 5v14L9 12z" fill="currentColor"/></svg>' }),
        h('button', { class: 'btn small icon', type: 'button', 'aria-label': R.previous, onclick: () => show(at - 1), html: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M18 5v14L7 12z" fill="currentColor"/></svg>' }),
        h('button', { class: 'btn small icon', type: 'button', 'aria-label': R.next, onclick: () => show(at + 1), html: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 5v14l11-7z" fill="currentColor"/></svg>' }),
        h('button', { class: 'btn small icon', type: 'button', 'aria-label': R.last, onclick: () => show(last), html: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M16 5h2v14h-2zM4 5v14l11-7z" fill="currentColor"/></svg>' }),
        playBtn),
      h('div', { class: 'btn-row wrap' },
        flipBtn, share,
        h('a', { class: 'btn small', href: `/api/games/${id}/record`, download: `salpakan-${id}.txt` }, R.download)),
      h('details', { class: 'moves-box', open: true }, h('summary', {}, R.moves(rep.plies.length)), moves),
      analysis.el)));
  document.addEventListener('keydown', function key(e) {
    if (!document.body.contains(slider)) return document.removeEventListener('keydown', key);
    if (e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement) return;
    if (e.key === 'ArrowLeft') show(at - 1);
    if (e.key === 'ArrowRight') show(at + 1);
  });
  show(at);
}

/**
 * A replayed move in its game's own words, from the full position before it, naming only
 * the pieces the viewer ('full' or a seat) knew: a seat's view never says more than it saw.
 * @param {GameSpec} g @param {import('./record.js').ReplayPly} p
 * @param {import('./record.js').FullPosition} before @param {string} view
 */
function replayWords(g, p, before, view) {
  const R = T.replay;
  const who = seatName(p.seat);
  const name = (/** @type {import('./record.js').FullSquare|undefined} */ sq, /** @type {boolean} */ shown = false) =>
    (sq && (shown || knows(sq, view)) ? pieceName(g.name, sq.piece) : R.aPiece);
  const face = (/** @type {import('./record.js').FullSquare|undefined} */ sq) => (sq ? pieceName(g.name, sq.piece) : R.aPiece);
  if (p.token === 'end') return R.endChain(who);
  // Banqi: a flip and a tried face-down piece turn it up for everyone
  if (!p.to) return R.flipped(who, p.from ?? p.token, face(before[p.from ?? p.token]));
  const mover = before[p.from ?? ''], target = before[p.to ?? ''];
  const path = `${p.from}–${p.to}`;
  if (g.name === 'banqi') {
    if (target?.faceDown) return R.triedFaceDown(who, face(mover), path, face(target));
    return target ? R.captured(who, face(mover), path, face(target)) : R.moved(who, face(mover), path);
  }
  if (!p.outcome || !target) return R.moved(who, name(mover, p.shown?.mover), path);
  const m = name(mover, p.shown?.mover), d = name(target, p.shown?.target);
  const verb = g.name === 'generals' ? R.challenged : R.attacked;
  const res = p.outcome === 'win' ? R.won(m) : p.outcome === 'loss' ? R.won(d) : R.bothRemoved;
  return R.battle(who, m, path, verb, d, res);
}

