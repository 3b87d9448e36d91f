// The rules pages (/rules/generals, /rules/stratego, /rules/banqi): each loads with its
// sections and diagrams, fits a 390 px phone, and is linked from the lobby, the option help
// texts and the game page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { startServer, launch, newPage, shots, enter, repo, assertNoSideScroll, DESKTOP, PHONE390 } from './helpers.mjs';

const GAMES = [
  { game: 'generals', title: 'Game of the Generals', pieces: 15, options: ['army', 'flag_rule', 'reveal', 'first', 'open_flag', 'reveal_at_end'], cells: 72 },
  { game: 'stratego', title: 'Stratego', pieces: 12, options: ['army', 'scout_strike', 'chase_rule', 'two_square_limit'], cells: 100 },
  { game: 'banqi', title: 'Banqi', pieces: 7, options: ['ruleset', 'capture_face_down', 'chain_captures', 'cannon_direct'], cells: 32 },
];
const SECTIONS = ['aim', 'board', 'pieces', 'challenge', 'end', 'options'];

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launch>>} */
let chrome;
before(async () => { server = await startServer(); chrome = await launch(); });
after(async () => { await chrome?.close(); await server?.stop(); });

for (const g of GAMES) {
  test(`rules page of ${g.game} has every section, the board and hierarchy diagrams, and fits a 390 px phone`, async () => {
    const { page, context, errors } = await newPage(chrome.browser, PHONE390);
    await page.goto(`${server.url}/rules/${g.game}`);
    await page.getByRole('heading', { level: 1, name: `Rules: ${g.title}` }).waitFor();
    for (const id of SECTIONS) {
      assert.equal(await page.locator(`section#${id} h2`).count(), 1, `section #${id} with a heading`);
    }
    // the board diagram: one cell per square, an accessible name, pieces drawn with the game's art
    const board = page.locator(`.rules-board-${g.game}[role="img"]`);
    assert.equal(await board.count(), 1);
    assert.equal(await board.locator('.cell').count(), g.cells);
    assert.ok((await board.getAttribute('aria-label'))?.length, 'the board diagram is named');
    assert.ok(await board.locator('.piece').count() > 0, 'the board diagram shows pieces');
    if (g.game === 'stratego') assert.equal(await board.locator('.cell.lake').count(), 8, 'the eight lake squares');
    // the pieces table and the hierarchy diagram (ladder + exceptions)
    assert.equal(await page.locator('.rules-table tbody tr').count(), g.pieces);
    assert.ok(await page.locator('ol.ladder li .piece').count() >= 6, 'the hierarchy shows a row of pieces');
    assert.ok(await page.locator('ul.beats li').count() >= 3, 'the exceptions are drawn');
    // every option of the game's form is explained under its own anchor
    for (const key of g.options) {
      const dd = page.locator(`dt#opt-${key} + dd`);
      assert.equal(await dd.count(), 1, `option ${key} explained`);
      assert.ok(((await dd.textContent()) ?? '').length > 20, `option ${key} has a real explanation`);
    }
    // the contents link to their sections
    await page.getByRole('navigation', { name: 'On this page' }).getByRole('link', { name: 'Options' }).click();
    await page.waitForFunction(() => {
      const r = document.getElementById('options')?.getBoundingClientRect();
      return !!r && r.top >= 0 && r.top < window.innerHeight;
    });
    await assertNoSideScroll(page, `the rules of ${g.game} at 390 px`);
    await page.screenshot({ path: path.join(shots, `rules-${g.game}-phone.png`), fullPage: true });
    await page.setViewportSize(DESKTOP);
    await page.screenshot({ path: path.join(shots, `rules-${g.game}-desktop.png`), fullPage: true });
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('rules pages are linked from the lobby, and each option help links to its section', async () => {
  const { page, context } = await newPage(chrome.browser, PHONE390);
  await enter(page, server.url, 'Reader');
  // the header's Rules link
  await page.getByRole('link', { name: 'Rules', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Rules: Game of the Generals' }).waitFor();
  // back in the lobby: the chosen game's "How to play" link and an option's "More" link
  await page.goto(server.url);
  await page.getByRole('radio', { name: 'Stratego' }).click();
  await page.getByRole('link', { name: 'How to play Stratego' }).click();
  await page.getByRole('heading', { level: 1, name: 'Rules: Stratego' }).waitFor();
  await page.goBack();
  await page.getByRole('radio', { name: 'Banqi' }).click();
  await page.getByRole('link', { name: 'More about “Several captures in one turn”' }).click();
  await page.getByRole('heading', { level: 1, name: 'Rules: Banqi' }).waitFor();
  assert.equal(new URL(page.url()).hash, '#opt-chain_captures');
  await page.waitForFunction(() => {
    const r = document.getElementById('opt-chain_captures')?.getBoundingClientRect();
    return !!r && r.top >= 0 && r.top < window.innerHeight;
  });
  // "Play this game" goes back to the lobby with that game chosen
  await page.getByRole('link', { name: 'Play this game' }).click();
  await page.getByRole('heading', { name: 'New game' }).waitFor();
  assert.equal(await page.getByRole('radio', { name: 'Banqi' }).getAttribute('aria-checked'), 'true');
  await context.close();
});

test('the game page links to the rules of the game being played', async () => {
  const { page, context } = await newPage(chrome.browser, PHONE390);
  await enter(page, server.url, 'Player');
  await page.getByRole('radio', { name: 'Banqi' }).click();
  await page.getByRole('button', { name: 'Play the computer' }).click();
  await page.waitForURL(/\/game\//);
  await page.locator('.board').waitFor();
  await page.waitForFunction(() => document.getElementById('nav-rules')?.getAttribute('href') === '/rules/banqi');
  await page.getByRole('link', { name: 'Rules', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Rules: Banqi' }).waitFor();
  await context.close();
});

test('the Game of the Generals challenge table on the rules page is the engine\'s arbitration matrix', async () => {
  // the engine's own test writes the matrix out by hand (row: challenger, column: challenged)
  const src = readFileSync(path.join(repo, 'crates', 'engine', 'tests', 'generals.rs'), 'utf8');
  const block = src.slice(src.indexOf('const MATRIX'));
  const want = [...block.slice(0, block.indexOf('];')).matchAll(/"([ADB]{15})"/g)].map((m) => m[1]);
  assert.equal(want.length, 15, 'the engine test\'s MATRIX was found');
  const { page, context } = await newPage(chrome.browser, PHONE390);
  await page.goto(`${server.url}/rules/generals`);
  await page.getByText('Every challenge at a glance').click();
  await page.locator('table.matrix').waitFor();
  const got = await page.locator('table.matrix tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((c) => /** @type {HTMLElement} */ (c).dataset.duel).join('')));
  assert.deepEqual(got, want);
  await assertNoSideScroll(page, 'the rules with the challenge table open');
  await page.locator('table.matrix').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'rules-generals-matrix-phone.png') });
  await context.close();
});
