// Whole games through the UI: two people play Game of the Generals against each other (a third
// watches), Stratego and Banqi against the bot. Every WebSocket frame of a player and of the
// spectator is checked: nothing hidden appears before the game ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, enter, shot, parsed, PHONE, DESKTOP } from './helpers.mjs';

/** The legal moves the server last sent this page (the test's only knowledge of the rules). */
function lastLegal(/** @type {string[]} */ frames, /** @type {string} */ game) {
  const ms = parsed(frames);
  let ver = -1, moves = null;
  for (const m of ms) {
    if (m.game !== game) continue;
    if (m.t === 'sync') ver = m.ver;
    if (m.t === 'event') ver = m.ver;
    if (m.t === 'legal' && m.ver === ver) moves = m.moves;
  }
  return moves ?? [];
}

function gameIdOf(/** @type {import('playwright-core').Page} */ page) {
  return new URL(page.url()).pathname.split('/').pop() ?? '';
}

/**
 * Play one move by clicking its squares, preferring challenges and forward moves (`forward`:
 * +1 when the seat's ranks grow towards the enemy, -1 when they shrink), so that random play
 * ends well inside the test's ply limit: undirected random walks can shuffle for 600 plies.
 */
async function playOne(page, frames, game, ply, forward = 0) {
  const legal = lastLegal(frames, game);
  if (!legal.length) return false;
  const occupied = new Set(await page.locator('.board .sq:has(.piece)').evaluateAll((els) => els.map((e) => e.getAttribute('data-sq'))));
  const attacks = legal.filter((m) => m.includes('-') && occupied.has(m.split('-')[1]));
  const rank = (/** @type {string} */ sq) => Number.parseInt(sq.slice(1), 10);
  const advances = legal.filter((m) => m.includes('-') && (rank(m.split('-')[1]) - rank(m.split('-')[0])) * forward > 0);
  const pool = attacks.length && ply % 3 !== 2 ? attacks : advances.length && ply % 4 !== 3 ? advances : legal;
  const mv = pool[Math.floor(Math.random() * pool.length)];
  const [from, to] = mv.split('-');
  try {
    await page.locator(`.board [data-sq="${from}"]`).click({ timeout: 10000 });
    if (to) await page.locator(`.board [data-sq="${to}"]`).click({ timeout: 10000 });
  } catch (e) {
    // the opponent's last move may have ended the game between reading "Your move." and the
    // click: the end screen then covers the board, and there is no move left to play
    if (await page.locator('.status.over').count()) return false;
    throw e;
  }
  return true;
}

/** Assert that no frame before the end shows the opponent's (or, for a spectator, anyone's) hidden pieces. */
function assertNoLeak(frames, { game, kind, viewer, secrets }) {
  const seats = kind === 'generals' ? ['white', 'black'] : ['red', 'blue'];
  for (const m of parsed(frames)) {
    if (m.t === 'event' && (m.e?.type === 'end' || m.e?.observation?.result)) break;
    if (m.game && m.game !== game) continue;
    const text = JSON.stringify(m);
    for (const s of secrets) assert.ok(!text.includes(s), `${viewer} saw a secret before the end: ${text.slice(0, 300)}`);
    const walk = (v) => {
      if (!v || typeof v !== 'object') return;
      if (typeof v.owner === 'string' && v.owner !== viewer && 'piece' in v && kind === 'generals') assert.fail(`${viewer} saw a ${v.owner} piece: ${text.slice(0, 300)}`);
      if (typeof v.seat === 'string' && seats.includes(v.seat) && v.seat !== viewer && v.from && 'piece' in v && kind === 'generals') assert.fail(`${viewer} saw the rank of a ${v.seat} mover`);
      if (v.setup && typeof v.setup === 'object' && v.seat !== viewer) assert.fail(`${viewer} saw a setup`);
      for (const x of Object.values(v)) walk(x);
    };
    walk(m);
  }
}

