// What the rules pages (/rules/generals, /rules/stratego, /rules/banqi) draw besides words:
// the piece counts, the hierarchy's ladders and exceptions as piece codes. Every word of the
// pages is in the message catalogues (i18n/*.js: `rules`), written for a newcomer from
// docs/rules-generals.md, docs/rules-stratego.md and docs/rules-banqi.md; the server is the
// judge of every rule, these pages only explain them.

/**
 * @typedef {object} RulesData
 * @property {Record<string, number>} counts   pieces of each kind per player (table order)
 * @property {string[][]} ladders              pieces strongest first: each takes the ones after it (captions: catalogue `ladders`)
 * @property {{a: string, b: string}[]} beats  the exceptions: a takes b (why: catalogue `beats`, same order)
 */

/** @type {Record<'generals'|'stratego'|'banqi', RulesData>} */
export const RULES_DATA = {
  generals: {
    counts: { '5G': 1, '4G': 1, '3G': 1, '2G': 1, '1G': 1, COL: 1, LTC: 1, MAJ: 1, CPT: 1, '1LT': 1, '2LT': 1, SGT: 1, PVT: 6, SPY: 2, FLG: 1 },
    ladders: [['5G', '4G', '3G', '2G', '1G', 'COL', 'LTC', 'MAJ', 'CPT', '1LT', '2LT', 'SGT', 'PVT']],
    beats: [{ a: 'SPY', b: '5G' }, { a: 'PVT', b: 'SPY' }, { a: 'PVT', b: 'FLG' }, { a: 'MAJ', b: 'MAJ' }],
  },
  stratego: {
    counts: { '10': 1, '9': 1, '8': 2, '7': 3, '6': 4, '5': 4, '4': 4, '3': 5, '2': 8, S: 1, B: 6, F: 1 },
    ladders: [['10', '9', '8', '7', '6', '5', '4', '3', '2', 'S']],
    beats: [{ a: 'S', b: '10' }, { a: '3', b: 'B' }, { a: 'B', b: '10' }, { a: '2', b: 'F' }],
  },
  banqi: {
    counts: { K: 1, G: 2, M: 2, R: 2, N: 2, C: 2, P: 5 },
    ladders: [['K', 'G', 'M', 'R', 'N', 'P'], ['K', 'R', 'N', 'C', 'G', 'M', 'P'], ['K', 'G', 'M', 'R', 'N', 'C', 'P']],
    beats: [{ a: 'P', b: 'k' }, { a: 'C', b: 'k' }, { a: 'N', b: 'c' }],
  },
};

/** The symbol each cell of the Generals challenge table shows (its words: catalogue `matrixCells`). */
export const MATRIX_SYMBOLS = { A: '✓', D: '✗', B: '=' };

/** The sections of every rules page, in order (the options section follows). */
export const SECTION_IDS = /** @type {const} */ (['aim', 'board', 'pieces', 'challenge', 'end']);
