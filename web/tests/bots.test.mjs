// Stratego and Banqi against the computer, played to the end through the UI (moves by
// clicking the highlighted destinations, Banqi flips by clicking a face-down piece). A
// spectator watches each game from the lobby's live games. Every frame of the player and the
// spectator, and the DOM as the game goes, is checked: nothing hidden is named before the end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launch, newPage, enter, shotBoth, botGame, waitTurn, clickMove, lastObservation,
  assertFramesClean, assertDomClean, fullRecord, secretsOf, verifyRecord, PHONE, DESKTOP,
} from './helpers.mjs';

const dist = (/** @type {string} */ a, /** @type {string} */ b) => Math.abs(a.charCodeAt(0) - b.charCodeAt(0)) + Math.abs(Number(a.slice(1)) - Number(b.slice(1)));

/** Stratego: attack when possible, else step towards the nearest enemy piece. */
function strategoPick(/** @type {string[]} */ legal, /** @type {any} */ obs, /** @type {string} */ me) {
  const enemy = Object.entries(obs?.board ?? {}).filter(([, v]) => /** @type {any} */ (v).owner !== me).map(([s]) => s);
  let best = legal[0], score = -Infinity;
  for (const m of legal) {
    const to = m.split('-')[1];
    const s = (enemy.includes(to) ? 100 : -Math.min(...enemy.map((e) => dist(to, e)), 99)) + Math.random() * 1.5;
    if (s > score) { score = s; best = m; }
  }
  return best;
}

/** Banqi: capture when possible, else flip, else any move. */
function banqiPick(/** @type {string[]} */ legal, /** @type {any} */ obs) {
  const up = (/** @type {string} */ s) => obs?.board?.[s] && !obs.board[s].face_down;
  const captures = legal.filter((m) => m.includes('-') && up(m.split('-')[1]));
  const flips = legal.filter((m) => !m.includes('-'));
  const pool = captures.length ? captures : flips.length && Math.random() < 0.7 ? flips : legal;
  return pool[Math.floor(Math.random() * pool.length)];
}

/** A spectator opens the game from the lobby's live games. */
async function watch(/** @type {import('playwright-core').Browser} */ browser, /** @type {string} */ url, /** @type {string} */ game) {
  const eve = await newPage(browser, PHONE);
  await enter(eve.page, url, 'Eve');
  await eve.page.locator(`#live-games [data-game="${game}"] a`, { hasText: 'Watch' }).click();
  await eve.page.waitForURL(`**/game/${game}`);
  await eve.page.locator('.status').filter({ hasText: /Watching|setting up/ }).waitFor();
  return eve;
}

