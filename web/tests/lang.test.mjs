// Languages (issue 18): the picker in the header switches every visible string of the lobby,
// the setup editor, the game page, a replay and the rules pages to Filipino and to Traditional Chinese
// (no English sentence is left, except names and notation); `?lang=` and the browser's
// language choose it; the choice is remembered; <html lang> follows; the header with its
// picker fits a 360 px phone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, enter, botGame, assertNoSideScroll, DESKTOP } from './helpers.mjs';

const PHONE360 = { width: 360, height: 740 };

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launch>>} */
let chrome;
before(async () => { server = await startServer(); chrome = await launch(); });
after(async () => { await chrome?.close(); await server?.stop(); });

/**
 * Every string the player can read or hear on the page: visible text nodes, and the
 * accessible names, placeholders and titles of elements.
 * @param {import('playwright-core').Page} page
 */
async function strings(page) {
  return page.evaluate(() => {
    /** @type {Set<string>} */
    const out = new Set();
    const visible = (/** @type {Element} */ el) => {
      if (el.closest('#piece-sprite, script, style, noscript, #toasts')) return false;
      if (el.closest('dialog:not([open])')) return false;
      const s = getComputedStyle(el);
      return s.display !== 'none' && s.visibility !== 'hidden';
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const t = (n.textContent ?? '').trim();
      if (t && n.parentElement && visible(n.parentElement) && n.parentElement.tagName !== 'OPTION') out.add(t);
    }
    for (const el of document.querySelectorAll('[aria-label], [placeholder], [title], option')) {
      if (el.tagName !== 'OPTION' && !visible(el)) continue;
      for (const a of ['aria-label', 'placeholder', 'title']) { const v = el.getAttribute(a)?.trim(); if (v) out.add(v); }
      if (el.tagName === 'OPTION' && !el.hasAttribute('lang')) out.add((el.textContent ?? '').trim());
    }
    out.add(document.title);
    return [...out];
  });
}

/** Names and notation that stay as they are in every language. */
const KEEP = [/^salpakan\b/, /^(Lang|Ana|Ben|Bea)\w*/, /bot (random|greedy|mcts)/, /^[a-j]\d+(, |，)/, /^(Game of the Generals|Stratego|Banqi)( · [\d .+mins]+)?$/];

/**
 * The strings of `now` (in `lang`) that are still the English ones of `english`: for Filipino
 * every sentence of three words or more, for Chinese every string with a Latin word. Names
 * and notation are allowed.
 * @param {string[]} english @param {string[]} now @param {string} lang
 */
function leftInEnglish(english, now, lang) {
  const en = new Set(english);
  return now.filter((s) => en.has(s) && !KEEP.some((k) => k.test(s)) &&
    (lang === 'fil' ? s.split(/\s+/).filter((w) => /[a-z]{2,}/i.test(w)).length >= 3 : /[A-Za-z]{3,}/.test(s)));
}

/**
 * Switch the picker to `lang` and check the page: <html lang>, and no English left.
 * @param {import('playwright-core').Page} page @param {string[]} english @param {string} what
 */
async function switchAndCheck(page, english, what) {
  for (const lang of ['fil', 'zh-Hant']) {
    await page.locator('#lang').selectOption(lang);
    await page.waitForFunction((l) => document.documentElement.lang === l, lang);
    await page.waitForTimeout(250);
    const now = await strings(page);
    assert.deepEqual(leftInEnglish(english, now, lang), [], `${what} in ${lang}: these strings are still English`);
    assert.ok(now.length > 5, `${what} in ${lang} shows text`);
  }
  await page.locator('#lang').selectOption('en');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  await page.waitForTimeout(150);
  // back in English: the same page again
  const back = await strings(page);
  const missing = english.filter((s) => !back.includes(s) && !/^\d|:\d\d|Connecting/.test(s));
  assert.ok(missing.length < english.length / 4, `${what}: back in English, most strings return (missing: ${missing.slice(0, 8).join(' | ')})`);
}

