// The arbiter at the table (/arbiter, docs/arbiter-board.md): phones beside a real board.
// Challenge arbiter: each side enters the rank of its own piece; the server (the engine's
// rules) says only what the rules let it say. Full arbiter: a private game of the server held
// by the two phones. Every ruling comes from the server: no rule is decided here.
// A passed phone shows a blank "pass the phone" screen between entries, so that nothing one
// player entered is on the screen when the other takes the phone.

import { h, replace, toast } from './dom.js';
import { T } from './i18n.js';
import { api, ensureGuest, rememberPassedPhone, rememberSeat } from './net.js';
import { go, main, onLeave } from './router.js';
import { header } from './header.js';
import { load, save, soundOn } from './settings.js';

/** @typedef {{n: number, attacker: string, removed: 'attacker'|'defender'|'both', attacker_shown: string|null, defender_shown: string|null, flag_captured_by: string|null}} Ruling */

const SEATS = { generals: ['white', 'black'], stratego: ['red', 'blue'] };

/** The name of a rank code of `kind`. */
function rankName(/** @type {string} */ kind, /** @type {string} */ code) {
  return /** @type {any} */ (T.pieces)[kind]?.[code] ?? code;
}

function seatName(/** @type {string} */ seat) {
  return /** @type {any} */ (T.seats)[seat] ?? seat;
}

// ---------------------------------------------------------------- start page

/** `/arbiter`: start a table or join one with its room code. */
export function arbiterScreen() {
  header();
  document.title = T.app.title(T.arbiter.title);
  const A = T.arbiter;
  const name = h('input', { id: 'arb-name', name: 'name', autocomplete: 'nickname', maxlength: 24, required: true, value: load().name ?? '' });
  const game = h('select', { id: 'arb-game', name: 'game' },
    h('option', { value: 'generals' }, T.games.generals.title), h('option', { value: 'stratego' }, T.games.stratego.title));
  const mode = h('select', { id: 'arb-mode', name: 'mode' },
    h('option', { value: 'challenge' }, A.modeChallenge), h('option', { value: 'full' }, A.modeFull));
  const reveal = h('select', { id: 'arb-reveal', name: 'reveal' },
    ...['none', 'winner', 'both'].map((v) => h('option', { value: v }, /** @type {any} */ (A.reveal)[v])));
  const flagRule = h('select', { id: 'arb-flag', name: 'flag_rule' },
    ...['adjacent', 'one_turn', 'electronic'].map((v) => h('option', { value: v }, /** @type {any} */ (A.flagRule)[v])));
  const army = h('select', { id: 'arb-army', name: 'army' },
    ...['classic', 'barrage', 'duel'].map((v) => h('option', { value: v }, /** @type {any} */ (A.army)[v])));
  const pass = h('input', { type: 'checkbox', id: 'arb-pass', name: 'pass' });
  const generalsOnly = h('div', { class: 'arb-opts' },
    field(A.revealLabel, reveal), field(A.flagRuleLabel, flagRule));
  const strategoOnly = h('div', { class: 'arb-opts', hidden: true }, field(A.armyLabel, army));
  game.addEventListener('change', () => {
    generalsOnly.hidden = game.value !== 'generals';
    strategoOnly.hidden = game.value !== 'stratego';
  });
  const code = h('input', { id: 'arb-code', name: 'code', autocomplete: 'off', autocapitalize: 'characters', maxlength: 8, class: 'arb-code-input', spellcheck: 'false' });

  async function named() {
    const n = name.value.trim();
    if (!n) { name.focus(); throw new Error(A.nameFirst); }
    await ensureGuest(n);
  }
  async function create(/** @type {Event} */ e) {
    e.preventDefault();
    try {
      await named();
      const options = game.value === 'generals' ? { reveal: reveal.value, flag_rule: flagRule.value } : { army: army.value };
      const t = await api('POST', '/api/tables', { game: game.value, options, mode: mode.value, pass: pass.checked });
      go(`/arbiter/${t.table}`);
    } catch (err) { toast(String(/** @type {Error} */ (err).message), 'error'); }
  }
  async function join(/** @type {Event} */ e) {
    e.preventDefault();
    try {
      await named();
      const t = await api('POST', '/api/tables/join', { code: code.value });
      go(`/arbiter/${t.table}`);
    } catch (err) { toast(String(/** @type {Error} */ (err).message), 'error'); }
  }

  replace(main, h('section', { class: 'arbiter-start' },
    h('h1', {}, A.title),
    h('p', { class: 'muted' }, A.intro),
    field(A.yourName, name),
    h('form', { class: 'card arb-form', onsubmit: join },
      h('h2', {}, A.joinHeading),
      field(A.code, code),
      h('button', { class: 'btn primary big', type: 'submit' }, A.join)),
    h('form', { class: 'card arb-form', onsubmit: create },
      h('h2', {}, A.createHeading),
      field(A.gameLabel, game),
      field(A.modeLabel, mode),
      h('p', { class: 'muted', id: 'arb-mode-help' }, A.modeHelp),
      generalsOnly, strategoOnly,
      h('label', { class: 'check' }, pass, ' ', A.pass),
      h('button', { class: 'btn primary big', type: 'submit' }, A.create))));
}

