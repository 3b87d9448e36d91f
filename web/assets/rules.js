// The rules pages: /rules/generals, /rules/stratego, /rules/banqi. Words come from the
// message catalogue (T.rules); the diagrams are drawn with the game's own piece art.

import { h } from './dom.js';
import { pieceElement, plainPieceName } from './pieces.js';
import { GAMES, GAME_NAMES, spec, sq, setupRanks, gameTitle, optionText } from './games.js';
import { RULES_DATA, MATRIX_SYMBOLS, SECTION_IDS } from './rules-content.js';
import { T } from './i18n.js';

/** @typedef {import('./pieces.js').GameName} GameName */

/** Whether a path names a rules page: the game's name, or null. */
export function rulesGame(/** @type {string} */ path) {
  const m = path.match(/^\/rules\/(generals|stratego|banqi)\/?$/);
  return m ? /** @type {GameName} */ (m[1]) : null;
}

/** The colour class of a piece code in the diagrams (Banqi: upper case red). */
function sideOf(/** @type {GameName} */ game, /** @type {string} */ code, /** @type {number} */ seat = 0) {
  if (game === 'banqi') return code === code.toUpperCase() ? 'red' : 'black';
  return GAMES[game].seats[seat];
}

/** The name of a piece without Banqi's colour word. */
function plainName(/** @type {GameName} */ game, /** @type {string} */ code) {
  return plainPieceName(game, code);
}

/** A piece icon with its name for screen readers. */
function icon(/** @type {GameName} */ game, /** @type {string|null} */ code, /** @type {string} */ side) {
  const el = pieceElement(game, code, side);
  el.classList.add('rules-piece');
  return el;
}

/** Which pieces the board diagram shows face up, by square. */
const BOARD_SAMPLES = /** @type {Record<GameName, Record<string, string>>} */ ({
  generals: { e1: 'FLG', c2: '5G', g3: 'SPY', d2: 'PVT' },
  stratego: { e1: 'F', d1: 'B', f1: 'B', e2: 'B', c4: '2', h3: '10', b2: 'S', i4: '3' },
  banqi: { b3: 'R', c6: 'n', a7: 'C' },
});

/** The board: setup areas shaded, lakes, a few pieces; an image for screen readers. */
function boardDiagram(/** @type {GameName} */ game) {
  const g = spec(game);
  const t = T.rules[game];
  const samples = BOARD_SAMPLES[game];
  const areas = g.hasSetup ? [setupRanks(g, 0), setupRanks(g, 1)] : [[], []];
  const grid = h('div', { class: `rules-board rules-board-${game}`, role: 'img', 'aria-label': t.boardCaption });
  // through the CSSOM, which a Content-Security-Policy without 'unsafe-inline' styles allows
  grid.style.setProperty('--files', String(g.files));
  grid.style.setProperty('--ranks', String(g.ranks));
  for (let r = g.ranks - 1; r >= 0; r--) {
    for (let f = 0; f < g.files; f++) {
      const name = sq(f, r);
      const seat = areas[0].includes(r) ? 0 : areas[1].includes(r) ? 1 : -1;
      const cell = h('span', { class: `cell${(f + r) % 2 ? ' light' : ' dark'}${g.lakes.includes(name) ? ' lake' : ''}${seat >= 0 ? ` area area-${g.seats[seat === 0 ? 0 : 1]}` : ''}` });
      if (f === 0) cell.append(h('span', { class: 'coord rank-label', 'aria-hidden': 'true' }, String(r + 1)));
      if (r === 0) cell.append(h('span', { class: 'coord file-label', 'aria-hidden': 'true' }, String.fromCharCode(97 + f)));
      const code = samples[name];
      if (game === 'banqi') cell.append(code ? icon(game, code, sideOf(game, code)) : icon(game, null, ''));
      else if (code) cell.append(icon(game, code, g.seats[0]));
      else if (seat === 1) cell.append(icon(game, null, g.seats[1]));
      grid.append(cell);
    }
  }
  return h('figure', { class: 'rules-figure' }, grid, h('figcaption', {}, t.boardCaption));
}