test('the picker switches every string of the lobby, setup, game, replay and rules pages to Filipino and Chinese, and back', { timeout: 120000 }, async () => {
  const { page, context, errors } = await newPage(chrome.browser, DESKTOP, { locale: 'en-US' });
  page.on('dialog', (d) => d.accept());
  await page.goto(server.url);
  await page.getByLabel('Your name').waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  await switchAndCheck(page, await strings(page), 'first visit');
  await enter(page, server.url, 'Lang');
  await switchAndCheck(page, await strings(page), 'lobby');
  for (const game of ['generals', 'stratego', 'banqi']) {
    await page.goto(`${server.url}/rules/${game}`);
    await page.locator('h1').waitFor();
    await switchAndCheck(page, await strings(page), `rules of ${game}`);
  }
  await botGame(page, server.url, 'Lang', { game: 'generals', title: 'Game of the Generals', clock: '600+5' });
  await page.getByRole('heading', { name: 'Set up your army' }).waitFor();
  await page.locator('.tray-item[data-code="FLG"]').click();
  await page.locator('.board .sq.area').first().click();
  await switchAndCheck(page, await strings(page), 'setup editor');
  // the setup in progress survives the language changes
  assert.equal(await page.locator('.board .sq .piece').count(), 1, 'the placed Flag is still on the board');
  await page.getByRole('button', { name: 'Random' }).click();
  await page.getByRole('button', { name: 'Ready' }).click();
  await page.locator('.side-panel .status').waitFor();
  await page.locator('.player-bar .clock').first().waitFor();
  await switchAndCheck(page, await strings(page), 'game page');
  await page.getByRole('button', { name: 'Resign' }).click();
  await page.locator('.end-screen').waitFor();
  await switchAndCheck(page, await strings(page), 'game page with the end screen');
  await page.getByRole('button', { name: 'Show the board' }).click();
  await page.getByRole('link', { name: 'Replay' }).click();
  await page.locator('.replay-label').waitFor();
  await page.getByRole('button', { name: 'First', exact: true }).click();
  await page.getByRole('button', { name: 'Next move' }).click();
  await switchAndCheck(page, await strings(page), 'replay');
  assert.deepEqual(errors, []);
  await context.close();
});

test('?lang= chooses the language and is remembered; <html lang> follows', { timeout: 60000 }, async () => {
  const { page, context } = await newPage(chrome.browser, DESKTOP, { locale: 'en-US' });
  await page.goto(`${server.url}/?lang=zh-Hant`);
  await page.getByLabel('你的名字').waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-Hant');
  assert.equal(await page.locator('#lang').inputValue(), 'zh-Hant');
  // without the parameter, the choice stays
  await page.goto(`${server.url}/rules/banqi`);
  await page.getByRole('heading', { level: 1, name: '規則：暗棋' }).waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-Hant');
  // ?lang=fil on a rules page
  await page.goto(`${server.url}/rules/generals?lang=fil`);
  await page.getByRole('heading', { level: 1, name: 'Patakaran: Game of the Generals' }).waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'fil');
  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Patakaran: Game of the Generals' }).waitFor();
  // a choice from the picker is remembered across a reload too
  await page.locator('#lang').selectOption('en');
  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Rules: Game of the Generals' }).waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  await context.close();
});

for (const [locale, lang, seen] of /** @type {const} */ ([['fil-PH', 'fil', 'Pangalan mo'], ['tl', 'fil', 'Pangalan mo'], ['zh-TW', 'zh-Hant', '你的名字'], ['zh-HK', 'zh-Hant', '你的名字'], ['de-DE', 'en', 'Your name']])) {
  test(`the browser's language ${locale} gives ${lang}`, { timeout: 30000 }, async () => {
    const { page, context } = await newPage(chrome.browser, DESKTOP, { locale });
    await page.goto(server.url);
    await page.getByLabel(seen).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
    await context.close();
  });
}

test('the header with its language picker, the lobby, rules, a game and a setup fit a 360 px phone in every language, the picker in sight', { timeout: 60000 }, async () => {
  const { page, context } = await newPage(chrome.browser, PHONE360, { locale: 'en-US' });
  await enter(page, server.url, 'Lang360-long-name');
  for (const lang of ['en', 'fil', 'zh-Hant']) {
    await page.locator('#lang').selectOption(lang);
    await page.waitForFunction((l) => document.documentElement.lang === l, lang);
    await assertNoSideScroll(page, `the lobby at 360 px in ${lang}`);
    const box = await page.locator('#lang').boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 360 && box.height >= 32, `the picker is in sight in ${lang}: ${JSON.stringify(box)}`);
    const gear = await page.getByRole('button', { name: /Settings|Mga setting|設定/ }).boundingBox();
    assert.ok(gear && gear.x + gear.width <= 360, `the settings button is in sight in ${lang}`);
    for (const path of ['/rules/stratego']) {
      await page.goto(`${server.url}${path}`);
      await page.locator('h1').waitFor();
      await assertNoSideScroll(page, `${path} at 360 px in ${lang}`);
      await page.goto(server.url);
      await page.locator('#lang').waitFor();
    }
  }
  await page.locator('#lang').selectOption('en');
  // a game page (Banqi's was the widest) and the Stratego setup, in Filipino, at 360 px
  await botGame(page, server.url, 'Lang360-long-name', { game: 'banqi', title: 'Banqi', clock: '600+5' });
  await page.locator('.side-panel .status').waitFor();
  await page.locator('#lang').selectOption('fil');
  await page.waitForTimeout(200);
  await assertNoSideScroll(page, 'the Banqi game page at 360 px in Filipino');
  await page.locator('#lang').selectOption('en');
  await botGame(page, server.url, 'Lang360-long-name', { game: 'stratego', title: 'Stratego', clock: 'none' });
  await page.locator('.setup-view').waitFor();
  await page.locator('#lang').selectOption('zh-Hant');
  await page.waitForTimeout(200);
  await assertNoSideScroll(page, 'the Stratego setup at 360 px in Chinese');
  await page.locator('#lang').selectOption('en');
  await context.close();
});
