// The setup editor: place an army by drag and drop (or tap a tray piece, then a square),
// random setups, bot setups, and the library of saved setups.

import { h, replace, toast } from './dom.js';
import { Board, dragFrom, squareOf } from './board.js';
import { pieceElement, pieceName } from './pieces.js';
import { armyCounts, setupRanks, sq, parseSq } from './games.js';
import { savedSetups, storeSetups } from './settings.js';
import { T } from './i18n.js';

/** @typedef {import('./games.js').GameSpec} GameSpec */
/** @typedef {Record<string,string>} Placement  square → piece code */

/** The squares of a seat's setup area. */
export function areaSquares(/** @type {GameSpec} */ g, /** @type {number} */ seatIndex) {
  const out = [];
  for (const r of setupRanks(g, seatIndex)) for (let f = 0; f < g.files; f++) out.push(sq(f, r));
  return out.filter((s) => !g.lakes.includes(s));
}

/** A uniformly random placement of the army in the area. */
export function randomPlacement(/** @type {GameSpec} */ g, /** @type {Record<string,number>} */ counts, /** @type {number} */ seatIndex) {
  const squares = areaSquares(g, seatIndex);
  for (let i = squares.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [squares[i], squares[j]] = [squares[j], squares[i]];
  }
  /** @type {Placement} */
  const p = {};
  let i = 0;
  for (const code of g.order) for (let n = 0; n < (counts[code] ?? 0); n++) p[squares[i++]] = code;
  return p;
}

/** Mirror a placement between the two seats' sides (saved setups are kept from the seat's own side). */
export function mirror(/** @type {GameSpec} */ g, /** @type {Placement} */ p) {
  /** @type {Placement} */
  const out = {};
  for (const [s, code] of Object.entries(p)) {
    const [f, r] = parseSq(s);
    out[sq(g.files - 1 - f, g.ranks - 1 - r)] = code;
  }
  return out;
}

/**
 * @typedef {object} SetupEditorOptions
 * @property {GameSpec} game
 * @property {Record<string, any>} options
 * @property {string} seat
 * @property {(p: Placement) => Promise<void>} onReady
 * @property {() => Promise<Placement|null>} [botSetup]
 * @property {HTMLElement} [extra]  something to show beside (opponent status)
 */

export class SetupEditor {
  /** @param {SetupEditorOptions} o */
  constructor(o) {
    this.o = o;
    this.g = o.game;
    this.seatIndex = this.g.seats.indexOf(o.seat);
    this.counts = armyCounts(this.g, o.options);
    this.army = String(o.options?.army ?? Object.keys(this.g.armies)[0]);
    this.area = new Set(areaSquares(this.g, this.seatIndex));
    /** @type {Placement} */
    this.placement = {};
    /** @type {string|null} tray code or board square picked for a tap-move */
    this.picked = null;
    this.board = new Board(this.g, this.seatIndex === 1, {
      canDrag: (s) => !!this.placement[s],
      onDrop: (from, to) => this.moveOnBoard(from, to),
      onSquare: (s) => this.tap(s),
    });
    this.tray = h('div', { class: 'tray', role: 'list', 'aria-label': T.setup.tray });
    /** @type {string|null} the tray item that takes the tab */
    this.trayCursor = null;
    this.tray.addEventListener('keydown', (e) => {
      const d = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 0;
      if (!d) return;
      e.preventDefault();
      const live = /** @type {HTMLButtonElement[]} */ ([...this.tray.querySelectorAll('.tray-item')]).filter((b) => !b.disabled);
      const i = live.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
      const next = live[Math.max(0, Math.min(live.length - 1, i + d))];
      if (next) { for (const b of live) b.tabIndex = b === next ? 0 : -1; next.focus(); }
    });
    this.library = h('div', { class: 'library' });
    this.readyBtn = h('button', { class: 'btn primary', type: 'button', onclick: () => this.ready() }, T.setup.ready);
    this.status = h('p', { class: 'setup-status' });
    this.el = h('section', { class: 'setup-view' },
      h('div', { class: 'board-wrap' }, this.board.el),
      h('div', { class: 'side-panel' },
        h('h2', {}, T.setup.title),
        h('p', { class: 'hint' }, T.setup.hint),
        h('p', { class: 'help small' }, T.setup.keys),
        this.tray,
        this.status,
        h('div', { class: 'btn-row' },
          h('button', { class: 'btn', type: 'button', onclick: () => this.random() }, T.setup.random),
          o.botSetup ? h('button', { class: 'btn', type: 'button', onclick: () => this.bot() }, T.setup.botSetup) : null,
          h('button', { class: 'btn', type: 'button', onclick: () => this.clear() }, T.setup.clear),
          h('button', { class: 'btn', type: 'button', onclick: () => this.saveToLibrary() }, T.setup.save)),
        h('div', { class: 'btn-row' }, this.readyBtn),
        o.extra ?? null,
        h('details', { class: 'library-box', open: true }, h('summary', {}, T.setup.library), this.library)));
    this.renderLibrary();
    this.render();
  }

  remaining() {
    /** @type {Record<string, number>} */
    const left = { ...this.counts };
    for (const code of Object.values(this.placement)) left[code] = (left[code] ?? 0) - 1;
    return left;
  }

