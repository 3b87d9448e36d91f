// Battles a player can feel: a challenge, an attack or a capture is shown for a moment at its
// square (the two pieces meet, the loser goes), with one sentence that says what happened; and
// the end of a game gets an end screen over the board (who won and why).
//
// Nothing here knows more than the viewer: a piece is drawn and named only when it is the
// viewer's own, or when the viewer's view of the ply (or observation before it) carries its
// rank. Under Game of the Generals' official `reveal=none` an enemy piece stays a back.

import { h } from './dom.js';
import { T } from './i18n.js';
import { pieceElement, pieceName } from './pieces.js';
import { seatName, sideClass } from './games.js';
import { colourOf } from './record.js';
import { motionOn } from './settings.js';

/** @typedef {import('./games.js').GameSpec} GameSpec */

/**
 * @typedef {object} Fighter  one side of a battle, as the viewer knows it
 * @property {string|null} code   the piece, or null when the viewer may not know it
 * @property {string} side        colour class for drawing
 * @property {boolean} lost       removed by the battle
 */

/**
 * @typedef {object} Battle
 * @property {string} square    where it happened
 * @property {string} text      one sentence, for the announcement and the notice
 * @property {Fighter} attacker
 * @property {Fighter} defender
 */

/**
 * What a ply's battle meant for this viewer, or null when the ply was no battle.
 * @param {GameSpec} g
 * @param {any} v        the viewer's view of the ply (the `move` event's `view`)
 * @param {string|null} you   the viewer's seat (null: a spectator)
 * @param {any} before   the viewer's observation before the ply (its own pieces' ranks)
 * @param {Record<string,string>|null} colours   Banqi: seat → colour
 * @returns {Battle|null}
 */
export function battleOf(g, v, you, before, colours) {
  if (g.name === 'banqi') return banqiBattle(v);
  const c = v.challenge ?? v.attack;
  if (!c) return null;
  const other = g.seats[1 - g.seats.indexOf(v.seat)];
  const mine = v.seat === you;
  const theirs = !!you && !mine;
  // the ranks this viewer knows: what the view carries, and its own piece from its own board
  const ownDefender = theirs ? before?.board?.[v.to]?.piece ?? null : null;
  const ownAttacker = mine ? before?.board?.[v.from]?.piece ?? null : null;
  const attCode = c.attacker ?? v.piece ?? ownAttacker;
  const defCode = c.defender ?? ownDefender;
  const attLost = c.result !== 'attacker_wins';
  const defLost = c.result !== 'defender_wins';
  const attacker = { code: attCode, side: sideClass(g, v.seat, undefined), lost: attLost };
  const defender = { code: defCode, side: sideClass(g, other, undefined), lost: defLost };
  const text = g.name === 'generals'
    ? generalsText(g, c.result, mine, theirs, attCode, defCode, v)
    : strategoText(g, c.result, mine, theirs, attCode ?? '', defCode ?? '', v.seat, other);
  return { square: v.to, text, attacker, defender };
}

/** Game of the Generals in the arbiter's words: which piece was eliminated, never more. */
function generalsText(/** @type {GameSpec} */ g, /** @type {string} */ result, /** @type {boolean} */ mine, /** @type {boolean} */ theirs,
  /** @type {string|null} */ att, /** @type {string|null} */ def, /** @type {any} */ v) {
  const B = T.battle.generals;
  const name = (/** @type {string|null} */ code) => (code ? pieceName(g.name, code) : null);
  if (!mine && !theirs) {
    const lead = B.spectator(seatName(v.seat), v.to);
    const rest = result === 'attacker_wins' ? B.defenderEliminated : result === 'defender_wins' ? B.attackerEliminated : B.bothEliminated;
    return `${lead} ${rest}`;
  }
  const myCode = mine ? att : def;
  const enemyCode = mine ? def : att;
  if (result === 'both_eliminated') return myCode ? B.bothWith(/** @type {string} */ (name(myCode))) : B.bothEliminated;
  // which side lost: the viewer's piece, or the enemy's
  const iLost = (result === 'attacker_wins') !== mine;
  if (iLost) return myCode ? B.yourEliminated(/** @type {string} */ (name(myCode))) : B.yourPieceEliminated;
  if (enemyCode) return B.theirEliminated(/** @type {string} */ (name(enemyCode)));
  return mine ? B.theirPieceEliminated : B.attackerEliminated;
}

/** Stratego: both ranks are shown to everyone in an attack. */
function strategoText(/** @type {GameSpec} */ g, /** @type {string} */ result, /** @type {boolean} */ mine, /** @type {boolean} */ theirs,
  /** @type {string} */ att, /** @type {string} */ def, /** @type {string} */ attSeat, /** @type {string} */ defSeat) {
  const S = T.battle.stratego;
  const who = (/** @type {string} */ code, /** @type {boolean} */ own, /** @type {boolean} */ enemy, /** @type {string} */ seat) => {
    const n = pieceName(g.name, code);
    return own ? S.your(n) : enemy ? S.theirs(n) : S.seats(seatName(seat), n);
  };
  const a = who(att, mine, theirs, attSeat);
  const d = who(def, theirs, mine, defSeat);
  if (result === 'attacker_wins') return S.attackerWins(a, d);
  if (result === 'defender_wins') return S.defenderWins(a, d);
  return S.both(a, d);
}

