// The screens around a game: the setup editor (mouse drag and drop, touch tap-tap), saved
// setups loaded into a new game, reconnecting after a reload (board, clocks, chat), watching
// from the lobby's live games, replaying a finished game move by move with the full reveal, and
// the record download (verified by `salpakan record verify`). Frames and DOM are checked for
// hidden pieces all along.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  startServer, launch, newPage, enter, shotBoth, botGame, waitTurn, clickMove, gameIdOf,
  assertFramesClean, assertDomClean, fullRecord, secretsOf, verifyRecord, quietMove, PHONE, DESKTOP,
} from './helpers.mjs';

/** The pieces on the board as the editor shows them: square → aria label. */
async function placed(/** @type {import('playwright-core').Page} */ page) {
  const cells = await page.locator('.board .sq:has(.piece)').evaluateAll((els) => els.map((e) => [e.getAttribute('data-sq'), e.getAttribute('aria-label')]));
  return Object.fromEntries(cells);
}

/** Drag with the mouse from one element's centre to another's. */
async function drag(/** @type {import('playwright-core').Page} */ page, /** @type {import('playwright-core').Locator} */ from, /** @type {import('playwright-core').Locator} */ to) {
  const a = await from.boundingBox(), b = await to.boundingBox();
  if (!a || !b) throw new Error('nothing to drag');
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 20, a.y + a.height / 2 + 20, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 6 });
  await page.mouse.up();
}

/** The seat this page plays, from the setup heading or the bottom player bar. */
async function seatOf(/** @type {import('playwright-core').Page} */ page) {
  return (await page.locator('.player-bar.bottom').getAttribute('data-seat')) ?? '';
}

