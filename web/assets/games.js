// What the client knows about each game: board shape, seats, armies, setup areas, options.
// The server decides every rule; this is only what drawing the board and the forms needs.

import { LAYOUT } from './layout.js';

/** @typedef {import('./pieces.js').GameName} GameName */

/**
 * @typedef {object} OptionSpec
 * @property {string} key
 * @property {string} label
 * @property {'select'|'bool'|'number'} type
 * @property {[string, string][]} [choices]  value, label
 * @property {string|boolean|number} default
 * @property {string} [help]
 */

/**
 * @typedef {object} GameSpec
 * @property {GameName} name
 * @property {string} title
 * @property {number} files
 * @property {number} ranks
 * @property {[string, string]} seats
 * @property {boolean} hasSetup
 * @property {string[]} order         piece codes strongest first (tray order)
 * @property {Record<string, Record<string, number>>} armies
 * @property {string[]} lakes
 * @property {OptionSpec[]} options
 */

/** @type {Record<GameName, GameSpec>} */
export const GAMES = {
  generals: {
    name: 'generals',
    title: 'Game of the Generals',
    files: LAYOUT.generals.files,
    ranks: LAYOUT.generals.ranks,
    seats: LAYOUT.generals.seats,
    hasSetup: LAYOUT.generals.has_setup,
    order: LAYOUT.generals.order,
    armies: LAYOUT.generals.armies,
    lakes: LAYOUT.generals.lakes,
    options: [
      { key: 'army', label: 'Army', type: 'select', choices: [['full', 'Full (21 pieces)'], ['reduced', 'Reduced (11 pieces)']], default: 'full', help: 'How many pieces each player sets up: the reduced army makes a shorter game.' },
      { key: 'flag_rule', label: 'When a Flag reaches the far row', help: 'A Flag that walks to the other side wins, unless the opponent can still take it.', type: 'select', choices: [['adjacent', 'Wins unless an enemy is beside it'], ['one_turn', 'Opponent always gets one turn'], ['electronic', 'Wins at once']], default: 'adjacent' },
      { key: 'reveal', label: 'What a challenge shows', help: 'Officially the arbiter only says which piece was removed, never the ranks.', type: 'select', choices: [['none', 'Nothing (official)'], ['winner', 'The winner’s rank'], ['both', 'Both ranks']], default: 'none' },
      { key: 'first', label: 'Who moves first', type: 'select', choices: [['white', 'White'], ['black', 'Black']], default: 'white', help: 'The colour that makes the first move of the game.' },
      { key: 'open_flag', label: 'Show both Flags', type: 'bool', default: false, help: 'Each player can see where the other’s Flag stands.' },
      { key: 'reveal_at_end', label: 'Show all pieces at the end', type: 'bool', default: true, help: 'When the game is over, both armies are turned face up.' },
    ],
  },
  stratego: {
    name: 'stratego',
    title: 'Stratego',
    files: LAYOUT.stratego.files,
    ranks: LAYOUT.stratego.ranks,
    seats: LAYOUT.stratego.seats,
    hasSetup: LAYOUT.stratego.has_setup,
    order: LAYOUT.stratego.order,
    armies: LAYOUT.stratego.armies,
    lakes: LAYOUT.stratego.lakes,
    options: [
      { key: 'army', label: 'Army', type: 'select', choices: [['classic', 'Classic (40 pieces)'], ['barrage', 'Barrage (8 pieces)'], ['duel', 'Duel (10 pieces)'], ['ultimate_lightning', 'Ultimate Lightning (20 pieces)']], default: 'classic', help: 'Classic is the full game; Barrage and Duel are quick games with few pieces. Ultimate Lightning (Gravon): 20 pieces; equal ranks: the attacker wins; a Bomb goes with the piece it stops; Scouts defuse Bombs; Captains move two squares; reaching the enemy back rank rescues a captured piece (twice a game).' },
      { key: 'scout_strike', label: 'Scouts may run and attack', type: 'bool', default: true, help: 'A Scout may run several squares in a line and attack at the end of its run.' },
      { key: 'chase_rule', label: 'No endless chasing', type: 'bool', default: true, help: 'A piece may not chase the same enemy piece round and round for ever.' },
      { key: 'two_square_limit', label: 'Limit on moving back and forth', type: 'select', choices: [['3', 'At most three times'], ['5', 'At most five times'], ['off', 'No limit']], default: '3', help: 'How often a piece may move back and forth between the same two squares.' },
    ],
  },
  banqi: {
    name: 'banqi',
    title: 'Banqi',
    files: LAYOUT.banqi.files,
    ranks: LAYOUT.banqi.ranks,
    seats: LAYOUT.banqi.seats,
    hasSetup: LAYOUT.banqi.has_setup,
    order: LAYOUT.banqi.order,
    armies: LAYOUT.banqi.armies,
    lakes: LAYOUT.banqi.lakes,
    options: [
      { key: 'ruleset', label: 'Rules', type: 'select', choices: [['taiwan', 'Taiwan (cannons jump)'], ['hongkong', 'Hong Kong'], ['mainland', 'Mainland']], default: 'taiwan', help: 'Regional rule sets differ in how cannons capture and which pieces may take which.' },
      { key: 'capture_face_down', label: 'Capture face-down pieces', type: 'bool', default: false, help: 'A piece may attack a piece that is still face down, turning it up.' },
      { key: 'chain_captures', label: 'Several captures in one turn', type: 'bool', default: false, help: 'After a capture the same piece may capture again, or stop.' },
      { key: 'cannon_direct', label: 'Cannons also capture next door', type: 'bool', default: false, help: 'A cannon may also take a piece beside it, without jumping.' },
    ],
  },
};

