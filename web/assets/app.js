// salpakan in the browser: the router and the screens (lobby, game, replay).

import { h, replace, toast, clockText } from './dom.js';
import { Board } from './board.js';
import { installSprite, pieceElement, pieceName } from './pieces.js';
import { GAMES, GAME_NAMES, spec, cap, optionSummary, sideClass } from './games.js';
import { SetupEditor } from './setup.js';
import { replayRecord, colourOf, viewOf, knows } from './record.js';
import { REPLAY, WELCOME } from './strings.js';
import { api, ensureGuest, Live, rememberSeat, seatToken, refreshSeats } from './net.js';
import { fromSync, applyEvent } from './state.js';
import { load, save, sound, applyMotion } from './settings.js';
import { rulesGame, rulesPage, rulesTitle } from './rules.js';

/** @typedef {import('./games.js').GameSpec} GameSpec */
/** @typedef {import('./board.js').SquareView} SquareView */

const main = /** @type {HTMLElement} */ (document.getElementById('main'));
/** @type {(() => void)|null} what to do when leaving the current screen */
let leave = null;

// ---------------------------------------------------------------- routing

export function go(/** @type {string} */ path) {
  history.pushState(null, '', path);
  route();
}

function route() {
  leave?.();
  leave = null;
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/game\/([\w-]+)$/))) return gameScreen(m[1]);
  if ((m = path.match(/^\/replay\/([\w-]+)$/))) return replayScreen(m[1]);
  if ((m = path.match(/^\/challenge\/([\w-]+)$/))) return challengeScreen(m[1]);
  const rules = rulesGame(path);
  if (rules) return rulesScreen(rules);
  return lobbyScreen();
}

document.addEventListener('click', (e) => {
  const a = /** @type {Element} */ (e.target).closest('a[data-link]');
  if (a instanceof HTMLAnchorElement && !e.ctrlKey && !e.metaKey && !e.shiftKey && e.button === 0) {
    e.preventDefault();
    go(a.pathname + a.search + a.hash);
  }
});
window.addEventListener('popstate', route);

// ---------------------------------------------------------------- header and settings

function header() {
  const s = load();
  const settings = h('dialog', { class: 'settings', 'aria-label': 'Settings' },
    h('form', { method: 'dialog' },
      h('h2', {}, 'Settings'),
      h('label', { class: 'switch' }, h('input', { type: 'checkbox', name: 'sound', checked: s.sound !== false,
        onchange: (/** @type {Event} */ e) => save({ sound: /** @type {HTMLInputElement} */ (e.target).checked }) }), ' Sound'),
      h('label', { class: 'switch' }, h('input', { type: 'checkbox', name: 'motion', checked: s.motion !== false,
        onchange: (/** @type {Event} */ e) => save({ motion: /** @type {HTMLInputElement} */ (e.target).checked }) }), ' Animations'),
      h('div', { class: 'btn-row' }, h('button', { class: 'btn primary', value: 'close' }, 'Done'))));
  const bar = h('header', { class: 'topbar' },
    h('a', { href: '/', 'data-link': true, class: 'brand', 'aria-label': 'salpakan, lobby' },
      h('span', { class: 'brand-mark', html: '<svg viewBox="0 0 100 100" aria-hidden="true"><use href="#gg-5G"></use></svg>' }),
      h('span', { class: 'brand-name' }, 'salpakan')),
    h('nav', {},
      h('a', { href: '/', 'data-link': true }, 'Lobby'),
      h('a', { href: '/rules/generals', 'data-link': true, id: 'nav-rules' }, 'Rules'),
      s.name ? h('span', { class: 'me', title: 'Your name' }, s.name) : null,
      h('button', { type: 'button', class: 'icon-btn', 'aria-label': 'Settings', onclick: () => settings.showModal(),
        html: '<svg viewBox="0 0 24 24" aria-hidden="true" class="gear"><circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" stroke-width="3.2" stroke-dasharray="3.53 3.54"/><circle cx="12" cy="12" r="6.1" fill="none" stroke="currentColor" stroke-width="2.6"/></svg>' })),
    settings);
  const old = document.querySelector('header.topbar');
  if (old) old.replaceWith(bar); else document.body.prepend(bar);
}

// ---------------------------------------------------------------- lobby

const CLOCKS = /** @type {[string, string][]} */ ([
  ['none', 'No clock'], ['300+3', '5 min + 3 s'], ['600+5', '10 min + 5 s'], ['900+10', '15 min + 10 s'], ['1800+0', '30 min'], ['custom', 'Custom…'],
]);

/** @param {string} game @param {Record<string,any>} options */
function gameLabel(game, options) {
  const g = spec(game);
  const extra = optionSummary(g, options ?? {});
  return extra ? `${g.title} · ${extra}` : g.title;
}

/** @param {{base:number,inc:number}|null|undefined} c */
function clockLabel(c) {
  if (!c) return 'No clock';
  const min = c.base / 60;
  return `${Number.isInteger(min) ? min : min.toFixed(1)} min${c.inc ? ` + ${c.inc} s` : ''}`;
}

function nameCard(/** @type {() => void} */ then, intro = true) {
  const input = h('input', { id: 'name', name: 'name', autocomplete: 'nickname', maxlength: '24', required: true, value: load().name ?? '', placeholder: 'e.g. Ana' });
  const form = h('form', { class: 'card name-card', onsubmit: async (/** @type {Event} */ e) => {
    e.preventDefault();
    try {
      await ensureGuest(input.value.trim());
      header();
      then();
    } catch (err) {
      toast(String(/** @type {Error} */ (err).message), 'error');
    }
  } },
    h('h2', {}, 'Welcome'),
    intro ? h('p', {}, 'Play Game of the Generals, Stratego and Banqi with a neutral arbiter that sees both armies and tells no secrets.') : null,
    h('label', { for: 'name' }, 'Your name'),
    h('div', { class: 'inline' }, input, h('button', { class: 'btn primary', type: 'submit' }, 'Continue')));
  return form;
}

