// The lobby (first visit, seeks with their creators' ratings and completion, live and recent
// games, the new-game form with the computer's strength levels and the rated/casual switch)
// and the challenge-by-link screen.

import { h, replace, toast } from './dom.js';
import { pieceElement } from './pieces.js';
import { GAMES, GAME_NAMES, spec, gameTitle, optionText, seatName } from './games.js';
import { api, ensureGuest, Live, rememberSeat, seatToken, refreshSeats, signedIn } from './net.js';
import { load, save, sound } from './settings.js';
import { rulesGame } from './rules.js';
import { T } from './i18n.js';
import { go, main, onLeave } from './router.js';
import { header } from './header.js';
import { gameLabel, clockLabel, resultShort } from './words.js';
import { BOARDS, authDialog, boardName, playerLink, ratingText } from './account.js';

/** The time controls offered: value, then its label (custom: minutes and increment typed in). */
const CLOCKS = ['none', '300+3', '600+5', '900+10', '1800+0', 'custom'];

/** A time control's label in the form. */
function clockChoice(/** @type {string} */ v) {
  if (v === 'none') return T.clock.none;
  if (v === 'custom') return T.clock.custom;
  const [b, i] = v.split('+').map(Number);
  return clockLabel({ base: b, inc: i });
}

/** The game a one-click start made: its setup editor opens with a random setup, ready. */
export const quick = { game: /** @type {string|null} */ (null) };

function nameCard(/** @type {() => void} */ then, intro = true) {
  const W = T.welcome;
  const input = h('input', { id: 'name', name: 'name', autocomplete: 'nickname', maxlength: '24', required: true, value: load().name ?? '', placeholder: W.namePlaceholder });
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
    h('h2', {}, W.nameTitle),
    intro ? h('p', {}, W.nameIntro) : null,
    h('label', { for: 'name' }, W.nameLabel),
    h('div', { class: 'inline' }, input, h('button', { class: 'btn primary', type: 'submit' }, W.continue)),
    h('p', { class: 'small have-account' }, W.haveAccount, ' ',
      h('button', { class: 'btn link inline-link', type: 'button', onclick: () => authDialog('login') }, T.account.signIn)));
  return form;
}

export function lobbyScreen() {
  header();
  const L = T.lobby;
  document.title = T.app.title(L.title);
  if (!signedIn()) {
    replace(main, h('div', { class: 'lobby narrow' }, hero(), quickPlay(), nameCard(() => lobbyScreen(), false)));
    return;
  }
  const seeks = h('ul', { class: 'list', id: 'seeks', 'aria-label': L.seeks });
  const live = h('ul', { class: 'list', id: 'live-games', 'aria-label': L.live });
  const mine = h('ul', { class: 'list', id: 'my-games', 'aria-label': L.mine });
  const ended = h('ul', { class: 'list', id: 'ended-games', 'aria-label': L.recent });
  replace(main, h('div', { class: 'lobby' },
    h('h1', { class: 'sr-only' }, L.heading),
    h('div', { class: 'lobby-main' }, createForm()),
    h('div', { class: 'lobby-lists' },
      h('section', { class: 'card', id: 'arbiter-card' }, h('h2', {}, T.arbiter.title), h('p', { class: 'muted' }, T.arbiter.intro),
        h('a', { class: 'btn', href: '/arbiter', 'data-link': true }, T.arbiter.lobbyLink)),
      h('section', { class: 'card' }, h('h2', {}, L.seeks), seeks),
      h('section', { class: 'card' }, h('h2', {}, L.live), live),
      h('section', { class: 'card' }, h('h2', {}, L.mine), mine),
      h('section', { class: 'card' }, h('h2', {}, L.recent), ended),
      h('section', { class: 'card', id: 'leaderboards-card' }, h('h2', {}, T.leaderboard.heading),
        h('ul', { class: 'board-links' }, BOARDS.map((b) => h('li', {}, h('a', { class: 'btn small', href: `/leaderboard/${b}`, 'data-link': true }, boardName(b)))))))));
  /** @type {Map<string, any>} */
  const seekMap = new Map();
  /** @type {Map<string, any>} */
  const gameMap = new Map();
  const draw = () => {
    renderSeeks(seeks, [...seekMap.values()]);
    renderGames(live, [...gameMap.values()]);
  };
  // the player's own ratings and completion: which seeks it may accept
  standing = null;
  myStanding().then((st) => { standing = st; draw(); });
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
  onLeave(() => conn.close());
  myGames(mine);
  recentGames(ended);
}

