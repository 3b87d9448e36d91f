// Issue 18, first visit and replays, in Chromium against a real `salpakan serve`: a fresh
// browser sees what salpakan is in two lines and starts a game against the computer for each
// game in one click; a finished game's replay opens at the ply and view a link names, a
// seat's view hides what that seat never saw, autoplay advances and pauses, and a move in the
// list jumps there. The seat views of record.js are also pinned without a browser.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { replayRecord, viewOf } from '../assets/record.js';
import {
  startServer, launch, newPage, botGame, waitTurn, clickMove, shotBoth, fullRecord, assertNoSideScroll, quietMove,
  resignUnlessOver, DESKTOP, PHONE390,
} from './helpers.mjs';

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

const ARMY = { generals: 21, stratego: 40 };

test('a first visit explains salpakan in two lines and one click starts a game against the computer for each game', { timeout: 180000 }, async () => {
  for (const [game, title] of [['generals', 'Game of the Generals'], ['stratego', 'Stratego'], ['banqi', 'Banqi']]) {
    // a fresh browser context: no name, no token, nothing remembered
    const { page, context, errors } = await newPage(browser, PHONE390);
    await page.goto(server.url);
    const lines = await page.locator('.hero .intro').allInnerTexts();
    assert.equal(lines.length, 2, 'two lines say what salpakan is');
    assert.match(lines[0], /Game of the Generals, Stratego and Banqi/);
    assert.match(lines[1], /arbiter/);
    assert.equal(await page.locator('.quick-buttons button').count(), 3, 'a one-click button for each game');
    await assertNoSideScroll(page, 'first visit at 390 px');
    if (game === 'generals') {
      await shotBoth(page, 'i18-first-visit');
    }
    await page.getByRole('button', { name: `Play ${title} against the computer` }).click();
    await page.waitForURL(/\/game\/[\w-]+$/);
    const id = new URL(page.url()).pathname.split('/').pop();
    const info = await (await fetch(`${server.url}/api/games/${id}`)).json();
    assert.equal(info.kind, game, `the ${title} button starts a ${game} game`);
    const bots = (await (await fetch(`${server.url}/api/bots`)).json()).bots;
    assert.ok(Object.values(info.players).some((p) => /** @type {any} */ (p)?.bot === bots[1]), `against the computer at level 2 (${bots[1]}): ${JSON.stringify(info.players)}`);
    assert.equal(info.clock, null, 'no clock by default');
    if (game === 'banqi') {
      await page.locator('.board').waitFor();
      await page.locator('.side-panel .status').waitFor();
    } else {
      // the setup editor opens with a whole random setup in place: Ready is one click away
      await page.getByRole('heading', { name: 'Set up your army' }).waitFor();
      assert.equal(await page.locator('.setup-view .board .piece').count(), ARMY[game], 'a ready random setup');
      assert.ok(await page.getByRole('button', { name: 'Ready' }).isEnabled());
      await assertNoSideScroll(page, `${game} setup at 390 px`);
      if (game === 'generals') {
        await page.getByRole('button', { name: 'Ready' }).click();
        await page.locator('.side-panel .status').waitFor();
      }
    }
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('a replay link opens at its ply and view; the seat view hides the other seat\'s unrevealed pieces; autoplay and jumps work', { timeout: 180000 }, async () => {
  const { page, frames, context } = await newPage(browser, DESKTOP);
  page.on('dialog', (d) => d.accept());
  const id = await botGame(page, server.url, 'Rep', { game: 'generals', title: 'Game of the Generals', clock: 'none' });
  await page.getByRole('heading', { name: 'Set up your army' }).waitFor();
  await page.getByRole('button', { name: 'Random' }).click();
  await page.getByRole('button', { name: 'Ready' }).click();
  const turn = { ver: -1 };
  for (let i = 0; i < 6; i++) {
    const legal = await waitTurn(page, frames, id, turn);
    if (!legal) break;
    // (a quiet move: a random challenge could take a Flag and end the game before six plies)
    await clickMove(page, quietMove(frames, id, legal));
  }
  await resignUnlessOver(page);
  await page.locator('.status.over').waitFor();
  await context.close();
  const plies = replayRecord(await fullRecord(server.url, id)).plies.length;
  assert.ok(plies >= 6, `enough plies to step through (${plies})`);

  // a stranger opens a shared link at ply 3, as White saw it
  const v = await newPage(browser, DESKTOP);
  const p = v.page;
  await p.goto(`${server.url}/replay/${id}?ply=3&view=white`);
  await p.locator('.replay-label', { hasText: `Ply 3 of ${plies}` }).waitFor();
  assert.equal(await p.locator('#replay-ply').inputValue(), '3');
  assert.equal(await p.locator('#replay-view').inputValue(), 'white');
  assert.equal(await p.locator('.moves li.current').count(), 1);
  assert.equal(await p.locator('.moves li').nth(2).getAttribute('class'), 'current', 'the third move is the current one');

  // White's view: every Black piece is drawn face down and named nowhere in the DOM
  const seatDom = () => p.evaluate(() => ({
    blackShown: document.querySelectorAll('.board .piece.side-black:not(.hidden)').length,
    blackHidden: document.querySelectorAll('.board .piece.side-black.hidden').length,
    whiteShown: document.querySelectorAll('.board .piece.side-white:not(.hidden)').length,
    blackKeys: [...document.querySelectorAll('.board [data-key$="|black"]')].map((e) => e.getAttribute('data-key')),
    blackLabels: [...document.querySelectorAll('.board .sq')].map((e) => e.getAttribute('aria-label') ?? '').filter((l) => /Black/.test(l)),
  }));
  let d = await seatDom();
  assert.equal(d.blackShown, 0, 'no Black rank shown in White\'s view');
  assert.ok(d.blackHidden >= 20, `Black's pieces are there, face down (${d.blackHidden})`);
  assert.ok(d.whiteShown >= 20, 'White sees its own pieces');
  assert.ok(d.blackKeys.every((k) => k === 'null|black'), `no Black code in the DOM: ${d.blackKeys}`);
  assert.ok(d.blackLabels.every((l) => /rank unknown/.test(l)), `no Black rank in the labels: ${d.blackLabels}`);
  for (const line of await p.locator('.moves li').allInnerTexts()) {
    if (/challenged/.test(line)) assert.match(line, /a piece/, `White's view names no Black piece: ${line}`);
  }
  await shotBoth(p, 'i18-replay-seat-view');
  // the full reveal shows them (so the check above could fail)
  await p.locator('#replay-view').selectOption('full');
  d = await seatDom();
  assert.ok(d.blackShown >= 20, 'the full reveal shows Black\'s ranks');
  assert.match(p.url(), /ply=3$/, 'the link follows the view');
  await p.locator('#replay-view').selectOption('black');
  d = await seatDom();
  assert.equal(d.whiteShown, 0, 'Black\'s view hides White\'s ranks');
  assert.match(p.url(), /ply=3&view=black$/);

  // jump: to the start, to a move in the list, to the end
  await p.getByRole('button', { name: 'First', exact: true }).click();
  await p.locator('.replay-label', { hasText: 'Start position' }).waitFor();
  await p.locator('.moves li button').nth(4).click();
  await p.locator('.replay-label', { hasText: `Ply 5 of ${plies}` }).waitFor();
  assert.match(p.url(), /ply=5&view=black$/, 'the address names the ply shown');
  await p.getByRole('button', { name: 'Last', exact: true }).click();
  await p.locator('.replay-label', { hasText: `Ply ${plies} of ${plies}` }).waitFor();

  // autoplay: from the start it advances by itself, and Pause stops it
  await p.getByRole('button', { name: 'First', exact: true }).click();
  await p.getByRole('button', { name: 'Play', exact: true }).click();
  await p.locator('.replay-label', { hasText: `Ply 2 of ${plies}` }).waitFor({ timeout: 10000 });
  await p.getByRole('button', { name: 'Pause', exact: true }).click();
  const at = await p.locator('#replay-ply').inputValue();
  await p.waitForTimeout(2000);
  assert.equal(await p.locator('#replay-ply').inputValue(), at, 'paused: the ply stays');
  assert.equal(await p.locator('#replay-play').getAttribute('aria-pressed'), 'false');

  // a phone: no sideways scrolling
  await p.setViewportSize(PHONE390);
  await assertNoSideScroll(p, 'replay at 390 px');
  assert.deepEqual(v.errors, []);
  await v.context.close();
});

test('a seat view shows the other seat\'s pieces only where the rules revealed them', () => {
  // Stratego: an attack shows both ranks to both players, and the survivor stays known
  const st = replayRecord([
    '[Game "stratego"]', '[Copy "full"]', '[Options "army=barrage"]',
    '[RedSetup "a4:7 b4:F c4:3"]', '[BlueSetup "a7:5 b7:F c7:2"]', '',
    '1. a4-a5 a7-a6 2. a5-a6{7>5} c7-c6 1-0', ''].join('\n'));
  const red = viewOf('stratego', st.positions[4], 'red');
  assert.equal(red.a6.code, '7', 'own piece');
  assert.equal(red.c6.code, null, 'a Blue piece that never fought stays unknown');
  assert.equal(red.b7.code, null);
  const blue = viewOf('stratego', st.positions[4], 'blue');
  assert.equal(blue.a6.code, '7', 'the attacker Blue saw stays known');
  assert.equal(blue.b4.code, null, 'Red pieces that never fought stay unknown');
  assert.equal(viewOf('stratego', st.positions[2], 'blue').a5.code, null, 'unknown before the attack');
  assert.equal(viewOf('stratego', st.positions[4], 'full').b4.code, 'F', 'the full reveal shows everything');
  // a Scout that moves more than one square is known from then on
  const scout = replayRecord([
    '[Game "stratego"]', '[Copy "full"]', '[Options "army=barrage"]',
    '[RedSetup "a4:2 b4:F"]', '[BlueSetup "a7:5 b7:F c7:2"]', '',
    '1. a4-a6 c7-c6 1-0', ''].join('\n'));
  assert.equal(viewOf('stratego', scout.positions[2], 'blue').a6.code, '2', 'a long move shows the Scout');
  assert.equal(viewOf('stratego', scout.positions[2], 'red').c6.code, null, 'a one-square move shows nothing');
  // Generals, reveal=none: a challenge shows no rank; reveal=winner shows the survivor's
  const rec = (/** @type {string} */ reveal) => replayRecord([
    '[Game "generals"]', '[Copy "full"]', `[Options "first=white reveal=${reveal}"]`,
    '[WhiteSetup "a3:CPT b1:FLG"]', '[BlackSetup "a5:PVT b8:FLG"]', '',
    '1. a3-a4 a5-a4{PVT<CPT} 1-0', ''].join('\n'));
  assert.equal(viewOf('generals', rec('none').positions[2], 'black').a4.code, null, 'reveal=none: the survivor stays unknown');
  assert.equal(viewOf('generals', rec('winner').positions[2], 'black').a4.code, 'CPT', 'reveal=winner: the survivor is shown');
  assert.equal(viewOf('generals', rec('winner').positions[2], 'black').b1.code, null);
  // open_flag=true: each Flag is shown to the opponent from the start, nothing else
  const open = replayRecord([
    '[Game "generals"]', '[Copy "full"]', '[Options "first=white open_flag=true"]',
    '[WhiteSetup "a3:CPT b1:FLG"]', '[BlackSetup "a5:PVT b8:FLG"]', '', '1. a3-a4 1-0', ''].join('\n'));
  assert.equal(viewOf('generals', open.positions[0], 'black').b1.code, 'FLG');
  assert.equal(viewOf('generals', open.positions[1], 'black').a4.code, null);
  assert.equal(viewOf('generals', rec('none').positions[0], 'black').b1.code, null, 'without open_flag the Flag is hidden');
});