export const GAME_NAMES = /** @type {GameName[]} */ (['generals', 'stratego', 'banqi']);

/** @param {string} name */
export function spec(name) {
  const g = GAMES[/** @type {GameName} */ (name)];
  if (!g) throw new Error(`unknown game ${name}`);
  return g;
}

/** Square name from 0-based file and rank. */
export function sq(/** @type {number} */ file, /** @type {number} */ rank) {
  return String.fromCharCode(97 + file) + (rank + 1);
}

/** 0-based [file, rank] of a square name. */
export function parseSq(/** @type {string} */ name) {
  return [name.charCodeAt(0) - 97, Number(name.slice(1)) - 1];
}

/** The ranks (0-based) where a seat sets up. */
export function setupRanks(/** @type {GameSpec} */ g, /** @type {number} */ seatIndex) {
  const depth = g.name === 'generals' ? 3 : 4;
  const out = [];
  for (let i = 0; i < depth; i++) out.push(seatIndex === 0 ? i : g.ranks - 1 - i);
  return out;
}

/** The army counts for options (custom counts "FLG:1,PVT:2" accepted too). */
export function armyCounts(/** @type {GameSpec} */ g, /** @type {Record<string, any>} */ options) {
  const a = String(options?.army ?? Object.keys(g.armies)[0] ?? '');
  if (g.armies[a]) return { ...g.armies[a] };
  /** @type {Record<string, number>} */
  const counts = {};
  for (const part of a.split(',')) {
    const [code, n] = part.split(':');
    if (code && n) counts[code.trim()] = Number(n);
  }
  return counts;
}

/** The colour class of a seat's army. Banqi colours come from the observation. */
export function sideClass(/** @type {GameSpec} */ g, /** @type {string} */ seat, /** @type {Record<string,string>|undefined} */ colours) {
  if (g.name === 'banqi') return colours?.[seat] ?? '';
  return seat;
}

/** Capitalised seat or colour name. */
export function cap(/** @type {string} */ s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/** A short summary of a game's options that differ from the defaults. */
export function optionSummary(/** @type {GameSpec} */ g, /** @type {Record<string, any>} */ options) {
  const parts = [];
  for (const o of g.options) {
    const v = options?.[o.key];
    if (v == null || String(v) === String(o.default)) continue;
    if (o.type === 'bool') parts.push(`${o.label}: ${v === true || v === 'true' ? 'on' : 'off'}`);
    else parts.push(o.choices?.find((c) => c[0] === String(v))?.[1] ?? `${o.label}: ${v}`);
  }
  return parts.join(' · ');
}