test('setup editor, saved setups, reconnect after a reload, watching, replay and record download', { timeout: 150000 }, async () => {
  const server = await startServer();
  const { browser, close } = await launch();
  try {
    // ---- the setup editor with the mouse; save to the library
    const ana = await newPage(browser, DESKTOP);
    ana.page.on('dialog', (d) => d.accept());
    await enter(ana.page, server.url, 'Ana');
    await ana.page.getByRole('radio', { name: 'Stratego' }).click();
    await shotBoth(ana.page, 'new-game');
    await ana.page.goto(server.url);
    const game = await botGame(ana.page, server.url, 'Ana', { game: 'generals', title: 'Game of the Generals', options: { army: 'reduced' }, clock: '300+3' });
    await ana.page.getByRole('heading', { name: 'Set up your army' }).waitFor();
    const white = (await ana.page.locator('.setup-head h1').textContent())?.includes('White');
    const home = white ? '1' : '8', second = white ? '2' : '7';
    await drag(ana.page, ana.page.locator('.tray-item[data-code="FLG"]'), ana.page.locator(`.board [data-sq="e${home}"]`));
    assert.match(await ana.page.locator(`.board [data-sq="e${home}"]`).getAttribute('aria-label') ?? '', /Flag/);
    await drag(ana.page, ana.page.locator('.tray-item[data-code="SPY"]'), ana.page.locator(`.board [data-sq="d${second}"]`));
    // a placed piece dragged onto another square moves there
    await drag(ana.page, ana.page.locator(`.board [data-sq="e${home}"] .piece`), ana.page.locator(`.board [data-sq="a${home}"]`));
    assert.match(await ana.page.locator(`.board [data-sq="a${home}"]`).getAttribute('aria-label') ?? '', /Flag/);
    assert.match(await ana.page.locator(`.board [data-sq="e${home}"]`).getAttribute('aria-label') ?? '', /empty/);
    await ana.page.locator('.setup-status', { hasText: '2 of 11 pieces placed.' }).waitFor();
    assert.ok(await ana.page.getByRole('button', { name: 'Ready' }).isDisabled());
    await shotBoth(ana.page, 'setup');
    await ana.page.getByRole('button', { name: 'Random' }).click();
    await ana.page.locator('.setup-status', { hasText: 'All pieces placed.' }).waitFor();
    await ana.page.getByRole('button', { name: 'Save' }).click();
    await ana.page.getByRole('button', { name: 'Use Setup 1' }).waitFor();
    const saved = await placed(ana.page);
    assert.equal(Object.keys(saved).length, 11);
    await ana.page.getByRole('button', { name: 'Ready' }).click();

    // ---- play a few moves, chat, and watch from another browser
    const turn = { ver: -1 };
    await ana.page.locator('.status').filter({ hasText: /move/ }).waitFor();
    const eve = await newPage(browser, PHONE);
    await enter(eve.page, server.url, 'Eve');
    await eve.page.locator(`#live-games [data-game="${game}"] a`, { hasText: 'Watch' }).click();
    await eve.page.waitForURL(`**/game/${game}`);
    await eve.page.locator('.status', { hasText: /Watching/ }).waitFor();
    assert.ok(await eve.page.locator('#chat-input').isDisabled(), 'spectators cannot chat');
    for (let i = 0; i < 4; i++) {
      const legal = await waitTurn(ana.page, ana.frames, game, turn);
      if (!legal) break;
      await assertDomClean(ana.page, ana.frames, game);
      // a quiet move, so that the game is still on for the reload below
      await clickMove(ana.page, quietMove(ana.frames, game, legal));
    }
    await ana.page.locator('#chat-input').fill('good luck');
    await ana.page.getByRole('button', { name: 'Send' }).click();
    await ana.page.locator('#chat-log li', { hasText: 'good luck' }).waitFor();
    await waitTurn(ana.page, ana.frames, game, turn);
    await shotBoth(ana.page, 'play');
    await assertDomClean(eve.page, eve.frames, game);
    await shotBoth(eve.page, 'spectator');
    assert.equal(await eve.page.locator('#chat-log li').count(), 0, 'spectators do not see the players\' chat');

    // ---- reload mid-game: board, moves, clocks and chat come back
    const secs = (/** @type {string} */ t) => t.split(':').reduce((a, x) => a * 60 + Number(x), 0);
    const before = { board: await placed(ana.page), moves: await ana.page.locator('.moves li').count(), clocks: (await ana.page.locator('[data-clock]').allTextContents()).map(secs) };
    await ana.page.reload();
    await ana.page.locator('.status', { hasText: 'Your move.' }).waitFor();
    assert.deepEqual(await placed(ana.page), before.board);
    assert.equal(await ana.page.locator('.moves li').count(), before.moves);
    await ana.page.locator('#chat-log li', { hasText: 'good luck' }).waitFor();
    const clocks = await ana.page.locator('[data-clock]').allTextContents();
    assert.equal(clocks.length, 2);
    clocks.forEach((c, i) => assert.ok(Math.abs(secs(c) - before.clocks[i]) <= 5, `clock ${c} after the reload, ${before.clocks[i]} s before`));
    await assertDomClean(ana.page, ana.frames, game);

    // ---- resign; both see the end
    await ana.page.getByRole('button', { name: 'Resign' }).click();
    await ana.page.locator('.status.over').waitFor();
    await eve.page.locator('.status.over').waitFor();
    await shotBoth(ana.page, 'over');
    const record = await fullRecord(server.url, game);
    const secrets = secretsOf(record);
    assert.ok(secrets.length >= 4);
    const me = await seatOf(ana.page);
    assertFramesClean(ana.frames, { game, kind: 'generals', viewer: me, secrets });
    assertFramesClean(eve.frames, { game, kind: 'generals', viewer: 'spectator', secrets });

    // ---- replay from the lobby's recent games: move by move, everything shown; download
    await eve.page.getByRole('link', { name: 'Lobby', exact: true }).click();
    await eve.page.locator(`#ended-games [data-game="${game}"] a`, { hasText: 'Replay' }).click();
    await eve.page.getByRole('heading', { name: /Replay/ }).waitFor();
    await eve.page.getByRole('button', { name: 'First' }).click();
    await eve.page.locator('.replay-label', { hasText: 'Start position' }).waitFor();
    assert.equal(await eve.page.locator('.board .piece').count(), 22);
    assert.equal(await eve.page.locator('.board .piece.hidden').count(), 0);
    const plies = Number((await eve.page.locator('.moves-box summary').textContent())?.match(/\d+/)?.[0]);
    assert.ok(plies >= 8);
    for (let i = 1; i <= plies; i++) {
      await eve.page.getByRole('button', { name: 'Next move' }).click();
      await eve.page.locator('.replay-label', { hasText: `Ply ${i} of ${plies}` }).waitFor();
      assert.equal(await eve.page.locator('.board .piece.hidden').count(), 0);
      if (i === 3) await shotBoth(eve.page, 'replay');
    }
    const [download] = await Promise.all([eve.page.waitForEvent('download'), eve.page.getByRole('link', { name: 'Download record' }).click()]);
    const text = readFileSync(/** @type {string} */ (await download.path()), 'utf8');
    assert.equal(text, record);
    assert.match(text, /\[Copy "full"\]/);
    const v = verifyRecord(text);
    assert.equal(v.status, 0, v.out);

    // ---- a new game in the same browser: the saved setup comes back from the library
    await ana.page.goto(server.url);
    const game2 = await botGame(ana.page, server.url, 'Ana', { game: 'generals', title: 'Game of the Generals', options: { army: 'reduced' } });
    assert.notEqual(game2, game);
    await ana.page.getByRole('button', { name: 'Use Setup 1' }).click();
    await ana.page.locator('.setup-status', { hasText: 'All pieces placed.' }).waitFor();
    const white2 = (await ana.page.locator('.setup-head h1').textContent())?.includes('White');
    const again = await placed(ana.page);
    // saved setups are kept from the seat's own side: the same seat gets the same squares
    const mirror = (/** @type {string} */ s) => String.fromCharCode(105 - (s.charCodeAt(0) - 97)) + (9 - Number(s.slice(1)));
    const expect = white2 === white ? saved : Object.fromEntries(Object.entries(saved).map(([s, l]) => [mirror(s), l.replace(/^\w+/, mirror(s)).replace(white ? 'White' : 'Black', white2 ? 'White' : 'Black')]));
    assert.deepEqual(again, expect);
    await ana.page.getByRole('button', { name: 'Ready' }).click();
    await ana.page.locator('.status').filter({ hasText: /move/ }).waitFor();
    assert.deepEqual(ana.errors, []);
    assert.deepEqual(eve.errors, []);
  } finally {
    await close();
    await server.stop();
  }
});