/** Finished public games, newest first: each can be replayed with the full reveal. */
async function recentGames(/** @type {HTMLElement} */ list) {
  const r = await api('GET', '/api/games?status=ended').catch(() => null);
  const games = (r?.games ?? []).slice(0, 8);
  if (!games.length) return replace(list, h('li', { class: 'empty' }, T.lobby.noRecent));
  renderGames(list, games);
}

/** A game was made for this guest (a seek accepted, a rematch): go and play it. */
export function seatFrame(/** @type {any} */ msg) {
  rememberSeat(msg.game, msg.seat_token);
  sound('notify');
  go(`/game/${msg.game}`);
}

/** The guest's own games, newest last in the server's list: shown newest first. */
async function myGames(/** @type {HTMLElement} */ list) {
  const me = await refreshSeats();
  const ids = (me?.games ?? []).map((/** @type {any} */ g) => g.game).reverse().slice(0, 8);
  if (!ids.length) return replace(list, h('li', { class: 'empty' }, T.lobby.noMine));
  const rows = await Promise.all(ids.map((/** @type {string} */ id) => api('GET', `/api/games/${id}`).catch(() => null)));
  renderGames(list, rows.filter(Boolean));
}

/** A game's icon: one of its pieces. */
function gameIcon(/** @type {string} */ name) {
  return name === 'generals' ? pieceElement('generals', '4G', 'white') : name === 'stratego' ? pieceElement('stratego', '10', 'red') : pieceElement('banqi', 'K', 'red');
}

function hero() {
  const W = T.welcome;
  const art = h('div', { class: 'hero-art', 'aria-hidden': 'true' },
    pieceElement('generals', '5G', 'white'), pieceElement('stratego', '10', 'red'), pieceElement('banqi', 'K', 'red'), pieceElement('banqi', null, ''), pieceElement('generals', null, 'black'));
  return h('section', { class: 'hero' }, art, h('h1', {}, 'salpakan'), h('p', { class: 'tagline' }, W.tagline),
    h('p', { class: 'intro', id: 'intro-1' }, W.line1), h('p', { class: 'intro', id: 'intro-2' }, W.line2));
}

/** One click, one game against the computer: a default name, level, options and no clock. */
function quickPlay() {
  const W = T.welcome;
  const start = async (/** @type {string} */ game, /** @type {HTMLButtonElement} */ btn) => {
    btn.disabled = true;
    try {
      const typed = /** @type {HTMLInputElement|null} */ (document.getElementById('name'))?.value.trim();
      await ensureGuest(typed || load().name || W.defaultName);
      header();
      if (!botLevels.length) botLevels = ((await api('GET', '/api/bots'))?.bots ?? []).map(String);
      // a friendly level: the one last chosen for this game, else level 2 (never planning ahead)
      const bot = load().botLevels?.[game] ?? botLevels[1] ?? botLevels[0] ?? DEFAULT_LEVEL;
      const r = await api('POST', '/api/bot-games', { game, options: {}, clock: null, bot });
      rememberSeat(r.game, r.seat_token);
      quick.game = r.game;
      go(`/game/${r.game}`);
    } catch (err) {
      btn.disabled = false;
      toast(String(/** @type {Error} */ (err).message), 'error');
    }
  };
  return h('section', { class: 'card quick-play', 'aria-labelledby': 'quick-title' },
    h('h2', { id: 'quick-title' }, W.quickTitle),
    h('p', { class: 'muted' }, W.quickHelp),
    h('div', { class: 'quick-buttons' }, GAME_NAMES.map((name) => {
      const btn = h('button', { type: 'button', class: 'btn quick', dataset: { quick: name }, 'aria-label': W.quickLabel(gameTitle(name)),
        onclick: () => start(name, btn) }, gameIcon(name), h('span', {}, gameTitle(name)));
      return btn;
    })),
    h('p', { class: 'muted small' }, W.orName));
}

