// Piece art: original SVG insignia for the three games, drawn from simple shapes.
//
// Every piece is an SVG <symbol> in one sprite (added to the page once); a board square shows
// a piece with <svg><use href="#id"/></svg>. Colours come from CSS custom properties on the
// piece element (--tile, --ink, --edge), so one symbol serves both armies.

import { T } from './i18n.js';

/** @typedef {'generals'|'stratego'|'banqi'} GameName */

const NS = 'http://www.w3.org/2000/svg';

/** A five-pointed star centred on (x, y) with outer radius r. */
function star(x, y, r) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const rad = i % 2 === 0 ? r : r * 0.42;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    pts.push(`${(x + rad * Math.cos(a)).toFixed(2)},${(y + rad * Math.sin(a)).toFixed(2)}`);
  }
  return `<polygon points="${pts.join(' ')}" class="gold"/>`;
}

/** A sun (disc with eight rays), the field-officer emblem. */
function sun(x, y, r) {
  let rays = '';
  for (let i = 0; i < 8; i++) {
    const a = (i * Math.PI) / 4;
    const x1 = x + r * 0.62 * Math.cos(a), y1 = y + r * 0.62 * Math.sin(a);
    const x2 = x + r * Math.cos(a), y2 = y + r * Math.sin(a);
    rays += `<line x1="${x1.toFixed(2)}" y1="${y1.toFixed(2)}" x2="${x2.toFixed(2)}" y2="${y2.toFixed(2)}" class="gold-line"/>`;
  }
  return `${rays}<circle cx="${x}" cy="${y}" r="${(r * 0.45).toFixed(2)}" class="gold"/>`;
}

/** An upward triangle, the company-officer emblem. */
function tri(x, y, r) {
  return `<polygon points="${x},${y - r} ${x + r * 0.95},${y + r * 0.7} ${x - r * 0.95},${y + r * 0.7}" class="gold"/>`;
}

/** A chevron (point up) centred at (x, y). */
function chevron(x, y, w) {
  return `<polyline points="${x - w},${y + w * 0.55} ${x},${y - w * 0.2} ${x + w},${y + w * 0.55}" class="stripe"/>`;
}

/** Evenly spread n copies of a shape along a row. */
function row(n, y, gap, draw) {
  let out = '';
  const start = 50 - ((n - 1) * gap) / 2;
  for (let i = 0; i < n; i++) out += draw(start + i * gap, y);
  return out;
}

const FLAG_SHAPE =
  '<line x1="36" y1="22" x2="36" y2="72" class="pole"/>' +
  '<path d="M37 24 C50 18 58 32 70 26 L70 48 C58 54 50 40 37 46 Z" class="banner"/>';

const SPY_SHAPE =
  // a hat brim and crown over two watchful eyes
  '<path d="M28 40 L72 40 L64 36 L60 22 L40 22 L36 36 Z" class="ink-fill"/>' +
  '<ellipse cx="41" cy="52" rx="8" ry="5" class="eye"/><ellipse cx="59" cy="52" rx="8" ry="5" class="eye"/>' +
  '<circle cx="42" cy="52" r="2.6" class="ink-fill"/><circle cx="60" cy="52" r="2.6" class="ink-fill"/>';

/** Game of the Generals: code → [code, insignia] (names are in the catalogues: pieces.generals). */
const GENERALS = {
  '5G': ['5G', star(50, 30, 9) + row(4, 48, 19, (x, y) => star(x, y, 8.5))],
  '4G': ['4G', row(2, 31, 20, (x, y) => star(x, y, 9)) + row(2, 50, 20, (x, y) => star(x, y, 9))],
  '3G': ['3G', star(50, 29, 9) + row(2, 48, 22, (x, y) => star(x, y, 9))],
  '2G': ['2G', row(2, 40, 24, (x, y) => star(x, y, 10))],
  '1G': ['1G', star(50, 40, 13)],
  COL: ['COL', row(3, 40, 22, (x, y) => sun(x, y, 10))],
  LTC: ['LTC', row(2, 40, 24, (x, y) => sun(x, y, 11))],
  MAJ: ['MAJ', sun(50, 40, 14)],
  CPT: ['CPT', row(3, 42, 22, (x, y) => tri(x, y, 9))],
  '1LT': ['1LT', row(2, 42, 24, (x, y) => tri(x, y, 10))],
  '2LT': ['2LT', tri(50, 42, 12)],
  SGT: ['SGT', chevron(50, 28, 16) + chevron(50, 40, 16) + chevron(50, 52, 16)],
  PVT: ['PVT', chevron(50, 40, 16)],
  SPY: ['SPY', SPY_SHAPE],
  FLG: ['FLG', FLAG_SHAPE],
};

