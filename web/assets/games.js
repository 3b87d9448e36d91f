// What the client knows about each game: board shape, seats, armies, setup areas, options.
// The server decides every rule; this is only what drawing the board and the forms needs.
// Names, labels and help texts are in the message catalogues (i18n/*.js: `games`).

import { T } from './i18n.js';
import { LAYOUT } from './layout.js';

/** @typedef {import('./pieces.js').GameName} GameName */

/**
 * @typedef {object} OptionSpec
 * @property {string} key
 * @property {'select'|'bool'|'number'} type
 * @property {string[]} [choices]  the values (their labels: optionText)
 * @property {string|boolean|number} default
 */

/**
 * @typedef {object} GameSpec
 * @property {GameName} name
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
    files: LAYOUT.generals.files,
    ranks: LAYOUT.generals.ranks,
    seats: LAYOUT.generals.seats,
    hasSetup: LAYOUT.generals.has_setup,
    order: LAYOUT.generals.order,
    armies: LAYOUT.generals.armies,
    lakes: LAYOUT.generals.lakes,
    options: [
      { key: 'army', type: 'select', choices: ['full', 'reduced'], default: 'full' },
      { key: 'flag_rule', type: 'select', choices: ['adjacent', 'one_turn', 'electronic'], default: 'adjacent' },
      { key: 'reveal', type: 'select', choices: ['none', 'winner', 'both'], default: 'none' },
      { key: 'first', type: 'select', choices: ['white', 'black'], default: 'white' },
      { key: 'open_flag', type: 'bool', default: false },
      { key: 'reveal_at_end', type: 'bool', default: true },
    ],
  },
  stratego: {
    name: 'stratego',
    files: LAYOUT.stratego.files,
    ranks: LAYOUT.stratego.ranks,
    seats: LAYOUT.stratego.seats,
    hasSetup: LAYOUT.stratego.has_setup,
    order: LAYOUT.stratego.order,
    armies: LAYOUT.stratego.armies,
    lakes: LAYOUT.stratego.lakes,
    options: [
      { key: 'army', type: 'select', choices: ['classic', 'barrage', 'duel', 'ultimate_lightning'], default: 'classic' },
      { key: 'scout_strike', type: 'bool', default: true },
      { key: 'chase_rule', type: 'bool', default: true },
      { key: 'two_square_limit', type: 'select', choices: ['3', '5', 'off'], default: '3' },
    ],
  },
  banqi: {
    name: 'banqi',
    files: LAYOUT.banqi.files,
    ranks: LAYOUT.banqi.ranks,
    seats: LAYOUT.banqi.seats,
    hasSetup: LAYOUT.banqi.has_setup,
    order: LAYOUT.banqi.order,
    armies: LAYOUT.banqi.armies,
    lakes: LAYOUT.banqi.lakes,
    options: [
      { key: 'ruleset', type: 'select', choices: ['taiwan', 'hongkong', 'mainland'], default: 'taiwan' },
      { key: 'capture_face_down', type: 'bool', default: false },
      { key: 'chain_captures', type: 'bool', default: false },
      { key: 'cannon_direct', type: 'bool', default: false },
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

/** A seat's name in the current language (White, Black, Red, Blue, First player, Second player). */
export function seatName(/** @type {string} */ seat) {
  return /** @type {Record<string, string>} */ (T.seats)[seat] ?? seat;
}

/** A colour's name in the current language (Banqi's red and black, the armies' colours). */
export function colourName(/** @type {string} */ colour) {
  return /** @type {Record<string, string>} */ (T.colours)[colour] ?? colour;
}

/** A game's name in the current language. */
export function gameTitle(/** @type {string} */ name) {
  return T.games[/** @type {GameName} */ (name)]?.title ?? name;
}

/**
 * An option's words in the current language: its label, help, and the label of each choice.
 * @param {GameName} game @param {string} key
 * @returns {{label: string, help: string, choices: Record<string, string>}}
 */
export function optionText(game, key) {
  const o = /** @type {Record<string, any>} */ (T.games[game].options)[key];
  return o ?? { label: key, help: '', choices: {} };
}

/** A short summary of a game's options that differ from the defaults. */
export function optionSummary(/** @type {GameSpec} */ g, /** @type {Record<string, any>} */ options) {
  const parts = [];
  for (const o of g.options) {
    const v = options?.[o.key];
    if (v == null || String(v) === String(o.default)) continue;
    const t = optionText(g.name, o.key);
    if (o.type === 'bool') parts.push(T.games.switchSummary(t.label, v === true || v === 'true'));
    else parts.push(t.choices[String(v)] ?? T.games.valueSummary(t.label, String(v)));
  }
  return parts.join(' · ');
}