/**
 * What the player brings to a seek: an account or not, its rating per board, its completion.
 * @typedef {{account: boolean, ratings: Record<string, {rating: number, provisional?: boolean}>, completion: number|null}} Standing
 */

/** The player's standing, or null while it is not known (a seek is then never greyed). */
let standing = /** @type {Standing|null} */ (null);

/** The player's own standing: a guest has no ratings; an account's come from its profile. */
async function myStanding() {
  const me = load();
  if (!me.account) return { account: false, ratings: {}, completion: null };
  try {
    const p = await api('GET', `/api/players/${encodeURIComponent(me.name ?? '')}`);
    return { account: true, ratings: p.ratings ?? {}, completion: p.reputation?.completion ?? null };
  } catch {
    return { account: true, ratings: {}, completion: null };
  }
}

/** Why the player cannot accept this seek (a sentence), or null when it may. */
function blockedBy(/** @type {import('./net.js').Seek} */ s) {
  const L = T.lobby;
  if (!standing) return null;
  const range = s.rating_min != null || s.rating_max != null;
  // the server's rules (docs/ratings.md): a rated seek or a rating range needs an account;
  // a completion rate is known after 5 finished games, and until then it is too low
  if ((s.rated || range) && !standing.account) return L.needAccount;
  if (range && s.board) {
    const mine = standing.ratings[s.board]?.rating ?? 1500;
    const lo = s.rating_min ?? null, hi = s.rating_max ?? null;
    if ((lo != null && mine < lo) || (hi != null && mine > hi)) return L.needRating(lo, hi);
  }
  if (s.min_completion && (standing.completion == null || standing.completion < s.min_completion)) return L.needCompletion(s.min_completion);
  return null;
}

/** A seek's creator as the lobby shows it: name, rating (with `?`), completion. */
function seekBy(/** @type {import('./net.js').Seek} */ s) {
  const L = T.lobby;
  const rating = ratingText(s.by_rating, s.by_provisional);
  return h('span', { class: 'seek-by' },
    s.by_account ? playerLink(s.by, { class: 'name' }) : h('strong', { class: 'name' }, s.by),
    rating ? h('span', { class: 'rating', title: L.ratingTitle(boardName(s.board ?? s.kind)) }, rating) : null,
    s.by_completion != null ? h('span', { class: 'completion', title: L.completionTitle }, L.completion(s.by_completion)) : null);
}

/** @param {HTMLElement} list @param {import('./net.js').Seek[]} items */
function renderSeeks(list, items) {
  const L = T.lobby;
  const me = load();
  const mine = new Set(me.mySeeks ?? []);
  if (!items.length) return replace(list, h('li', { class: 'empty' }, L.noSeeks));
  replace(list, ...items.map((s) => {
    const own = mine.has(s.id) || (!!s.by_id && s.by_id === me.userId);
    const why = own ? null : blockedBy(s);
    const terms = [gameLabel(s.kind, s.options), clockLabel(s.clock), s.rated ? L.rated : L.casual,
      s.min_completion ? L.minCompletionShort(s.min_completion) : null,
      s.rating_min != null || s.rating_max != null ? L.rangeShort(s.rating_min ?? null, s.rating_max ?? null) : null].filter(Boolean).join(' · ');
    const whyId = `seek-why-${s.id}`;
    return h('li', { class: `row${why ? ' blocked' : ''}`, dataset: { seek: s.id } },
      h('span', { class: `game-dot ${s.kind}`, 'aria-hidden': 'true' }),
      h('span', { class: 'grow' }, seekBy(s), s.rated ? h('span', { class: 'badge rated' }, L.rated) : null, h('br'), h('small', {}, terms),
        why ? h('small', { class: 'why', id: whyId }, why) : null),
      own
        ? h('button', { class: 'btn small ghost', type: 'button', onclick: () => api('DELETE', `/api/seeks/${s.id}`).catch((e) => toast(e.message, 'error')) }, L.cancel)
        : h('button', { class: 'btn small primary', type: 'button', disabled: !!why, 'aria-describedby': why ? whyId : null, 'aria-label': L.acceptLabel(s.by, gameTitle(s.kind)), onclick: () => acceptSeek(s.id) }, L.accept));
  }));
}

