// The game screen: setup, play, spectating, the end. One WebSocket follows the game; every
// frame is this viewer's own view (docs/protocol.md), and nothing here adds to it. Ratings
// stand beside the names; a rated game's end shows each player's change, and a player with
// an account may thank the other with a "good game" or report them.

import { h, replace, toast, clockText } from './dom.js';
import { Board } from './board.js';
import { pieceElement, pieceName } from './pieces.js';
import { spec, sideClass, gameTitle, seatName, colourName } from './games.js';
import { SetupEditor } from './setup.js';
import { colourOf } from './record.js';
import { api, Live, passedPhone, rememberSeat, savePassedPhone, seatToken } from './net.js';
import { fromSync, applyEvent } from './state.js';
import { sound } from './settings.js';
import { T } from './i18n.js';
import { go, main, onLeave, redraw, screen } from './router.js';
import { header } from './header.js';
import { quick } from './lobby.js';
import { gameLabel, clockLabel, reasonText, plyText } from './words.js';
import { battleOf, battlePop, place, endScreen } from './battle.js';
import { load } from './settings.js';
import { playerLink, ratingText, reportDialog, signed } from './account.js';

/** @typedef {import('./games.js').GameSpec} GameSpec */
/** @typedef {import('./board.js').SquareView} SquareView */

/** How long a battle stays announced at its square. */
const BATTLE_MS = 2800;

/**
 * The board as a viewer sees it, from an observation.
 * @param {GameSpec} g
 * @param {any} obs
 * @returns {Record<string, SquareView>}
 */
function squaresOf(g, obs) {
  /** @type {Record<string, SquareView>} */
  const out = {};
  for (const [s, v] of Object.entries(obs?.board ?? {})) {
    const x = /** @type {any} */ (v);
    if (g.name === 'banqi') out[s] = x.face_down ? { code: null, side: '' } : { code: x.piece, side: colourOf(x.piece) };
    else out[s] = { code: x.piece ?? null, side: x.owner, owner: x.owner };
  }
  return out;
}

