// Battles a player can feel (issue 18): a Game of the Generals challenge is announced at its
// square in the official words for this seat ("Your Private was eliminated.", "The attacker
// was eliminated.", "Both eliminated…") and, under the official `reveal=none`, never names or
// draws a hidden enemy rank; sound is off by default (no Web Audio at all), its setting is
// remembered and then plays; the end of a game brings the end screen with its reason.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, botGame, waitTurn, clickMove, parsed, lastObservation, gameIdOf, DESKTOP } from './helpers.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launch>>} */
let chrome;
before(async () => { server = await startServer(); chrome = await launch(); });
after(async () => { await chrome?.close(); await server?.stop(); });

const RANKS = ['General of the Army', 'Lieutenant General', 'Major General', 'Brigadier General', 'General', 'Lieutenant Colonel', 'Colonel', 'Major',
  'Captain', '1st Lieutenant', '2nd Lieutenant', 'Sergeant', 'Private', 'Spy', 'Flag'];
const CODES = ['5G', '3G', '2G', '1G', '4G', 'LTC', 'COL', 'MAJ', 'CPT', '1LT', '2LT', 'SGT', 'PVT', 'SPY', 'FLG'];
const nameOf = (/** @type {string} */ code) => RANKS[CODES.indexOf(code)];

/** Count the Web Audio oscillators the page starts (a stand-in AudioContext that stays silent). */
function countSounds() {
  /** @type {any} */ (window).__tones = 0;
  /** @type {any} */ (window).AudioContext = class {
    constructor() { this.currentTime = 0; this.destination = {}; }
    createOscillator() { return { frequency: {}, connect: (/** @type {any} */ g) => g, start: () => { /** @type {any} */ (window).__tones++; }, stop: () => {} }; }
    createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (/** @type {any} */ d) => d }; }
  };
}

/** @typedef {{square: string, text: string, still: boolean, attackerHidden: boolean, defenderHidden: boolean}} Pop */

/** Note every battle announcement as it is added to the page (`window.__pops`, each a {@link Pop}). */
function notePops() {
  const w = /** @type {any} */ (window);
  w.__pops = [];
  new MutationObserver((changes) => {
    for (const c of changes) for (const n of c.addedNodes) {
      if (n instanceof HTMLElement && n.classList.contains('battle-pop')) {
        w.__pops.push({
          square: n.dataset.square,
          text: n.querySelector('.battle-text')?.textContent ?? '',
          still: n.classList.contains('still'),
          attackerHidden: !!n.querySelector('.fighter.attacker.hidden'),
          defenderHidden: !!n.querySelector('.fighter.defender.hidden'),
        });
      }
    }
  }).observe(document, { childList: true, subtree: true });
}

/** The announcements noted at `square` (waiting up to 3 s for the first). */
async function popsAt(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ square) {
  await page.waitForFunction((sq) => /** @type {any} */ (window).__pops.some((/** @type {Pop} */ p) => p.square === sq), square, { timeout: 3000 });
  /** @type {Pop[]} */
  const pops = await page.evaluate(() => /** @type {any} */ (window).__pops);
  return pops.filter((p) => p.square === square);
}

/** The first move event of `game` with a challenge, after `from` frames, and the observation before it. */
function challengeIn(/** @type {string[]} */ frames, /** @type {string} */ game, /** @type {number} */ from) {
  let before = null;
  const ms = parsed(frames);
  for (let i = 0; i < ms.length; i++) {
    const m = ms[i];
    if (m.game !== game) continue;
    if (i >= from && m.t === 'event' && m.e?.type === 'move' && m.e.view?.challenge) return { view: m.e.view, before, at: i };
    if (m.t === 'sync' && m.state?.observation) before = m.state.observation;
    if (m.t === 'event' && m.e?.observation) before = m.e.observation;
  }
  return null;
}

/** Every challenge of `game` in the frames from index `from` on, each with the observation before it. */
function challengesIn(/** @type {string[]} */ frames, /** @type {string} */ game, /** @type {number} */ from) {
  const all = [];
  for (let f = challengeIn(frames, game, from); f; f = challengeIn(frames, game, f.at + 1)) all.push(f);
  return all;
}

/**
 * Start a Generals game (`reveal=none`) against the bot with a random setup, then play forward,
 * challenging whenever possible, until a challenge happens (either side's).
 */
