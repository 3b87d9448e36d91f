// Accessibility: axe-core (injected from web/node_modules/axe-core) finds no serious or critical
// violation on the lobby, the setup editor, the game page, a replay and the rules pages, at
// phone and desktop sizes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startServer, launch, newPage, enter, botGame, repo, DESKTOP } from './helpers.mjs';

const AXE = readFileSync(path.join(repo, 'web', 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
const PHONE_390 = { width: 390, height: 844 };

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launch>>} */
let chrome;
before(async () => { server = await startServer(); chrome = await launch(); });
after(async () => { await chrome?.close(); await server?.stop(); });

/**
 * Run axe on the page as it is and fail on serious or critical violations, naming each rule,
 * what it means and the first elements it found.
 * @param {import('playwright-core').Page} page
 * @param {string} what
 */
async function assertAccessible(page, what) {
  await page.waitForTimeout(150); // let transitions settle (contrast is measured on what is drawn)
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

for (const [size, vp] of /** @type {const} */ ([['phone', PHONE_390], ['desktop', DESKTOP]])) {
  test(`the first visit, the lobby and the rules pages pass axe with no serious or critical violation (${size})`, { timeout: 60000 }, async () => {
    const { page, context } = await newPage(chrome.browser, vp);
    await page.goto(server.url);
    await page.getByLabel('Your name').waitFor();
    await assertAccessible(page, 'first visit');
    await enter(page, server.url, 'Axe');
    await assertAccessible(page, 'lobby');
    await page.getByRole('radio', { name: 'Banqi' }).click();
    await assertAccessible(page, 'lobby with Banqi chosen');
    await page.getByRole('button', { name: 'Settings' }).click();
    await assertAccessible(page, 'settings dialog');
    await page.keyboard.press('Escape');
    for (const game of ['generals', 'stratego', 'banqi']) {
      await page.goto(`${server.url}/rules/${game}`);
      await page.locator('h1').waitFor();
      if (game === 'generals') await page.getByText('Every challenge at a glance').click();
      await assertAccessible(page, `rules of ${game}`);
    }
    await context.close();
  });

  test(`the setup editor, the game page and a replay pass axe with no serious or critical violation (${size})`, { timeout: 90000 }, async () => {
    const { page, context } = await newPage(chrome.browser, vp);
    page.on('dialog', (d) => d.accept());
    const game = await botGame(page, server.url, `Axe${size}`, { game: 'stratego', title: 'Stratego', options: { army: 'barrage' }, clock: '300+3' });
    await page.getByRole('heading', { name: 'Set up your army' }).waitFor();
    await assertAccessible(page, 'setup editor');
    await page.getByRole('button', { name: 'Random' }).click();
    await page.getByRole('button', { name: 'Ready' }).click();
    await page.locator('.side-panel .status').waitFor();
    await assertAccessible(page, 'game page');
    await page.getByRole('button', { name: 'Resign' }).click();
    await page.locator('.result-banner').waitFor();
    await assertAccessible(page, 'game page with the result');
    await page.goto(`${server.url}/replay/${game}`);
    await page.locator('.replay-label').waitFor();
    await assertAccessible(page, 'replay');
    // a Banqi game in play (face-down pieces, no setup)
    await botGame(page, server.url, `Axe${size}`, { game: 'banqi', title: 'Banqi', clock: 'none' });
    await page.locator('.side-panel .status').waitFor();
    await assertAccessible(page, 'banqi game page');
    await context.close();
  });
}

for (const lang of ['fil', 'zh-Hant']) {
  test(`in ${lang}: the first visit, the lobby, a rules page, the setup editor and the game page pass axe`, { timeout: 90000 }, async () => {
    for (const vp of [PHONE_390, DESKTOP]) {
      const { page, context } = await newPage(chrome.browser, vp);
      page.on('dialog', (d) => d.accept());
      await page.goto(`${server.url}/?lang=${lang}`);
      await page.locator('#name').waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
      await assertAccessible(page, `first visit in ${lang}`);
      await page.locator('#name').fill(`Axe${lang}`);
      await page.locator('.name-card button[type=submit]').click();
      await page.locator('form.create').waitFor();
      await assertAccessible(page, `lobby in ${lang}`);
      await page.goto(`${server.url}/rules/generals`);
      await page.locator('h1').waitFor();
      await assertAccessible(page, `rules in ${lang}`);
      await page.goto(server.url);
      await page.locator('.game-tab[data-game="stratego"]').click();
      await page.locator('#opt-army').selectOption('barrage');
      await page.locator('#clock').selectOption('300+3');
      await page.locator('form.create button[value="bot"]').click();
      await page.waitForURL(/\/game\//);
      await page.locator('.setup-view').waitFor();
      await assertAccessible(page, `setup editor in ${lang}`);
      await page.locator('.setup-view .btn-row .btn').first().click(); // Random
      await page.locator('.setup-view .btn.primary').click(); // Ready
      await page.locator('.side-panel .status').waitFor();
      await assertAccessible(page, `game page in ${lang}`);
      await page.locator('.side-panel .btn.danger').click(); // Resign
      await page.locator('.end-screen').waitFor();
      await assertAccessible(page, `game page with the end screen in ${lang}`);
      await context.close();
    }
  });
}