test('two people play Game of the Generals to the end; a spectator watches; nothing leaks', { timeout: 240000 }, async () => {
  const server = await startServer();
  const { browser, close } = await launch();
  try {
    const ana = await newPage(browser, DESKTOP);
    const ben = await newPage(browser, PHONE);
    await enter(ana.page, server.url, 'Ana');
    await shot(ana.page, 'lobby-desktop');
    await enter(ben.page, server.url, 'Ben');
    await shot(ben.page, 'lobby-phone');
    // Ana opens a seek; Ben accepts it from the list
    await ana.page.getByRole('button', { name: 'Create seek' }).click();
    await ben.page.getByRole('button', { name: /Accept Ana's Game of the Generals seek/ }).click();
    await ana.page.waitForURL(/\/game\//);
    await ben.page.waitForURL(/\/game\//);
    const game = gameIdOf(ana.page);
    assert.equal(gameIdOf(ben.page), game);

    // setup: Ana drags a piece from the tray onto the board, then takes a random setup
    await ana.page.getByRole('heading', { name: 'Set up your army' }).waitFor();
    const seatAna = (await ana.page.locator('.setup-head h1').textContent())?.includes('White') ? 'white' : 'black';
    const target = seatAna === 'white' ? 'e2' : 'e7';
    const flag = ana.page.locator('.tray-item[data-code="FLG"]');
    const box = await flag.boundingBox();
    const sqBox = await ana.page.locator(`.board [data-sq="${target}"]`).boundingBox();
    await ana.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await ana.page.mouse.down();
    await ana.page.mouse.move(box.x + 30, box.y + 30, { steps: 3 });
    await ana.page.mouse.move(sqBox.x + sqBox.width / 2, sqBox.y + sqBox.height / 2, { steps: 5 });
    await ana.page.mouse.up();
    assert.match(await ana.page.locator(`.board [data-sq="${target}"]`).getAttribute('aria-label'), /Flag/);
    await shot(ana.page, 'setup-desktop');
    await ana.page.getByRole('button', { name: 'Random' }).click();
    await ana.page.getByRole('button', { name: 'Ready' }).click();
    await ben.page.getByRole('button', { name: 'Random' }).click();
    await shot(ben.page, 'setup-phone');
    await ben.page.getByRole('button', { name: 'Ready' }).click();

    // a spectator joins from the lobby's live games
    const eve = await newPage(browser, PHONE);
    await enter(eve.page, server.url, 'Eve');
    await eve.page.locator(`#live-games [data-game="${game}"] a`).click();
    await eve.page.waitForURL(/\/game\//);

    const seatBen = seatAna === 'white' ? 'black' : 'white';
    const pages = [{ ...ana, forward: seatAna === 'white' ? 1 : -1 }, { ...ben, forward: seatBen === 'white' ? 1 : -1 }];
    await ana.page.locator('.status').filter({ hasText: /move/ }).waitFor();
    let ply = 0;
    let shotsTaken = false;
    while (ply < 600) {
      const over = await ana.page.locator('.status.over').count();
      if (over) break;
      let moved = false;
      for (const p of pages) {
        if ((await p.page.locator('.status').textContent()) === 'Your move.') {
          if (await playOne(p.page, p.frames, game, ply, p.forward)) {
            moved = true;
            ply++;
          }
        }
      }
      if (ply >= 6 && !shotsTaken) {
        shotsTaken = true; await shot(ana.page, 'play-desktop'); await shot(ben.page, 'play-phone'); await shot(eve.page, 'watch-phone'); }
      if (!moved) await ana.page.waitForTimeout(50);
    }
    await ana.page.locator('.status.over').waitFor();
    await ben.page.locator('.status.over').waitFor();
    await shot(ana.page, 'over-desktop');
    await shot(ben.page, 'over-phone');

    // the full record is published: both setups, their salts
    const record = await (await fetch(`${server.url}/api/games/${game}/record`)).text();
    const salts = [...record.matchAll(/Salt "([0-9a-f]+)"/g)].map((m) => m[1]);
    assert.equal(salts.length, 2);
    assertNoLeak(ben.frames, { game, kind: 'generals', viewer: seatBen, secrets: salts });
    assertNoLeak(eve.frames, { game, kind: 'generals', viewer: 'spectator', secrets: salts });
    assertNoLeak(ana.frames, { game, kind: 'generals', viewer: seatAna, secrets: salts });
    for (const p of [ana, ben, eve]) assert.deepEqual(p.errors, []);

    // replay with the full reveal
    await ana.page.getByRole('link', { name: 'Replay' }).click();
    await ana.page.getByRole('heading', { name: /Replay/ }).waitFor();
    await ana.page.getByRole('button', { name: 'First' }).click();
    assert.equal(await ana.page.locator('.board .piece.hidden').count(), 0);
    await ana.page.getByRole('button', { name: 'Next move' }).click();
    await shot(ana.page, 'replay-desktop');
  } finally {
    await close();
    await server.stop();
  }
});