async function playToChallenge(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ url, /** @type {string[]} */ frames) {
  const game = await botGame(page, url, 'Bea', { game: 'generals', title: 'Game of the Generals', options: { reveal: 'none' }, clock: 'none' });
  await page.getByRole('heading', { name: 'Set up your army' }).waitFor();
  const me = (await page.locator('.setup-head h1').textContent())?.includes('White') ? 'white' : 'black';
  const up = me === 'white' ? 1 : -1;
  await page.getByRole('button', { name: 'Random' }).click();
  await page.getByRole('button', { name: 'Ready' }).click();

  const turn = { ver: -1 };
  let found = null;
  let seen = 0;
  for (let ply = 0; ply < 200 && !found; ply++) {
    const legal = await waitTurn(page, frames, game, turn);
    found = challengeIn(frames, game, seen);
    if (found || !legal) break;
    seen = parsed(frames).length;
    const board = lastObservation(frames, game)?.board ?? {};
    const rank = (/** @type {string} */ s) => Number(s.slice(1));
    const moves = legal.filter((m) => m.includes('-'));
    const attacks = moves.filter((m) => board[m.split('-')[1]] && board[m.split('-')[1]].owner !== me);
    const forward = moves.filter((m) => (rank(m.split('-')[1]) - rank(m.split('-')[0])) * up > 0 && board[m.split('-')[0]]?.piece !== 'FLG');
    // the most advanced piece goes on
    forward.sort((a, b) => (rank(b.split('-')[0]) - rank(a.split('-')[0])) * up);
    const move = attacks[0] ?? forward[0] ?? moves[0];
    await clickMove(page, move);
    for (let i = 0; i < 40 && !found; i++) {
      found = challengeIn(frames, game, seen);
      if (!found) await page.waitForTimeout(50);
    }
  }
  assert.ok(found, 'a challenge happened');
  return { game, me, found };
}

/**
 * Whether `game` ended with the message at index `at`: waits for the next message of the game
 * (the end comes in the same burst as its move; otherwise the seat's legal moves or the bot's
 * next move follow).
 */
async function endsAt(/** @type {import('playwright-core').Page} */ page, /** @type {string[]} */ frames, /** @type {string} */ game, /** @type {number} */ at) {
  for (let i = 0; i < 400; i++) {
    const next = parsed(frames).slice(at + 1).find((m) => m.game === game && (m.t === 'event' || m.t === 'legal'));
    if (next) return next.t === 'event' && next.e?.type === 'end';
    await page.waitForTimeout(25);
  }
  throw new Error('nothing followed the challenge');
}