const BOMB_SHAPE =
  '<circle cx="48" cy="50" r="14" class="ink-fill"/>' +
  '<path d="M56 38 Q62 28 70 30" class="fuse"/><circle cx="71" cy="29" r="3" class="spark"/>';

const SMALL_ICON = {
  '10': '<path d="M38 22 L42 14 L46 20 L50 12 L54 20 L58 14 L62 22 Z" class="gold"/>',
  '9': star(50, 17, 6),
  '3': '<path d="M40 14 Q50 8 60 14" class="stroke"/><line x1="50" y1="11" x2="50" y2="24" class="stroke"/>',
  '2': '<path d="M38 18 L58 18 M52 12 L60 18 L52 24" class="stroke"/>',
};

/** Stratego: code → [code, art] (names are in the catalogues: pieces.stratego). */
const STRATEGO = {};
for (const code of ['10', '9', '8', '7', '6', '5', '4', '3', '2']) {
  STRATEGO[code] = [
    code,
    (SMALL_ICON[code] ?? '') +
      `<text x="50" y="${SMALL_ICON[code] ? 64 : 60}" class="num${code.length > 1 ? ' wide' : ''}">${code}</text>`,
  ];
}
STRATEGO.S = ['S', SPY_SHAPE];
STRATEGO.B = ['B', BOMB_SHAPE];
STRATEGO.F = ['F', FLAG_SHAPE];

/** Banqi: code → [code, character] (the pieces themselves, drawn in every language). Upper
 * case red, lower case black. */
const BANQI = {
  K: ['K', '帥'], G: ['G', '仕'], M: ['M', '相'], R: ['R', '俥'],
  N: ['N', '傌'], C: ['C', '炮'], P: ['P', '兵'],
  k: ['k', '將'], g: ['g', '士'], m: ['m', '象'], r: ['r', '車'],
  n: ['n', '馬'], c: ['c', '包'], p: ['p', '卒'],
};

/** Latin letters for Banqi pieces, where the browser has no font for the characters. */
const BANQI_LATIN = { k: 'G', g: 'A', m: 'E', r: 'R', n: 'H', c: 'C', p: 'S' };

/** Fonts for the Banqi characters, Traditional first; the generic family last lets the browser
 * fall back to any installed font that has them. */
const HANZI_FONTS = "'Noto Serif CJK TC', 'Noto Serif CJK SC', 'Noto Sans CJK TC', 'Noto Sans CJK SC', 'Songti TC', 'PMingLiU', 'SimSun', 'WenQuanYi Micro Hei', serif";

/**
 * Whether the browser can draw Chinese characters (else tofu boxes would show). Two different
 * characters are drawn: with no font for them both come out as the same missing-glyph box (or
 * nothing at all); with a font they differ.
 */
function canDrawHanzi() {
  try {
    const canvas = document.createElement('canvas');
    canvas.width = 48;
    canvas.height = 48;
    const c = canvas.getContext('2d', { willReadFrequently: true });
    if (!c) return true;
    c.font = `40px ${HANZI_FONTS}`;
    c.textBaseline = 'middle';
    const draw = (/** @type {string} */ t) => {
      c.clearRect(0, 0, 48, 48);
      c.fillText(t, 4, 24);
      return c.getImageData(0, 0, 48, 48).data;
    };
    const a = draw('帥'), b = draw('將');
    let ink = false, differ = false;
    for (let i = 3; i < a.length; i += 4) {
      if (a[i]) ink = true;
      if (a[i] !== b[i]) differ = true;
    }
    return ink && differ;
  } catch {
    return true;
  }
}