  render() {
    /** @type {Record<string, import('./board.js').SquareView>} */
    const squares = {};
    for (const [s, code] of Object.entries(this.placement)) squares[s] = { code, side: this.o.seat };
    this.board.render(squares, { area: this.area, selected: this.picked && this.placement[this.picked] ? this.picked : null });
    const left = this.remaining();
    const trayFocused = this.tray.contains(document.activeElement);
    replace(this.tray, ...this.g.order.filter((c) => (this.counts[c] ?? 0) > 0).map((code) => {
      const n = left[code] ?? 0;
      const item = h('button', {
        type: 'button',
        class: `tray-item${n ? '' : ' empty'}${this.picked === `tray:${code}` ? ' picked' : ''}`,
        role: 'listitem',
        dataset: { code },
        'aria-label': T.setup.toPlace(pieceName(this.g.name, code), n),
        disabled: !n,
      }, pieceElement(this.g.name, code, this.o.seat), n > 1 ? h('span', { class: 'count' }, `×${n}`) : null);
      item.addEventListener('pointerdown', (e) => {
        if (!n || e.button !== 0) return;
        e.preventDefault();
        const piece = /** @type {HTMLElement} */ (item.querySelector('.piece'));
        dragFrom(e, piece, (target, moved) => {
          if (!moved) {
            this.picked = this.picked === `tray:${code}` ? null : `tray:${code}`;
            return this.render();
          }
          const to = squareOf(target);
          if (to) this.place(code, to);
        });
      });
      item.addEventListener('click', (e) => {
        if (e.detail === 0) { this.picked = `tray:${code}`; this.trayCursor = code; this.render(); }
      });
      item.addEventListener('focus', () => { this.trayCursor = code; });
      return item;
    }));
    this.rovingTray(trayFocused);
    const placed = Object.keys(this.placement).length;
    const total = Object.values(this.counts).reduce((a, b) => a + b, 0);
    this.status.textContent = placed === total ? T.setup.allPlaced : T.setup.placed(placed, total);
    this.readyBtn.disabled = placed !== total;
  }

  /**
   * The tray is one tab stop: the cursor item (or the first with pieces left) takes the tab,
   * arrow keys move along the tray.
   * @param {boolean} refocus  the focus was in the tray before it was redrawn
   */
  rovingTray(refocus) {
    const items = /** @type {HTMLButtonElement[]} */ ([...this.tray.querySelectorAll('.tray-item')]);
    const live = items.filter((b) => !b.disabled);
    const cur = live.find((b) => b.dataset.code === this.trayCursor) ?? live[0];
    for (const b of items) b.tabIndex = b === cur ? 0 : -1;
    if (cur && refocus) cur.focus();
  }

  /** @param {string} code @param {string} to */
  place(code, to) {
    if (!this.area.has(to)) return toast(T.setup.ownRanks, 'error');
    if ((this.remaining()[code] ?? 0) <= 0) return;
    const old = this.placement[to];
    this.placement[to] = code;
    if (old) { /* the old piece goes back to the tray */ }
    this.picked = (this.remaining()[code] ?? 0) > 0 ? `tray:${code}` : null;
    this.render();
  }

  /** @param {string} from @param {string} to  ('' = dropped off the board: back to the tray) */
  moveOnBoard(from, to) {
    const code = this.placement[from];
    if (!code) return;
    if (!to) { delete this.placement[from]; return this.render(); }
    if (!this.area.has(to)) return toast(T.setup.ownRanks, 'error');
    const other = this.placement[to];
    this.placement[to] = code;
    if (other) this.placement[from] = other; else delete this.placement[from];
    this.picked = null;
    this.render();
  }

  /** @param {string} s */
  tap(s) {
    if (this.picked?.startsWith('tray:')) {
      this.place(this.picked.slice(5), s);
      return;
    }
    if (this.picked && this.picked !== s) {
      const from = this.picked;
      this.picked = null;
      return this.moveOnBoard(from, s);
    }
    if (this.picked === s) {
      // a second tap on a placed piece sends it back to the tray
      delete this.placement[s];
      this.picked = null;
      return this.render();
    }
    this.picked = this.placement[s] ? s : null;
    this.render();
  }

  random() {
    this.placement = randomPlacement(this.g, this.counts, this.seatIndex);
    this.picked = null;
    this.render();
  }

  clear() {
    this.placement = {};
    this.picked = null;
    this.render();
  }

  async bot() {
    const p = await this.o.botSetup?.();
    if (p) { this.placement = p; this.picked = null; this.render(); }
  }

  /** Saved setups are stored from the first seat's side. */
  saveToLibrary() {
    const placed = Object.keys(this.placement).length;
    if (!placed) return toast(T.setup.placeFirst, 'error');
    const list = savedSetups(this.g.name, this.army);
    const name = T.setup.setupName(list.length + 1);
    const p = this.seatIndex === 1 ? mirror(this.g, this.placement) : { ...this.placement };
    storeSetups(this.g.name, this.army, [...list, { name, placement: p, saved: Date.now() }]);
    toast(T.setup.savedAs(name), 'good');
    this.renderLibrary();
  }

  renderLibrary() {
    const list = savedSetups(this.g.name, this.army);
    if (!list.length) return replace(this.library, h('p', { class: 'muted' }, T.setup.noSaved));
    replace(this.library, h('ul', { class: 'library-list' }, list.map((s, i) => h('li', {},
      h('span', { class: 'lib-name' }, s.name),
      h('button', { class: 'btn small', type: 'button', 'aria-label': T.setup.use(s.name), onclick: () => {
        this.placement = this.seatIndex === 1 ? mirror(this.g, s.placement) : { ...s.placement };
        this.picked = null;
        this.render();
      } }, T.setup.useShort),
      h('button', { class: 'btn small ghost', type: 'button', 'aria-label': T.setup.delete(s.name), onclick: () => {
        storeSetups(this.g.name, this.army, list.filter((_, j) => j !== i));
        this.renderLibrary();
      } }, T.setup.deleteShort)))));
  }

  async ready() {
    this.readyBtn.disabled = true;
    try {
      await this.o.onReady({ ...this.placement });
    } catch (e) {
      toast(String(/** @type {any} */ (e)?.message ?? e), 'error');
      this.readyBtn.disabled = false;
    }
  }
}