/** Banqi: a capture, or an attack on a face-down piece that turned it up; all in the open. */
function banqiBattle(/** @type {any} */ v) {
  const B = T.battle.banqi;
  const to = String(v.move ?? '').split('-')[1];
  if (!to) return null;
  if (v.action === 'capture' && v.piece && v.captured) {
    return { square: to, text: B.capture(pieceName('banqi', v.piece), pieceName('banqi', v.captured)),
      attacker: { code: v.piece, side: colourOf(v.piece), lost: false }, defender: { code: v.captured, side: colourOf(v.captured), lost: true } };
  }
  if (v.action === 'attempt' && v.revealed) {
    const taken = !!v.captured;
    return { square: to, text: taken ? B.capture(pieceName('banqi', v.piece ?? v.revealed), pieceName('banqi', v.revealed)) : B.turnedUp(pieceName('banqi', v.revealed)),
      attacker: { code: v.piece ?? null, side: v.piece ? colourOf(v.piece) : '', lost: false }, defender: { code: v.revealed, side: colourOf(v.revealed), lost: taken } };
  }
  return null;
}

/**
 * The announcement at the square: the two pieces meet, the loser fades, the sentence stays a
 * moment. Drawn over `wrap` (the board's frame); removes itself. With reduced motion it
 * simply appears and goes.
 * @param {GameSpec} g @param {Battle} b @param {HTMLElement} wrap @param {HTMLElement} cell  the battle's square
 * @returns {HTMLElement}
 */
export function battlePop(g, b, wrap, cell) {
  const fighter = (/** @type {Fighter} */ f, /** @type {string} */ role) => {
    const el = pieceElement(g.name, f.code, f.side);
    el.classList.add('fighter', role);
    if (f.lost) el.classList.add('lost');
    return el;
  };
  const pop = h('div', { class: `battle-pop battle-${g.name}`, dataset: { square: b.square }, 'aria-hidden': 'true' },
    h('div', { class: 'clash' }, fighter(b.attacker, 'attacker'), h('span', { class: 'spark', 'aria-hidden': 'true' }), fighter(b.defender, 'defender')),
    h('p', { class: 'battle-text' }, b.text));
  place(pop, wrap, cell);
  if (!motionOn()) pop.classList.add('still');
  return pop;
}

/**
 * Put the announcement over its square, kept inside the window: once it is on the page (its
 * width known), it is shifted sideways by whatever would stick out past either side.
 */
export function place(/** @type {HTMLElement} */ pop, /** @type {HTMLElement} */ wrap, /** @type {HTMLElement} */ cell) {
  const w = wrap.getBoundingClientRect(), c = cell.getBoundingClientRect();
  const x = c.left - w.left + c.width / 2, y = c.top - w.top + c.height / 2;
  pop.style.setProperty('--x', `${Math.round(x)}px`);
  pop.style.setProperty('--y', `${Math.round(y)}px`);
  pop.classList.toggle('below', y < w.height / 3);
  let dx = 0;
  if (pop.isConnected) {
    const mid = c.left + c.width / 2, half = pop.offsetWidth / 2, margin = 4;
    const right = document.documentElement.clientWidth - margin;
    if (mid - half < margin) dx = margin - (mid - half);
    else if (mid + half > right) dx = right - (mid + half);
  }
  pop.style.setProperty('--dx', `${Math.floor(dx)}px`);
}

/**
 * The end screen over the board: who won and why, and whether every piece is now shown.
 * @param {object} o
 * @param {{winner: string|null, reason: string}} o.result
 * @param {string|null} o.you
 * @param {(seat: string) => string} o.name   a seat's player name
 * @param {[string, string]} o.seats
 * @param {boolean} o.revealed   the game shows every piece at its end
 * @param {() => void} o.close
 */
export function endScreen(o) {
  const E = T.end;
  const r = o.result;
  const winner = r.winner, loser = winner ? o.seats[1 - o.seats.indexOf(winner)] : null;
  const title = !winner ? E.draw : winner === o.you ? E.youWon : o.you ? E.youLost : E.won(o.name(winner));
  const why = /** @type {Record<string, (w: string, l: string) => string>} */ (E.why)[r.reason];
  const reason = why ? why(winner ? o.name(winner) : '', loser ? o.name(loser) : '') : E.otherReason(r.reason.replace(/_/g, ' '));
  const mood = !winner ? 'draw' : winner === o.you ? 'win' : o.you ? 'loss' : 'neutral';
  const box = h('section', { class: `end-screen ${mood}`, role: 'dialog', 'aria-labelledby': 'end-title', 'aria-describedby': 'end-why' },
    h('div', { class: 'end-card' },
      h('p', { class: 'end-kicker' }, E.title),
      h('h2', { id: 'end-title' }, title),
      h('p', { class: 'end-why', id: 'end-why', dataset: { reason: r.reason } }, reason),
      h('p', { class: 'end-reveal muted' }, o.revealed ? E.revealed : E.notRevealed),
      h('button', { class: 'btn primary', type: 'button', id: 'end-close', onclick: o.close }, E.showBoard)));
  return box;
}
