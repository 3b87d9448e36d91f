// The defects of issue 18, each pinned in Chromium against a real `salpakan serve`: the
// computer's strength levels, Banqi characters, ending a Banqi capture chain, pages that fit a
// 390 px phone, the own setup kept after Ready, the result banner and the last move, replays
// (flip, Banqi face down, each game's own words), an unknown game's link, plain option labels
// with help, and keyboard-only setup with few tab stops.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  startServer, launch, newPage, enter, botGame, waitTurn, clickMove, lastObservation, gameIdOf, shotBoth, parsed,
  assertNoSideScroll, resignUnlessOver, DESKTOP, PHONE390,
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

/** Fill the setup editor at random and press Ready; wait for the game screen. */
async function randomReady(/** @type {import('playwright-core').Page} */ page) {
  await page.getByRole('heading', { name: 'Set up your army' }).waitFor();
  await page.getByRole('button', { name: 'Random' }).click();
  await page.getByRole('button', { name: 'Ready' }).click();
  await page.locator('.side-panel .status').waitFor();
}

/** The page is no wider than its window (nothing to scroll sideways) and the header fits. */
async function assertFits(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ what) {
  await page.waitForTimeout(50);
  await assertNoSideScroll(page, what);
  const m = await page.evaluate(() => ({
    header: document.querySelector('header.topbar')?.scrollWidth ?? 0, headerBox: document.querySelector('header.topbar')?.clientWidth ?? 0,
  }));
  assert.ok(m.header <= m.headerBox, `${what}: the header needs ${m.header} px of ${m.headerBox} px`);
}