export function gameScreen(/** @type {string} */ id) {
  header();
  /** @type {import('./state.js').GameState} */
  let st = /** @type {any} */ (null);
  /** @type {Board|null} */
  let board = null;
  /** @type {SetupEditor|null} */
  let editor = null;
  /** @type {string|null} */
  let selected = null;
  /** @type {string|null} */
  let notice = null;
  /** @type {Set<string>} */
  let flash = new Set();
  /** @type {{from:string,to:string}|null} */
  let last = null;
  /** what the player is typing in the chat: kept while the panel is redrawn */
  let chatDraft = '';
  /** the battle being announced at its square, while it lasts */
  /** @type {{pop: HTMLElement, square: string}|null} */
  let battle = null;
  /** @type {ReturnType<typeof setTimeout>|undefined} */
  let battleTimer;
  /** the end screen, until the player closes it */
  let endOpen = false;
  /**
   * A full-arbiter game on one passed phone (issue 19): between the seats a curtain hides
   * the board; null on a phone of one player.
   */
  const passed = passedPhone(id);
  /** passed phone: this seat has moved and reads the ruling before hiding the board */
  let handover = false;
  /**
   * A rated game's rating changes, seat → before/after/diff (from the `end` event).
   * @type {Record<string, {before: number, after: number, diff: number, provisional?: boolean}>|null}
   */
  let ratingChange = null;
  /** this player gave the opponent a "good game" (or the server says it already did) */
  let kudosGiven = false;

  const root = h('div', { class: 'game-screen' }, h('p', { class: 'card' }, T.game.connecting));
  root.dataset.offline = T.game.offline;
  replace(main, root);
  const token = seatToken(id);
  const conn = new Live(onMessage, (open) => {
    root.classList.toggle('offline', !open);
    if (open) conn.send({ t: 'join', game: id, seat_token: token ?? undefined, since: st?.ver ?? undefined });
  });
  const tick = setInterval(drawClocks, 100);
  onLeave(() => { conn.close(); clearInterval(tick); clearTimeout(battleTimer); screen.relabel = null; });
  // a new language: the same game, drawn again in it (a setup in progress is kept)
  screen.relabel = () => {
    if (!st) return replace(root, h('p', { class: 'card' }, T.game.connecting));
    root.dataset.offline = T.game.offline;
    // a battle's announcement is a moment in the old language: let it go
    battle?.pop.remove();
    battle = null;
    const kept = editor?.placement;
    editor = null;
    board = null;
    notice = null;
    draw();
    if (kept && editor) { /** @type {SetupEditor} */ (editor).placement = kept; /** @type {SetupEditor} */ (editor).render(); }
  };

  /** @param {any} msg */
  function onMessage(msg) {
    if (msg.t === 'error' && !st) {
      // the join was refused (an unknown game): say so instead of "Connecting…" for ever
      conn.close();
      clearInterval(tick);
      screen.relabel = null;
      root.replaceChildren(h('div', { class: 'card game-missing', role: 'alert' }, h('h2', {}, T.game.notFound),
        h('p', {}, msg.error ?? T.game.noSuchGame), h('p', { class: 'muted' }, T.game.checkLink),
        h('a', { class: 'btn primary', href: '/', 'data-link': true }, T.game.back)));
      return;
    }
    if (msg.t === 'error') return toast(msg.error ?? T.app.refused, 'error');
    if (msg.t === 'seat') { rememberSeat(msg.game, msg.seat_token); if (msg.game !== id && st?.rematch === msg.game) go(`/game/${msg.game}`); return; }
    if (msg.game !== id) return;
    if (msg.t === 'sync') {
      st = fromSync(msg);
      const v = st.history[st.history.length - 1];
      last = v ? plySquares(v) : null;
      selected = null;
      return draw();
    }
    if (msg.t === 'legal' && st) {
      if (msg.ver === st.ver) { st.legal = msg.moves; renderBoard(); }
      return;
    }
    if (msg.t !== 'event' || !st) return;
    if (msg.ver !== st.ver + 1) {
      // a gap: ask for the whole state again
      conn.send({ t: 'join', game: id, seat_token: token ?? undefined });
      return;
    }
    if (msg.e == null) {
      // an event this viewer may see nothing of (the players' chat, for a spectator)
      st.ver = msg.ver;
      return;
    }
    const wasOver = st.status === 'ended';
    const before = st.observation;
    applyEvent(st, msg.e);
    st.ver = msg.ver;
    const e = msg.e;
    if (e.type === 'chat') return drawChat();
    /** @type {import('./battle.js').Battle|null} */
    let fight = null;
    if (e.type === 'move') {
      const g = spec(st.kind);
      const v = e.view;
      last = plySquares(v);
      fight = battleOf(g, v, st.seat, before, st.colours);
      // a battle's sentence stays until the player's own next move (the opponent's quick
      // reply does not sweep it away); a spectator's until the next move
      const said = fight?.text ?? (g.name === 'banqi' && v.action !== 'move' ? plyText(g, v, st.seat) : null);
      if (said || !st.seat || v.seat === st.seat) notice = said;
      if (passed && st.seat && v.seat === st.seat) handover = true;
      flash = fight && g.name !== 'banqi' ? new Set([v.from, v.to]) : new Set();
      sound(fight ? (g.name === 'banqi' ? 'capture' : 'challenge') : 'move');
    }
    if (e.type === 'start') sound('notify');
    if (e.type === 'end' && e.ratings) ratingChange = e.ratings;
    if (e.type === 'end' && !wasOver) {
      const r = st.result;
      sound(!r?.winner || !st.seat ? 'end' : r.winner === st.seat ? 'win' : 'loss');
      notice = null;
      endOpen = true;
      handover = false;
    }
    if (e.type === 'rematch' && st.seat) {
      const t = seatToken(e.game);
      if (t) go(`/game/${e.game}`);
    }
    selected = null;
    draw();
    if (fight) announce(spec(st.kind), fight);
  }

  /** Show a battle at its square for a moment (kept across redraws while it lasts). */
  function announce(/** @type {GameSpec} */ g, /** @type {import('./battle.js').Battle} */ fight) {
    const wrap = /** @type {HTMLElement|null} */ (root.querySelector('.board-wrap'));
    const cell = board?.cells.get(fight.square);
    if (!wrap || !cell) return;
    battle?.pop.remove();
    clearTimeout(battleTimer);
    battle = { pop: battlePop(g, fight, wrap, cell), square: fight.square };
    wrap.append(battle.pop);
    place(battle.pop, wrap, cell);
    battleTimer = setTimeout(() => { battle?.pop.remove(); battle = null; }, BATTLE_MS);
  }

  /** @param {any} v */
  function plySquares(v) {
    if (v.from) return { from: v.from, to: v.to };
    if (!v.move || v.move === 'end') return null;
    const [from, to] = String(v.move).split('-');
    return { from, to: to ?? from };
  }

  function draw() {
    const g = spec(st.kind);
    document.title = T.app.title(gameTitle(g.name));
    document.getElementById('nav-rules')?.setAttribute('href', `/rules/${g.name}`);
    const seats = g.seats;
    const you = st.seat ?? null;
    if (passed?.curtain) {
      // at the end the curtain goes: the end screen reveals both armies anyway
      if (!st.result && you) return drawCurtain(g);
      passed.curtain = false;
      savePassedPhone(id, passed);
    }
    if (st.status === 'setup' && you && !st.setups?.[you] && g.hasSetup) return drawSetup(g);
    editor = null;
    root.classList.remove('setup-mode');
    const flipped = you ? seats.indexOf(you) === 1 : false;
    if (!board || board.game !== g || board.flipped !== flipped) {
      board = new Board(g, flipped, { onSquare: clickSquare, onDrop: dropMove, canDrag: (s) => fromSquares().has(s) });
    }
    const bottom = you ?? seats[0];
    const top = seats[1 - seats.indexOf(bottom)];
    const typing = document.activeElement?.id === 'chat-input';
    const onBoard = !!board?.el.contains(document.activeElement);
    const wrap = h('div', { class: 'board-wrap' }, board.el, battle?.pop ?? null, endOpen && st.result ? endOverlay(g) : null);
    root.replaceChildren(
      h('div', { class: 'play-area' },
        h('h1', { class: 'sr-only' }, gameTitle(g.name)),
        resultBanner(g),
        handing() ? h('div', { class: 'pass-hand card' },
          notice ? h('p', { class: 'pass-ruling', role: 'alert' }, notice) : null,
          h('button', { class: 'btn primary big', type: 'button', id: 'pass-hide', onclick: raiseCurtain }, T.arbiter.hidePass)) : null,
        playerBar(g, top, 'top'),
        wrap,
        h('div', { class: 'board-actions', id: 'board-actions' }),
        playerBar(g, bottom, 'bottom')),
      sidePanel(g));
    if (battle) { const cell = board.cells.get(battle.square); if (cell) place(battle.pop, wrap, cell); }
    if (typing) document.getElementById('chat-input')?.focus();
    if (onBoard) board.focus();
    drawClocks();
    renderBoard();
  }

  /** Passed phone: the mover reads the ruling, with the button that hides the board. */
  function handing() {
    return !!passed && handover && !st.result;
  }

  /** Passed phone: hide the board, and this seat's pieces, until the next seat takes the phone. */
  function raiseCurtain() {
    if (!passed) return;
    handover = false;
    passed.curtain = true;
    savePassedPhone(id, passed);
    draw();
  }

  /** The seat that gets the phone next: the one to move, or in the setup the other one. */
  function nextSeat(/** @type {GameSpec} */ g) {
    if (st.status === 'playing' && st.to_move) return st.to_move;
    return g.seats.find((s) => s !== st.seat) ?? g.seats[0];
  }

  /** The "pass the phone" curtain: nothing of either army, one button for the next seat. */
  function drawCurtain(/** @type {GameSpec} */ g) {
    const next = nextSeat(g);
    const say = T.arbiter.passTo(seatName(next));
    // the same curtain already up (another event of the seat that left): leave it be
    if (root.querySelector('.pass-curtain')?.getAttribute('data-say') === say) return;
    editor = null;
    board = null;
    selected = null;
    battle?.pop.remove();
    battle = null;
    clearTimeout(battleTimer);
    root.classList.remove('setup-mode');
    root.replaceChildren(h('section', { class: 'pass-curtain', dataset: { say } },
      h('h1', { class: 'pass-big' }, say),
      h('p', { class: 'muted' }, gameTitle(g.name)),
      h('button', { class: 'btn primary big', type: 'button', id: 'pass-ready', onclick: () => takeSeat(next) }, T.arbiter.showBoard(seatName(next)))));
  }

  /** The next seat has the phone: follow the game with its token, and show its board. */
  function takeSeat(/** @type {string} */ seat) {
    if (!passed) return;
    passed.curtain = false;
    savePassedPhone(id, passed);
    const t = passed.tokens[seat];
    if (!t || seat === st.seat) return draw();
    rememberSeat(id, t);
    // a new connection for the new seat: the whole screen again
    redraw();
  }

  function renderBoard() {
    if (!board) return;
    const g = spec(st.kind);
    if (!st.observation) {
      // setting up: the viewer's own setup when ready, else an empty board
      /** @type {Record<string, SquareView>} */
      const squares = {};
      for (const [s, code] of Object.entries(/** @type {any} */ (st).your_setup ?? {})) squares[s] = { code: String(code), side: st.seat ?? '' };
      return board.render(squares, {});
    }
    board.render(squaresOf(g, st.observation), { selected, targets: targetsOf(selected), last, flash });
    drawBoardActions();
  }

  /** Moves that are no squares: ending a Banqi capture chain. */
  function drawBoardActions() {
    const box = document.getElementById('board-actions');
    if (!box) return;
    const canEnd = !!st?.legal?.includes('end');
    if (canEnd === !!box.firstChild) return;
    replace(box, ...(canEnd ? [h('p', { class: 'chain-hint' }, T.game.chainHint),
      h('button', { class: 'btn primary', type: 'button', id: 'end-chain', onclick: () => play('end') }, T.game.endChain)] : []));
  }

  /** The end screen over the board, until the player closes it to look at the board. */
  function endOverlay(/** @type {GameSpec} */ g) {
    const revealed = !!st.reveal?.observation && st.options?.reveal_at_end !== false;
    const box = endScreen({ result: /** @type {any} */ (st.result), you: st.seat, name: playerName, seats: g.seats, revealed,
      close: () => { endOpen = false; root.querySelector('.end-screen')?.remove(); board?.focus(); } });
    // a rated game: each player's rating change, above the button
    const changes = ratingChanges();
    if (changes) {
      const G = T.game;
      const lines = h('ul', { class: 'end-ratings', 'aria-label': G.ratingChanges }, g.seats.filter((seat) => changes[seat]).map((seat) => {
        const c = changes[seat];
        return h('li', { dataset: { seat } }, h('span', {}, seat === st.seat ? G.yourRating : playerName(seat)), ' ',
          h('strong', {}, G.ratingMove(ratingText(c.before, false), ratingText(c.after, c.provisional))), ' ',
          h('span', { class: `diff ${c.diff > 0 ? 'up' : c.diff < 0 ? 'down' : ''}` }, signed(c.diff)));
      }));
      box.querySelector('.end-card')?.insertBefore(lines, box.querySelector('#end-close'));
    }
    return box;
  }

  /** A rated game's rating changes: from its `end` event, or from the state after a reload. */
  function ratingChanges() {
    const any = /** @type {any} */ (st);
    return ratingChange ?? any?.ratings ?? any?.result?.ratings ?? null;
  }

  /** The result, large, above the board once the game is over: who won and why. */
  function resultBanner(/** @type {GameSpec} */ g) {
    const r = st.result;
    if (!r) return null;
    const you = st.seat;
    const G = T.game;
    const head = !r.winner ? G.draw : r.winner === you ? G.youWon : you ? G.youLost : G.won(playerName(r.winner));
    const side = r.winner ? sideClass(g, r.winner, st.colours ?? undefined) : '';
    const who = r.winner ? G.wonAs(playerName(r.winner), side ? colourName(side) : seatName(r.winner)) : G.nobodyWon;
    const why = reasonText(r.reason) || (r.reason ? r.reason.replace(/_/g, ' ') : '');
    return h('div', { class: `result-banner ${!r.winner ? 'draw' : r.winner === you ? 'win' : you ? 'loss' : 'neutral'}`, role: 'alert' },
      h('strong', {}, head), h('span', {}, G.resultLine(who, why)));
  }

  /** Squares a piece of ours can move from (or a Banqi flip). */
  function fromSquares() {
    const out = new Set();
    for (const m of st?.legal ?? []) out.add(m.split('-')[0]);
    return out;
  }

  /** A legal move without its Stratego rescue part (`b9-b10+7@e4` → `b9-b10`). */
  const baseMove = (/** @type {string} */ m) => m.split('+')[0];

  /** @param {string|null} from */
  function targetsOf(from) {
    const out = new Set();
    if (!from) return out;
    for (const m of st?.legal ?? []) { const [a, b] = baseMove(m).split('-'); if (a === from && b) out.add(b); }
    return out;
  }

  /** @param {string} s */
  function clickSquare(s) {
    if (!st?.legal?.length) return;
    if (selected && targetsOf(selected).has(s)) return play(`${selected}-${s}`);
    if (st.legal.includes(s) && (!selected || !targetsOf(selected).has(s))) {
      // a Banqi flip (a bare square)
      if (!fromSquares().has(s) || targetsOf(s).size === 0) return play(s);
    }
    selected = fromSquares().has(s) && selected !== s ? s : null;
    if (selected && st.legal.includes(selected) && targetsOf(selected).size === 0) return play(selected);
    renderBoard();
  }

  /** @param {string} from @param {string} to */
  function dropMove(from, to) {
    if (to && targetsOf(from).has(to)) return play(`${from}-${to}`);
    selected = from;
    renderBoard();
  }

  /**
   * The rescues a move may make (Stratego Ultimate Lightning): piece code → squares.
   * @param {string} move
   */
  function rescuesOf(move) {
    /** @type {Map<string, string[]>} */
    const out = new Map();
    for (const m of st?.legal ?? []) {
      if (!m.startsWith(`${move}+`)) continue;
      const [p, s] = m.slice(move.length + 1).split('@');
      out.set(p, [...(out.get(p) ?? []), s]);
    }
    return out;
  }

  /** Plays `move`, first asking which piece to rescue where when the move may rescue one. */
  function play(/** @type {string} */ move) {
    const rescues = rescuesOf(move);
    if (!rescues.size) return send(move);
    const g = spec(st.kind);
    const G = T.game;
    const piece = h('select', { name: 'piece', 'aria-label': G.rescuePiece },
      [...rescues.keys()].map((p) => h('option', { value: p }, pieceName(g.name, p))));
    const square = h('select', { name: 'square', 'aria-label': G.rescueSquare });
    const fill = () => replace(square, (rescues.get(piece.value) ?? []).map((q) => h('option', { value: q }, q)));
    piece.addEventListener('change', fill);
    fill();
    const done = (/** @type {string} */ m) => { dlg.close(); dlg.remove(); send(m); };
    const dlg = h('dialog', { class: 'rescue', 'aria-label': G.rescueTitle },
      h('form', { method: 'dialog' },
        h('h2', {}, G.rescueTitle),
        h('p', {}, G.rescueText),
        h('label', {}, `${G.pieceLabel} `, piece),
        h('label', {}, `${G.squareLabel} `, square),
        h('div', { class: 'actions' },
          h('button', { class: 'btn primary', type: 'button', onclick: () => done(`${move}+${piece.value}@${square.value}`) }, G.rescue),
          h('button', { class: 'btn', type: 'button', onclick: () => done(move) }, G.noRescue))));
    document.body.append(dlg);
    dlg.showModal();
  }

  /** @param {string} move */
  function send(move) {
    selected = null;
    st.legal = [];
    if (!conn.send({ t: 'move', game: id, move })) toast(T.app.notConnected, 'error');
    renderBoard();
  }

  /** @param {GameSpec} g */
  function drawSetup(g) {
    if (editor) return drawSetupStatus(g);
    const you = /** @type {string} */ (st.seat);
    const opp = g.seats[1 - g.seats.indexOf(you)];
    const status = h('p', { class: 'opponent-status', id: 'opponent-status' });
    editor = new SetupEditor({
      game: g, options: st.options ?? {}, seat: you, extra: status,
      botSetup: async () => {
        // a setup made by the computer, loaded into the editor to change or accept
        const q = new URLSearchParams({ game: g.name, options: JSON.stringify(st.options ?? {}), seat: you, bot: 'greedy' });
        try {
          return (await api('GET', `/api/setup?${q}`)).setup;
        } catch (e) {
          toast(String(/** @type {Error} */ (e).message), 'error');
          return null;
        }
      },
      onReady: async (p) => {
        if (!conn.send({ t: 'setup', game: id, setup: p })) throw new Error(T.game.notConnectedRetry);
        // the server does not echo the setup: keep it to draw while the opponent sets up
        /** @type {any} */ (st).your_setup = p;
        // a passed phone: the setup is hidden at once, before the phone changes hands
        if (passed) raiseCurtain();
      },
    });
    // a one-click game starts with a random setup in the editor: Ready is one more click
    if (quick.game === id) { quick.game = null; editor.random(); }
    root.classList.add('setup-mode');
    root.replaceChildren(h('div', { class: 'setup-head' }, h('h1', {}, T.game.setupHead(gameTitle(g.name), seatName(you))), h('p', { class: 'muted' }, T.game.against(playerName(opp), clockLabel(st.clock)))), editor.el);
    drawSetupStatus(g);
  }

  /** @param {GameSpec} g */
  function drawSetupStatus(g) {
    const opp = g.seats[1 - g.seats.indexOf(st.seat ?? '')];
    const el = document.getElementById('opponent-status');
    if (el) el.textContent = T.game.opponentSetup(playerName(opp), !!st.setups?.[opp]);
  }

  /** @param {string} seat */
  function playerName(seat) {
    return st.players?.[seat]?.name ?? seatName(seat);
  }

  /** @param {GameSpec} g @param {string} seat @param {string} where */
  function playerBar(g, seat, where) {
    const side = sideClass(g, seat, st.colours ?? undefined);
    const p = st.players?.[seat];
    const toMove = !st.result && st.to_move === seat && st.status === 'playing';
    const captured = capturedOf(g, seat);
    const G = T.game;
    const change = st.result ? ratingChanges()?.[seat] : null;
    const rating = change ? ratingText(change.after, change.provisional) : ratingText(p?.rating, p?.provisional);
    return h('div', { class: `player-bar ${where}${toMove ? ' to-move' : ''}`, dataset: { seat } },
      h('span', { class: `seat-chip side-${side || 'none'}`, 'aria-hidden': 'true' }),
      h('span', { class: 'who' }, h('strong', {}, p?.account && p?.name ? playerLink(p.name) : p?.name ?? seatName(seat)), p?.bot ? h('span', { class: 'badge' }, G.bot) : null,
        rating ? h('span', { class: 'rating', title: G.rating }, rating) : null,
        change ? h('span', { class: `diff ${change.diff > 0 ? 'up' : change.diff < 0 ? 'down' : ''}`, title: G.ratingChange }, signed(change.diff)) : null,
        h('small', {}, g.name === 'banqi' ? (side ? colourName(side) : G.colourUnknown) : seatName(seat)), seat === st.seat ? h('small', { class: 'you' }, G.you) : null),
      h('span', { class: 'captured', role: 'img', 'aria-label': G.lost(seatName(seat), captured.map((c) => c === '?' ? G.unknown : pieceName(g.name, c))) }, captured.map((c) => pieceElement(g.name, c === '?' ? null : c, g.name === 'banqi' ? colourOf(c) : seat))),
      st.clock ? h('span', { class: 'clock', dataset: { clock: seat }, role: 'timer' }, '') : null);
  }

  /** The pieces a seat lost (Generals, Stratego: eliminated; Banqi: its colour's captured). */
  function capturedOf(/** @type {GameSpec} */ g, /** @type {string} */ seat) {
    const o = st.observation ?? {};
    if (g.name === 'banqi') { const col = o.colours?.[seat]; return col ? o.captured?.[col] ?? [] : []; }
    return o.eliminated?.[seat] ?? [];
  }

  function drawClocks() {
    if (!st?.clock || !st.clocks) return;
    for (const el of root.querySelectorAll('[data-clock]')) {
      const seat = /** @type {HTMLElement} */ (el).dataset.clock ?? '';
      let ms = Number(st.clocks[seat] ?? 0);
      const running = !st.result && st.clocks.running === seat;
      if (running) ms -= performance.now() - st.clocksAt;
      el.textContent = clockText(ms);
      el.classList.toggle('running', running);
      el.classList.toggle('low', ms < 20000);
    }
  }

  /** @param {GameSpec} g */
  function sidePanel(g) {
    const you = st.seat;
    const plies = st.history ?? [];
    const G = T.game;
    const status = st.result
      ? G.resultLine(st.result.winner ? (st.result.winner === you ? G.youWonStatus : G.won(playerName(st.result.winner))) : G.draw, reasonText(st.result.reason))
      : st.status === 'setup' ? (you && st.setups?.[you] ? G.ready : G.settingUp)
      : you ? (st.to_move === you ? G.yourMove : G.toMove(playerName(st.to_move ?? '')))
      : G.watching(playerName(st.to_move ?? ''));
    const actions = h('div', { class: 'btn-row wrap actions' });
    if (you && !st.result) {
      if (st.draw_offer && st.draw_offer !== you) {
        actions.append(h('span', { class: 'offer' }, G.drawOffered),
          h('button', { class: 'btn primary small', type: 'button', onclick: () => conn.send({ t: 'draw_accept', game: id }) }, G.acceptDraw),
          h('button', { class: 'btn small', type: 'button', onclick: () => conn.send({ t: 'draw_decline', game: id }) }, G.decline));
      } else {
        actions.append(h('button', { class: 'btn small', type: 'button', disabled: st.draw_offer === you, onclick: () => conn.send({ t: 'draw_offer', game: id }) }, st.draw_offer === you ? G.youOfferedDraw : G.offerDraw));
      }
      actions.append(h('button', { class: 'btn small danger', type: 'button', onclick: () => { if (confirm(G.resignConfirm)) conn.send({ t: 'resign', game: id }); } }, G.resign));
    }
    if (st.result) {
      if (you && st.rematch) actions.append(h('a', { class: 'btn small primary', href: `/game/${st.rematch}`, 'data-link': true }, G.toRematch));
      else if (you) actions.append(h('button', { class: 'btn small primary', type: 'button', disabled: st.rematch_offer === you, onclick: () => conn.send({ t: 'rematch', game: id }) },
        st.rematch_offer && st.rematch_offer !== you ? G.acceptRematch : st.rematch_offer === you ? G.rematchOffered : G.rematch));
      actions.append(h('a', { class: 'btn small', href: `/replay/${id}`, 'data-link': true }, G.replay),
        h('a', { class: 'btn small', href: `/api/games/${id}/record`, download: `salpakan-${id}.txt` }, G.download));
      // a "good game" for the opponent: between accounts, once per game
      const opp = you ? g.seats.find((x) => x !== you) : null;
      if (opp && load().account && st.players?.[opp]?.account && !st.players[opp].bot) {
        actions.append(h('button', { class: 'btn small', type: 'button', id: 'kudos', disabled: kudosGiven, onclick: giveKudos }, kudosGiven ? G.kudosGiven : G.kudos));
      }
    }
    const opponent = you ? g.seats.find((x) => x !== you) : null;
    const oppPlayer = opponent ? st.players?.[opponent] : null;
    const report = oppPlayer?.account && !oppPlayer.bot && load().account
      ? h('button', { class: 'btn small ghost report-btn', type: 'button', id: 'report-opponent', onclick: () => reportDialog(oppPlayer.name, id) }, G.report(oppPlayer.name))
      : null;
    const moves = h('ol', { class: 'moves', 'aria-label': G.moves }, plies.map((/** @type {any} */ v) => h('li', {}, plyText(g, v, you))));
    queueMicrotask(() => { moves.scrollTop = moves.scrollHeight; });
    return h('aside', { class: 'side-panel' },
      h('div', { class: `status${st.result ? ' over' : ''}`, role: 'status', 'aria-live': 'polite' }, status),
      notice && !handing() ? h('div', { class: 'notice', role: 'alert' }, notice) : null,
      actions,
      h('details', { class: 'moves-box', open: true }, h('summary', {}, G.movesCount(plies.length)), moves),
      chatBox(),
      h('p', { class: 'muted small', id: 'game-terms' }, `${gameLabel(g.name, st.options)} · ${clockLabel(st.clock)} · ${/** @type {any} */ (st).rated ? G.rated : G.casual}`),
      report);
  }

  /** Give the opponent a "good game" (POST /api/games/{id}/kudos); a second time is refused. */
  async function giveKudos() {
    try {
      await api('POST', `/api/games/${id}/kudos`);
      toast(T.game.kudosSent, 'good');
      kudosGiven = true;
    } catch (e) {
      // 409: already given (from another tab or device): the button says so
      if (/** @type {any} */ (e).status === 409) kudosGiven = true;
      else toast(String(/** @type {Error} */ (e).message), 'error');
    }
    if (st) draw();
  }

  function chatBox() {
    const G = T.game;
    const input = h('input', { id: 'chat-input', maxlength: '300', autocomplete: 'off', placeholder: st.seat ? G.sayHi : G.playersOnly, disabled: !st.seat, value: chatDraft,
      oninput: () => { chatDraft = input.value; } });
    const log = h('ul', { class: 'chat-log', id: 'chat-log', 'aria-label': G.chat });
    const form = h('form', { class: 'chat', onsubmit: (/** @type {Event} */ e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (text && conn.send({ t: 'chat', game: id, text })) { input.value = ''; chatDraft = ''; }
    } }, h('label', { for: 'chat-input', class: 'sr-only' }, G.chatMessage), log, h('div', { class: 'inline' }, input, h('button', { class: 'btn small', type: 'submit', disabled: !st.seat }, G.send)));
    queueMicrotask(drawChat);
    return h('details', { class: 'chat-box', open: true }, h('summary', {}, G.chat), form);
  }

  function drawChat() {
    const log = document.getElementById('chat-log');
    if (!log) return;
    replace(log, ...(st?.chat ?? []).map((/** @type {any} */ l) => h('li', {}, h('strong', {}, l.name ?? seatName(l.seat ?? '')), ' ', l.text)));
    log.scrollTop = log.scrollHeight;
  }
}