function lobbyScreen() {
  header();
  document.title = 'salpakan · Lobby';
  const me = load();
  if (!me.token) {
    replace(main, h('div', { class: 'lobby narrow' }, hero(), quickPlay(), nameCard(() => lobbyScreen(), false)));
    return;
  }
  const seeks = h('ul', { class: 'list', id: 'seeks', 'aria-label': 'Open seeks' });
  const live = h('ul', { class: 'list', id: 'live-games', 'aria-label': 'Live games' });
  const mine = h('ul', { class: 'list', id: 'my-games', 'aria-label': 'Your games' });
  const ended = h('ul', { class: 'list', id: 'ended-games', 'aria-label': 'Recent games' });
  replace(main, h('div', { class: 'lobby' },
    h('h1', { class: 'sr-only' }, 'salpakan lobby'),
    h('div', { class: 'lobby-main' }, createForm()),
    h('div', { class: 'lobby-lists' },
      h('section', { class: 'card' }, h('h2', {}, 'Open seeks'), seeks),
      h('section', { class: 'card' }, h('h2', {}, 'Live games'), live),
      h('section', { class: 'card' }, h('h2', {}, 'Your games'), mine),
      h('section', { class: 'card' }, h('h2', {}, 'Recent games'), ended))));
  /** @type {Map<string, any>} */
  const seekMap = new Map();
  /** @type {Map<string, any>} */
  const gameMap = new Map();
  const draw = () => {
    renderSeeks(seeks, [...seekMap.values()]);
    renderGames(live, [...gameMap.values()]);
  };
  const conn = new Live((msg) => {
    if (msg.t === 'lobby') {
      seekMap.clear();
      gameMap.clear();
      for (const x of msg.seeks ?? []) seekMap.set(x.id, x);
      for (const x of msg.games ?? []) gameMap.set(x.game, x);
    } else if (msg.t === 'seek_added') seekMap.set(msg.seek.id, msg.seek);
    else if (msg.t === 'seek_removed') seekMap.delete(msg.seek);
    else if (msg.t === 'game_added') gameMap.set(msg.game.game, msg.game);
    else if (msg.t === 'game_removed') gameMap.delete(msg.game);
    else if (msg.t === 'seat') return seatFrame(msg);
    else return;
    draw();
  }, (open) => open && conn.send({ t: 'lobby' }));
  leave = () => conn.close();
  myGames(mine);
  recentGames(ended);
}

/** Finished public games, newest first: each can be replayed with the full reveal. */
async function recentGames(/** @type {HTMLElement} */ list) {
  const r = await api('GET', '/api/games?status=ended').catch(() => null);
  const games = (r?.games ?? []).slice(0, 8);
  if (!games.length) return replace(list, h('li', { class: 'empty' }, 'Finished games appear here, to replay.'));
  renderGames(list, games);
}

/** A game was made for this guest (a seek accepted, a rematch): go and play it. */
function seatFrame(/** @type {any} */ msg) {
  rememberSeat(msg.game, msg.seat_token);
  sound('notify');
  go(`/game/${msg.game}`);
}

/** The guest's own games, newest last in the server's list: shown newest first. */
async function myGames(/** @type {HTMLElement} */ list) {
  const me = await refreshSeats();
  const ids = (me?.games ?? []).map((/** @type {any} */ g) => g.game).reverse().slice(0, 8);
  if (!ids.length) return replace(list, h('li', { class: 'empty' }, 'Games you play appear here.'));
  const rows = await Promise.all(ids.map((/** @type {string} */ id) => api('GET', `/api/games/${id}`).catch(() => null)));
  renderGames(list, rows.filter(Boolean));
}

function hero() {
  const art = h('div', { class: 'hero-art', 'aria-hidden': 'true' },
    pieceElement('generals', '5G', 'white'), pieceElement('stratego', '10', 'red'), pieceElement('banqi', 'K', 'red'), pieceElement('banqi', null, ''), pieceElement('generals', null, 'black'));
  return h('section', { class: 'hero' }, art, h('h1', {}, 'salpakan'), h('p', { class: 'tagline' }, 'Hidden-piece war games, played fair.'),
    h('p', { class: 'intro', id: 'intro-1' }, WELCOME.line1), h('p', { class: 'intro', id: 'intro-2' }, WELCOME.line2));
}

/** The game a one-click start made: its setup editor opens with a random setup, ready. */
let quickGame = /** @type {string|null} */ (null);

/** One click, one game against the computer: a default name, level, options and no clock. */
function quickPlay() {
  const start = async (/** @type {string} */ game, /** @type {HTMLButtonElement} */ btn) => {
    btn.disabled = true;
    try {
      const typed = /** @type {HTMLInputElement|null} */ (document.getElementById('name'))?.value.trim();
      await ensureGuest(typed || load().name || WELCOME.defaultName);
      header();
      if (!botLevels.length) botLevels = ((await api('GET', '/api/bots'))?.bots ?? []).map(String);
      // a friendly level: the one last chosen for this game, else level 2 (never planning ahead)
      const bot = load().botLevels?.[game] ?? botLevels[1] ?? botLevels[0] ?? DEFAULT_LEVEL;
      const r = await api('POST', '/api/bot-games', { game, options: {}, clock: null, bot });
      rememberSeat(r.game, r.seat_token);
      quickGame = r.game;
      go(`/game/${r.game}`);
    } catch (err) {
      btn.disabled = false;
      toast(String(/** @type {Error} */ (err).message), 'error');
    }
  };
  return h('section', { class: 'card quick-play', 'aria-labelledby': 'quick-title' },
    h('h2', { id: 'quick-title' }, WELCOME.quickTitle),
    h('p', { class: 'muted' }, WELCOME.quickHelp),
    h('div', { class: 'quick-buttons' }, GAME_NAMES.map((name) => {
      const icon = name === 'generals' ? pieceElement('generals', '4G', 'white') : name === 'stratego' ? pieceElement('stratego', '10', 'red') : pieceElement('banqi', 'K', 'red');
      const btn = h('button', { type: 'button', class: 'btn quick', dataset: { quick: name }, 'aria-label': WELCOME.quickLabel(GAMES[name].title),
        onclick: () => start(name, btn) }, icon, h('span', {}, WELCOME.quickButton(GAMES[name].title)));
      return btn;
    })),
    h('p', { class: 'muted small' }, WELCOME.orName));
}

/** @param {HTMLElement} list @param {import('./net.js').Seek[]} items */
function renderSeeks(list, items) {
  const me = load();
  const mine = new Set(me.mySeeks ?? []);
  if (!items.length) return replace(list, h('li', { class: 'empty' }, 'No open seeks. Create one!'));
  replace(list, ...items.map((s) => h('li', { class: 'row', dataset: { seek: s.id } },
    h('span', { class: `game-dot ${s.kind}`, 'aria-hidden': 'true' }),
    h('span', { class: 'grow' }, h('strong', {}, s.by), h('br'), h('small', {}, `${gameLabel(s.kind, s.options)} · ${clockLabel(s.clock)}`)),
    mine.has(s.id) || (s.by_id && s.by_id === me.userId)
      ? h('button', { class: 'btn small ghost', type: 'button', onclick: () => api('DELETE', `/api/seeks/${s.id}`).catch((e) => toast(e.message, 'error')) }, 'Cancel')
      : h('button', { class: 'btn small primary', type: 'button', 'aria-label': `Accept ${s.by}'s ${spec(s.kind).title} seek`, onclick: () => acceptSeek(s.id) }, 'Accept'))));
}

