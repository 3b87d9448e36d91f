// Screenshots of every page of the web client, desktop (1280 × 800) and phone (390 × 844), into
// docs/screenshots/ (linked from the README). Run by hand after changing the client, not in CI:
//
//   cargo build -p salpakan && node web/tests/screenshots.mjs
//   (SALPAKAN_BIN=… to use another binary; pngquant and optipng, when installed, shrink the files)
//
// It starts its own server, plays real games against the computer (a battle, an end) and
// shoots: the first visit, the lobby (also in Filipino and Chinese), the settings, the setup
// editor of each game that has one, a game in progress of each game, a battle announcement,
// the end screen, a replay and each rules page; then three accounts play rated games (the
// server runs with `--leaderboard-min-games 1 --provisional-rd 349`) for the leaderboard
// and a profile with its rating chart, and a rated game's end with the rating changes.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { startServer, launch, newPage, enter, botGame, waitTurn, clickMove, parsed, lastObservation, register, ratedGame, repo, RATED_FLAGS, DESKTOP, PHONE390 } from './helpers.mjs';

const out = path.join(repo, 'docs', 'screenshots');
mkdirSync(out, { recursive: true });
const SIZES = /** @type {const} */ ([['desktop', DESKTOP], ['phone', PHONE390]]);

/** Shoot the page as it is at both sizes (the window is resized, then put back). */
async function both(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ name) {
  const old = page.viewportSize();
  for (const [size, vp] of SIZES) {
    await page.setViewportSize(vp);
    await page.waitForTimeout(250);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(out, `${name}-${size}.png`) });
  }
  if (old) await page.setViewportSize(old);
}

/** Play `n` moves of this page's side (any legal move, forward first), the bot answering. */
async function playSome(/** @type {import('playwright-core').Page} */ page, /** @type {string[]} */ frames, /** @type {string} */ game, /** @type {number} */ n) {
  const turn = { ver: -1 };
  for (let i = 0; i < n; i++) {
    const legal = await waitTurn(page, frames, game, turn);
    if (!legal) return;
    const moves = legal.filter((m) => m.includes('-'));
    await clickMove(page, (moves.length && i % 2 ? moves : legal)[Math.floor(Math.random() * (moves.length && i % 2 ? moves : legal).length)]);
  }
  await waitTurn(page, frames, game, turn);
}

/** Play Generals forward, challenging when possible, until a challenge is announced. */
async function untilBattle(/** @type {import('playwright-core').Page} */ page, /** @type {string[]} */ frames, /** @type {string} */ game, /** @type {string} */ me) {
  const up = me === 'white' ? 1 : -1;
  const turn = { ver: -1 };
  for (let ply = 0; ply < 200; ply++) {
    const legal = await waitTurn(page, frames, game, turn);
    if (!legal) return false;
    const seen = parsed(frames).length;
    const board = lastObservation(frames, game)?.board ?? {};
    const rank = (/** @type {string} */ s) => Number(s.slice(1));
    const moves = legal.filter((m) => m.includes('-'));
    const attacks = moves.filter((m) => board[m.split('-')[1]] && board[m.split('-')[1]].owner !== me);
    const forward = moves.filter((m) => (rank(m.split('-')[1]) - rank(m.split('-')[0])) * up > 0 && board[m.split('-')[0]]?.piece !== 'FLG')
      .sort((a, b) => (rank(b.split('-')[0]) - rank(a.split('-')[0])) * up);
    await clickMove(page, attacks[0] ?? forward[0] ?? moves[0]);
    for (let i = 0; i < 40; i++) {
      if (parsed(frames).slice(seen).some((m) => m.game === game && m.e?.view?.challenge)) {
        await page.locator('.battle-pop').waitFor({ timeout: 3000 });
        return true;
      }
      await page.waitForTimeout(50);
    }
  }
  return false;
}