test('a Generals challenge is announced in the seat\'s words and never names a hidden rank (reveal=none); sound is off by default, remembered, then plays; the end screen gives the reason', { timeout: 240000 }, async () => {
  const { page, context, frames, errors } = await newPage(chrome.browser, DESKTOP, { reducedMotion: 'reduce' });
  await context.addInitScript(countSounds);
  // Every announcement is noted as it appears: the bot may answer at once with a challenge
  // of its own elsewhere, which replaces the one on the board before the test could look.
  await context.addInitScript(notePops);
  page.on('dialog', (d) => d.accept());
  // A game that its first challenge ends (a Flag taken, or the bot's Flag home just before)
  // clears the side panel's sentence with its end and cannot be resigned: a new one is started.
  let went = false;
  let game = '';
  for (let tries = 0; tries < 4 && !went; tries++) {
    await page.evaluate(() => { /** @type {any} */ (window).__pops = []; });
    const played = await playToChallenge(page, server.url, frames);
    game = played.game;
    const { me, found } = played;
    // What this seat must be told of a challenge, and its own piece in it.
    const told = (/** @type {{view: any, before: any}} */ { view, before }) => {
      const mine = view.seat === me;
      const myCode = mine ? before?.board?.[view.from]?.piece : before?.board?.[view.to]?.piece;
      assert.ok(myCode, 'the seat knows its own piece in the challenge');
      const iLost = (view.challenge.result === 'attacker_wins') !== mine;
      const expected = view.challenge.result === 'both_eliminated' ? `Both eliminated: your ${nameOf(myCode)} and the enemy piece.`
        : iLost ? `Your ${nameOf(myCode)} was eliminated.`
        : mine ? 'The challenged piece was eliminated.' : 'The attacker was eliminated.';
      return { mine, myCode, expected };
    };

    // the announcement at the square, as it appeared
    const pops = await popsAt(page, found.view.to);
    // The bot may have answered at once with a challenge on the same square: the square then
    // announces the newest one. It is one of the last two there (one may have come after reading).
    const latest = challengesIn(frames, game, found.at).filter((c) => c.view.to === found.view.to).slice(-2);
    const shown = latest.find((c) => pops.some((p) => p.text === told(c).expected));
    assert.ok(shown, `the square announces its latest challenge: ${pops.map((p) => p.text).join(' / ')} (expected ${latest.map((c) => told(c).expected).join(' or ')})`);
    const { mine, myCode, expected } = told(shown);
    const there = /** @type {Pop} */ (pops.find((p) => p.text === expected));
    assert.ok(there.still, 'reduced motion: the announcement does not move');
    // nothing hidden: no rank but the seat's own is named, and the enemy piece is drawn as a back
    const rest = expected.replace(nameOf(myCode), '');
    for (const r of RANKS) assert.ok(!rest.includes(r), `the announcement names a hidden rank (${r}): ${expected}`);
    assert.ok(mine ? there.defenderHidden : there.attackerHidden, 'the enemy piece is drawn face down');
    assert.ok(!(mine ? there.attackerHidden : there.defenderHidden), 'the seat\'s own piece is drawn face up');
    if (await endsAt(page, frames, game, shown.at)) continue;
    // the side panel says it too, until this seat's next move (unless another battle followed at once)
    const later = challengeIn(frames, game, shown.at + 1);
    if (!later) assert.equal(await page.locator('.side-panel .notice').textContent(), expected);
    went = true;
  }
  assert.ok(went, 'a game went on after its first challenge');
  // it goes by itself
  await page.waitForFunction(() => !document.querySelector('.battle-pop'), null, { timeout: 5000 });

  // sound: off by default, so nothing was played at all
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).__tones), 0, 'no sound while sound is off');
  await page.getByRole('button', { name: 'Settings' }).click();
  const toggle = page.getByRole('checkbox', { name: 'Sound' });
  assert.equal(await toggle.isChecked(), false, 'sound is off by default');
  await toggle.check();
  await page.getByRole('button', { name: 'Done' }).click();
  await page.reload();
  await page.locator('.side-panel .status').waitFor();
  await page.getByRole('button', { name: 'Settings' }).click();
  assert.equal(await page.getByRole('checkbox', { name: 'Sound' }).isChecked(), true, 'the sound setting is remembered');
  await page.getByRole('button', { name: 'Done' }).click();

  // the end: resigning brings the end screen, with who won and why; the board can be shown
  await page.getByRole('button', { name: 'Resign' }).click();
  const end = page.locator('.end-screen');
  await end.waitFor();
  assert.equal(await end.getByRole('heading').textContent(), 'You lost');
  assert.equal(await end.locator('.end-why').textContent(), 'Bea resigned.');
  assert.equal(await end.locator('.end-why').getAttribute('data-reason'), 'resignation');
  assert.match((await end.locator('.end-reveal').textContent()) ?? '', /Every piece is now shown face up/);
  assert.ok(await page.evaluate(() => /** @type {any} */ (window).__tones) > 0, 'with sound on, the end is heard');
  await page.getByRole('button', { name: 'Show the board' }).click();
  await end.waitFor({ state: 'detached' });
  await page.locator('.result-banner').waitFor();
  assert.equal(await page.locator('.board .piece.hidden').count(), 0, 'the full reveal: every piece face up');
  assert.equal(gameIdOf(page), game);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a Stratego attack is announced with both ranks, as its rules show them to everyone', { timeout: 240000 }, async () => {
  const { page, context, frames, errors } = await newPage(chrome.browser, DESKTOP, { reducedMotion: 'reduce' });
  page.on('dialog', (d) => d.accept());
  // Every announcement is noted as it appears: the bot may answer at once with a battle of its
  // own, which replaces the one on the board before the test could look at it.
  await page.addInitScript(notePops);
  const game = await botGame(page, server.url, 'Cid', { game: 'stratego', title: 'Stratego', options: { army: 'duel' }, clock: 'none' });
  await page.getByRole('heading', { name: 'Set up your army' }).waitFor();
  const me = (await page.locator('.setup-head h1').textContent())?.includes('Red') ? 'red' : 'blue';
  const up = me === 'red' ? 1 : -1;
  await page.getByRole('button', { name: 'Random' }).click();
  await page.getByRole('button', { name: 'Ready' }).click();
  const turn = { ver: -1 };
  let attack = null;
  let seen = 0;
  const attackIn = () => parsed(frames).slice(seen).find((m) => m.game === game && m.t === 'event' && m.e?.type === 'move' && m.e.view?.attack)?.e.view ?? null;
  for (let ply = 0; ply < 300 && !attack; ply++) {
    const legal = await waitTurn(page, frames, game, turn);
    attack = attackIn();
    if (attack || !legal) break;
    seen = parsed(frames).length;
    const board = lastObservation(frames, game)?.board ?? {};
    const rank = (/** @type {string} */ s) => Number(s.slice(1));
    const attacks = legal.filter((m) => board[m.split('-')[1]] && board[m.split('-')[1]].owner !== me);
    const forward = legal.filter((m) => (rank(m.split('-')[1]) - rank(m.split('-')[0])) * up > 0);
    await clickMove(page, attacks[0] ?? forward[Math.floor(Math.random() * forward.length)] ?? legal[0]);
    for (let i = 0; i < 40 && !attack; i++) { attack = attackIn(); if (!attack) await page.waitForTimeout(50); }
  }
  assert.ok(attack, 'an attack happened');
  const at = attack.to;
  const pops = await popsAt(page, at);
  const names = { '10': 'Marshal', '9': 'General', '3': 'Miner', '2': 'Scout', S: 'Spy', B: 'Bomb', F: 'Flag' };
  const both = (/** @type {string} */ said) => [attack.attack.attacker, attack.attack.defender].every((code) => said.includes(/** @type {any} */ (names)[code]));
  const pop = pops.find((p) => both(p.text));
  assert.ok(pop, `both ranks are named: ${pops.map((p) => p.text).join(' / ')}`);
  assert.ok(!pop.attackerHidden && !pop.defenderHidden, 'both pieces are drawn face up');
  assert.deepEqual(errors, []);
  await context.close();
});