/** @param {import('./net.js').GameSummary} g */
function playersOf(g) {
  return spec(g.kind).seats.map((seat) => g.players?.[seat]?.name ?? cap(seat)).join(' vs ');
}

/** @param {HTMLElement} list @param {import('./net.js').GameSummary[]} items */
function renderGames(list, items) {
  if (!items.length) return replace(list, h('li', { class: 'empty' }, 'No games in progress.'));
  replace(list, ...items.map((g) => {
    const over = g.status === 'ended';
    const mine = !!seatToken(g.game);
    return h('li', { class: 'row', dataset: { game: g.game } },
      h('span', { class: `game-dot ${g.kind}`, 'aria-hidden': 'true' }),
      h('span', { class: 'grow' }, h('strong', {}, playersOf(g)), h('br'),
        h('small', {}, spec(g.kind).title + (over && g.result ? ` · ${resultShort(g.kind, g.result)}` : g.status === 'setup' ? ' · setting up' : ''))),
      h('a', { class: 'btn small', href: over ? `/replay/${g.game}` : `/game/${g.game}`, 'data-link': true }, over ? 'Replay' : mine ? 'Play' : 'Watch'));
  }));
}

async function acceptSeek(/** @type {string} */ id) {
  try {
    const r = await api('POST', `/api/seeks/${id}/accept`);
    rememberSeat(r.game, r.seat_token);
    go(`/game/${r.game}`);
  } catch (e) {
    toast(String(/** @type {Error} */ (e).message), 'error');
  }
}

function createForm() {
  /** @type {string} */
  let game = rulesGame(`/rules/${new URLSearchParams(location.search).get('game')}`) ?? 'generals';
  const optionsBox = h('div', { class: 'options' });
  const rulesLink = h('a', { class: 'rules-link', 'data-link': true, href: '/rules/generals' });
  const tabs = h('div', { class: 'game-tabs', role: 'radiogroup', 'aria-label': 'Game' });
  const drawOptions = () => {
    const g = spec(game);
    replace(optionsBox, ...g.options.map((o) => {
      const id = `opt-${o.key}`;
      const help = o.help ? h('small', { class: 'help', id: `${id}-help` }, o.help, ' ',
        h('a', { href: `/rules/${game}#opt-${o.key}`, 'data-link': true, 'aria-label': `More about “${o.label}”` }, 'More')) : null;
      const described = o.help ? { 'aria-describedby': `${id}-help` } : {};
      if (o.type === 'bool') return h('div', { class: 'field' }, h('label', { class: 'switch' }, h('input', { type: 'checkbox', id, name: o.key, checked: o.default === true, ...described }), ` ${o.label}`), help);
      return h('div', { class: 'field' }, h('label', { for: id }, o.label),
        h('select', { id, name: o.key, ...described }, (o.choices ?? []).map(([v, l]) => h('option', { value: v, selected: v === String(o.default) }, l))), help);
    }));
    for (const b of tabs.querySelectorAll('button')) b.setAttribute('aria-checked', String(/** @type {HTMLElement} */ (b).dataset.game === game));
    rulesLink.href = `/rules/${game}`;
    rulesLink.textContent = `How to play ${g.title}`;
    redrawLevels();
  };
  let redrawLevels = () => {};
  for (const name of GAME_NAMES) {
    const g = GAMES[name];
    const icon = name === 'generals' ? pieceElement('generals', '4G', 'white') : name === 'stratego' ? pieceElement('stratego', '10', 'red') : pieceElement('banqi', 'K', 'red');
    tabs.append(h('button', { type: 'button', role: 'radio', class: 'game-tab', dataset: { game: name }, onclick: () => { game = name; drawOptions(); } }, icon, h('span', {}, g.title)));
  }
  const clockSel = h('select', { id: 'clock', name: 'clock' }, CLOCKS.map(([v, l]) => h('option', { value: v, selected: v === '600+5' }, l)));
  const customMin = h('input', { id: 'clock-min', type: 'number', min: '1', max: '180', value: '10', inputmode: 'numeric' });
  const customInc = h('input', { id: 'clock-inc', type: 'number', min: '0', max: '180', value: '5', inputmode: 'numeric' });
  const custom = h('div', { class: 'inline custom-clock', hidden: true },
    h('label', { for: 'clock-min' }, 'Minutes'), customMin, h('label', { for: 'clock-inc' }, 'Increment (s)'), customInc);
  clockSel.addEventListener('change', () => { custom.hidden = clockSel.value !== 'custom'; });

  const levelSel = h('select', { id: 'bot-level', name: 'bot-level' });
  const levelHelp = h('small', { class: 'help', id: 'bot-level-help' });
  levelSel.setAttribute('aria-describedby', 'bot-level-help');
  const drawLevels = () => {
    const chosen = load().botLevels?.[game] ?? DEFAULT_LEVEL;
    const list = botLevels.length ? botLevels : ['random'];
    replace(levelSel, ...list.map((b, i) => h('option', { value: b, selected: b === chosen }, levelName(b, i))));
    if (!list.includes(levelSel.value)) levelSel.value = list[0];
    levelHelp.textContent = levelInfo(levelSel.value);
  };
  levelSel.addEventListener('change', () => {
    save({ botLevels: { ...(load().botLevels ?? {}), [game]: levelSel.value } });
    levelHelp.textContent = levelInfo(levelSel.value);
  });
  redrawLevels = drawLevels;
  const form = h('form', { class: 'card create', 'aria-label': 'New game' },
    h('h2', {}, 'New game'), tabs, h('p', { class: 'rules-line' }, rulesLink), optionsBox,
    h('div', { class: 'field' }, h('label', { for: 'clock' }, 'Time control'), clockSel), custom,
    h('div', { class: 'field' }, h('label', { for: 'bot-level' }, 'Computer strength'), levelSel, levelHelp),
    h('div', { class: 'btn-row wrap' },
      h('button', { class: 'btn primary', type: 'submit', value: 'open' }, 'Create seek'),
      h('button', { class: 'btn', type: 'submit', value: 'link' }, 'Challenge a friend'),
      h('button', { class: 'btn', type: 'submit', value: 'bot' }, 'Play the computer')));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const mode = /** @type {HTMLButtonElement|null} */ (/** @type {SubmitEvent} */ (e).submitter)?.value ?? 'open';
    const g = spec(game);
    /** @type {Record<string, any>} */
    const options = {};
    for (const o of g.options) {
      const el = /** @type {HTMLInputElement|HTMLSelectElement} */ (form.querySelector(`[name="${o.key}"]`));
      options[o.key] = o.type === 'bool' ? /** @type {HTMLInputElement} */ (el).checked : el.value;
    }
    let clock = null;
    if (clockSel.value === 'custom') clock = { base: Math.round(Number(customMin.value) * 60), inc: Number(customInc.value) };
    else if (clockSel.value !== 'none') { const [b, i] = clockSel.value.split('+').map(Number); clock = { base: b, inc: i }; }
    try {
      if (mode === 'bot') {
        const r = await api('POST', '/api/bot-games', { game, options, clock, bot: levelSel.value || 'random' });
        rememberSeat(r.game, r.seat_token);
        return go(`/game/${r.game}`);
      }
      const r = await api('POST', mode === 'link' ? '/api/challenges' : '/api/seeks', { game, options, clock });
      save({ mySeeks: [...(load().mySeeks ?? []), r.seek.id].slice(-20) });
      if (mode === 'link') go(`/challenge/${r.seek.id}`);
      else toast('Seek created: waiting for an opponent.', 'good');
    } catch (err) {
      toast(String(/** @type {Error} */ (err).message), 'error');
    }
  });
  drawOptions();
  if (!botLevels.length) {
    api('GET', '/api/bots').then((r) => { botLevels = (r?.bots ?? []).map(String); redrawLevels(); }, () => {});
  }
  return form;
}

