// Reading a full game record (docs/records.md) into positions, for the replay with every
// piece shown. Only the full record (published after the game) holds the setups or deal.

import { spec } from './games.js';

/**
 * A fully known square: the owner seat (Generals, Stratego) or the colour (Banqi) and piece.
 * `seen` lists the seats that know the piece's rank (Generals, Stratego): its owner, and the
 * other seat once the rules showed it (a Stratego attack; a Generals challenge under `reveal`).
 * @typedef {{owner: string, piece: string, faceDown?: boolean, seen?: string[]}} FullSquare
 * @typedef {Record<string, FullSquare>} FullPosition
 * @typedef {{token: string, from?: string, to?: string, note: string, seat: string, outcome?: 'win'|'loss'|'both', shown?: {mover: boolean, target: boolean}}} ReplayPly
 */

/**
 * @param {string} text
 * @returns {{tags: Record<string,string>, tokens: string[]}}
 */
export function parseRecord(text) {
  /** @type {Record<string,string>} */
  const tags = {};
  const lines = text.split('\n');
  let i = 0;
  for (; i < lines.length; i++) {
    const m = lines[i].match(/^\[(\w+) "((?:[^"\\]|\\.)*)"\]\s*$/);
    if (!m) {
      if (lines[i].trim() === '') continue;
      break;
    }
    tags[m[1]] = m[2].replace(/\\(.)/g, '$1');
  }
  const tokens = lines
    .slice(i)
    .join(' ')
    .split(/\s+/)
    .filter((t) => t && !/^\d+\.$/.test(t) && !/^(1-0|0-1|1\/2-1\/2|\*)$/.test(t));
  return { tags, tokens };
}

/** Squares between two on a line: `a1`–`a4` is 3. */
function steps(/** @type {string} */ a, /** @type {string} */ b) {
  return Math.abs(a.charCodeAt(0) - b.charCodeAt(0)) + Math.abs(Number(a.slice(1)) - Number(b.slice(1)));
}

/** "a1:FLG b1:PVT" → {a1: 'FLG', b1: 'PVT'} */
function placements(/** @type {string|undefined} */ s) {
  /** @type {Record<string,string>} */
  const out = {};
  for (const part of (s ?? '').split(/\s+/)) {
    const [sq, code] = part.split(':');
    if (sq && code) out[sq] = code;
  }
  return out;
}

/**
 * Every position of a game from its full record: positions[0] is the start, positions[i]
 * the position after ply i.
 * @param {string} text
 * @returns {{game: string, tags: Record<string,string>, positions: FullPosition[], plies: ReplayPly[]}}
 */
