// Shared helpers for the browser tests: start a real server, launch Debian's Chromium,
// record every WebSocket frame, take screenshots.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, existsSync, writeFileSync, readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, '../..');
export const shots = path.join(repo, 'out', 'screens');
mkdirSync(shots, { recursive: true });

export const PHONE = { width: 375, height: 667 };
export const DESKTOP = { width: 1280, height: 800 };
/** The phone size issue 18 names: every page must fit it with no sideways scrolling. */
export const PHONE390 = { width: 390, height: 844 };

/** The page is no wider than its window: nothing to scroll sideways. */
export async function assertNoSideScroll(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ what) {
  const m = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  assert.ok(m.scroll <= m.inner, `${what}: the page is ${m.scroll} px wide in a ${m.inner} px window`);
}

/**
 * Start `salpakan serve` (the debug binary, or SALPAKAN_BIN) on a free port with a fresh
 * database; `extra`: more `serve` flags (e.g. `--leaderboard-min-games 1`).
 */
export async function startServer(/** @type {string[]} */ extra = []) {
  const dir = mkdtempSync(path.join(tmpdir(), 'salpakan-web-'));
  const bin = process.env.SALPAKAN_BIN ?? path.join(repo, 'target', 'debug', 'salpakan');
  const args = process.env.SALPAKAN_BIN_ARGS ? process.env.SALPAKAN_BIN_ARGS.split(' ') : ['serve', '--addr', '127.0.0.1:0', '--db', path.join(dir, 'test.db'), ...extra];
  const proc = spawn(bin, args.map((a) => a.replace('{db}', path.join(dir, 'test.db'))), { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL from the server: ${out}`)), 20000);
    const read = (/** @type {Buffer} */ b) => {
      out += b.toString();
      const m = out.match(/http:\/\/[\d.]+:\d+/);
      if (m) { clearTimeout(timer); resolve(m[0]); }
    };
    proc.stdout.on('data', read);
    proc.stderr.on('data', read);
    proc.on('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
  return {
    url,
    /** the database file (for `salpakan admin --db`) */
    db: path.join(dir, 'test.db'),
    async stop() {
      proc.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function launch() {
  const exe = process.env.CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(exe)) throw new Error(`${exe} not found: install it with apt-get install -y chromium`);
  const browser = await chromium.launch({
    executablePath: exe,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
    // playwright gives every launch a fresh, temporary user data directory
  });
  return {
    browser,
    async close() { await browser.close(); },
  };
}

/**
 * A page that records every WebSocket frame it receives and every console error.
 * @param {import('playwright-core').Browser} browser
 * @param {{width:number,height:number}} viewport
 */
export async function newPage(browser, viewport = DESKTOP, opts = {}) {
  const context = await browser.newContext({ viewport, hasTouch: viewport.width < 500, ...opts });
  const page = await context.newPage();
  const frames = /** @type {string[]} */ ([]);
  const errors = /** @type {string[]} */ ([]);
  page.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(String(f.payload))));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  return { context, page, frames, errors };
}

/** Screenshot into out/screens (git-ignored). */
export async function shot(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ name) {
  await page.screenshot({ path: path.join(shots, `${name}.png`) });
}

/** Choose a name on the landing page. */
export async function enter(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ url, /** @type {string} */ name) {
  await page.goto(url);
  const form = page.getByRole('heading', { name: 'New game' });
  const field = page.getByLabel('Your name');
  await form.or(field).first().waitFor();
  if (await form.count()) return; // this browser already has a name
  await field.fill(name);
  await page.getByRole('button', { name: 'Continue' }).click();
  await form.waitFor();
}

/** Messages of the game's frames, parsed. */
export function parsed(/** @type {string[]} */ frames) {
  return frames.map((f) => { try { return JSON.parse(f); } catch { return null; } }).filter(Boolean);
}

/** Screenshot at phone and desktop sizes (the page's own size is put back afterwards). */
export async function shotBoth(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ name) {
  const old = page.viewportSize();
  for (const [size, vp] of [['phone', PHONE], ['desktop', DESKTOP]]) {
    await page.setViewportSize(vp);
    await page.waitForTimeout(60);
    await page.screenshot({ path: path.join(shots, `${name}-${size}.png`) });
  }
  if (old) await page.setViewportSize(old);
}

/** The game id of a /game/<id> or /replay/<id> page. */
export function gameIdOf(/** @type {import('playwright-core').Page} */ page) {
  return new URL(page.url()).pathname.split('/').pop() ?? '';
}

/** The legal moves the server sent this page for the game's current version (none if stale). */
export function lastLegal(/** @type {string[]} */ frames, /** @type {string} */ game) {
  return legalAt(frames, game).moves;
}

/** The game's version this page last heard of, and the legal moves sent for it. */
export function legalAt(/** @type {string[]} */ frames, /** @type {string} */ game) {
  let ver = -1, moves = null;
  for (const m of parsed(frames)) {
    if (m.game !== game) continue;
    if (m.t === 'sync' || m.t === 'event') { ver = m.ver; moves = null; }
    if (m.t === 'legal' && m.ver === ver) moves = m.moves;
  }
  return { ver, moves: moves ?? [] };
}

/** The viewer's latest observation of the game, from its frames. */
export function lastObservation(/** @type {string[]} */ frames, /** @type {string} */ game) {
  let obs = null;
  for (const m of parsed(frames)) {
    if (m.game !== game) continue;
    if (m.t === 'sync' && m.state?.observation) obs = m.state.observation;
    if (m.t === 'event' && m.e?.observation) obs = m.e.observation;
    if (m.t === 'event' && m.e?.type === 'end' && m.e.reveal?.observation) obs = m.e.reveal.observation;
  }
  return obs;
}

/**
 * A random legal Game of the Generals move for the seat of `game`'s page that cannot end the
 * game: a step onto an empty square within the seat's own three setup ranks, not by the Flag
 * (any legal move when there is none). A scripted opening of a few random moves then lasts
 * them, whatever the random setups.
 */
export function quietMove(/** @type {string[]} */ frames, /** @type {string} */ game, /** @type {string[]} */ legal) {
  const obs = lastObservation(frames, game);
  const board = obs?.board ?? {};
  const home = obs?.viewer === 'black' ? ['6', '7', '8'] : ['1', '2', '3'];
  const quiet = legal.filter((m) => {
    const [from, to] = m.split('-');
    return !(to in board) && home.includes(to.slice(1)) && board[from]?.piece !== 'FLG';
  });
  const pool = quiet.length ? quiet : legal;
  return pool[Math.floor(Math.random() * pool.length)];
}

/** Resigns the game on `page`, unless it is already over (a random move may have ended it). */
export async function resignUnlessOver(/** @type {import('playwright-core').Page} */ page) {
  const over = page.locator('.status.over');
  if (await over.count()) return;
  try {
    await page.getByRole('button', { name: 'Resign' }).click({ timeout: 10000 });
  } catch (e) {
    if (!(await over.count())) throw e;
  }
}

/**
 * Every frame of `game` before its end: no salt, seed, setup or deal of anyone else, no hidden
 * rank in any observation or view. `viewer` is the seat name or 'spectator'.
 */
export function assertFramesClean(/** @type {string[]} */ frames, /** @type {{game: string, kind: string, viewer: string, secrets: string[]}} */ o) {
  const seats = { generals: ['white', 'black'], stratego: ['red', 'blue'], banqi: ['first', 'second'] }[o.kind] ?? [];
  let n = 0;
  for (const m of parsed(frames)) {
    if (m.game !== o.game) continue;
    // the game is over with its end event, or with the move that ends it (whose observation
    // is already the one after the end)
    if (m.t === 'event' && (m.e?.type === 'end' || m.e?.observation?.result)) return n;
    n++;
    const text = JSON.stringify(m);
    for (const s of o.secrets) if (s) assert.ok(!text.includes(s), `${o.viewer} saw a secret before the end: ${text.slice(0, 300)}`);
    if (m.t === 'sync') {
      assert.ok(m.state.reveal == null, `${o.viewer} got a reveal before the end`);
      if (o.viewer === 'spectator') assert.ok(m.state.your_setup == null && m.state.chat == null, 'a spectator got a setup or the chat');
    }
    const walk = (/** @type {any} */ v, /** @type {string} */ key) => {
      if (!v || typeof v !== 'object') return;
      if (key === 'board') {
        for (const [sq, x] of Object.entries(v)) {
          const e = /** @type {any} */ (x);
          if (o.kind === 'banqi') assert.ok(!(e.face_down && 'piece' in e), `${o.viewer} saw the face-down piece on ${sq}`);
          else if (e.owner !== o.viewer && 'piece' in e) {
            assert.ok(o.kind === 'stratego' && e.known, `${o.viewer} saw the hidden ${e.owner} piece on ${sq}: ${text.slice(0, 300)}`);
          }
        }
      }
      if (o.kind === 'generals' && seats.includes(v.seat) && v.seat !== o.viewer && v.from && 'piece' in v) assert.fail(`${o.viewer} saw the rank of a ${v.seat} mover`);
      if (v.setup && typeof v.setup === 'object' && v.seat !== o.viewer) assert.fail(`${o.viewer} saw a setup`);
      if (key !== 'reveal') for (const [k, x] of Object.entries(v)) walk(x, k);
    };
    walk(m, '');
  }
  return n;
}

/**
 * The DOM names no piece that the viewer's latest observation hides: every piece drawn face
 * up stands where the observation gives its rank. Retries briefly while a frame is in flight.
 */
export async function assertDomClean(/** @type {import('playwright-core').Page} */ page, /** @type {string[]} */ frames, /** @type {string} */ game) {
  let problem = '';
  for (let i = 0; i < 10; i++) {
    const obs = lastObservation(frames, game);
    const cells = await page.locator('.board .sq').evaluateAll((els) => els.map((e) => ({
      sq: e.getAttribute('data-sq'), label: e.getAttribute('aria-label') ?? '',
      piece: !!e.querySelector('.piece'), hidden: !!e.querySelector('.piece.hidden'),
    })));
    problem = '';
    for (const c of cells) {
      if (!c.piece || c.hidden) continue;
      const e = obs?.board?.[c.sq ?? ''];
      if (!e || !('piece' in e) || e.face_down) problem = `the DOM names the hidden piece on ${c.sq}: ${c.label}`;
    }
    const text = await page.locator('main').innerText();
    if (/\b(Salt|Seed|Deal)\b/.test(text)) problem = 'the page shows a salt, seed or deal';
    if (!problem) return;
    await page.waitForTimeout(100);
  }
  assert.fail(problem);
}

/** The full record of a finished game, over HTTP. */
export async function fullRecord(/** @type {string} */ url, /** @type {string} */ game) {
  return (await fetch(`${url}/api/games/${game}/record`)).text();
}

/** The secrets of a full record: every salt, the seed, the setups and the deal as written. */
export function secretsOf(/** @type {string} */ record) {
  const out = [];
  for (const m of record.matchAll(/\[(\w+) "([^"]*)"\]/g)) {
    if (/Salt$|^Seed$/.test(m[1])) out.push(m[2]);
    if (/Setup$|^Deal$/.test(m[1])) out.push(m[2]);
  }
  return out;
}

/** `salpakan record verify` on a record text: its exit status and output. */
export function verifyRecord(/** @type {string} */ text) {
  const dir = mkdtempSync(path.join(tmpdir(), 'salpakan-rec-'));
  const file = path.join(dir, 'game.rec');
  writeFileSync(file, text);
  const bin = process.env.SALPAKAN_BIN ?? path.join(repo, 'target', 'debug', 'salpakan');
  const r = spawnSync(bin, ['record', 'verify', file], { encoding: 'utf8' });
  rmSync(dir, { recursive: true, force: true });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** Sign in on a fresh page, open the lobby's form and start a game against the computer. */
export async function botGame(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ url, /** @type {string} */ name, /** @type {{game: string, title: string, options?: Record<string,string>, clock?: string}} */ o) {
  await enter(page, url, name);
  await page.getByRole('radio', { name: o.title }).click();
  for (const [k, v] of Object.entries(o.options ?? {})) await page.locator(`#opt-${k}`).selectOption(v);
  await page.locator('#clock').selectOption(o.clock ?? 'none');
  await page.getByRole('button', { name: 'Play the computer' }).click();
  await page.waitForURL(/\/game\//);
  return gameIdOf(page);
}

/**
 * Wait until it is this page's move at a version after `turn.ver` (its legal moves have
 * arrived) or the game is over; remembers the version in `turn`.
 */
export async function waitTurn(/** @type {import('playwright-core').Page} */ page, /** @type {string[]} */ frames, /** @type {string} */ game, /** @type {{ver: number}} */ turn = { ver: -1 }) {
  for (let i = 0; i < 800; i++) {
    if (await page.locator('.status.over').count()) return null;
    const { ver, moves } = legalAt(frames, game);
    if (ver > turn.ver && moves.length && (await page.locator('.status').textContent()) === 'Your move.') {
      turn.ver = ver;
      return moves;
    }
    await page.waitForTimeout(25);
  }
  throw new Error('it never became this page\'s turn');
}

/** Play `move` by clicking its squares on the board (a Banqi flip is one click). */
export async function clickMove(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ move) {
  const [from, to] = move.split('-');
  await page.locator(`.board [data-sq="${from}"]`).click();
  if (to) {
    // the destinations are highlighted once the piece is selected
    const target = page.locator(`.board [data-sq="${to}"].target`);
    try {
      await target.waitFor({ timeout: 5000 });
    } catch (e) {
      const dbg = await page.evaluate(([f, t]) => ({ from: document.querySelector(`[data-sq="${f}"]`)?.getAttribute('aria-label'), to: document.querySelector(`[data-sq="${t}"]`)?.getAttribute('aria-label'), sel: document.querySelector('.sq.selected')?.getAttribute('data-sq'), targets: [...document.querySelectorAll('.sq.target')].map((x) => x.getAttribute('data-sq')), status: document.querySelector('.status')?.textContent }), [from, to]);
      await page.screenshot({ path: path.join(shots, 'debug-clickmove.png') });
      throw new Error(`no highlighted ${to} after clicking ${from} (${move}): ${JSON.stringify(dbg)}`);
    }
    await target.click();
  }
}

/**
 * The server flags that let a browser test see a player on a leaderboard after one rated
 * game: a new player (deviation 350) is still provisional (`?`), one game (about 290) is
 * enough. (The server takes a provisional threshold of at most 350.)
 */
export const RATED_FLAGS = ['--leaderboard-min-games', '1', '--provisional-rd', '349'];

/**
 * Create an account from the top bar's dialog (as a guest, when the page has one: the guest
 * becomes the account) and wait until the bar shows its name.
 */
export async function register(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ url, /** @type {string} */ name, /** @type {string} */ password) {
  if (!page.url().startsWith(url)) await page.goto(url);
  await page.locator('#sign-in').click();
  const dialog = page.locator('dialog.auth');
  if ((await dialog.locator('#auth-submit').textContent()) !== 'Create account') await dialog.locator('#auth-switch').click();
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.locator('#auth-submit').click();
  await page.locator('#my-profile', { hasText: name }).waitFor();
}

/** Sign in from the top bar's dialog and wait until the bar shows the account's name. */
export async function signIn(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ name, /** @type {string} */ password) {
  await page.locator('#sign-in').click();
  const dialog = page.locator('dialog.auth');
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.locator('#auth-submit').click();
  await page.locator('#my-profile', { hasText: name }).waitFor();
}

/**
 * A rated game of Game of the Generals (10 min + 5 s) between two signed-in pages, through
 * the lobby: `a` opens the seek, `b` accepts it, both set up at random, then `loser`
 * resigns. Both pages end on the game page with the result. Returns the game id.
 * `seekOpen` runs while the seek is open, before `b` accepts it.
 */
export async function ratedGame(/** @type {import('playwright-core').Page} */ a, /** @type {import('playwright-core').Page} */ b, /** @type {string} */ url, /** @type {'a'|'b'} */ loser, seekOpen = async () => {}) {
  for (const p of [a, b]) { await p.goto(url); await p.locator('form.create').waitFor(); }
  await a.getByRole('radio', { name: 'Game of the Generals' }).click();
  await a.locator('#clock').selectOption('600+5');
  await a.locator('#rated').check();
  await a.getByRole('button', { name: 'Create seek' }).click();
  await seekOpen();
  const row = b.locator('#seeks .row', { has: b.locator('.badge.rated') }).first();
  await row.waitFor();
  await row.getByRole('button', { name: 'Accept' }).click();
  await Promise.all([a.waitForURL(/\/game\//), b.waitForURL(/\/game\//)]);
  for (const p of [a, b]) {
    await p.getByRole('heading', { name: 'Set up your army' }).waitFor();
    await p.getByRole('button', { name: 'Random' }).click();
    await p.getByRole('button', { name: 'Ready' }).click();
  }
  const quitter = loser === 'a' ? a : b;
  await quitter.locator('.side-panel .btn.danger').waitFor();
  quitter.once('dialog', (d) => d.accept());
  await quitter.locator('.side-panel .btn.danger').click();
  for (const p of [a, b]) await p.locator('.result-banner').waitFor();
  return gameIdOf(a);
}

const AXE = readFileSync(path.join(repo, 'web', 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/**
 * Run axe on the page as it is and fail on serious or critical violations, naming each rule,
 * what it means and the first elements it found.
 * @param {import('playwright-core').Page} page
 * @param {string} what
 */
export async function assertAccessible(page, what) {
  // Let transitions and animations settle: contrast is measured on what is drawn, and a
  // fading-in card (the end screen's 0.3 s) measures paler than it ends. Endless ones
  // (none today) are not waited for; at most 4 s.
  await page.waitForTimeout(50);
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'
    || a.effect?.getComputedTiming().iterations === Infinity), null, { timeout: 4000 }).catch(() => {});
  // injected through the DevTools protocol (page.evaluate), so a Content-Security-Policy
  // on the page does not block it
  await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const axe = /** @type {any} */ (window).axe;
    const r = await axe.run(document, { resultTypes: ['violations'], runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return r.violations.map((/** @type {any} */ v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map((/** @type {any} */ n) => `${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(0, 2).join(' ')}`) }));
  });
  const bad = result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad, [], `${what}: axe found serious or critical violations:\n${JSON.stringify(bad, null, 2)}`);
}