/** @param {import('./net.js').GameSummary} g */
function playersOf(g) {
  return T.lobby.versus(spec(g.kind).seats.map((seat) => g.players?.[seat]?.name ?? seatName(seat)));
}

/** @param {HTMLElement} list @param {import('./net.js').GameSummary[]} items */
function renderGames(list, items) {
  const L = T.lobby;
  if (!items.length) return replace(list, h('li', { class: 'empty' }, L.noGames));
  replace(list, ...items.map((g) => {
    const over = g.status === 'ended';
    const mine = !!seatToken(g.game);
    return h('li', { class: 'row', dataset: { game: g.game } },
      h('span', { class: `game-dot ${g.kind}`, 'aria-hidden': 'true' }),
      h('span', { class: 'grow' }, h('strong', {}, playersOf(g)), h('br'),
        h('small', {}, gameTitle(g.kind) + (over && g.result ? ` · ${resultShort(g.result)}` : g.status === 'setup' ? ` · ${L.settingUp}` : ''))),
      h('a', { class: 'btn small', href: over ? `/replay/${g.game}` : `/game/${g.game}`, 'data-link': true }, over ? L.replay : mine ? L.play : L.watch));
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
  const L = T.lobby;
  /** @type {string} */
  let game = rulesGame(`/rules/${new URLSearchParams(location.search).get('game')}`) ?? 'generals';
  const optionsBox = h('div', { class: 'options' });
  const rulesLink = h('a', { class: 'rules-link', 'data-link': true, href: '/rules/generals' });
  const tabs = h('div', { class: 'game-tabs', role: 'radiogroup', 'aria-label': L.game });
  const drawOptions = () => {
    const g = spec(game);
    replace(optionsBox, ...g.options.map((o) => {
      const id = `opt-${o.key}`;
      const words = optionText(g.name, o.key);
      const help = words.help ? h('small', { class: 'help', id: `${id}-help` }, words.help, ' ',
        h('a', { href: `/rules/${game}#opt-${o.key}`, 'data-link': true, 'aria-label': L.moreAbout(words.label) }, L.more)) : null;
      const described = words.help ? { 'aria-describedby': `${id}-help` } : {};
      if (o.type === 'bool') return h('div', { class: 'field' }, h('label', { class: 'switch' }, h('input', { type: 'checkbox', id, name: o.key, checked: o.default === true, ...described }), ` ${words.label}`), help);
      return h('div', { class: 'field' }, h('label', { for: id }, words.label),
        h('select', { id, name: o.key, ...described }, (o.choices ?? []).map((v) => h('option', { value: v, selected: v === String(o.default) }, words.choices[v] ?? v))), help);
    }));
    for (const b of tabs.querySelectorAll('button')) b.setAttribute('aria-checked', String(/** @type {HTMLElement} */ (b).dataset.game === game));
    rulesLink.href = `/rules/${game}`;
    rulesLink.textContent = L.howToPlay(gameTitle(g.name));
    redrawLevels();
  };
  let redrawLevels = () => {};
  for (const name of GAME_NAMES) {
    tabs.append(h('button', { type: 'button', role: 'radio', class: 'game-tab', dataset: { game: name }, onclick: () => { game = name; drawOptions(); } }, gameIcon(name), h('span', {}, gameTitle(GAMES[name].name))));
  }
  const clockSel = h('select', { id: 'clock', name: 'clock' }, CLOCKS.map((v) => h('option', { value: v, selected: v === '600+5' }, clockChoice(v))));
  const customMin = h('input', { id: 'clock-min', type: 'number', min: '1', max: '180', value: '10', inputmode: 'numeric' });
  const customInc = h('input', { id: 'clock-inc', type: 'number', min: '0', max: '180', value: '5', inputmode: 'numeric' });
  const custom = h('div', { class: 'inline custom-clock', hidden: true },
    h('label', { for: 'clock-min' }, L.minutes), customMin, h('label', { for: 'clock-inc' }, L.increment), customInc);
  clockSel.addEventListener('change', () => { custom.hidden = clockSel.value !== 'custom'; });

  const levelSel = h('select', { id: 'bot-level', name: 'bot-level' });
  const levelHelp = h('small', { class: 'help', id: 'bot-level-help' });
  levelSel.setAttribute('aria-describedby', 'bot-level-help');
  const drawLevels = () => {
    const chosen = load().botLevels?.[game] ?? DEFAULT_LEVEL;
    const list = botLevels.length ? botLevels : ['random'];
    replace(levelSel, ...list.map((b, i) => h('option', { value: b, selected: b === chosen }, levelName(i))));
    if (!list.includes(levelSel.value)) levelSel.value = list[0];
    levelHelp.textContent = levelInfo(levelSel.value);
  };
  levelSel.addEventListener('change', () => {
    save({ botLevels: { ...(load().botLevels ?? {}), [game]: levelSel.value } });
    levelHelp.textContent = levelInfo(levelSel.value);
  });
  redrawLevels = drawLevels;
  // rated or casual, and whom the seek is for (people only: the computer plays anyone)
  const account = !!load().account;
  const rated = h('input', { type: 'checkbox', id: 'rated', name: 'rated', disabled: !account, 'aria-describedby': 'rated-help' });
  const minCompletion = h('select', { id: 'min-completion', name: 'min_completion' },
    [0, 50, 70, 80, 90, 95].map((v) => h('option', { value: String(v) }, v ? L.minCompletionShort(v) : L.anyone)));
  const ratingMin = h('input', { id: 'rating-min', name: 'rating_min', type: 'number', min: '0', max: '4000', step: '50', inputmode: 'numeric', placeholder: '—' });
  const ratingMax = h('input', { id: 'rating-max', name: 'rating_max', type: 'number', min: '0', max: '4000', step: '50', inputmode: 'numeric', placeholder: '—' });
  const who = h('fieldset', { class: 'seek-terms' },
    h('legend', {}, L.opponents),
    h('div', { class: 'field' }, h('label', { class: 'switch' }, rated, ` ${L.ratedSwitch}`),
      h('small', { class: 'help', id: 'rated-help' }, account ? L.ratedHelp : L.ratedNeedsAccount, ' ',
        account ? null : h('button', { class: 'btn link inline-link', type: 'button', onclick: () => authDialog('register') }, T.account.createAccount))),
    h('div', { class: 'field' }, h('label', { for: 'min-completion' }, L.minCompletion), minCompletion),
    h('div', { class: 'inline rating-range' },
      h('label', { for: 'rating-min' }, L.ratingFrom), ratingMin, h('label', { for: 'rating-max' }, L.ratingTo), ratingMax),
    h('small', { class: 'help' }, L.rangeHelp));
  const form = h('form', { class: 'card create', 'aria-label': L.newGame },
    h('h2', {}, L.newGame), tabs, h('p', { class: 'rules-line' }, rulesLink), optionsBox,
    h('div', { class: 'field' }, h('label', { for: 'clock' }, L.timeControl), clockSel), custom, who,
    h('div', { class: 'field' }, h('label', { for: 'bot-level' }, L.strength), levelSel, levelHelp),
    h('div', { class: 'btn-row wrap' },
      h('button', { class: 'btn primary', type: 'submit', value: 'open' }, L.createSeek),
      h('button', { class: 'btn', type: 'submit', value: 'link' }, L.challengeFriend),
      h('button', { class: 'btn', type: 'submit', value: 'bot' }, L.playComputer)));
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
      /** @type {Record<string, any>} */
      const body = { game, options, clock };
      // only what differs from a casual seek for anyone is sent
      if (rated.checked) body.rated = true;
      if (Number(minCompletion.value) > 0) body.min_completion = Number(minCompletion.value);
      if (ratingMin.value !== '') body.rating_min = Number(ratingMin.value);
      if (ratingMax.value !== '') body.rating_max = Number(ratingMax.value);
      const r = await api('POST', mode === 'link' ? '/api/challenges' : '/api/seeks', body);
      save({ mySeeks: [...(load().mySeeks ?? []), r.seek.id].slice(-20) });
      if (mode === 'link') go(`/challenge/${r.seek.id}`);
      else toast(L.seekCreated, 'good');
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

/** A level's name in the strength list: "Level 3 · Medium". */
function levelName(/** @type {number} */ i) {
  const words = T.levels.words;
  return T.levels.name(i + 1, words[Math.min(i, words.length - 1)]);
}

/** One line saying how a level plays. */
function levelInfo(/** @type {string} */ bot) {
  if (bot === 'random') return T.levels.random;
  if (bot === 'greedy') return T.levels.greedy;
  const ms = thinkMs(bot);
  if (ms != null) return T.levels.mcts(ms, ms >= 300 ? 'strong' : ms >= 100 ? 'solid' : 'quick');
  return T.levels.other(bot);
}

// ---------------------------------------------------------------- challenge by link

export function challengeScreen(/** @type {string} */ id) {
  header();
  const C = T.challenge;
  document.title = T.app.title(C.title);
  if (!signedIn()) return replace(main, h('div', { class: 'lobby narrow' }, h('p', { class: 'card' }, C.needName), nameCard(() => challengeScreen(id))));
  const box = h('div', { class: 'card challenge' }, h('p', {}, C.loading));
  replace(main, h('div', { class: 'lobby narrow' }, box));
  const conn = new Live((msg) => { if (msg.t === 'seat') seatFrame(msg); });
  onLeave(() => conn.close());
  api('GET', `/api/seeks/${id}`).then((r) => {
    /** @type {import('./net.js').Seek} */
    const s = r.seek;
    const link = `${location.origin}/challenge/${id}`;
    if ((load().mySeeks ?? []).includes(id)) {
      const field = h('input', { id: 'challenge-link', readonly: true, value: link });
      replace(box, h('h2', {}, C.heading), h('p', {}, C.sendLink(gameLabel(s.kind, s.options), clockLabel(s.clock))),
        h('label', { for: 'challenge-link' }, C.link),
        h('div', { class: 'inline' }, field, h('button', { class: 'btn', type: 'button', onclick: () => { navigator.clipboard?.writeText(link).then(() => toast(C.copied, 'good'), () => field.select()); } }, C.copy)),
        h('p', { class: 'muted' }, C.waiting),
        h('button', { class: 'btn ghost', type: 'button', onclick: async () => { await api('DELETE', `/api/seeks/${id}`).catch(() => {}); go('/'); } }, C.cancel));
    } else {
      replace(box, h('h2', {}, C.challengesYou(s.by)), h('p', {}, seekBy(s)), h('p', {}, `${gameLabel(s.kind, s.options)} · ${clockLabel(s.clock)} · ${s.rated ? T.lobby.rated : T.lobby.casual}`),
        h('div', { class: 'btn-row' }, h('button', { class: 'btn primary', type: 'button', onclick: () => acceptSeek(id) }, C.accept), h('a', { class: 'btn ghost', href: '/', 'data-link': true }, C.decline)));
    }
  }, () => replace(box, h('h2', {}, C.title), h('p', {}, C.closed), h('a', { class: 'btn', href: '/', 'data-link': true }, C.back)));
}