test('setup on a phone with taps, a challenge link, and a seek you can cancel', { timeout: 90000 }, async () => {
  const server = await startServer();
  const { browser, close } = await launch();
  try {
    const ben = await newPage(browser, PHONE);
    await botGame(ben.page, server.url, 'Ben', { game: 'stratego', title: 'Stratego', options: { army: 'barrage' } });
    await ben.page.getByRole('heading', { name: 'Set up your army' }).waitFor();
    const red = (await ben.page.locator('.setup-head h1').textContent())?.includes('Red');
    const r1 = red ? '1' : '10', r2 = red ? '2' : '9';
    // tap a tray piece, then a square
    await ben.page.locator('.tray-item[data-code="F"]').tap();
    await ben.page.locator(`.board [data-sq="a${r1}"]`).tap();
    assert.match(await ben.page.locator(`.board [data-sq="a${r1}"]`).getAttribute('aria-label') ?? '', /Flag/);
    await ben.page.locator('.tray-item[data-code="B"]').tap();
    await ben.page.locator(`.board [data-sq="b${r1}"]`).tap();
    // tap a placed piece, then another square: it moves
    await ben.page.locator(`.board [data-sq="a${r1}"]`).tap();
    await ben.page.locator(`.board [data-sq="c${r2}"]`).tap();
    assert.match(await ben.page.locator(`.board [data-sq="c${r2}"]`).getAttribute('aria-label') ?? '', /Flag/);
    assert.match(await ben.page.locator(`.board [data-sq="a${r1}"]`).getAttribute('aria-label') ?? '', /empty/);
    await ben.page.locator('.setup-status', { hasText: '2 of 8 pieces placed.' }).waitFor();
    // a tap off the setup area is refused with a message
    await ben.page.locator('.tray-item[data-code="S"]').tap();
    await ben.page.locator(`.board [data-sq="e5"]`).tap();
    await ben.page.locator('.toast', { hasText: 'own highlighted ranks' }).waitFor();
    await shotBoth(ben.page, 'setup-touch');
    assert.deepEqual(ben.errors, []);

    // a challenge by link, and an open seek its creator can cancel
    const cat = await newPage(browser, DESKTOP);
    await enter(cat.page, server.url, 'Cat');
    await cat.page.getByRole('button', { name: 'Challenge a friend' }).click();
    await cat.page.waitForURL(/\/challenge\//);
    await cat.page.locator('#challenge-link').waitFor();
    await shotBoth(cat.page, 'challenge-link');
    const link = await cat.page.locator('#challenge-link').inputValue();
    await cat.page.getByRole('button', { name: 'Cancel challenge' }).click();
    await cat.page.getByRole('heading', { name: 'New game' }).waitFor();
    await cat.page.getByRole('button', { name: 'Create seek' }).click();
    // the seek is recognised as Cat's own by the creator's id (also in a new tab)
    const tab = await cat.context.newPage();
    await tab.goto(server.url);
    await tab.locator('#seeks .row', { hasText: 'Cat' }).getByRole('button', { name: 'Cancel' }).waitFor();
    await tab.close();
    await ben.page.goto(link);
    await ben.page.getByText('This challenge is no longer open.').waitFor();
    // the browser logs the expected 404 of the cancelled challenge; nothing else may be logged
    const gone = ben.errors.splice(0).filter((e) => !/status of 404/.test(e));
    assert.deepEqual(gone, []);
    await ben.page.goto(server.url);
    await ben.page.getByRole('button', { name: /Accept Cat's Game of the Generals seek/ }).waitFor();
    await shotBoth(ben.page, 'lobby');
    await cat.page.locator('#seeks .row', { hasText: 'Cat' }).getByRole('button', { name: 'Cancel' }).click();
    await ben.page.locator('#seeks .empty').waitFor();
    assert.deepEqual(cat.errors, []);
    assert.deepEqual(ben.errors, []);
  } finally {
    await close();
    await server.stop();
  }
});
