// Accessibility: axe-core (injected from web/node_modules/axe-core) finds no serious or critical
// violation on the lobby, the setup editor, the game page, a replay, the rules pages, the
// account dialogs and menu, the leaderboard, a profile and the moderation page, at phone and
// desktop sizes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, enter, botGame, register, assertAccessible, DESKTOP } from './helpers.mjs';
const PHONE_390 = { width: 390, height: 844 };

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launch>>} */
let chrome;
before(async () => { server = await startServer(); chrome = await launch(); });
after(async () => { await chrome?.close(); await server?.stop(); });

/**
 * Resigns the bot game on `page` if it is still in play. The bot may already have won: it
 * moves first half the time, and in Barrage a Scout can find a Flag at once.
 * @param {import('playwright-core').Page} page
 */
async function resignIfInPlay(page) {
  const resign = page.locator('.side-panel .btn.danger');
  await resign.or(page.locator('.result-banner')).first().waitFor();
  if (await resign.isVisible()) await resign.click();
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
    await resignIfInPlay(page);
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
      await resignIfInPlay(page);
      await page.locator('.end-screen').waitFor();
      await assertAccessible(page, `game page with the end screen in ${lang}`);
      await context.close();
    }
  });
}

for (const [size, vp] of /** @type {const} */ ([['phone', PHONE_390], ['desktop', DESKTOP]])) {
  test(`the account dialogs and menu, the leaderboard, a profile and the moderation page pass axe (${size})`, { timeout: 60000 }, async () => {
    const { page, context } = await newPage(chrome.browser, vp);
    await page.goto(server.url);
    await page.locator('#name').waitFor();
    await page.locator('#sign-in').click();
    await page.locator('dialog.auth').waitFor();
    await assertAccessible(page, 'sign-in dialog');
    await page.locator('#auth-switch').click();
    await assertAccessible(page, 'create-account dialog');
    await page.keyboard.press('Escape');
    await register(page, server.url, `Axe_${size}`, 'an axe password');
    await page.locator('#account-button').click();
    await assertAccessible(page, 'account menu');
    await page.getByRole('button', { name: 'API tokens' }).click();
    await page.locator('dialog.tokens-dialog').waitFor();
    await assertAccessible(page, 'API tokens dialog');
    await page.keyboard.press('Escape');
    await page.goto(`${server.url}/leaderboard/generals`);
    await page.locator('.leaderboard-body:not([aria-busy])').waitFor();
    await assertAccessible(page, 'leaderboard');
    await page.goto(`${server.url}/@/Axe_${size}`);
    await page.locator('.profile:not([aria-busy])').waitFor();
    await assertAccessible(page, 'profile');
    await page.goto(`${server.url}/moderation`);
    await page.locator('#reports').waitFor();
    await assertAccessible(page, 'moderation page');
    await context.close();
  });
}