/** Short rank tags drawn under the Generals insignia: the piece's notation, the same in every
 * language (as printed on the pieces). */
const GENERALS_SHORT = {
  '5G': '5★', '4G': '4★', '3G': '3★', '2G': '2★', '1G': '1★', COL: 'COL', LTC: 'LTC', MAJ: 'MAJ',
  CPT: 'CPT', '1LT': '1LT', '2LT': '2LT', SGT: 'SGT', PVT: 'PVT', SPY: 'SPY', FLG: 'FLAG',
};

/** The id of a piece's symbol in the sprite. */
export function symbolId(/** @type {GameName} */ game, /** @type {string} */ code) {
  if (game === 'banqi') return `bq-${code === code.toUpperCase() ? 'r' : 'b'}${code.toLowerCase()}`;
  return `${game === 'generals' ? 'gg' : 'st'}-${code}`;
}

/** The name of a piece in the current language (Banqi: with its colour). */
export function pieceName(/** @type {GameName} */ game, /** @type {string} */ code) {
  const table = /** @type {Record<string, string>} */ (game === 'generals' ? T.pieces.generals : game === 'stratego' ? T.pieces.stratego : T.pieces.banqiColoured);
  return table[code] ?? code;
}

/** The name of a piece without Banqi's colour (the rules pages' tables). */
export function plainPieceName(/** @type {GameName} */ game, /** @type {string} */ code) {
  if (game !== 'banqi') return pieceName(game, code);
  return /** @type {Record<string, string>} */ (T.pieces.banqi)[code.toLowerCase()] ?? code;
}

/** Build the sprite holding every piece symbol and the backs. */
function spriteMarkup() {
  let s = '';
  for (const [code, [, art]] of Object.entries(GENERALS)) {
    s += `<symbol id="${symbolId('generals', code)}" viewBox="0 0 100 100">` +
      '<rect x="4" y="10" width="92" height="80" rx="12" class="tile"/>' +
      `<g transform="translate(0,-2)">${art}</g>` +
      `<text x="50" y="82" class="tag">${GENERALS_SHORT[code]}</text></symbol>`;
  }
  s += '<symbol id="gg-back" viewBox="0 0 100 100"><rect x="4" y="10" width="92" height="80" rx="12" class="tile back"/>' +
    '<rect x="14" y="20" width="72" height="60" rx="8" class="back-inner"/>' +
    '<path d="M50 32 L62 50 L50 68 L38 50 Z" class="back-mark"/></symbol>';
  for (const [code, [, art]] of Object.entries(STRATEGO)) {
    s += `<symbol id="${symbolId('stratego', code)}" viewBox="0 0 100 100">` +
      '<rect x="6" y="6" width="88" height="88" rx="10" class="tile"/>' +
      `<g>${art}</g></symbol>`;
  }
  s += '<symbol id="st-back" viewBox="0 0 100 100"><rect x="6" y="6" width="88" height="88" rx="10" class="tile back"/>' +
    '<path d="M50 24 L70 50 L50 76 L30 50 Z" class="back-mark"/><circle cx="50" cy="50" r="6" class="back-inner"/></symbol>';
  const hanzi = canDrawHanzi();
  for (const [code, [, ch]] of Object.entries(BANQI)) {
    const label = hanzi ? ch : BANQI_LATIN[/** @type {keyof BANQI_LATIN} */ (code.toLowerCase())];
    s += `<symbol id="${symbolId('banqi', code)}" viewBox="0 0 100 100">` +
      '<circle cx="50" cy="50" r="44" class="disc"/><circle cx="50" cy="50" r="36" class="ring"/>' +
      `<text x="50" y="51" class="${hanzi ? 'hanzi' : 'latin'}">${label}</text></symbol>`;
  }
  s += '<symbol id="bq-back" viewBox="0 0 100 100"><circle cx="50" cy="50" r="44" class="disc back"/>' +
    '<circle cx="50" cy="50" r="34" class="back-inner"/><circle cx="50" cy="50" r="20" class="back-mark"/></symbol>';
  s += `<symbol id="icon-flag" viewBox="0 0 100 100">${FLAG_SHAPE}</symbol>`;
  return s;
}

