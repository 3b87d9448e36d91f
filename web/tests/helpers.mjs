// Shared helpers for the browser tests: start a real server, launch Debian's Chromium,
// record every WebSocket frame, take screenshots.
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, existsSync } from 'node:fs';
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

/** Start `salpakan serve` (the debug binary, or SALPAKAN_BIN) on a free port with a fresh database. */
export async function startServer() {
  const dir = mkdtempSync(path.join(tmpdir(), 'salpakan-web-'));
  const bin = process.env.SALPAKAN_BIN ?? path.join(repo, 'target', 'debug', 'salpakan');
  const args = process.env.SALPAKAN_BIN_ARGS ? process.env.SALPAKAN_BIN_ARGS.split(' ') : ['serve', '--addr', '127.0.0.1:0', '--db', path.join(dir, 'test.db')];
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
  await page.getByLabel('Your name').fill(name);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'New game' }).waitFor();
}

/** Messages of the game's frames, parsed. */
export function parsed(/** @type {string[]} */ frames) {
  return frames.map((f) => { try { return JSON.parse(f); } catch { return null; } }).filter(Boolean);
}
