// The board: a grid of square buttons, pieces drawn from the sprite, click and drag input
// (one pointer-event path for mouse, pen and touch).

import { h } from './dom.js';
import { pieceElement, pieceName } from './pieces.js';
import { sq, gameTitle, colourName } from './games.js';
import { T } from './i18n.js';

/** @typedef {import('./games.js').GameSpec} GameSpec */

/**
 * What one square shows.
 * @typedef {object} SquareView
 * @property {string|null} code   the piece, or null for a back (unknown or face down)
 * @property {string} side        colour class: white, black, red, blue ('' for a Banqi back)
 * @property {string} [owner]     the seat owning it, when known
 * @property {boolean} [mine]
 */

/**
 * @typedef {object} BoardMarks
 * @property {string|null} [selected]
 * @property {Set<string>} [targets]
 * @property {{from:string,to:string}|null} [last]
 * @property {Set<string>} [area]      squares highlighted as a setup area
 * @property {Set<string>} [flash]     squares of a challenge just resolved
 */

/**
 * @typedef {object} BoardHandlers
 * @property {(square: string) => void} [onSquare]
 * @property {(from: string, to: string) => void} [onDrop]
 * @property {(square: string) => boolean} [canDrag]
 * @property {(square: string) => void} [onDragStart]
 */

const DRAG_THRESHOLD = 6;

/**
 * Follow a pointer with a floating copy of a piece and report where it was let go.
 * Returns at once; `done` gets the square element (or any element) under the pointer, or
 * null when the drag never started (a click).
 * @param {PointerEvent} ev
 * @param {HTMLElement} source  the element being dragged (its look is copied)
 * @param {(target: Element|null, moved: boolean) => void} done
 * @param {() => void} [started]
 */
export function dragFrom(ev, source, done, started) {
  const startX = ev.clientX, startY = ev.clientY;
  /** @type {HTMLElement|null} */
  let ghost = null;
  const size = source.getBoundingClientRect();
  const move = (/** @type {PointerEvent} */ e) => {
    if (!ghost) {
      if (Math.hypot(e.clientX - startX, e.clientY - startY) < DRAG_THRESHOLD) return;
      ghost = /** @type {HTMLElement} */ (source.cloneNode(true));
      ghost.classList.add('drag-ghost');
      ghost.style.width = `${size.width}px`;
      ghost.style.height = `${size.height}px`;
      document.body.append(ghost);
      source.classList.add('dragging');
      started?.();
    }
    ghost.style.transform = `translate(${e.clientX - size.width / 2}px, ${e.clientY - size.height / 2}px)`;
    e.preventDefault();
  };
  const up = (/** @type {PointerEvent} */ e) => {
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', up);
    window.removeEventListener('pointercancel', up);
    source.classList.remove('dragging');
    if (ghost) {
      ghost.remove();
      const target = e.type === 'pointercancel' ? null : document.elementFromPoint(e.clientX, e.clientY);
      done(target, true);
    } else {
      done(null, false);
    }
  };
  window.addEventListener('pointermove', move, { passive: false });
  window.addEventListener('pointerup', up);
  window.addEventListener('pointercancel', up);
}

/** The square name of the board square at or around an element. */
export function squareOf(/** @type {Element|null} */ el) {
  const s = el?.closest('[data-sq]');
  return s instanceof HTMLElement ? s.dataset.sq ?? null : null;
}

export class Board {
  /**
   * @param {GameSpec} game
   * @param {boolean} flipped   true: the last rank at the bottom (the second seat's view)
   * @param {BoardHandlers} handlers
   */
  constructor(game, flipped, handlers) {
    this.game = game;
    this.flipped = flipped;
    this.handlers = handlers;
    /** @type {Map<string, HTMLButtonElement>} */
    this.cells = new Map();
    this.el = h('div', {
      class: `board board-${game.name}`,
      role: 'group',
      'aria-label': T.game.board(gameTitle(game.name)),
      style: `--files:${game.files};--ranks:${game.ranks}`,
    });
    for (let r = 0; r < game.ranks; r++) {
      const rank = flipped ? r : game.ranks - 1 - r;
      for (let f = 0; f < game.files; f++) {
        const file = flipped ? game.files - 1 - f : f;
        const name = sq(file, rank);
        const lake = game.lakes.includes(name);
        const cell = h('button', {
          type: 'button',
          class: `sq${(file + rank) % 2 ? ' light' : ' dark'}${lake ? ' lake' : ''}`,
          dataset: { sq: name },
          'aria-label': name,
          disabled: lake,
        });
        // coordinates are drawn by CSS (data-c), so that a square's name is its label alone
        if (f === 0) cell.append(h('span', { class: 'coord rank-label', 'aria-hidden': 'true', dataset: { c: String(rank + 1) } }));
        if (r === game.ranks - 1) cell.append(h('span', { class: 'coord file-label', 'aria-hidden': 'true', dataset: { c: String.fromCharCode(97 + file) } }));
        this.cells.set(name, cell);
        this.el.append(cell);
      }
    }
    // one tab stop for the whole board (a roving tabindex): arrow keys move the cursor,
    // Enter or Space presses the square under it
    /** @type {HTMLButtonElement[]} cells in screen order, row by row from the top */
    this.order = [...this.cells.values()];
    for (const c of this.order) c.tabIndex = -1;
    const start = this.order.slice((game.ranks - 1) * game.files).find((c) => !c.disabled) ?? this.order.find((c) => !c.disabled);
    /** @type {HTMLButtonElement|undefined} */
    this.cursor = start;
    if (start) start.tabIndex = 0;
    this.el.addEventListener('keydown', (e) => this.key(e));
    this.el.addEventListener('focusin', (e) => {
      const cell = /** @type {Element} */ (e.target).closest('[data-sq]');
      if (cell instanceof HTMLButtonElement) this.setCursor(cell);
    });
    this.el.addEventListener('pointerdown', (e) => this.pointerDown(e));
    this.el.addEventListener('click', (e) => {
      const s = squareOf(/** @type {Element} */ (e.target));
      // keyboard activation and plain clicks; pointer clicks are handled in pointerDown
      if (s && e.detail === 0) this.handlers.onSquare?.(s);
    });
  }