test('play the computer offers each strength level the server has, starts a game at each and remembers the choice', { timeout: 120000 }, async () => {
  const { bots } = await (await fetch(`${server.url}/api/bots`)).json();
  assert.ok(bots.length >= 3, 'the server offers several bots');
  const { page, context } = await newPage(browser, DESKTOP);
  await enter(page, server.url, 'Lev');
  const games = /** @type {[string, string][]} */ ([['generals', 'Game of the Generals'], ['stratego', 'Stratego'], ['banqi', 'Banqi']]);
  for (let i = 0; i < bots.length; i++) {
    const [game, title] = games[i % games.length];
    await page.goto(server.url);
    await page.getByRole('radio', { name: title }).click();
    const levels = page.locator('#bot-level option');
    await levels.nth(bots.length - 1).waitFor({ state: 'attached', timeout: 5000 });
    assert.deepEqual(await page.locator('#bot-level option').evaluateAll((os) => os.map((o) => /** @type {HTMLOptionElement} */ (o).value)), bots);
    assert.match(await levels.nth(i).textContent() ?? '', new RegExp(`^Level ${i + 1} · \\w`));
    await page.locator('#bot-level').selectOption(bots[i]);
    const help = await page.locator('#bot-level-help').textContent() ?? '';
    assert.ok(help.length > 20, `level ${i + 1} is described: ${help}`);
    await page.locator('#clock').selectOption('none');
    await page.getByRole('button', { name: 'Play the computer' }).click();
    await page.waitForURL(/\/game\//);
    const info = await (await fetch(`${server.url}/api/games/${gameIdOf(page)}`)).json();
    const players = Object.values(info.players ?? info.game?.players ?? {});
    assert.ok(players.some((p) => /** @type {any} */ (p).bot === bots[i]), `a ${game} game against ${bots[i]}: ${JSON.stringify(info)}`);
    // remembered for this game on the next visit
    await page.goto(server.url);
    await page.getByRole('radio', { name: title }).click();
    await levels.nth(bots.length - 1).waitFor({ state: 'attached', timeout: 5000 });
    assert.equal(await page.locator('#bot-level').inputValue(), bots[i]);
  }
  await context.close();
});

test('banqi pieces are drawn as Chinese characters when a CJK font is installed, else as Latin letters', async () => {
  const fc = spawnSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8' });
  const cjk = fc.status === 0 && fc.stdout.trim().length > 0;
  const { page, context } = await newPage(browser, DESKTOP);
  await page.goto(server.url);
  const text = (/** @type {string} */ id) => page.evaluate((i) => document.querySelector(`#${i} text`)?.textContent ?? '', id);
  if (cjk) {
    assert.equal(await text('bq-rk'), '帥');
    assert.equal(await text('bq-bk'), '將');
    assert.equal(await text('bq-bc'), '包');
  } else {
    assert.equal(await text('bq-rk'), 'G');
  }
  await context.close();
});

test('a banqi capture chain can be ended with end', { timeout: 240000 }, async () => {
  const { page, frames, context } = await newPage(browser, DESKTOP);
  page.on('dialog', (d) => d.accept());
  await enter(page, server.url, 'Chain');
  let ended = false, id = '';
  const outcomes = /** @type {string[]} */ ([]);
  // a game may end before any chain comes up: then another game
  for (let g = 0; g < 6 && !ended; g++) {
    await page.goto(server.url);
    await page.getByRole('radio', { name: 'Banqi' }).click();
    await page.locator('#opt-chain_captures').check();
    await page.locator('#clock').selectOption('none');
    await page.getByRole('button', { name: 'Play the computer' }).click();
    await page.waitForURL((u) => /\/game\//.test(u.pathname) && !u.pathname.endsWith(`/${id}`));
    id = gameIdOf(page);
    const turn = { ver: -1 };
    for (let ply = 0; ply < 400 && !ended; ply++) {
      const legal = await waitTurn(page, frames, id, turn);
      if (!legal) break;
      if (legal.includes('end')) {
        await page.getByRole('button', { name: 'End capture chain' }).click();
        await page.locator('.moves li', { hasText: 'You ended the capture chain' }).waitFor();
        ended = true;
        break;
      }
      const obs = lastObservation(frames, id);
      const up = (/** @type {string} */ s) => obs?.board?.[s] && !obs.board[s].face_down;
      const captures = legal.filter((m) => m.includes('-') && up(m.split('-')[1]));
      const flips = legal.filter((m) => !m.includes('-'));
      const pool = captures.length ? captures : flips.length && Math.random() < 0.6 ? flips : legal;
      await clickMove(page, pool[Math.floor(Math.random() * pool.length)]);
    }
    if (!ended) outcomes.push(`${await page.locator('.side-panel .status').textContent()} after ${turn.ver}`);
    if (!ended && !(await page.locator('.status.over').count())) {
      await page.getByRole('button', { name: 'Resign' }).click();
      await page.locator('.status.over').waitFor();
    }
  }
  assert.ok(ended, `a capture chain came up and was ended (games without one: ${outcomes.join('; ')})`);
  // the server took it: the chain's end is in the game's history, and the turn passed
  assert.ok(parsed(frames).some((m) => m.game === id && m.t === 'event' && m.e?.type === 'move' && m.e.view?.action === 'end_chain'), 'an end_chain ply');
  await context.close();
});

test('setup and game pages of each game fit a 390 px phone with no sideways scrolling', { timeout: 120000 }, async () => {
  const { page, context } = await newPage(browser, PHONE390);
  await enter(page, server.url, 'Pho');
  await assertFits(page, 'lobby');
  for (const [game, title, options] of /** @type {[string, string, Record<string,string>][]} */ ([
    ['generals', 'Game of the Generals', {}], ['stratego', 'Stratego', {}], ['banqi', 'Banqi', {}]])) {
    await page.goto(server.url);
    await botGame(page, server.url, 'Pho', { game, title, options, clock: '300+3' });
    if (game !== 'banqi') {
      await page.getByRole('heading', { name: 'Set up your army' }).waitFor();
      await assertFits(page, `${game} setup`);
      await shotBoth(page, `i18-${game}-setup`);
      await randomReady(page);
    }
    await page.locator('.side-panel .status').waitFor();
    await assertFits(page, `${game} game`);
    await shotBoth(page, `i18-${game}-game`);
  }
  await context.close();
});

test('a battle announced at a square by either edge of a 390 px phone stays inside the window', { timeout: 60000 }, async () => {
  const { page, context } = await newPage(browser, PHONE390);
  await page.goto(server.url);
  // The game page's own placement code, on a stand-in board as wide as the window, with a
  // sentence long enough to need the announcement's full width.
  const boxes = await page.evaluate(async () => {
    const { battlePop, place } = await import('/assets/battle.js');
    const wrap = document.createElement('div');
    wrap.className = 'board-wrap';
    wrap.style.cssText = 'width: 100%; height: 390px';
    document.body.prepend(wrap);
    const out = [];
    for (const left of [0, 5, 150, 327, 351]) {
      const cell = document.createElement('div');
      cell.style.cssText = `position: absolute; left: ${left}px; top: 200px; width: 39px; height: 39px`;
      wrap.append(cell);
      const fighter = (/** @type {string} */ code) => ({ code, side: 'red', lost: false });
      const pop = battlePop({ name: 'stratego' }, { square: 'x', text: 'Your Bomb stops the enemy Scout and a few more words besides.', attacker: fighter('S'), defender: fighter('B') }, wrap, cell);
      wrap.append(pop);
      place(pop, wrap, cell);
      const r = pop.getBoundingClientRect();
      out.push({ left, from: r.left, to: r.right, width: r.width });
      pop.remove();
    }
    return { boxes: out, window: document.documentElement.clientWidth };
  });
  for (const b of boxes.boxes) {
    assert.ok(b.width > 200, `the announcement at ${b.left} px has its full width (${b.width} px)`);
    assert.ok(b.from >= 0 && b.to <= boxes.window, `the announcement at ${b.left} px spans ${b.from}..${b.to} px in a ${boxes.window} px window`);
  }
  await context.close();
});

test('the own setup stays on the board after Ready while the opponent sets up', { timeout: 60000 }, async () => {
  const ana = await newPage(browser, DESKTOP);
  await enter(ana.page, server.url, 'Ana');
  await ana.page.getByRole('radio', { name: 'Game of the Generals' }).click();
  await ana.page.locator('#opt-army').selectOption('reduced');
  await ana.page.getByRole('button', { name: 'Challenge a friend' }).click();
  await ana.page.waitForURL(/\/challenge\//);
  const link = ana.page.url();
  const bob = await newPage(browser, DESKTOP);
  await enter(bob.page, server.url, 'Bob');
  await bob.page.goto(link);
  await bob.page.getByRole('button', { name: 'Accept' }).click();
  await bob.page.waitForURL(/\/game\//);
  await ana.page.waitForURL(/\/game\//);
  await ana.page.getByRole('heading', { name: 'Set up your army' }).waitFor();
  await ana.page.getByRole('button', { name: 'Random' }).click();
  await ana.page.getByRole('button', { name: 'Ready' }).click();
  await ana.page.locator('.status', { hasText: 'Waiting for your opponent' }).waitFor();
  await ana.page.waitForTimeout(200);
  assert.equal(await ana.page.locator('.board .piece').count(), 11, 'the 11 placed pieces are still shown');
  await ana.context.close();
  await bob.context.close();
});

test('the last move is marked, lost pieces are large enough and the end shows a result banner', { timeout: 60000 }, async () => {
  const { page, frames, context } = await newPage(browser, DESKTOP);
  page.on('dialog', (d) => d.accept());
  const game = await botGame(page, server.url, 'Res', { game: 'generals', title: 'Game of the Generals', options: { army: 'reduced' }, clock: 'none' });
  await randomReady(page);
  const legal = await waitTurn(page, frames, game);
  assert.ok(legal);
  await clickMove(page, legal.find((m) => m.includes('-')) ?? legal[0]);
  await page.locator('.board .sq.last').first().waitFor();
  const mark = await page.locator('.board .sq.last').first().evaluate((e) => getComputedStyle(e).boxShadow);
  assert.ok(mark && mark !== 'none', 'the last move is outlined');
  const size = await page.evaluate(() => {
    const box = document.querySelector('.captured');
    const p = document.createElement('span');
    p.className = 'piece';
    box?.append(p);
    const w = p.getBoundingClientRect().width;
    p.remove();
    return w;
  });
  assert.ok(size >= 24, `a lost piece is drawn ${size} px wide`);
  await page.getByRole('button', { name: 'Resign' }).click();
  const banner = page.locator('.result-banner');
  await banner.waitFor();
  assert.match(await banner.innerText(), /You lost/);
  assert.match(await banner.innerText(), /won by resignation/);
  await shotBoth(page, 'i18-result');
  await context.close();
});

test('a replay flips the board, keeps banqi pieces face down until flipped and words moves in each game\'s terms', { timeout: 90000 }, async () => {
  const { page, frames, context } = await newPage(browser, DESKTOP);
  page.on('dialog', (d) => d.accept());
  // banqi: a few flips, then resign
  const bq = await botGame(page, server.url, 'Rep', { game: 'banqi', title: 'Banqi', clock: 'none' });
  const turn = { ver: -1 };
  for (let i = 0; i < 3; i++) {
    const legal = await waitTurn(page, frames, bq, turn);
    if (!legal) break;
    await clickMove(page, legal.find((m) => !m.includes('-')) ?? legal[0]);
  }
  await page.getByRole('button', { name: 'Resign' }).click();
  await page.locator('.status.over').waitFor();
  await page.goto(`${server.url}/replay/${bq}`);
  await page.getByRole('button', { name: 'First', exact: true }).click();
  await page.locator('.replay-label', { hasText: 'Start position' }).waitFor();
  assert.equal(await page.locator('.board .piece.hidden').count(), 32, 'every piece face down at the start');
  await page.getByRole('button', { name: 'Next move' }).click();
  await page.locator('.replay-label', { hasText: 'Ply 1 of' }).waitFor();
  assert.equal(await page.locator('.board .piece.hidden').count(), 31, 'one piece turned up by the first flip');
  assert.match(await page.locator('.replay-label').innerText(), /flipped [a-d]\d: (Red|Black) \w+/);
  const corner = () => page.locator('.board .sq').first().getAttribute('data-sq');
  const before = await corner();
  await page.getByRole('button', { name: 'Flip board' }).click();
  assert.notEqual(await corner(), before, 'the board turned round');
  assert.equal(await page.locator('.board .piece.hidden').count(), 31, 'flipping keeps the position');
  await shotBoth(page, 'i18-replay-banqi');

  // stratego: moves written with the pieces, attacks never called challenges
  await page.goto(server.url);
  const st = await botGame(page, server.url, 'Rep', { game: 'stratego', title: 'Stratego', options: { army: 'barrage' }, clock: 'none' });
  await randomReady(page);
  const t2 = { ver: -1 };
  for (let i = 0; i < 4; i++) {
    const legal = await waitTurn(page, frames, st, t2);
    if (!legal) break;
    await clickMove(page, legal[Math.floor(Math.random() * legal.length)]);
  }
  // a random attack in a small army can end the game by play (a Flag taken, or no piece left
  // that can move): then there is nothing to resign
  await resignUnlessOver(page);
  await page.locator('.status.over').waitFor();
  await page.goto(`${server.url}/replay/${st}`);
  await page.getByRole('heading', { name: /Replay/ }).waitFor();
  const lines = await page.locator('.moves li').allInnerTexts();
  // (one when a Scout's strike took a Flag on the first ply)
  assert.ok(lines.length >= 1);
  for (const l of lines) {
    assert.doesNotMatch(l, /challeng/i, `Generals wording in a Stratego replay: ${l}`);
    assert.match(l, /^(Red|Blue): (Marshal|General|Miner|Scout|Spy|Bomb|Flag|Colonel|Major|Captain|Lieutenant|Sergeant) [a-j]\d+–[a-j]\d+/, `a move in words: ${l}`);
  }
  await context.close();
});

test('a link to an unknown game says the game was not found', { timeout: 30000 }, async () => {
  const { page, context } = await newPage(browser, PHONE390);
  await enter(page, server.url, 'Lost');
  await page.goto(`${server.url}/game/nosuchgame123`);
  await page.getByRole('heading', { name: 'Game not found' }).waitFor({ timeout: 10000 });
  await page.getByRole('link', { name: 'Back to the lobby' }).waitFor();
  await context.close();
});

test('every game option has a plain-word label and a one-line explanation', async () => {
  const { page, context } = await newPage(browser, DESKTOP);
  await enter(page, server.url, 'Opt');
  for (const title of ['Game of the Generals', 'Stratego', 'Banqi']) {
    await page.getByRole('radio', { name: title }).click();
    const fields = await page.locator('.options .field').evaluateAll((els) => els.map((e) => ({
      label: e.querySelector('label')?.textContent?.trim() ?? '', help: e.querySelector('.help')?.textContent?.trim() ?? '',
      described: e.querySelector('select, input')?.getAttribute('aria-describedby') ?? '',
    })));
    assert.ok(fields.length >= 3, `${title} has options`);
    for (const f of fields) {
      assert.doesNotMatch(f.label, /_|^[a-z]+$/, `a plain label, not a key: ${f.label}`);
      assert.ok(f.help.length > 15, `${title}: “${f.label}” is explained`);
      assert.ok(f.described, `${title}: “${f.label}” points to its explanation`);
    }
  }
  // the settings button is a proper 44 px touch target
  const box = await page.getByRole('button', { name: 'Settings' }).boundingBox();
  assert.ok(box && box.width >= 44 && box.height >= 44, `the settings button is ${box?.width}×${box?.height}`);
  await context.close();
});

test('keyboard-only setup and move: few tab stops, arrow keys move a cursor, Enter picks and places', { timeout: 90000 }, async () => {
  const { page, frames, context } = await newPage(browser, DESKTOP);
  const game = await botGame(page, server.url, 'Kbd', { game: 'generals', title: 'Game of the Generals', options: { army: 'reduced' }, clock: 'none' });
  await page.getByRole('heading', { name: 'Set up your army' }).waitFor();
  const stops = await page.evaluate(() => [...document.querySelectorAll('.setup-view button, .setup-view a[href], .setup-view input, .setup-view select, .setup-view summary, .setup-view [tabindex]')]
    .filter((e) => !(/** @type {HTMLButtonElement} */ (e).disabled) && /** @type {HTMLElement} */ (e).tabIndex >= 0 && /** @type {HTMLElement} */ (e).offsetParent !== null).length);
  assert.ok(stops <= 12, `the setup editor has ${stops} tab stops`);
  const active = () => page.evaluate(() => {
    const a = document.activeElement;
    return { sq: a?.getAttribute('data-sq') ?? null, tray: a?.classList.contains('tray-item') ?? false, code: a?.getAttribute('data-code') ?? null };
  });
  // Tab from the top of the page to the board
  await page.locator('body').focus();
  for (let i = 0; i < 12 && !(await active()).sq; i++) await page.keyboard.press('Tab');
  for (let n = 0; n < 11; n++) {
    // to the tray (the next tab stop), pick the first piece left
    await page.keyboard.press('Tab');
    assert.ok((await active()).tray, 'the tray follows the board');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Shift+Tab');
    assert.ok((await active()).sq, 'back on the board');
    // walk the cursor to an empty square of the own area, row by row from the bottom
    let dir = 'ArrowRight';
    for (let step = 0; step < 60; step++) {
      const { sq } = await active();
      const cell = page.locator(`.board [data-sq="${sq}"]`);
      const free = (await cell.getAttribute('class'))?.includes('area') && !(await cell.locator('.piece').count());
      if (free) break;
      await page.keyboard.press(dir);
      if ((await active()).sq === sq) {
        // the edge of the board: one row up, then back the other way
        await page.keyboard.press('ArrowUp');
        dir = dir === 'ArrowRight' ? 'ArrowLeft' : 'ArrowRight';
      }
    }
    await page.keyboard.press('Enter');
    await page.locator('.setup-status', { hasText: n === 10 ? 'All pieces placed.' : `${n + 1} of 11 pieces placed.` }).waitFor({ timeout: 3000 });
  }
  // Ready, by keyboard
  for (let i = 0; i < 10; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.textContent === 'Ready')) break;
  }
  await page.keyboard.press('Enter');
  await page.locator('.side-panel .status').waitFor();

  // a move by keyboard: Tab to the board, arrows to the piece, Enter, arrows to the square, Enter
  const legal = await waitTurn(page, frames, game);
  assert.ok(legal?.length);
  const move = legal.find((m) => m.includes('-')) ?? legal[0];
  const [from, to] = move.split('-');
  await page.locator('body').focus();
  for (let i = 0; i < 12 && !(await active()).sq; i++) await page.keyboard.press('Tab');
  assert.ok((await active()).sq, 'the board is a tab stop of the game screen');
  const cellsInOrder = await page.locator('.board .sq').evaluateAll((els) => els.map((e) => e.getAttribute('data-sq')));
  const files = 9;
  const walkTo = async (/** @type {string} */ target) => {
    const at = cellsInOrder.indexOf((await active()).sq), want = cellsInOrder.indexOf(target);
    const dx = (want % files) - (at % files), dy = Math.floor(want / files) - Math.floor(at / files);
    for (let i = 0; i < Math.abs(dx); i++) await page.keyboard.press(dx > 0 ? 'ArrowRight' : 'ArrowLeft');
    for (let i = 0; i < Math.abs(dy); i++) await page.keyboard.press(dy > 0 ? 'ArrowDown' : 'ArrowUp');
    assert.equal((await active()).sq, target);
  };
  await walkTo(from);
  await page.keyboard.press('Enter');
  await page.locator(`.board [data-sq="${to}"].target`).waitFor();
  await walkTo(to);
  await page.keyboard.press('Enter');
  await page.locator('.moves li', { hasText: `You:` }).first().waitFor();
  assert.match(await page.locator('.moves li', { hasText: 'You:' }).first().innerText(), new RegExp(`${from}–${to}`));
  await context.close();
});
