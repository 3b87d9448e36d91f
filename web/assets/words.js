// Sentences several screens share: a game's label, a time control, a result, a ply in the
// move list. Every word comes from the current message catalogue.

import { T } from './i18n.js';
import { spec, gameTitle, optionSummary, seatName } from './games.js';
import { pieceName } from './pieces.js';

/** @typedef {import('./games.js').GameSpec} GameSpec */

/** A game's name with the options that differ from the usual ones. */
export function gameLabel(/** @type {string} */ game, /** @type {Record<string,any>} */ options) {
  const g = spec(game);
  const extra = optionSummary(g, options ?? {});
  return extra ? `${gameTitle(game)} · ${extra}` : gameTitle(game);
}

/** A time control: "10 min + 5 s", or "No clock". */
export function clockLabel(/** @type {{base:number,inc:number}|null|undefined} */ c) {
  if (!c) return T.clock.none;
  const min = c.base / 60;
  return T.clock.control(Number.isInteger(min) ? min : Number(min.toFixed(1)), c.inc);
}

/** Why a game ended, as a phrase after "… won" ('' for a reason the client does not know). */
export function reasonText(/** @type {string|undefined|null} */ reason) {
  return reason ? /** @type {Record<string, string>} */ (T.reasons)[reason] ?? '' : '';
}

/** "White won" or "Draw". */
export function resultShort(/** @type {{winner: string|null, reason: string}} */ r) {
  return r.winner ? T.replay.seatWon(seatName(r.winner)) : T.game.draw;
}

/** A line describing a ply for the move list and the notice. */
export function plyText(/** @type {GameSpec} */ g, /** @type {any} */ v, /** @type {string|null} */ you) {
  const P = T.plies;
  const who = v.seat === you ? P.you : seatName(v.seat);
  if (g.name === 'banqi') {
    const name = (/** @type {string|undefined} */ c) => (c ? pieceName('banqi', c) : '');
    if (v.action === 'flip') return P.flipped(who, v.move, name(v.revealed));
    if (v.action === 'capture') return P.captured(who, name(v.piece), v.move, name(v.captured));
    if (v.action === 'attempt') return P.tried(who, v.move, name(v.revealed));
    if (v.action === 'end_chain') return P.endChain(who);
    return P.moved(who, name(v.piece), v.move);
  }
  const move = `${v.from}–${v.to}`;
  const c = v.challenge ?? v.attack;
  const rescue = v.rescue ? P.rescued(pieceName(g.name, v.rescue.piece), v.rescue.square) : '';
  if (!c) return P.moved(who, v.piece ? pieceName(g.name, v.piece) : '', move) + rescue;
  const att = c.attacker ?? v.piece, def = c.defender;
  const an = att ? pieceName(g.name, att) : P.aPiece, dn = def ? pieceName(g.name, def) : P.aPiece;
  const verb = g.name === 'generals' ? P.challenged : P.attacked;
  const res = c.result === 'attacker_wins' ? P.won(an) : c.result === 'defender_wins' ? P.won(dn) : P.bothRemoved;
  return P.battle(who, move, an, verb, dn, res) + rescue;
}