/** Inline styles of the symbols' shapes: a <use> copy keeps inline styles, and the colours
 * come through custom properties inherited from each .piece element. */
const SHAPE_STYLE = {
  'tile': 'fill: var(--tile); stroke: var(--edge); stroke-width: 3;',
  'back-inner': 'fill: none; stroke: var(--edge); stroke-width: 3; opacity: .6;',
  'back-mark': 'fill: var(--edge); opacity: .55;',
  'gold': 'fill: var(--gold); stroke: var(--gold-edge, #8d6a12); stroke-width: 1.2;',
  'gold-line': 'stroke: var(--gold); stroke-width: 3; stroke-linecap: round;',
  'stripe': 'fill: none; stroke: var(--stripe, #c9302c); stroke-width: 5; stroke-linejoin: round; stroke-linecap: round;',
  'tag': 'font: 700 15px system-ui, sans-serif; fill: var(--ink); text-anchor: middle; letter-spacing: .02em;',
  'pole': 'stroke: var(--ink); stroke-width: 4; stroke-linecap: round;',
  'banner': 'fill: #d8412f; stroke: var(--ink); stroke-width: 1.5;',
  'ink-fill': 'fill: var(--ink);',
  'eye': 'fill: var(--tile); stroke: var(--ink); stroke-width: 2.5;',
  'num': 'font: 800 44px system-ui, sans-serif; fill: var(--ink); text-anchor: middle; dominant-baseline: middle;',
  'num.wide': 'font-size: 38px;',
  'stroke': 'fill: none; stroke: var(--ink); stroke-width: 4; stroke-linecap: round; stroke-linejoin: round;',
  'fuse': 'fill: none; stroke: var(--ink); stroke-width: 3;',
  'spark': 'fill: var(--gold);',
  'disc': 'fill: var(--tile); stroke: var(--edge); stroke-width: 3;',
  'disc.back': 'fill: #8a6a3f;',
  'ring': 'fill: none; stroke: var(--ink); stroke-width: 2.5;',
  'hanzi': `font: 700 48px ${HANZI_FONTS}; fill: var(--ink); text-anchor: middle; dominant-baseline: central;`,
  'latin': "font: 700 40px Georgia, 'DejaVu Serif', serif; fill: var(--ink); text-anchor: middle; dominant-baseline: central;"
};

/** Turn class="a b" into the matching inline style. */
function inlineStyles(/** @type {string} */ markup) {
  return markup.replace(/class="([^"]+)"/g, (_, cls) => {
    const names = cls.split(' ');
    const key = names.join('.');
    const style = names.map((n) => SHAPE_STYLE[n] ?? '').join(' ') + (names.length > 1 ? SHAPE_STYLE[key] ?? '' : '');
    return `class="${cls}" style="${style}"`;
  });
}

/** Add the sprite to the document once. */
export function installSprite() {
  if (document.getElementById('piece-sprite')) return;
  const svg = document.createElementNS(NS, 'svg');
  svg.id = 'piece-sprite';
  svg.setAttribute('aria-hidden', 'true');
  svg.style.display = 'none';
  svg.innerHTML = inlineStyles(spriteMarkup());
  document.body.prepend(svg);
}

/**
 * An element drawing one piece: `code` null draws the back.
 * @param {GameName} game
 * @param {string|null} code
 * @param {string} side  the army's colour class (white, black, red, blue, or '' for a Banqi back)
 * @returns {HTMLElement}
 */
export function pieceElement(game, code, side) {
  const el = document.createElement('span');
  const id = code == null ? `${game === 'generals' ? 'gg' : game === 'stratego' ? 'st' : 'bq'}-back` : symbolId(game, code);
  el.className = `piece ${game} side-${side}${code == null ? ' hidden' : ''}`;
  el.innerHTML = `<svg viewBox="0 0 100 100" aria-hidden="true"><use href="#${id}"></use></svg>`;
  return el;
}