test('Stratego (Barrage) against the computer to the end; a spectator watches; nothing leaks', { timeout: 120000 }, async () => {
  const server = await startServer();
  const { browser, close } = await launch();
  try {
    const ana = await newPage(browser, DESKTOP);
    const game = await botGame(ana.page, server.url, 'Ana', { game: 'stratego', title: 'Stratego', options: { army: 'barrage' } });
    await ana.page.getByRole('heading', { name: 'Set up your army' }).waitFor();
    const me = (await ana.page.locator('.setup-head h1').textContent())?.includes('Red') ? 'red' : 'blue';
    // the computer's setup comes into the editor, to change or accept
    await ana.page.getByRole('button', { name: 'Bot setup' }).click();
    await ana.page.locator('.setup-status', { hasText: 'All pieces placed.' }).waitFor();
    assert.equal(await ana.page.locator('.board .piece').count(), 8);
    await ana.page.getByRole('button', { name: 'Ready' }).click();
    const eve = await watch(browser, server.url, game);

    let ply = 0, shot = false;
    const turn = { ver: -1 };
    for (;;) {
      const legal = await waitTurn(ana.page, ana.frames, game, turn);
      if (!legal) break;
      if (ply % 5 === 0) await assertDomClean(ana.page, ana.frames, game);
      if (ply % 10 === 0) await assertDomClean(eve.page, eve.frames, game);
      await clickMove(ana.page, strategoPick(legal, lastObservation(ana.frames, game), me));
      ply++;
      if (!shot && await ana.page.locator('.notice').count()) {
        shot = true;
        await shotBoth(ana.page, 'stratego-challenge');
      }
      assert.ok(ply < 400, 'the game did not end');
    }
    await ana.page.locator('.status.over').waitFor();
    await eve.page.locator('.status.over').waitFor();
    await shotBoth(ana.page, 'stratego-over');
    await shotBoth(eve.page, 'stratego-spectator-over');

    const record = await fullRecord(server.url, game);
    assert.match(record, /\[RedSetup "/);
    const secrets = secretsOf(record);
    assert.ok(assertFramesClean(ana.frames, { game, kind: 'stratego', viewer: me, secrets }) > ply);
    // every move before the last reached the spectator (a short game has few: a Barrage
    // game can end in two or three plies)
    assert.ok(assertFramesClean(eve.frames, { game, kind: 'stratego', viewer: 'spectator', secrets }) >= Math.max(1, ply));
    // after the end the whole board is shown
    assert.equal(await ana.page.locator('.board .piece.hidden').count(), 0);
    const v = verifyRecord(record);
    assert.equal(v.status, 0, v.out);
    assert.deepEqual(ana.errors, []);
    assert.deepEqual(eve.errors, []);
  } finally {
    await close();
    await server.stop();
  }
});

test('Banqi against the computer to the end: flips and captures by clicking; colours after the first flip; nothing leaks', { timeout: 150000 }, async () => {
  const server = await startServer();
  const { browser, close } = await launch();
  try {
    const ana = await newPage(browser, PHONE);
    const game = await botGame(ana.page, server.url, 'Ana', { game: 'banqi', title: 'Banqi' });
    await ana.page.locator('.status').filter({ hasText: /move/ }).waitFor();
    // every piece starts face down; before the first flip nobody has a colour
    const first = lastObservation(ana.frames, game);
    const down = Object.values(first.board).filter((v) => /** @type {any} */ (v).face_down).length;
    assert.ok(down >= 31);
    assert.equal(await ana.page.locator('.board .piece.hidden').count(), down);
    if (down === 32) assert.equal(await ana.page.locator('.player-bar small', { hasText: 'colour not yet known' }).count(), 2);
    await shotBoth(ana.page, 'banqi-start');
    const eve = await watch(browser, server.url, game);

    let ply = 0, coloured = false;
    const turn = { ver: -1 };
    for (;;) {
      const legal = await waitTurn(ana.page, ana.frames, game, turn);
      if (!legal) break;
      if (!coloured) {
        const obs = lastObservation(ana.frames, game);
        if (Object.keys(obs?.colours ?? {}).length) {
          coloured = true;
          // both bars now name a colour
          assert.equal(await ana.page.locator('.player-bar small', { hasText: 'colour not yet known' }).count(), 0);
          assert.equal(await ana.page.locator('.player-bar .seat-chip.side-none').count(), 0);
        }
      }
      if (ply % 6 === 0) await assertDomClean(ana.page, ana.frames, game);
      if (ply % 12 === 0) await assertDomClean(eve.page, eve.frames, game);
      if (ply === 12) { await shotBoth(ana.page, 'banqi-play'); await shotBoth(eve.page, 'banqi-spectator'); }
      await clickMove(ana.page, banqiPick(legal, lastObservation(ana.frames, game)));
      ply++;
      assert.ok(ply < 700, 'the game did not end');
    }
    assert.ok(coloured, 'colours were never shown');
    await ana.page.locator('.status.over').waitFor();
    await eve.page.locator('.status.over').waitFor();
    await shotBoth(ana.page, 'banqi-over');

    const record = await fullRecord(server.url, game);
    assert.match(record, /\[Deal "/);
    const secrets = secretsOf(record);
    const viewer = (await ana.page.locator('.player-bar.bottom').getAttribute('data-seat')) ?? '';
    assert.ok(assertFramesClean(ana.frames, { game, kind: 'banqi', viewer, secrets }) > ply);
    // every move before the last reached the spectator
    assert.ok(assertFramesClean(eve.frames, { game, kind: 'banqi', viewer: 'spectator', secrets }) >= Math.max(1, ply));
    const v = verifyRecord(record);
    assert.equal(v.status, 0, v.out);
    assert.deepEqual(ana.errors, []);
    assert.deepEqual(eve.errors, []);
  } finally {
    await close();
    await server.stop();
  }
});