export function replayRecord(text) {
  const { tags, tokens } = parseRecord(text);
  const game = tags.Game ?? 'generals';
  const g = spec(game);
  /** @type {FullPosition} */
  let pos = {};
  if (game === 'banqi') {
    for (const [sq, code] of Object.entries(placements(tags.Deal))) pos[sq] = { owner: colourOf(code), piece: code, faceDown: true };
  } else {
    // Generals' open_flag shows each Flag to the opponent from the start
    const openFlag = game === 'generals' && /\bopen_flag=true\b/.test(tags.Options ?? '');
    for (const seat of g.seats) {
      const tag = seat[0].toUpperCase() + seat.slice(1) + 'Setup';
      for (const [sq, code] of Object.entries(placements(tags[tag]))) pos[sq] = { owner: seat, piece: code, seen: openFlag && code === 'FLG' ? [...g.seats] : [seat] };
    }
  }
  const positions = [pos];
  /** @type {ReplayPly[]} */
  const plies = [];
  // who moves: the first seat unless the options say otherwise; a Banqi chain keeps the seat
  let toMove = game === 'generals' && /first=black/.test(tags.Options ?? '') ? 1 : 0;
  /** @type {Record<string,string>} */
  const colours = {};
  // which ranks a challenge or an attack shows to both seats (docs/rules-*.md)
  const reveal = game === 'stratego' ? 'both' : (tags.Options ?? '').match(/\breveal=(\w+)/)?.[1] ?? 'none';
  for (const token of tokens) {
    // a Stratego rescue (Ultimate Lightning) follows: `+7@e4`
    const m = token.match(/^([a-z]\d+)(?:-([a-z]\d+))?(?:\{([^}]*)\})?(?:\+(\w+)@([a-z]\d+))?$/);
    const seat = g.seats[toMove];
    pos = { ...pos };
    let note = '';
    /** @type {ReplayPly} */
    const ply = { token, note, seat };
    if (token === 'end') {
      note = 'ends the capture chain';
    } else if (m && !m[2]) {
      // a Banqi flip
      const s = pos[m[1]];
      if (s) pos[m[1]] = { owner: s.owner, piece: s.piece };
      if (!colours[seat] && s) {
        colours[seat] = s.owner;
        colours[g.seats[1 - toMove]] = s.owner === 'red' ? 'black' : 'red';
      }
      ply.from = m[1];
      note = `flips ${m[1]}`;
    } else if (m) {
      const [, from, to, ann] = m;
      ply.from = from;
      ply.to = to;
      const mover = pos[from];
      const target = pos[to];
      if (game === 'banqi') {
        if (target?.faceDown) {
          // an attempt on a face-down piece: it is turned up, and taken when it is an enemy
          const turned = { owner: target.owner, piece: target.piece };
          if (mover && turned.owner !== mover.owner) {
            pos[to] = mover;
            delete pos[from];
          } else pos[to] = turned;
        } else {
          if (target) note = 'captures';
          pos[to] = mover;
          delete pos[from];
        }
      } else if (ann && target) {
        const sign = ann.match(/[<>=]/)?.[0];
        const shown = { mover: reveal === 'both' || (reveal === 'winner' && sign === '>'), target: reveal === 'both' || (reveal === 'winner' && sign === '<') };
        ply.shown = shown;
        const known = (/** @type {FullSquare} */ sq, /** @type {boolean} */ yes) => (yes && sq ? { ...sq, seen: [...g.seats] } : sq);
        if (sign === '>') {
          pos[to] = known(mover, shown.mover);
          delete pos[from];
        } else if (sign === '<') {
          pos[to] = known(target, shown.target);
          delete pos[from];
        } else {
          delete pos[from];
          delete pos[to];
        }
        ply.outcome = sign === '>' ? 'win' : sign === '<' ? 'loss' : 'both';
        // each game's own words: Generals pieces challenge, Stratego pieces attack
        note = game === 'generals'
          ? (sign === '>' ? 'challenger wins' : sign === '<' ? 'challenged piece wins' : 'both eliminated')
          : (sign === '>' ? 'attacker wins' : sign === '<' ? 'defender wins' : 'both removed');
      } else {
        // a Stratego Scout that moves more than one square shows what it is (the move says so)
        const long = game === 'stratego' && mover && steps(from, to) > 1;
        if (long) ply.shown = { mover: true, target: false };
        pos[to] = long ? { ...mover, seen: [...g.seats] } : mover;
        delete pos[from];
      }
      const [, , , , rescued, at] = m;
      if (rescued && at) {
        pos[at] = { owner: seat, piece: rescued };
        note = `${note ? note + '; ' : ''}rescues ${rescued} to ${at}`;
      }
    }
    ply.note = note;
    plies.push(ply);
    positions.push(pos);
    // (a Banqi capture chain keeps the seat; the record does not say so, so seat labels of
    // chained plies may be off by one; the positions stay exact)
    toMove = 1 - toMove;
  }
  return { game, tags, positions, plies };
}

/**
 * A replayed position as the board draws it: with every rank (`view` 'full') or as one seat
 * saw it then (its own pieces, and the other's only where the rules had shown them). Banqi's
 * face-down pieces stay face down in every view; what is face up is public.
 * @param {string} game @param {FullPosition} pos @param {string} view 'full' or a seat
 * @returns {Record<string, {code: string|null, side: string, owner?: string}>}
 */
export function viewOf(game, pos, view) {
  /** @type {Record<string, {code: string|null, side: string, owner?: string}>} */
  const out = {};
  for (const [s, v] of Object.entries(pos)) {
    if (game === 'banqi') out[s] = v.faceDown ? { code: null, side: '' } : { code: v.piece, side: v.owner };
    else out[s] = { code: knows(v, view) ? v.piece : null, side: v.owner, owner: v.owner };
  }
  return out;
}

/** Whether a viewer ('full' or a seat) knows a square's piece. */
export function knows(/** @type {FullSquare|undefined} */ v, /** @type {string} */ view) {
  if (!v) return false;
  if (v.faceDown) return false;
  return view === 'full' || v.owner === view || !!v.seen?.includes(view) || !v.seen;
}

/** Banqi colour of a piece code. */
export function colourOf(/** @type {string} */ code) {
  return code === code.toUpperCase() ? 'red' : 'black';
}