/** The pieces table: icon, name, how many, what it does. */
function piecesTable(/** @type {GameName} */ game) {
  const C = T.rules.common;
  const counts = RULES_DATA[game].counts;
  const notes = /** @type {Record<string, string>} */ (T.rules[game].notes);
  return h('table', { class: 'rules-table' },
    h('caption', {}, C.piecesTable),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, C.colPiece), h('th', { scope: 'col' }, C.colCount), h('th', { scope: 'col' }, C.colNotes))),
    h('tbody', {}, GAMES[game].order.filter((code) => counts[code]).map((code) => h('tr', { dataset: { piece: code } },
      h('th', { scope: 'row' }, h('span', { class: 'piece-cell' }, icon(game, code, sideOf(game, code)), h('span', {}, plainName(game, code)))),
      h('td', { class: 'num' }, String(counts[code])),
      h('td', {}, notes[code] ?? '')))));
}

/** The hierarchy: each ladder as a row of icons, strongest first, then the exceptions. */
function hierarchy(/** @type {GameName} */ game) {
  const t = T.rules[game];
  const data = RULES_DATA[game];
  const ladders = data.ladders.map((order, i) => h('figure', { class: 'rules-figure ladder-figure' },
    h('figcaption', {}, t.ladders[i]),
    h('ol', { class: 'ladder', 'aria-label': t.ladders[i] },
      order.map((code) => h('li', {}, icon(game, code, sideOf(game, code)), h('span', { class: 'ladder-name' }, plainName(game, code)))))));
  const beats = h('figure', { class: 'rules-figure beats-figure' },
    h('figcaption', {}, t.beatsCaption),
    h('ul', { class: 'beats' }, data.beats.map((b, i) => h('li', {},
      h('span', { class: 'beat-pair', 'aria-hidden': 'true' },
        icon(game, b.a, sideOf(game, b.a, 0)), h('span', { class: 'beat-arrow' }, '›'), icon(game, b.b, sideOf(game, b.b, 1))),
      h('span', {}, h('span', { class: 'sr-only' }, `${plainName(game, b.a)} ${T.rules.common.takes} ${plainName(game, b.b)}: `), t.beats[i])))));
  return h('div', { class: 'hierarchy' }, ...ladders, beats, game === 'generals' ? generalsMatrix() : null);
}

/**
 * The outcome of a Game of the Generals challenge, as docs/rules-generals.md states it:
 * `A` the challenger wins, `D` the challenged piece wins, `B` both are eliminated.
 * (The arbiter on the server decides real games; the browser test checks this table against
 * the engine's own matrix in crates/engine/tests/generals.rs.)
 */
export function generalsDuel(/** @type {string} */ a, /** @type {string} */ d) {
  if (a === 'FLG') return d === 'FLG' ? 'A' : 'D';
  if (d === 'FLG') return 'A';
  if (a === d) return 'B';
  if (a === 'SPY') return d === 'PVT' ? 'D' : 'A';
  if (d === 'SPY') return a === 'PVT' ? 'A' : 'D';
  const order = GAMES.generals.order;
  return order.indexOf(a) < order.indexOf(d) ? 'A' : 'D';
}