// ---------------------------------------------------------------- computer strength levels

/** The bots the server offers (GET /api/bots), weakest first: level 1, 2, … */
let botLevels = /** @type {string[]} */ ([]);
const DEFAULT_LEVEL = 'random';

/** How long an mcts or expert bot thinks a move, in ms (null for another bot). */
function thinkMs(/** @type {string} */ bot) {
  const m = bot.match(/^(?:mcts|expert)(?::.*\bms=(\d+))?/);
  return m ? Number(m[1] ?? 100) : null;
}

const LEVEL_WORDS = ['Beginner', 'Easy', 'Medium', 'Hard', 'Expert', 'Master', 'Grandmaster'];

/** A level's name in the strength list: "Level 3 · Medium". */
function levelName(/** @type {string} */ bot, /** @type {number} */ i) {
  return `Level ${i + 1} · ${LEVEL_WORDS[Math.min(i, LEVEL_WORDS.length - 1)]}`;
}

/** One line saying how a level plays. */
function levelInfo(/** @type {string} */ bot) {
  if (bot === 'random') return 'Plays any legal move at random: good for learning the rules.';
  if (bot === 'greedy') return 'Takes whatever it can at once, but never plans ahead.';
  const ms = thinkMs(bot);
  if (ms != null) return `Plays out many possible games before each move (thinks ${ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`} a move): ${ms >= 300 ? 'a strong opponent' : ms >= 100 ? 'a solid opponent' : 'quick, but sees traps'}.`;
  return `The computer player “${bot}”.`;
}

// ---------------------------------------------------------------- challenge by link

function challengeScreen(/** @type {string} */ id) {
  header();
  document.title = 'salpakan · Challenge';
  const me = load();
  if (!me.token) return replace(main, h('div', { class: 'lobby narrow' }, h('p', { class: 'card' }, 'You have been challenged to a game. Choose a name to accept.'), nameCard(() => challengeScreen(id))));
  const box = h('div', { class: 'card challenge' }, h('p', {}, 'Loading the challenge…'));
  replace(main, h('div', { class: 'lobby narrow' }, box));
  const conn = new Live((msg) => { if (msg.t === 'seat') seatFrame(msg); });
  leave = () => conn.close();
  api('GET', `/api/seeks/${id}`).then((r) => {
    /** @type {import('./net.js').Seek} */
    const s = r.seek;
    const link = `${location.origin}/challenge/${id}`;
    if ((load().mySeeks ?? []).includes(id)) {
      const field = h('input', { id: 'challenge-link', readonly: true, value: link });
      replace(box, h('h2', {}, 'Challenge a friend'), h('p', {}, `Send this link to your opponent. The game (${gameLabel(s.kind, s.options)}, ${clockLabel(s.clock)}) starts when they open it and accept.`),
        h('label', { for: 'challenge-link' }, 'Link'),
        h('div', { class: 'inline' }, field, h('button', { class: 'btn', type: 'button', onclick: () => { navigator.clipboard?.writeText(link).then(() => toast('Link copied.', 'good'), () => field.select()); } }, 'Copy')),
        h('p', { class: 'muted' }, 'Waiting for your opponent…'),
        h('button', { class: 'btn ghost', type: 'button', onclick: async () => { await api('DELETE', `/api/seeks/${id}`).catch(() => {}); go('/'); } }, 'Cancel challenge'));
    } else {
      replace(box, h('h2', {}, `${s.by} challenges you`), h('p', {}, `${gameLabel(s.kind, s.options)} · ${clockLabel(s.clock)}`),
        h('div', { class: 'btn-row' }, h('button', { class: 'btn primary', type: 'button', onclick: () => acceptSeek(id) }, 'Accept'), h('a', { class: 'btn ghost', href: '/', 'data-link': true }, 'Decline')));
    }
  }, () => replace(box, h('h2', {}, 'Challenge'), h('p', {}, 'This challenge is no longer open.'), h('a', { class: 'btn', href: '/', 'data-link': true }, 'Back to the lobby')));
}

// ---------------------------------------------------------------- the game

const REASONS = /** @type {Record<string,string>} */ ({
  flag_captured: 'by capturing the Flag', flag_reached: 'with the Flag on the far rank', resignation: 'by resignation', agreement: 'by agreement',
  time: 'on time', abandonment: 'by abandonment', forfeit: 'by forfeit', quiet_plies: 'after too many moves without a capture', no_legal_moves: 'as no legal move was left',
  no_moves: 'as no movable piece was left', no_pieces_left: 'as no pieces were left', repetition: 'by repetition', both_no_moves: 'as neither side could move',
});

/** @param {string} game @param {{winner: string|null, reason: string}} r */
function resultShort(game, r) {
  return r.winner ? `${cap(r.winner)} won` : 'Draw';
}

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

/** A line describing a ply for the move list and the notice. */
function plyText(/** @type {GameSpec} */ g, /** @type {any} */ v, /** @type {string|null} */ you) {
  const who = v.seat === you ? 'You' : cap(v.seat);
  if (g.name === 'banqi') {
    const name = (/** @type {string|undefined} */ c) => (c ? pieceName('banqi', c) : '');
    if (v.action === 'flip') return `${who} flipped ${v.move}: ${name(v.revealed)}`;
    if (v.action === 'capture') return `${who}: ${name(v.piece)} ${v.move} captured ${name(v.captured)}`;
    if (v.action === 'attempt') return `${who} tried ${v.move}, turning up ${name(v.revealed)}`;
    if (v.action === 'end_chain') return `${who} ended the capture chain`;
    return `${who}: ${name(v.piece)} ${v.move}`;
  }
  const move = `${v.from}–${v.to}`;
  const c = v.challenge ?? v.attack;
  const rescue = v.rescue ? `; rescued ${pieceName(g.name, v.rescue.piece)} to ${v.rescue.square}` : '';
  if (!c) return `${who}: ${v.piece ? pieceName(g.name, v.piece) + ' ' : ''}${move}${rescue}`;
  const att = c.attacker ?? v.piece, def = c.defender;
  const an = att ? pieceName(g.name, att) : 'a piece', dn = def ? pieceName(g.name, def) : 'a piece';
  const verb = g.name === 'generals' ? 'challenged' : 'attacked';
  const res = c.result === 'attacker_wins' ? `${cap(an)} won` : c.result === 'defender_wins' ? `${cap(dn)} won` : 'both removed';
  return `${who}: ${move}, ${an} ${verb} ${dn}: ${res}${rescue}`;
}

/** What a challenge meant for the viewer, in one sentence. */
function challengeNotice(/** @type {GameSpec} */ g, /** @type {any} */ v, /** @type {string|null} */ you) {
  const c = v.challenge ?? v.attack;
  if (!c) return null;
  const mine = v.seat === you;
  const attackerSide = mine ? 'Your' : you ? 'Their' : cap(v.seat) + '’s';
  const defenderSide = mine ? 'their' : you ? 'your' : 'the other';
  const att = c.attacker ?? v.piece, def = c.defender;
  const an = `${attackerSide} ${att ? pieceName(g.name, att) : 'piece'}`;
  const dn = `${defenderSide} ${def ? pieceName(g.name, def) : 'piece'}`;
  if (c.result === 'attacker_wins') return `${an} removed ${dn} on ${v.to}.`;
  if (c.result === 'defender_wins') return `${an} was removed by ${dn} on ${v.to}.`;
  return `${an} and ${dn} were both removed on ${v.to}.`;
}

function gameScreen(/** @type {string} */ id) {
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

  const root = h('div', { class: 'game-screen' }, h('p', { class: 'card' }, 'Connecting…'));
  replace(main, root);
  const token = seatToken(id);
  const conn = new Live(onMessage, (open) => {
    root.classList.toggle('offline', !open);
    if (open) conn.send({ t: 'join', game: id, seat_token: token ?? undefined, since: st?.ver ?? undefined });
  });
  const tick = setInterval(drawClocks, 100);
  leave = () => { conn.close(); clearInterval(tick); };

  /** @param {any} msg */
  function onMessage(msg) {
    if (msg.t === 'error' && !st) {
      // the join was refused (an unknown game): say so instead of "Connecting…" for ever
      conn.close();
      clearInterval(tick);
      root.replaceChildren(h('div', { class: 'card game-missing', role: 'alert' }, h('h2', {}, 'Game not found'),
        h('p', {}, msg.error ?? 'There is no such game.'), h('p', { class: 'muted' }, 'Check the link, or start a new game from the lobby.'),
        h('a', { class: 'btn primary', href: '/', 'data-link': true }, 'Back to the lobby')));
      return;
    }
    if (msg.t === 'error') return toast(msg.error ?? 'Refused.', 'error');
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
    applyEvent(st, msg.e);
    st.ver = msg.ver;
    const e = msg.e;
    if (e.type === 'chat') return drawChat();
    if (e.type === 'move') {
      const g = spec(st.kind);
      const v = e.view;
      last = plySquares(v);
      const n = challengeNotice(g, v, st.seat);
      notice = n ?? (g.name === 'banqi' && v.action !== 'move' ? plyText(g, v, st.seat) : null);
      flash = n ? new Set([v.from, v.to]) : new Set();
      sound(n || v.action === 'capture' ? 'challenge' : 'move');
    }
    if (e.type === 'start') sound('notify');
    if (e.type === 'end' && !wasOver) { sound('end'); notice = null; }
    if (e.type === 'rematch' && st.seat) {
      const t = seatToken(e.game);
      if (t) go(`/game/${e.game}`);
    }
    selected = null;
    draw();
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
    document.title = `salpakan · ${g.title}`;
    document.getElementById('nav-rules')?.setAttribute('href', `/rules/${g.name}`);
    const seats = g.seats;
    const you = st.seat ?? null;
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
    root.replaceChildren(
      h('div', { class: 'play-area' },
        h('h1', { class: 'sr-only' }, g.title),
        resultBanner(g),
        playerBar(g, top, 'top'),
        h('div', { class: 'board-wrap' }, board.el),
        h('div', { class: 'board-actions', id: 'board-actions' }),
        playerBar(g, bottom, 'bottom')),
      sidePanel(g));
    if (typing) document.getElementById('chat-input')?.focus();
    if (onBoard) board.focus();
    drawClocks();
    renderBoard();
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
    replace(box, ...(canEnd ? [h('p', { class: 'chain-hint' }, 'Your piece may capture again, or you can stop here.'),
      h('button', { class: 'btn primary', type: 'button', id: 'end-chain', onclick: () => play('end') }, 'End capture chain')] : []));
  }

  /** The result, large, above the board once the game is over: who won and why. */
  function resultBanner(/** @type {GameSpec} */ g) {
    const r = st.result;
    if (!r) return null;
    const you = st.seat;
    const head = !r.winner ? 'Draw' : r.winner === you ? 'You won!' : you ? 'You lost' : `${playerName(r.winner)} won`;
    const who = r.winner ? `${playerName(r.winner)} (${cap(sideClass(g, r.winner, st.colours ?? undefined) || r.winner)}) won` : 'Nobody won';
    const why = REASONS[r.reason] ?? (r.reason ? r.reason.replace(/_/g, ' ') : '');
    return h('div', { class: `result-banner ${!r.winner ? 'draw' : r.winner === you ? 'win' : you ? 'loss' : 'neutral'}`, role: 'alert' },
      h('strong', {}, head), h('span', {}, `${who}${why ? ' ' + why : ''}.`));
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
    const piece = h('select', { name: 'piece', 'aria-label': 'Piece to rescue' },
      [...rescues.keys()].map((p) => h('option', { value: p }, pieceName(g.name, p))));
    const square = h('select', { name: 'square', 'aria-label': 'Square to put it on' });
    const fill = () => replace(square, (rescues.get(piece.value) ?? []).map((q) => h('option', { value: q }, q)));
    piece.addEventListener('change', fill);
    fill();
    const done = (/** @type {string} */ m) => { dlg.close(); dlg.remove(); send(m); };
    const dlg = h('dialog', { class: 'rescue', 'aria-label': 'Rescue' },
      h('form', { method: 'dialog' },
        h('h2', {}, 'Rescue'),
        h('p', {}, 'Your piece reaches the enemy’s back rank: you may bring back one of your captured pieces onto an empty square of your half (if your piece wins its attack).'),
        h('label', {}, 'Piece ', piece),
        h('label', {}, 'Square ', square),
        h('div', { class: 'actions' },
          h('button', { class: 'btn primary', type: 'button', onclick: () => done(`${move}+${piece.value}@${square.value}`) }, 'Rescue'),
          h('button', { class: 'btn', type: 'button', onclick: () => done(move) }, 'No rescue'))));
    document.body.append(dlg);
    dlg.showModal();
  }

  /** @param {string} move */
  function send(move) {
    selected = null;
    st.legal = [];
    if (!conn.send({ t: 'move', game: id, move })) toast('Not connected: reconnecting…', 'error');
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
        if (!conn.send({ t: 'setup', game: id, setup: p })) throw new Error('Not connected: try again in a moment.');
        // the server does not echo the setup: keep it to draw while the opponent sets up
        /** @type {any} */ (st).your_setup = p;
      },
    });
    // a one-click game starts with a random setup in the editor: Ready is one more click
    if (quickGame === id) { quickGame = null; editor.random(); }
    root.classList.add('setup-mode');
    root.replaceChildren(h('div', { class: 'setup-head' }, h('h1', {}, `${g.title}: you play ${cap(you)}`), h('p', { class: 'muted' }, `Against ${playerName(opp)} · ${clockLabel(st.clock)}`)), editor.el);
    drawSetupStatus(g);
  }

  /** @param {GameSpec} g */
  function drawSetupStatus(g) {
    const opp = g.seats[1 - g.seats.indexOf(st.seat ?? '')];
    const el = document.getElementById('opponent-status');
    if (el) el.textContent = `${playerName(opp)} ${st.setups?.[opp] ? 'is ready.' : 'is still setting up…'}`;
  }

  /** @param {string} seat */
  function playerName(seat) {
    return st.players?.[seat]?.name ?? cap(seat);
  }

  /** @param {GameSpec} g @param {string} seat @param {string} where */
  function playerBar(g, seat, where) {
    const side = sideClass(g, seat, st.colours ?? undefined);
    const p = st.players?.[seat];
    const toMove = !st.result && st.to_move === seat && st.status === 'playing';
    const captured = capturedOf(g, seat);
    return h('div', { class: `player-bar ${where}${toMove ? ' to-move' : ''}`, dataset: { seat } },
      h('span', { class: `seat-chip side-${side || 'none'}`, 'aria-hidden': 'true' }),
      h('span', { class: 'who' }, h('strong', {}, p?.name ?? cap(seat)), p?.bot ? h('span', { class: 'badge' }, 'bot') : null,
        h('small', {}, g.name === 'banqi' ? (side ? cap(side) : 'colour not yet known') : cap(seat)), seat === st.seat ? h('small', { class: 'you' }, ' (you)') : null),
      h('span', { class: 'captured', role: 'img', 'aria-label': `${cap(seat)}’s lost pieces: ${captured.length ? captured.map((c) => c === '?' ? 'unknown' : pieceName(g.name, c)).join(', ') : 'none'}` }, captured.map((c) => pieceElement(g.name, c === '?' ? null : c, g.name === 'banqi' ? colourOf(c) : seat))),
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
    const status = st.result
      ? `${st.result.winner ? (st.result.winner === you ? 'You won' : `${playerName(st.result.winner)} won`) : 'Draw'}${REASONS[st.result.reason] ? ' ' + REASONS[st.result.reason] : ''}.`
      : st.status === 'setup' ? (you && st.setups?.[you] ? 'Ready. Waiting for your opponent’s setup…' : 'The players are setting up.')
      : you ? (st.to_move === you ? 'Your move.' : `${playerName(st.to_move ?? '')} to move.`)
      : `Watching · ${playerName(st.to_move ?? '')} to move.`;
    const actions = h('div', { class: 'btn-row wrap actions' });
    if (you && !st.result) {
      if (st.draw_offer && st.draw_offer !== you) {
        actions.append(h('span', { class: 'offer' }, 'Draw offered.'),
          h('button', { class: 'btn primary small', type: 'button', onclick: () => conn.send({ t: 'draw_accept', game: id }) }, 'Accept draw'),
          h('button', { class: 'btn small', type: 'button', onclick: () => conn.send({ t: 'draw_decline', game: id }) }, 'Decline'));
      } else {
        actions.append(h('button', { class: 'btn small', type: 'button', disabled: st.draw_offer === you, onclick: () => conn.send({ t: 'draw_offer', game: id }) }, st.draw_offer === you ? 'Draw offered' : 'Offer draw'));
      }
      actions.append(h('button', { class: 'btn small danger', type: 'button', onclick: () => { if (confirm('Resign this game?')) conn.send({ t: 'resign', game: id }); } }, 'Resign'));
    }
    if (st.result) {
      if (you && st.rematch) actions.append(h('a', { class: 'btn small primary', href: `/game/${st.rematch}`, 'data-link': true }, 'Go to the rematch'));
      else if (you) actions.append(h('button', { class: 'btn small primary', type: 'button', disabled: st.rematch_offer === you, onclick: () => conn.send({ t: 'rematch', game: id }) },
        st.rematch_offer && st.rematch_offer !== you ? 'Accept rematch' : st.rematch_offer === you ? 'Rematch offered' : 'Rematch'));
      actions.append(h('a', { class: 'btn small', href: `/replay/${id}`, 'data-link': true }, 'Replay'),
        h('a', { class: 'btn small', href: `/api/games/${id}/record`, download: `salpakan-${id}.txt` }, 'Download record'));
    }
    const moves = h('ol', { class: 'moves', 'aria-label': 'Moves' }, plies.map((/** @type {any} */ v) => h('li', {}, plyText(g, v, you))));
    queueMicrotask(() => { moves.scrollTop = moves.scrollHeight; });
    return h('aside', { class: 'side-panel' },
      h('div', { class: `status${st.result ? ' over' : ''}`, role: 'status', 'aria-live': 'polite' }, status),
      notice ? h('div', { class: 'notice', role: 'alert' }, notice) : null,
      actions,
      h('details', { class: 'moves-box', open: true }, h('summary', {}, `Moves (${plies.length})`), moves),
      chatBox(),
      h('p', { class: 'muted small' }, `${gameLabel(g.name, st.options)} · ${clockLabel(st.clock)}`));
  }

  function chatBox() {
    const input = h('input', { id: 'chat-input', maxlength: '300', autocomplete: 'off', placeholder: st.seat ? 'Say something' : 'Chat (players only)', disabled: !st.seat, value: chatDraft,
      oninput: () => { chatDraft = input.value; } });
    const log = h('ul', { class: 'chat-log', id: 'chat-log', 'aria-label': 'Chat' });
    const form = h('form', { class: 'chat', onsubmit: (/** @type {Event} */ e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (text && conn.send({ t: 'chat', game: id, text })) { input.value = ''; chatDraft = ''; }
    } }, h('label', { for: 'chat-input', class: 'sr-only' }, 'Chat message'), log, h('div', { class: 'inline' }, input, h('button', { class: 'btn small', type: 'submit', disabled: !st.seat }, 'Send')));
    queueMicrotask(drawChat);
    return h('details', { class: 'chat-box', open: true }, h('summary', {}, 'Chat'), form);
  }

  function drawChat() {
    const log = document.getElementById('chat-log');
    if (!log) return;
    replace(log, ...(st?.chat ?? []).map((/** @type {any} */ l) => h('li', {}, h('strong', {}, l.name ?? cap(l.seat ?? '')), ' ', l.text)));
    log.scrollTop = log.scrollHeight;
  }
}

// ---------------------------------------------------------------- rules

/** A rules page (rules.js draws it); a #section in the link scrolls there. */
function rulesScreen(/** @type {import('./pieces.js').GameName} */ game) {
  header();
  document.getElementById('nav-rules')?.setAttribute('href', `/rules/${game}`);
  document.title = rulesTitle(game);
  // a link within the page (#section) only scrolls: the page stays as it is
  if (!main.querySelector(`[data-rules="${game}"]`)) replace(main, rulesPage(game));
  const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
  if (target) target.scrollIntoView();
  else window.scrollTo(0, 0);
}

// ---------------------------------------------------------------- replay

async function replayScreen(/** @type {string} */ id) {
  header();
  const T = REPLAY;
  document.title = `salpakan · ${T.title}`;
  replace(main, h('p', { class: 'card' }, T.loading));
  /** @type {string} */
  let text;
  try {
    text = await api('GET', `/api/games/${id}/record`);
  } catch (e) {
    return replace(main, h('div', { class: 'card' }, h('h2', {}, T.title), h('p', {}, String(/** @type {Error} */ (e).message)), h('a', { class: 'btn', href: '/', 'data-link': true }, T.back)));
  }
  let rep;
  try {
    rep = replayRecord(text);
  } catch {
    return replace(main, h('div', { class: 'card' }, h('h2', {}, T.title), h('p', {}, T.unreadable)));
  }
  const g = spec(rep.game);
  document.getElementById('nav-rules')?.setAttribute('href', `/rules/${g.name}`);
  // a seat's own copy (the game is on, or never reveals) lacks the other army: no board to replay
  if (rep.tags.Copy && rep.tags.Copy !== 'full') {
    return replace(main, h('div', { class: 'card' }, h('h2', {}, T.title), h('p', {}, T.ownCopyOnly),
      h('div', { class: 'btn-row wrap' }, h('a', { class: 'btn', href: `/api/games/${id}/record`, download: `salpakan-${id}.txt` }, T.downloadOwn), h('a', { class: 'btn', href: `/game/${id}`, 'data-link': true }, T.watch))));
  }
  if (!rep.tags.WhiteSetup && !rep.tags.RedSetup && !rep.tags.Deal) {
    return replace(main, h('div', { class: 'card' }, h('h2', {}, T.title), h('p', {}, T.notPublished), h('a', { class: 'btn', href: `/game/${id}`, 'data-link': true }, T.watch)));
  }
  const last = rep.positions.length - 1;
  // a shared link opens at its ply and view: /replay/<id>?ply=N&view=white
  const q = new URLSearchParams(location.search);
  const askedPly = Number.parseInt(q.get('ply') ?? '', 10);
  let at = Number.isFinite(askedPly) ? Math.max(0, Math.min(last, askedPly)) : last;
  let view = g.seats.includes(q.get('view') ?? '') ? /** @type {string} */ (q.get('view')) : 'full';
  let flipped = view === g.seats[1];
  let board = new Board(g, flipped, {});
  const wrap = h('div', { class: 'board-wrap' }, board.el);
  const flip = () => {
    flipped = !flipped;
    board = new Board(g, flipped, {});
    wrap.replaceChildren(board.el);
    show(at);
  };
  const flipBtn = h('button', { class: 'btn small', type: 'button', id: 'replay-flip', 'aria-pressed': 'false', onclick: flip }, T.flip);
  const slider = h('input', { type: 'range', id: 'replay-ply', min: '0', max: String(last), value: String(at) });
  const label = h('p', { class: 'replay-label', role: 'status', 'aria-live': 'polite' });
  const viewSel = h('select', { id: 'replay-view', name: 'view' },
    h('option', { value: 'full' }, T.viewFull), ...g.seats.map((seat) => h('option', { value: seat }, T.viewSeat(cap(seat)))));
  viewSel.value = view;
  viewSel.addEventListener('change', () => {
    view = viewSel.value;
    drawMoves();
    show(at);
  });
  const moves = h('ol', { class: 'moves', 'aria-label': 'Moves' });
  /** @type {string[]} */
  let words = [];
  const drawMoves = () => {
    words = rep.plies.map((p, i) => replayWords(g, p, rep.positions[i], view));
    replace(moves, ...rep.plies.map((p, i) => h('li', {}, h('button', { type: 'button', class: 'link', dataset: { ply: String(i + 1) }, onclick: () => show(i + 1) }, words[i]))));
  };
  /** @type {ReturnType<typeof setInterval>|null} */
  let timer = null;
  const playBtn = h('button', { class: 'btn small', type: 'button', id: 'replay-play', 'aria-pressed': 'false', onclick: () => (timer ? pause() : play()) }, T.play);
  const pause = () => {
    if (timer) clearInterval(timer);
    timer = null;
    playBtn.textContent = T.play;
    playBtn.setAttribute('aria-pressed', 'false');
  };
  const play = () => {
    if (at >= last) show(0);
    timer = setInterval(() => { show(at + 1); if (at >= last) pause(); }, 900);
    playBtn.textContent = T.pause;
    playBtn.setAttribute('aria-pressed', 'true');
  };
  leave = pause;
  const link = () => `/replay/${id}?ply=${at}${view === 'full' ? '' : `&view=${view}`}`;
  const share = h('button', { class: 'btn small', type: 'button', id: 'replay-share', onclick: () => {
    const url = location.origin + link();
    navigator.clipboard?.writeText(url).then(() => toast(T.copied, 'good'), () => toast(url));
  } }, T.share);
  const show = (/** @type {number} */ i) => {
    at = Math.max(0, Math.min(last, i));
    slider.value = String(at);
    flipBtn.setAttribute('aria-pressed', String(flipped));
    const p = rep.plies[at - 1];
    board.render(viewOf(g.name, rep.positions[at], view), { last: p?.from ? { from: p.from, to: p.to ?? p.from } : null });
    label.textContent = at === 0 ? (g.name === 'banqi' ? T.startBanqi : view === 'full' ? T.startFull : T.startSeat(cap(view))) : T.plyOf(at, rep.plies.length, words[at - 1]);
    moves.querySelectorAll('li').forEach((li, j) => li.classList.toggle('current', j === at - 1));
    // keep the current move in sight within the list (the page itself does not scroll)
    const cur = moves.querySelector('li.current');
    if (cur) moves.scrollTop += cur.getBoundingClientRect().top - moves.getBoundingClientRect().top - moves.clientHeight / 2;
    if (location.pathname === `/replay/${id}`) history.replaceState(null, '', link());
  };
  slider.addEventListener('input', () => show(Number(slider.value)));
  const resultWords = rep.tags.Result === '1-0' ? T.seatWon(cap(g.seats[0])) : rep.tags.Result === '0-1' ? T.seatWon(cap(g.seats[1])) : rep.tags.Result && rep.tags.Result !== '*' ? T.draw : T.unfinished;
  const players = `${rep.tags.White ?? rep.tags.Red ?? rep.tags.First ?? ''}${rep.tags.Black || rep.tags.Blue || rep.tags.Second ? ' vs ' + (rep.tags.Black ?? rep.tags.Blue ?? rep.tags.Second) : ''}`;
  drawMoves();
  replace(main, h('div', { class: 'game-screen replay' },
    h('div', { class: 'play-area' }, wrap),
    h('aside', { class: 'side-panel' },
      h('h1', {}, T.heading(g.title)),
      players ? h('p', {}, players) : null,
      h('p', { class: 'muted result-line' }, `${resultWords}${rep.tags.Reason ? ` ${REASONS[rep.tags.Reason] ?? rep.tags.Reason}` : ''} (${rep.tags.Result ?? '*'})`),
      h('div', { class: 'field replay-view' }, h('label', { for: 'replay-view' }, T.view), viewSel),
      h('label', { for: 'replay-ply' }, T.move), slider, label,
      h('div', { class: 'btn-row wrap' },
        h('button', { class: 'btn small icon', type: 'button', 'aria-label': T.first, onclick: () => show(0), html: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 5h2v14H6zM20 5v14L9 12z" fill="currentColor"/></svg>' }),
        h('button', { class: 'btn small icon', type: 'button', 'aria-label': T.previous, onclick: () => show(at - 1), html: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M18 5v14L7 12z" fill="currentColor"/></svg>' }),
        h('button', { class: 'btn small icon', type: 'button', 'aria-label': T.next, onclick: () => show(at + 1), html: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 5v14l11-7z" fill="currentColor"/></svg>' }),
        h('button', { class: 'btn small icon', type: 'button', 'aria-label': T.last, onclick: () => show(last), html: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M16 5h2v14h-2zM4 5v14l11-7z" fill="currentColor"/></svg>' }),
        playBtn),
      h('div', { class: 'btn-row wrap' },
        flipBtn, share,
        h('a', { class: 'btn small', href: `/api/games/${id}/record`, download: `salpakan-${id}.txt` }, T.download)),
      h('details', { class: 'moves-box', open: true }, h('summary', {}, T.moves(rep.plies.length)), moves))));
  document.addEventListener('keydown', function key(e) {
    if (!document.body.contains(slider)) return document.removeEventListener('keydown', key);
    if (e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement) return;
    if (e.key === 'ArrowLeft') show(at - 1);
    if (e.key === 'ArrowRight') show(at + 1);
  });
  show(at);
}

/**
 * A replayed move in its game's own words, from the full position before it, naming only
 * the pieces the viewer ('full' or a seat) knew: a seat's view never says more than it saw.
 * @param {GameSpec} g @param {import('./record.js').ReplayPly} p
 * @param {import('./record.js').FullPosition} before @param {string} view
 */
function replayWords(g, p, before, view) {
  const T = REPLAY;
  const who = cap(p.seat);
  const name = (/** @type {import('./record.js').FullSquare|undefined} */ sq, /** @type {boolean} */ shown = false) =>
    (sq && (shown || knows(sq, view)) ? pieceName(g.name, sq.piece) : T.aPiece);
  const face = (/** @type {import('./record.js').FullSquare|undefined} */ sq) => (sq ? pieceName(g.name, sq.piece) : T.aPiece);
  if (p.token === 'end') return T.endChain(who);
  // Banqi: a flip and a tried face-down piece turn it up for everyone
  if (!p.to) return T.flipped(who, p.from ?? p.token, face(before[p.from ?? p.token]));
  const mover = before[p.from ?? ''], target = before[p.to ?? ''];
  const path = `${p.from}–${p.to}`;
  if (g.name === 'banqi') {
    if (target?.faceDown) return T.triedFaceDown(who, face(mover), path, face(target));
    return target ? T.captured(who, face(mover), path, face(target)) : T.moved(who, face(mover), path);
  }
  if (!p.outcome || !target) return T.moved(who, name(mover, p.shown?.mover), path);
  const m = name(mover, p.shown?.mover), d = name(target, p.shown?.target);
  const verb = g.name === 'generals' ? T.challenged : T.attacked;
  const res = p.outcome === 'win' ? T.won(m) : p.outcome === 'loss' ? T.won(d) : T.bothRemoved;
  return T.battle(who, m, path, verb, d, res);
}

// ---------------------------------------------------------------- start

installSprite();
applyMotion();
route();