const server = await startServer(RATED_FLAGS);
const chrome = await launch();
try {
  // the first visit, then the lobby, its settings and the lobby in the other languages
  {
    const { page, context } = await newPage(chrome.browser, DESKTOP, { locale: 'en-US' });
    await page.goto(server.url);
    await page.getByLabel('Your name').waitFor();
    await both(page, 'first-visit');
    await enter(page, server.url, 'Ana');
    await both(page, 'lobby');
    await page.getByRole('button', { name: 'Settings' }).click();
    await both(page, 'settings');
    await page.keyboard.press('Escape');
    for (const [lang, name] of [['fil', 'lobby-fil'], ['zh-Hant', 'lobby-zh-Hant']]) {
      await page.locator('#lang').selectOption(lang);
      await page.waitForTimeout(200);
      await both(page, name);
    }
    await page.locator('#lang').selectOption('en');
    for (const game of ['generals', 'stratego', 'banqi']) {
      await page.goto(`${server.url}/rules/${game}`);
      await page.locator('h1').waitFor();
      await both(page, `rules-${game}`);
    }
    await context.close();
  }
  // a game of each: its setup editor (with a random setup) and the game in progress
  for (const [game, title] of [['stratego', 'Stratego'], ['banqi', 'Banqi']]) {
    const { page, context, frames } = await newPage(chrome.browser, DESKTOP, { locale: 'en-US' });
    page.on('dialog', (d) => d.accept());
    const id = await botGame(page, server.url, 'Ana', { game, title, clock: '600+5' });
    if (game !== 'banqi') {
      await page.getByRole('heading', { name: 'Set up your army' }).waitFor();
      await page.getByRole('button', { name: 'Random' }).click();
      await both(page, `setup-${game}`);
      await page.getByRole('button', { name: 'Ready' }).click();
    }
    await playSome(page, frames, id, 8);
    await page.waitForTimeout(3200); // the last battle's announcement has gone
    await both(page, `game-${game}`);
    await context.close();
  }
  // Generals: setup, play, a battle at each size, the end screen, then the replay
  for (const [size, vp] of SIZES) {
    const { page, context, frames } = await newPage(chrome.browser, vp, { locale: 'en-US', reducedMotion: 'reduce' });
    page.on('dialog', (d) => d.accept());
    const id = await botGame(page, server.url, 'Ana', { game: 'generals', title: 'Game of the Generals', clock: '600+5' });
    await page.getByRole('heading', { name: 'Set up your army' }).waitFor();
    const me = (await page.locator('.setup-head h1').textContent())?.includes('White') ? 'white' : 'black';
    await page.getByRole('button', { name: 'Random' }).click();
    if (size === 'desktop') await both(page, 'setup-generals');
    await page.getByRole('button', { name: 'Ready' }).click();
    if (size === 'desktop') { await playSome(page, frames, id, 4); await page.waitForTimeout(3200); await both(page, 'game-generals'); }
    if (await untilBattle(page, frames, id, me)) {
      await page.locator('.battle-pop').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(out, `battle-${size}.png`) });
    }
    await page.waitForTimeout(3000);
    await page.getByRole('button', { name: 'Resign' }).click();
    await page.locator('.end-screen').waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(out, `end-${size}.png`) });
    if (size === 'desktop') {
      await page.goto(`${server.url}/replay/${id}?ply=6`);
      await page.locator('.replay-label').waitFor();
      await both(page, 'replay');
    }
    await context.close();
  }
  // accounts: rated games between three players, then the leaderboard and a profile
  {
    const names = ['Malaya', 'Bayani', 'Dalisay'];
    const players = [];
    for (const name of names) {
      const p = await newPage(chrome.browser, DESKTOP, { locale: 'en-US', reducedMotion: 'reduce' });
      await register(p.page, server.url, name, 'screenshot password');
      players.push(p.page);
    }
    const [malaya, bayani, dalisay] = players;
    // [seek, accepts, who resigns]
    for (const [a, b, loser] of /** @type {const} */ ([[malaya, bayani, 'b'], [dalisay, malaya, 'a'], [bayani, dalisay, 'b'], [malaya, dalisay, 'a'], [bayani, malaya, 'a'], [malaya, bayani, 'b']])) {
      await ratedGame(a, b, server.url, loser);
    }
    // the last game's end as its winner sees it: the rating changes on the end screen
    await malaya.locator('.end-ratings').waitFor();
    await malaya.waitForTimeout(4500); // the "seek created" toast has gone
    await both(malaya, 'end-rated');
    await malaya.goto(`${server.url}/leaderboard/generals`);
    await malaya.locator('#leaderboard').waitFor();
    await both(malaya, 'leaderboard');
    await malaya.goto(`${server.url}/@/Malaya`);
    await malaya.locator('.rating-chart').waitFor();
    await malaya.locator('#history .row').first().waitFor();
    await both(malaya, 'profile');
    for (const p of players) await p.context().close();
  }
} finally {
  await chrome.close();
  await server.stop();
}

const files = readdirSync(out).filter((f) => f.endsWith('.png')).map((f) => path.join(out, f));
// pngquant (256 colours, visually the same for these flat pages) then optipng, where installed
if (spawnSync('pngquant', ['--version']).status === 0) spawnSync('pngquant', ['--force', '--skip-if-larger', '--strip', '--quality=70-95', '--ext', '.png', ...files], { stdio: 'inherit' });
if (spawnSync('optipng', ['-version']).status === 0) spawnSync('optipng', ['-quiet', '-o2', '-strip', 'all', ...files], { stdio: 'inherit' });
for (const f of files) console.log(`${path.relative(repo, f)}  ${Math.round(statSync(f).size / 1024)} KiB`);