function field(/** @type {string} */ label, /** @type {HTMLElement} */ input) {
  return h('div', { class: 'field' }, h('label', { for: input.id }, label), input);
}

// ---------------------------------------------------------------- a table

/** `/arbiter/<id>`: one table, as this phone holds it. */
export function tableScreen(/** @type {string} */ id) {
  header();
  document.title = T.app.title(T.arbiter.title);
  const A = T.arbiter;
  let alive = true;
  /** @type {any} */ let view = null;
  /** Passed phone: whose entry is on screen; null: the "pass the phone" curtain. */
  /** @type {string|null} */ let revealed = null;
  /** Passed phone: the last ruling was seen (the curtain comes next). */
  let seenRulings = -1;
  /** @type {any} */ let wake = null;
  let lastSounded = -1;

  async function lockWake(/** @type {boolean} */ on) {
    try {
      if (on && !wake && 'wakeLock' in navigator) wake = await /** @type {any} */ (navigator).wakeLock.request('screen');
      else if (!on && wake) { await wake.release(); wake = null; }
    } catch { wake = null; }
  }
  onLeave(() => { alive = false; lockWake(false); });

  /** Which seat this request is for: on a passed phone the one entering. */
  function seatParam() {
    if (!view?.pass) return '';
    const seats = SEATS[/** @type {'generals'|'stratego'} */ (view.kind)];
    return `seat=${revealed ?? seats[0]}`;
  }

  async function fetchView(/** @type {boolean} */ wait) {
    const q = [seatParam(), wait && view ? `since=${view.ver}` : ''].filter(Boolean).join('&');
    return api('GET', `/api/tables/${id}${q ? '?' + q : ''}`);
  }

  async function loop() {
    try {
      view = await fetchView(false);
      draw();
    } catch (err) {
      replace(main, h('p', { class: 'card' }, String(/** @type {Error} */ (err).message)));
      return;
    }
    while (alive && view.status !== 'ended') {
      try {
        const v = await fetchView(true);
        if (!alive) return;
        if (v.ver !== view.ver || v.seat !== view.seat) { view = v; draw(); }
      } catch {
        await new Promise((r) => setTimeout(r, 1500));
      }
    }
  }

  async function refresh() {
    view = await fetchView(false);
    draw();
  }

  async function enter(/** @type {boolean} */ attacks, /** @type {string} */ rank) {
    try {
      const body = /** @type {any} */ ({ attacks, rank });
      if (view.pass) body.seat = revealed;
      view = await api('POST', `/api/tables/${id}/entry`, body);
      // a passed phone hides the entry at once
      if (view.pass) { revealed = null; }
      draw();
    } catch (err) { toast(String(/** @type {Error} */ (err).message), 'error'); }
  }

  async function finish(/** @type {'resign'|'flag_home'} */ how, /** @type {string} */ seat) {
    try {
      const body = /** @type {any} */ ({ how });
      if (view.pass) body.seat = seat;
      view = await api('POST', `/api/tables/${id}/finish`, body);
      draw();
    } catch (err) { toast(String(/** @type {Error} */ (err).message), 'error'); }
  }

  /** The big sentence of a ruling, and its second line (ranks the rules let be shown). */
  function ruling(/** @type {Ruling} */ r) {
    const attacker = seatName(r.attacker);
    const seats = SEATS[/** @type {'generals'|'stratego'} */ (view.kind)];
    const defender = seatName(seats.find((s) => s !== r.attacker) ?? '');
    const main = r.flag_captured_by
      ? A.flagCaptured(seatName(r.flag_captured_by))
      : r.removed === 'both' ? A.removedBoth
        : r.removed === 'attacker' ? A.removedAttacker(attacker) : A.removedDefender(defender);
    const shown = [];
    if (r.attacker_shown) shown.push(A.shownAttacker(attacker, rankName(view.kind, r.attacker_shown)));
    if (r.defender_shown) shown.push(A.shownDefender(defender, rankName(view.kind, r.defender_shown)));
    return { main, shown };
  }

  function announceBox() {
    const list = /** @type {Ruling[]} */ (view.challenges);
    const last = list[list.length - 1];
    if (view.result) {
      const r = view.result;
      const why = r.reason === 'flag_captured' ? A.endFlag : r.reason === 'resignation' ? A.endResign : A.endHome;
      return h('div', { class: 'arb-announce ended', id: 'announce', role: 'status', 'aria-live': 'assertive' },
        h('p', { class: 'arb-big' }, A.wins(seatName(r.winner))),
        h('p', { class: 'arb-sub' }, why));
    }
    if (!last) return h('div', { class: 'arb-announce', id: 'announce', role: 'status', 'aria-live': 'polite' }, h('p', { class: 'arb-sub' }, A.noneYet));
    const { main: text, shown } = ruling(last);
    return h('div', { class: 'arb-announce', id: 'announce', role: 'status', 'aria-live': 'assertive' },
      h('p', { class: 'arb-n' }, A.challengeN(last.n)),
      h('p', { class: 'arb-big' }, text),
      ...shown.map((s) => h('p', { class: 'arb-sub' }, s)));
  }

  function entryPanel(/** @type {string} */ seat) {
    const mine = view.your_entry;
    if (mine) {
      return h('div', { class: 'card arb-wait' }, h('p', { class: 'arb-sub' }, A.entered));
    }
    let attacks = /** @type {boolean|null} */ (null);
    const rankButtons = h('div', { class: 'arb-ranks', role: 'group', 'aria-label': A.whichRank },
      ...view.ranks.map((/** @type {string} */ code) => h('button', {
        type: 'button', class: 'btn arb-rank', 'data-rank': code, disabled: true,
        onclick: () => { if (attacks !== null) enter(attacks, code); },
      }, rankName(view.kind, code))));
    const role = (/** @type {boolean} */ a, /** @type {string} */ label) => h('button', {
      type: 'button', class: 'btn arb-role', 'aria-pressed': 'false', 'data-attacks': String(a),
      onclick: (/** @type {Event} */ e) => {
        attacks = a;
        for (const b of panel.querySelectorAll('.arb-role')) b.setAttribute('aria-pressed', String(b === e.currentTarget));
        for (const b of rankButtons.querySelectorAll('button')) /** @type {HTMLButtonElement} */ (b).disabled = false;
      },
    }, label);
    const other = SEATS[/** @type {'generals'|'stratego'} */ (view.kind)].find((s) => s !== seat) ?? '';
    const panel = h('div', { class: 'card arb-entry' },
      h('h2', {}, A.entryFor(seatName(seat))),
      view.entered[other] ? h('p', { class: 'muted' }, A.otherEntered) : null,
      h('div', { class: 'btn-row arb-roles' }, role(true, A.attacked), role(false, A.defended)),
      h('p', { class: 'muted' }, A.whichRank),
      rankButtons);
    return panel;
  }

  function endPanel() {
    const lists = view.reveal ?? {};
    return h('div', { class: 'card arb-end' },
      h('p', {}, A.count(view.challenges.length)),
      h('h2', {}, A.eliminated),
      ...Object.entries(lists).map(([seat, codes]) => h('div', { class: 'arb-lost' },
        h('h3', {}, seatName(seat)),
        h('p', {}, codes.length ? codes.map((/** @type {string} */ c) => rankName(view.kind, c)).join(', ') : A.lostNone))),
      h('a', { class: 'btn primary big', href: '/arbiter', 'data-link': true }, A.newTable));
  }

  function tools(/** @type {string} */ seat) {
    const snd = h('input', { type: 'checkbox', id: 'arb-sound', checked: soundOn(), onchange: (/** @type {Event} */ e) => save({ sound: /** @type {HTMLInputElement} */ (e.target).checked }) });
    return h('div', { class: 'arb-tools' },
      h('label', { class: 'check' }, snd, ' ', A.sound),
      view.status === 'playing' ? h('div', { class: 'btn-row' },
        view.kind === 'generals' ? h('button', { type: 'button', class: 'btn', onclick: () => { if (confirm(A.flagHomeConfirm(seatName(seat)))) finish('flag_home', seat); } }, A.flagHome) : null,
        h('button', { type: 'button', class: 'btn', onclick: () => { if (confirm(A.resignConfirm(seatName(seat)))) finish('resign', seat); } }, A.resign)) : null);
  }

  function soundFor() {
    const n = view.challenges.length;
    if (n === lastSounded) return;
    const first = lastSounded < 0;
    lastSounded = n;
    if (first || !soundOn()) return;
    const last = view.challenges[n - 1];
    if (last?.flag_captured_by) taps(); else clash();
  }

  function draw() {
    if (!view) return;
    const seats = SEATS[/** @type {'generals'|'stratego'} */ (view.kind)];
    lockWake(view.status === 'playing');
    soundFor();
    const head = h('div', { class: 'arb-head' },
      h('h1', {}, A.title),
      h('p', { class: 'muted' }, `${T.games[/** @type {'generals'|'stratego'} */ (view.kind)].title} · ${view.mode === 'full' ? A.modeFull : A.modeChallenge}`,
        view.players ? ` · ${seats.map((s) => `${seatName(s)}: ${view.players[s] ?? '…'}`).join(' · ')}` : ''));
    if (view.status === 'waiting') {
      replace(main, h('section', { class: 'arbiter' }, head,
        h('div', { class: 'arb-announce' },
          h('p', { class: 'arb-sub' }, A.codeShow),
          h('p', { class: 'arb-code', id: 'room-code', 'aria-label': A.code }, view.code),
          h('p', { class: 'muted' }, A.waiting))));
      return;
    }
    if (view.mode === 'full') {
      const tokens = view.seat_tokens ?? {};
      replace(main, h('section', { class: 'arbiter' }, head,
        h('p', {}, A.fullIntro),
        h('div', { class: 'btn-row' }, ...Object.entries(tokens).map(([seat, token]) => h('button', {
          type: 'button', class: 'btn primary big',
          onclick: () => {
            rememberSeat(view.game, token);
            // one passed phone: the game page hides the board between the seats
            if (view.pass) rememberPassedPhone(view.game, tokens);
            go(`/game/${view.game}`);
          },
        }, A.openBoard(seatName(seat)))))));
      return;
    }
    if (view.status === 'ended') {
      replace(main, h('section', { class: 'arbiter' }, head, announceBox(), endPanel(), tools(view.seat)));
      return;
    }
    if (!view.pass) {
      replace(main, h('section', { class: 'arbiter' }, head, announceBox(), entryPanel(view.seat), tools(view.seat)));
      return;
    }
    // A passed phone: the public ruling, then a curtain before each seat's entry.
    const n = view.challenges.length;
    if (revealed === null && n > 0 && seenRulings < n && !view.entered[seats[0]] && !view.entered[seats[1]]) {
      replace(main, h('section', { class: 'arbiter' }, head, announceBox(),
        h('button', { type: 'button', class: 'btn primary big', onclick: () => { seenRulings = n; draw(); } }, A.next), tools(seats[0])));
      return;
    }
    const next = seats.find((s) => !view.entered[s]) ?? seats[0];
    if (revealed === null || view.entered[revealed]) {
      revealed = null;
      replace(main, h('section', { class: 'arbiter curtain' }, head,
        h('div', { class: 'arb-announce' }, h('p', { class: 'arb-big' }, A.passTo(seatName(next)))),
        h('button', { type: 'button', class: 'btn primary big', id: 'arb-ready', onclick: async () => { revealed = next; await refresh(); } }, A.ready(seatName(next))),
        tools(next)));
      return;
    }
    replace(main, h('section', { class: 'arbiter' }, head, entryPanel(revealed), tools(revealed)));
  }

  replace(main, h('p', { class: 'muted' }, '…'));
  loop();
}

// ---------------------------------------------------------------- sound

/** @type {AudioContext|null} */
let audio = null;

/** Notes played one after the other: [frequency, seconds]. */
function play(/** @type {[number, number][]} */ notes, /** @type {OscillatorType} */ type) {
  try {
    audio ??= new AudioContext();
    let t = audio.currentTime + 0.02;
    for (const [freq, len] of notes) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = type;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.15, t + 0.04);
      gain.gain.setValueAtTime(0.15, t + len * 0.8);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + len);
      osc.connect(gain).connect(audio.destination);
      osc.start(t);
      osc.stop(t + len + 0.02);
      t += len + 0.04;
    }
  } catch {
    // no audio: stay silent
  }
}

/** A ruling: a short clash. */
function clash() {
  play([[330, 0.08], [247, 0.14]], 'triangle');
}

/** A Flag falls: the opening of "Taps" on a bugle's notes (G C E, a nod to the 1980 box). */
function taps() {
  const G = 392, C = 523.25, E = 659.25;
  play([[G, 0.35], [G, 0.18], [C, 0.9], [G, 0.35], [C, 0.18], [E, 0.9], [G, 0.3], [C, 0.3], [E, 0.6]], 'sawtooth');
}