/** The whole 15 × 15 challenge table of the Game of the Generals, folded away under a summary. */
function generalsMatrix() {
  const order = GAMES.generals.order;
  const C = T.rules.common;
  const cells = C.matrixCells;
  const head = h('tr', {}, h('td', {}), order.map((code) => h('th', { scope: 'col', title: plainName('generals', code) },
    icon('generals', code, 'black'), h('span', { class: 'sr-only' }, plainName('generals', code)))));
  const rows = order.map((a) => h('tr', { dataset: { attacker: a } },
    h('th', { scope: 'row', title: plainName('generals', a) }, icon('generals', a, 'white'), h('span', { class: 'sr-only' }, plainName('generals', a))),
    order.map((d) => {
      const r = /** @type {'A'|'D'|'B'} */ (generalsDuel(a, d));
      return h('td', { class: `duel duel-${r}`, dataset: { duel: r } }, h('span', { 'aria-hidden': 'true' }, MATRIX_SYMBOLS[r]), h('span', { class: 'sr-only' }, cells[r]));
    })));
  return h('details', { class: 'matrix-box' },
    h('summary', {}, C.matrixSummary),
    h('div', { class: 'matrix-scroll' },
      h('table', { class: 'matrix' }, h('caption', {}, C.matrixCaption), h('thead', {}, head), h('tbody', {}, rows))),
    h('p', { class: 'muted small' }, C.matrixLegend));
}

/** The options, each with its own anchor (#opt-KEY) for the lobby's help links. */
function optionsSection(/** @type {GameName} */ game) {
  const t = T.rules[game];
  const C = T.rules.common;
  const g = spec(game);
  const explained = /** @type {Record<string, string>} */ (t.options);
  return h('section', { class: 'card rules-section', id: 'options', 'aria-labelledby': 'options-h' },
    h('h2', { id: 'options-h' }, C.sections.options),
    h('p', {}, t.optionsIntro),
    h('dl', { class: 'rules-options' }, g.options.flatMap((o) => {
      const words = optionText(game, o.key);
      const def = o.type === 'bool' ? null : words.choices[String(o.default)];
      return [
        h('dt', { id: `opt-${o.key}` }, words.label),
        h('dd', {}, explained[o.key] ?? words.help, def ? h('span', { class: 'muted' }, ` ${C.optionDefault}: ${def}.`) : null),
      ];
    })));
}

/** The whole rules page of one game. */
export function rulesPage(/** @type {GameName} */ game) {
  const t = T.rules[game];
  const C = T.rules.common;
  const heading = (/** @type {typeof SECTION_IDS[number]} */ id) => (id === 'challenge' ? t.headings.challenge : C.sections[id]);
  const sections = SECTION_IDS.map((id) => {
    const paras = id === 'end' ? [] : t[id];
    const list = id === 'challenge' ? t.challengeList : id === 'end' ? t.endList : null;
    /** @type {HTMLElement[]} */
    const body = [h('h2', { id: `${id}-h` }, heading(id)), ...paras.map((p) => h('p', {}, p))];
    if (list) body.push(h('ul', {}, list.map((x) => h('li', {}, x))));
    if (id === 'board') body.push(boardDiagram(game));
    if (id === 'pieces') body.push(piecesTable(game), hierarchy(game));
    return h('section', { class: 'card rules-section', id, 'aria-labelledby': `${id}-h` }, ...body);
  });
  const toc = h('nav', { class: 'card rules-toc', 'aria-label': C.contents },
    h('h2', {}, C.contents),
    h('ul', {}, [...SECTION_IDS.map((id) => [id, heading(id)]), ['options', C.sections.options]].map(([id, text]) => h('li', {}, h('a', { href: `#${id}` }, text)))));
  const others = h('nav', { class: 'card rules-others', 'aria-label': C.otherGames },
    h('h2', {}, C.otherGames),
    h('ul', {}, GAME_NAMES.filter((n) => n !== game).map((n) => h('li', {}, h('a', { href: `/rules/${n}`, 'data-link': true }, gameTitle(n))))));
  return h('article', { class: `rules rules-${game}`, dataset: { rules: game } },
    h('header', { class: 'rules-head' }, h('h1', {}, C.heading(gameTitle(game))), h('p', { class: 'lead' }, t.lead),
      h('a', { class: 'btn primary', href: `/?game=${game}`, 'data-link': true }, C.playCta)),
    toc, ...sections, optionsSection(game), others);
}

/** The document title of a rules page. */
export function rulesTitle(/** @type {GameName} */ game) {
  return T.rules.common.pageTitle(gameTitle(game));
}