  /** @param {HTMLButtonElement} cell */
  setCursor(cell) {
    if (this.cursor === cell) return;
    if (this.cursor) this.cursor.tabIndex = -1;
    this.cursor = cell;
    cell.tabIndex = 0;
  }

  /** Put the keyboard focus back on the board's cursor (after the screen was redrawn). */
  focus() {
    this.cursor?.focus();
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
    if (!step || !this.cursor) return;
    e.preventDefault();
    const files = this.game.files, ranks = this.game.ranks;
    let i = this.order.indexOf(this.cursor);
    let x = i % files, y = Math.floor(i / files);
    // skip lakes (disabled squares); stop at the edge
    for (;;) {
      x += step[0];
      y += step[1];
      if (x < 0 || y < 0 || x >= files || y >= ranks) return;
      const next = this.order[y * files + x];
      if (!next.disabled) {
        this.setCursor(next);
        next.focus();
        return;
      }
    }
  }

  /** @param {PointerEvent} e */
  pointerDown(e) {
    if (e.button !== 0) return;
    const cell = /** @type {Element} */ (e.target).closest('[data-sq]');
    if (!(cell instanceof HTMLElement) || !cell.dataset.sq) return;
    const from = cell.dataset.sq;
    const piece = cell.querySelector('.piece');
    if (piece instanceof HTMLElement && this.handlers.canDrag?.(from)) {
      e.preventDefault();
      dragFrom(e, piece, (target, moved) => {
        if (!moved) return this.handlers.onSquare?.(from);
        const to = squareOf(target);
        if (to && to !== from) this.handlers.onDrop?.(from, to);
        else if (!to) this.handlers.onDrop?.(from, '');
      }, () => this.handlers.onDragStart?.(from));
    } else {
      const up = (/** @type {PointerEvent} */ ev) => {
        window.removeEventListener('pointerup', up);
        if (squareOf(document.elementFromPoint(ev.clientX, ev.clientY)) === from) this.handlers.onSquare?.(from);
      };
      window.addEventListener('pointerup', up);
    }
  }

  /**
   * Draw a position.
   * @param {Record<string, SquareView>} squares
   * @param {BoardMarks} [marks]
   */
  render(squares, marks = {}) {
    for (const [name, cell] of this.cells) {
      const v = squares[name];
      const old = cell.querySelector('.piece');
      const key = v ? `${v.code}|${v.side}` : '';
      if ((old?.getAttribute('data-key') ?? '') !== key) {
        old?.remove();
        if (v) {
          const p = pieceElement(this.game.name, v.code, v.side);
          p.setAttribute('data-key', key);
          cell.append(p);
        }
      }
      cell.classList.toggle('selected', marks.selected === name);
      cell.classList.toggle('target', !!marks.targets?.has(name));
      cell.classList.toggle('capture', !!marks.targets?.has(name) && !!v);
      cell.classList.toggle('last', !!marks.last && (marks.last.from === name || marks.last.to === name));
      cell.classList.toggle('area', !!marks.area?.has(name));
      cell.classList.toggle('flash', !!marks.flash?.has(name));
      cell.setAttribute('aria-label', this.label(name, v));
    }
  }

  /** @param {string} name @param {SquareView|undefined} v */
  label(name, v) {
    const L = T.squares;
    if (this.game.lakes.includes(name)) return L.lake(name);
    if (!v) return L.empty(name);
    const who = v.side ? colourName(v.side) : '';
    if (v.code == null) return this.game.name === 'banqi' ? L.faceDown(name) : L.unknown(name, who);
    return L.piece(name, this.game.name === 'banqi' ? '' : who, pieceName(this.game.name, v.code));
  }
}
