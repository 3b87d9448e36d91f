// The arbiter at the table (/arbiter, issue 19) in Chromium against a real `salpakan serve`:
// the challenge arbiter on two phones (two browser contexts) and on one passed phone, each
// played to a captured Flag, checking every announcement and that no phone ever shows, or
// receives, a rank the other side entered.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import en from '../assets/i18n/en.js';
import { repo, startServer, launch, newPage, assertNoSideScroll, PHONE390, shot, waitTurn, clickMove, lastObservation, assertFramesClean, parsed } from './helpers.mjs';

/**
 * A screenshot into out/screens; with SALPAKAN_DOC_SHOTS=1 also into docs/screenshots
 * (for docs/arbiter-board.md), made small with pngquant when it is installed.
 */
async function docShot(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ name) {
  await shot(page, name);
  if (!process.env.SALPAKAN_DOC_SHOTS) return;
  const file = path.join(repo, 'docs', 'screenshots', `${name}.png`);
  await page.screenshot({ path: file });
  spawnSync('pngquant', ['--force', '--skip-if-larger', '--output', file, '--', file]);
}

const AXE = readFileSync(path.join(repo, 'web', 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/** axe finds no serious or critical violation on the page as it is (as web/tests/a11y.test.mjs). */
async function assertAccessible(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ what) {
  await page.waitForTimeout(150);
  await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const axe = /** @type {any} */ (window).axe;
    const r = await axe.run(document, { resultTypes: ['violations'], runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return r.violations.map((/** @type {any} */ v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map((/** @type {any} */ n) => n.target.join(' ')) }));
  });
  const bad = result.filter((/** @type {any} */ v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad, [], `${what}: ${JSON.stringify(bad, null, 2)}`);
}

/** @type {{url: string, stop: () => Promise<void>}} */
let server;
/** @type {import('playwright-core').Browser} */
let browser;
/** @type {() => Promise<void>} */
let closeBrowser;

before(async () => {
  server = await startServer();
  const b = await launch();
  browser = b.browser;
  closeBrowser = b.close;
});
after(async () => {
  await closeBrowser?.();
  await server?.stop();
});

/**
 * A phone: a page that also records every answer of the table API (what the server told it).
 * @returns {Promise<{page: import('playwright-core').Page, frames: string[], answers: any[], errors: string[]}>}
 */
async function phone() {
  const p = await newPage(browser, PHONE390);
  const answers = /** @type {any[]} */ ([]);
  p.page.on('response', async (r) => {
    if (!r.url().includes('/api/tables')) return;
    try { answers.push(await r.json()); } catch { /* not JSON */ }
  });
  return { ...p, answers };
}

/** Everything the server told a phone before the end, with the public list of ranks left out. */
function told(/** @type {any[]} */ answers) {
  return answers.filter((a) => a.status !== 'ended').map((a) => JSON.stringify({ ...a, ranks: null })).join('\n');
}

/** The page's text outside the rank pad (whose buttons name every rank of the game). */
async function shownText(/** @type {import('playwright-core').Page} */ page) {
  return page.evaluate(() => {
    const main = /** @type {HTMLElement} */ (document.getElementById('main')).cloneNode(true);
    /** @type {HTMLElement} */ (main).querySelectorAll('.arb-ranks, .arb-tools').forEach((e) => e.remove());
    return /** @type {HTMLElement} */ (main).innerText;
  });
}

async function startTable(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ name, /** @type {{pass?: boolean, flag?: string}} */ o = {}) {
  await page.goto(`${server.url}/arbiter`);
  await page.getByLabel('Your name').fill(name);
  if (o.flag) await page.getByLabel('A Flag on the far rank wins').selectOption(o.flag);
  if (o.pass) await page.getByLabel('One phone for both players (pass it between you)').check();
  await page.getByRole('button', { name: 'Start the table' }).click();
}

/** Enter this phone's piece: whether it attacked, and its rank's name. */
async function enterPiece(/** @type {import('playwright-core').Page} */ page, /** @type {boolean} */ attacked, /** @type {string} */ rank) {
  await page.getByRole('button', { name: attacked ? 'My piece attacked' : 'My piece was challenged' }).click();
  await page.getByRole('button', { name: rank, exact: true }).click();
}

async function announced(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ text) {
  await page.locator('#announce').getByText(text).waitFor();
}

test('two phones: the challenge arbiter rules each challenge, says only which piece leaves, and reveals the lists at the end', { timeout: 90000 }, async () => {
  const a = await phone();
  const b = await phone();
  await startTable(a.page, 'Ana');
  const code = (await a.page.locator('#room-code').innerText()).trim();
  assert.match(code, /^[A-Z0-9]{6}$/);
  await assertNoSideScroll(a.page, 'the room code');
  await assertAccessible(a.page, 'the room code');
  await docShot(a.page, 'arbiter-code-phone');

  await b.page.goto(`${server.url}/arbiter`);
  await b.page.getByLabel('Your name').fill('Ben');
  await b.page.getByLabel('Room code').fill(code.toLowerCase());
  await b.page.getByRole('button', { name: 'Join', exact: true }).click();
  for (const p of [a.page, b.page]) await p.getByText('No challenge yet.', { exact: false }).waitFor();

  // 1. White's Private challenges Black's Spy: the Spy leaves; no rank is said.
  await enterPiece(a.page, true, 'Private');
  await a.page.getByText('Entered. Waiting for the other player…').waitFor();
  await b.page.getByText('The other player has entered their piece.').waitFor();
  await shot(b.page, 'arbiter-entry-phone');
  await assertAccessible(b.page, 'an entry');
  await enterPiece(b.page, false, 'Spy');
  for (const p of [a.page, b.page]) await announced(p, 'Black’s challenged piece loses: take it off the board.');
  await assertNoSideScroll(a.page, 'an announcement');
  await docShot(a.page, 'arbiter-ruling-phone');
  assert.ok(!(await shownText(a.page)).includes('Spy'), 'White is never shown the Spy');
  assert.ok(!(await shownText(b.page)).includes('Private'), 'Black is never shown the Private');

  // 2. Black's Major challenges White's Major: both leave.
  await enterPiece(b.page, true, 'Major');
  await enterPiece(a.page, false, 'Major');
  for (const p of [a.page, b.page]) await announced(p, 'Equal ranks: both pieces leave the board.');

  // 3. White's Sergeant challenges Black's Flag: captured, White wins.
  await enterPiece(a.page, true, 'Sergeant');
  await enterPiece(b.page, false, 'Flag');
  for (const p of [a.page, b.page]) {
    await announced(p, 'White wins');
    await announced(p, 'The Flag was captured.');
    await p.getByText('3 challenges in all.').waitFor();
    await p.getByText('Spy, Major, Flag').waitFor();
  }
  await a.page.getByText('Major', { exact: true }).first().waitFor();
  await docShot(a.page, 'arbiter-end-phone');
  await assertAccessible(a.page, 'the end of a table');

  // Nothing Black entered reached White before the end, nor the other way round.
  for (const [who, p, secrets] of /** @type {const} */ ([['White', a, ['SPY', 'FLG']], ['Black', b, ['PVT', 'SGT']]])) {
    const text = told(p.answers);
    for (const s of secrets) assert.ok(!text.includes(`"${s}"`), `${who} was told ${s}: ${text}`);
    for (const f of p.frames) for (const s of secrets) assert.ok(!f.includes(`"${s}"`), `${who} got ${s} in a frame`);
    assert.deepEqual(p.errors, []);
  }
  await a.context.close();
  await b.context.close();
});

test('one passed phone: a blank screen between entries, the ruling for both, to a captured Flag', { timeout: 90000 }, async () => {
  const c = await phone();
  const page = c.page;
  await startTable(page, 'Tess', { pass: true, flag: 'electronic' });
  // Challenge 1: White's General of the Army challenges Black's General.
  await page.getByText('Pass the phone to White').waitFor();
  await docShot(page, 'arbiter-pass-phone');
  await assertAccessible(page, 'the pass-the-phone curtain');
  await page.getByRole('button', { name: 'I am White: enter my piece' }).click();
  await enterPiece(page, true, 'General of the Army');
  // At once the curtain: nothing of White's entry is on the screen for Black.
  await page.getByText('Pass the phone to Black').waitFor();
  assert.ok(!(await shownText(page)).includes('General of the Army'), 'the entry is hidden as soon as it is made');
  await page.getByRole('button', { name: 'I am Black: enter my piece' }).click();
  await page.getByText('The other player has entered their piece.').waitFor();
  assert.ok(!(await shownText(page)).includes('General of the Army'));
  await enterPiece(page, false, 'General');
  await announced(page, 'Black’s challenged piece loses: take it off the board.');
  await page.getByRole('button', { name: 'Next challenge' }).click();
  // Challenge 2: Black's Private challenges White's Flag.
  await page.getByText('Pass the phone to White').waitFor();
  await page.getByRole('button', { name: 'I am White: enter my piece' }).click();
  await enterPiece(page, false, 'Flag');
  await page.getByText('Pass the phone to Black').waitFor();
  assert.ok(!(await shownText(page)).includes('Flag'), 'White’s Flag is not on the screen');
  await page.getByRole('button', { name: 'I am Black: enter my piece' }).click();
  await enterPiece(page, true, 'Private');
  await announced(page, 'Black wins');
  await page.getByText('2 challenges in all.').waitFor();
  await assertNoSideScroll(page, 'the end on a passed phone');
  assert.deepEqual(c.errors, []);
  await c.context.close();
});

/** Squares as [file, rank] numbers. */
function xy(/** @type {string} */ sq) {
  return [sq.charCodeAt(0) - 97, Number(sq.slice(1)) - 1];
}

/**
 * Steps from each square to `target` around the occupied squares (and Stratego's lakes): the
 * scripted side walks down this, so it never dithers.
 */
function pathLengths(/** @type {string} */ target, /** @type {any} */ obs) {
  const size = obs.game === 'stratego' ? [10, 10] : [9, 8];
  const lakes = obs.game === 'stratego' ? ['c5', 'd5', 'g5', 'h5', 'c6', 'd6', 'g6', 'h6'] : [];
  const blocked = new Set([...lakes, ...Object.keys(obs.board ?? {})]);
  const out = new Map([[target, 0]]);
  const queue = [target];
  while (queue.length) {
    const sq = /** @type {string} */ (queue.shift());
    const [x, y] = xy(sq);
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const nx = x + dx, ny = y + dy;
      if (nx < 0 || ny < 0 || nx >= size[0] || ny >= size[1]) continue;
      const n = `${String.fromCharCode(97 + nx)}${ny + 1}`;
      if (out.has(n)) continue;
      out.set(n, /** @type {number} */ (out.get(sq)) + 1);
      if (!blocked.has(n)) queue.push(n);
    }
  }
  return out;
}

/** The squares next to `sq` on `obs`'s board, Stratego's lakes left out. */
function around(/** @type {string} */ sq, /** @type {any} */ obs) {
  const size = obs.game === 'stratego' ? [10, 10] : [9, 8];
  const lakes = obs.game === 'stratego' ? ['c5', 'd5', 'g5', 'h5', 'c6', 'd6', 'g6', 'h6'] : [];
  const [x, y] = xy(sq);
  return [[1, 0], [-1, 0], [0, 1], [0, -1]]
    .map(([dx, dy]) => [x + dx, y + dy])
    .filter(([nx, ny]) => nx >= 0 && ny >= 0 && nx < size[0] && ny < size[1])
    .map(([nx, ny]) => `${String.fromCharCode(97 + nx)}${ny + 1}`)
    .filter((n) => !lakes.includes(n));
}

/** Free squares next to where move `m` lands, other than the square it leaves. */
function exits(/** @type {string} */ m, /** @type {any} */ obs) {
  const [from, to] = m.split('-');
  return around(to, obs).filter((n) => n !== from && !(n in (obs.board ?? {}))).length;
}

/** Where this seat's piece `code` stands in its latest observation. */
function own(/** @type {string[]} */ frames, /** @type {string} */ game, /** @type {string} */ seat, /** @type {string} */ code) {
  const obs = lastObservation(frames, game);
  for (const [sq, e] of Object.entries(obs?.board ?? {})) if (/** @type {any} */ (e).owner === seat && /** @type {any} */ (e).piece === code) return sq;
  return null;
}

/**
 * A full-arbiter table between two phones for `game` with `options`: Ana creates it, Ben
 * joins with the room code on the page; both open the board and set up at random.
 */
async function fullTable(/** @type {string} */ game, /** @type {Record<string,string>} */ options) {
  const a = await phone();
  const b = await phone();
  await a.page.goto(`${server.url}/arbiter`);
  // The table's options (a tiny army, for a short scripted game) through the API, as the page does.
  const table = await a.page.evaluate(async ([g, o]) => {
    const net = await import('/assets/net.js');
    await net.ensureGuest('Ana');
    return (await net.api('POST', '/api/tables', { game: g, options: o, mode: 'full' })).table;
  }, /** @type {const} */ ([game, options]));
  await a.page.goto(`${server.url}/arbiter/${table}`);
  const code = (await a.page.locator('#room-code').innerText()).trim();
  await b.page.goto(`${server.url}/arbiter`);
  await b.page.getByLabel('Your name').fill('Ben');
  await b.page.getByLabel('Room code').fill(code);
  await b.page.getByRole('button', { name: 'Join', exact: true }).click();
  const seats = game === 'generals' ? ['White', 'Black'] : ['Red', 'Blue'];
  await b.page.getByRole('button', { name: `Open the board as ${seats[1]}` }).click();
  await a.page.getByRole('button', { name: `Open the board as ${seats[0]}` }).click();
  for (const p of [a.page, b.page]) {
    await p.getByRole('heading', { name: 'Set up your army' }).waitFor();
    await p.getByRole('button', { name: 'Random' }).click();
    await p.getByRole('button', { name: 'Ready' }).click();
  }
  for (const p of [a.page, b.page]) await p.locator('.side-panel .status').waitFor();
  const id = new URL(a.page.url()).pathname.split('/').pop() ?? '';
  return { a, b, id };
}

/**
 * 1 when move `m` lands on rank `rank` anywhere but on `target`, else 0 (none without a
 * rank): a sort key that keeps a scripted Flag off its far rank, where it would win at once,
 * but to take the piece it walks at.
 */
function landsOn(/** @type {string} */ m, /** @type {string|undefined} */ rank, /** @type {string|null} */ target) {
  const to = m.split('-')[1];
  return rank && to !== target && to.slice(1) === rank ? 1 : 0;
}

/**
 * Play greedily until the game ends: each side moves `piece` toward where `target(seat)`
 * stands (away from it with `flee`).
 */
async function playOut(/** @type {any} */ t, /** @type {string[]} */ seatNames, /** @type {(seat: string) => {piece: string, target: string|null, avoid?: string|null, flee?: boolean, shun?: string}} */ plan) {
  const turns = [{ ver: -1 }, { ver: -1 }];
  for (let ply = 0; ply < 200; ply++) {
    const i = ply % 2;
    const p = i === 0 ? t.a : t.b;
    const moves = await waitTurn(p.page, p.frames, t.id, turns[i]);
    if (!moves) return;
    const { piece, target, avoid, flee, shun } = plan(seatNames[i]);
    const from = own(p.frames, t.id, seatNames[i], piece);
    const mine = moves.filter((/** @type {string} */ m) => m.startsWith(`${from}-`) && m.split('-')[1] !== avoid);
    const pool = mine.length ? mine : moves;
    const obs = lastObservation(p.frames, t.id);
    const d = target ? pathLengths(target, obs) : null;
    const far = (/** @type {string} */ m) => (d ? d.get(m.split('-')[1]) ?? 999 : 0);
    // A fleeing piece never steps into a pocket (fewer than two ways on): there it could be left
    // with only the attack on its pursuer, or no move the two-square rule allows.
    const pocket = (/** @type {string} */ m) => (flee && exits(m, obs) < 2 ? 1 : 0);
    // A rank to keep off (`shun`) unless the move lands on the target itself: a Flag that steps
    // onto the far rank wins there at once under the electronic rule, before any capture.
    const shunned = (/** @type {string} */ m) => landsOn(m, shun, target);
    const best = [...pool].sort((x, y) => pocket(x) - pocket(y) || shunned(x) - shunned(y) || (flee ? far(y) - far(x) : far(x) - far(y)))[0];
    await clickMove(p.page, best);
  }
  throw new Error('the scripted game did not end');
}

function endOf(/** @type {string[]} */ frames, /** @type {string} */ game) {
  return parsed(frames).find((m) => m.game === game && m.t === 'event' && m.e?.type === 'end')?.e;
}

test('full arbiter, two phones, Game of the Generals (flag_rule=electronic): the arbiter keeps the position to a captured Flag', { timeout: 120000 }, async () => {
  // Each side has only its Flag: they walk at each other and the first to step on the other
  // captures it. Neither steps onto its far rank but to capture (a Flag there wins at once under
  // the electronic rule, which the random setups would otherwise allow when a Flag stands on its
  // own back rank).
  const t = await fullTable('generals', { army: 'FLG:1', flag_rule: 'electronic' });
  const where = { white: () => own(t.a.frames, t.id, 'white', 'FLG'), black: () => own(t.b.frames, t.id, 'black', 'FLG') };
  await playOut(t, ['white', 'black'], (seat) => ({ piece: 'FLG', target: seat === 'white' ? where.black() : where.white(), shun: seat === 'white' ? '8' : '1' }));
  for (const p of [t.a, t.b]) {
    await p.page.locator('.status.over').waitFor();
    const end = endOf(p.frames, t.id);
    assert.equal(end.result.reason, 'flag_captured');
  }
  assertFramesClean(t.a.frames, { game: t.id, kind: 'generals', viewer: 'white', secrets: [] });
  assertFramesClean(t.b.frames, { game: t.id, kind: 'generals', viewer: 'black', secrets: [] });
  await assertNoSideScroll(t.a.page, 'the full arbiter’s board');
  await t.a.page.waitForTimeout(2500); // the battle and end animations
  await docShot(t.a.page, 'arbiter-full-end-phone');
  // The record is downloadable and replayable like any game's.
  const rec = await (await fetch(`${server.url}/api/games/${t.id}/record`)).text();
  assert.match(rec, /FlagCaptured|flag_captured/i);
  assert.deepEqual([...t.a.errors, ...t.b.errors], []);
  await t.a.context.close();
  await t.b.context.close();
});

test('full arbiter, two phones, Stratego: both ranks of the attack, the Flag captured', { timeout: 120000 }, async () => {
  // Red: a Flag and a Miner; Blue: a Flag and a Miner. Red's Miner goes for Blue's Flag; Blue's
  // keeps away from it (two Miners that meet are both removed, and neither side can move).
  const t = await fullTable('stratego', { army: 'F:1,3:1' });
  const flagOf = () => {
    // Red learns where Blue's Flag is only when it is taken: the script knows both armies.
    return own(t.b.frames, t.id, 'blue', 'F');
  };
  await playOut(t, ['red', 'blue'], (seat) => seat === 'red'
    ? { piece: '3', target: flagOf(), avoid: own(t.b.frames, t.id, 'blue', '3') }
    : { piece: '3', target: own(t.a.frames, t.id, 'red', '3'), avoid: own(t.a.frames, t.id, 'red', '3'), flee: true });
  for (const p of [t.a, t.b]) {
    await p.page.locator('.status.over').waitFor();
    assert.equal(endOf(p.frames, t.id).result.reason, 'flag_captured');
    // Stratego's arbiter shows both ranks of the attack to both players.
    const last = parsed(p.frames).filter((m) => m.game === t.id && m.t === 'event' && m.e?.type === 'move').pop();
    assert.deepEqual([last.e.view.attack.attacker, last.e.view.attack.defender, last.e.view.attack.result], ['3', 'F', 'attacker_wins']);
  }
  assertFramesClean(t.a.frames, { game: t.id, kind: 'stratego', viewer: 'red', secrets: [] });
  assertFramesClean(t.b.frames, { game: t.id, kind: 'stratego', viewer: 'blue', secrets: [] });
  assert.deepEqual([...t.a.errors, ...t.b.errors], []);
  await t.a.context.close();
  await t.b.context.close();
});

test('the arbiter pages pass axe and fit a 390 px phone in English, Filipino and Chinese', { timeout: 60000 }, async () => {
  const p = await phone();
  for (const lang of ['en', 'fil', 'zh-Hant']) {
    await p.page.goto(`${server.url}/arbiter?lang=${lang}`);
    await p.page.locator('#arb-name').waitFor();
    await assertNoSideScroll(p.page, `the arbiter's start page (${lang})`);
    await assertAccessible(p.page, `the arbiter's start page (${lang})`);
    if (lang !== 'en') await shot(p.page, `arbiter-start-${lang}-phone`);
  }
  await p.page.goto(`${server.url}/arbiter?lang=en`);
  await docShot(p.page, 'arbiter-start-phone');
  assert.deepEqual(p.errors, []);
  await p.context.close();
});

test('full arbiter, one passed phone: the board is blanked after each setup and each move until the next seat takes the phone, to a captured Flag', { timeout: 150000 }, async () => {
  const c = await phone();
  const page = c.page;
  await page.goto(`${server.url}/arbiter`);
  const table = await page.evaluate(async () => {
    const net = await import('/assets/net.js');
    await net.ensureGuest('Tess');
    return (await net.api('POST', '/api/tables', { game: 'generals', options: { army: 'FLG:1,PVT:1' }, mode: 'full', pass: true })).table;
  });
  const seats = /** @type {const} */ (['white', 'black']);
  const names = { white: 'White', black: 'Black' };
  // every rank name of the game: none may be on the screen while the phone changes hands
  const ranks = Object.values(en.pieces.generals);
  /** The curtain: "pass the phone to `seat`", and nothing of either army on the page. */
  const curtain = async (/** @type {'white'|'black'} */ seat, /** @type {string} */ when) => {
    await page.getByRole('heading', { name: `Pass the phone to ${names[seat]}` }).waitFor();
    assert.equal(await page.locator('.piece, .board, [data-sq]').count(), 0, `${when}: no board and no piece behind the curtain`);
    const text = await page.locator('#main').innerText();
    // (as whole words: the game's title, "Game of the Generals", names no piece)
    for (const r of ranks) assert.ok(!new RegExp(`\\b${r}\\b`).test(text), `${when}: "${r}" is on the screen behind the curtain: ${text}`);
    await assertNoSideScroll(page, `the curtain (${when})`);
    const button = page.getByRole('button', { name: `I am ${names[seat]}: show my board` });
    await button.waitFor();
    const box = await button.boundingBox();
    assert.ok((box?.height ?? 0) >= 44, `the button is a 44 px target: ${JSON.stringify(box)}`);
    return button;
  };
  await page.goto(`${server.url}/arbiter/${table}`);
  await page.getByRole('button', { name: 'Open the board as White' }).click();
  // White sets up, then the curtain; Black takes the phone and sets up, then the curtain again.
  for (const [i, seat] of seats.entries()) {
    await page.getByRole('heading', { name: 'Set up your army' }).waitFor();
    await page.getByRole('button', { name: 'Random' }).click();
    await page.getByRole('button', { name: 'Ready' }).click();
    const next = seats[1 - i];
    const take = await curtain(next, `after ${seat}'s setup`);
    if (i === 0) {
      await assertAccessible(page, 'the curtain of a full-arbiter game');
      await shot(page, 'arbiter-full-curtain-phone');
    }
    c.frames.length = 0; // only what the next seat's board hears from now on
    await take.click();
  }
  const id = new URL(page.url()).pathname.split('/').pop() ?? '';
  let challenges = 0;
  let lastTo = '';
  for (let ply = 0; ply < 60; ply++) {
    const seat = seats[ply % 2];
    const moves = await waitTurn(page, c.frames, id, { ver: -1 });
    assert.ok(moves, 'the game goes on');
    // Walk to the other side's piece that moved last (its Private), else to its first piece.
    const obs = lastObservation(c.frames, id);
    assert.equal(obs.viewer, seat, 'the board shows the seat that holds the phone');
    const theirs = Object.entries(obs.board).filter(([, e]) => /** @type {any} */ (e).owner !== seat).map(([sq]) => sq);
    const enemy = theirs.includes(lastTo) ? lastTo : theirs[0] ?? '';
    const d = pathLengths(enemy, obs);
    // the Private goes first while it lives (the Flag stays home)
    const pvt = Object.entries(obs.board).find(([, e]) => /** @type {any} */ (e).owner === seat && /** @type {any} */ (e).piece === 'PVT')?.[0];
    const pool = moves.filter((/** @type {string} */ m) => m.startsWith(`${pvt}-`));
    // never onto the far rank but to take a piece there: a Flag that arrives there unopposed wins
    // at once, and this game is to end with a captured Flag
    const far = seat === 'white' ? '8' : '1';
    const shunned = (/** @type {string} */ m) => landsOn(m, far, enemy);
    const dist = (/** @type {string} */ m) => d.get(m.split('-')[1]) ?? 999;
    const best = [...(pool.length ? pool : moves)].sort((x, y) => shunned(x) - shunned(y) || dist(x) - dist(y))[0];
    await clickMove(page, best);
    lastTo = best.split('-')[1];
    // the mover reads the ruling, then hides the board (or the game is over)
    const hide = page.getByRole('button', { name: 'Hide and pass the phone' });
    await Promise.race([hide.waitFor(), page.locator('.status.over').waitFor()]);
    await page.waitForTimeout(300); // a captured Flag's end event follows its move
    const end = endOf(c.frames, id);
    if (end) {
      assert.equal(end.result.reason, 'flag_captured');
      assert.equal(end.result.winner, seat);
      break;
    }
    // a challenge: the mover reads its ruling above the button, before hiding the board
    const last = parsed(c.frames).filter((m) => m.game === id && m.t === 'event' && m.e?.type === 'move').pop();
    if (last?.e.view.challenge) {
      challenges++;
      assert.ok((await page.locator('.pass-hand .pass-ruling').innerText()).length > 0, 'the ruling is shown to the mover');
    }
    if (ply === 0) {
      await assertAccessible(page, 'the mover’s ruling on a passed phone');
      await assertNoSideScroll(page, 'the mover’s ruling on a passed phone');
      await shot(page, 'arbiter-full-handover-phone');
    }
    await hide.click();
    const take = await curtain(seats[(ply + 1) % 2], `after ${seat}'s move ${ply + 1}`);
    c.frames.length = 0; // only what the next seat's board hears from now on
    await take.click();
  }
  assert.ok(challenges >= 1, 'the Privates met: a challenge was ruled and shown to its mover before the board was hidden');
  // At the end, the normal end screen (the curtain is gone).
  await page.locator('.status.over').waitFor();
  assert.equal(await page.locator('.pass-curtain').count(), 0);
  const g = await (await fetch(`${server.url}/api/games/${id}`)).json();
  assert.equal(g.result.reason, 'flag_captured');
  assert.equal(g.public, false, 'a table’s game is private');
  assert.deepEqual(c.errors, []);
  await c.context.close();
});
