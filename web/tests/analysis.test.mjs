// Analysis for players (issue 16), in Chromium against a real `salpakan serve`: a finished
// game's replay asks for its analysis, draws the win-probability graph of both seats, lists
// the turning points (each jumps to its ply), and in a seat's view shows what that seat
// believed each hidden enemy piece to be.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, botGame, enter, gameIdOf, waitTurn, clickMove, resignUnlessOver, assertNoSideScroll, DESKTOP, PHONE390 } from './helpers.mjs';

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

test('a finished game\'s replay analyses it on request: the graph, turning points that jump, and a seat\'s beliefs on the board', { timeout: 180000 }, async () => {
  const { page, frames, context } = await newPage(browser, DESKTOP);
  page.on('dialog', (d) => d.accept());
  const id = await botGame(page, server.url, 'Ana', { game: 'generals', title: 'Game of the Generals', clock: 'none' });
  await page.getByRole('heading', { name: 'Set up your army' }).waitFor();
  await page.getByRole('button', { name: 'Random' }).click();
  await page.getByRole('button', { name: 'Ready' }).click();
  const turn = { ver: -1 };
  for (let i = 0; i < 6; i++) {
    const legal = await waitTurn(page, frames, id, turn);
    if (!legal) break;
    await clickMove(page, legal[Math.floor(Math.random() * legal.length)]);
  }
  // before the end, the server refuses with a sentence
  const early = await fetch(`${server.url}/api/games/${id}/analysis`, { method: 'POST' });
  // (the bot's answer may end the game between the request and a look at the page, so the
  // server's answer, not the page, tells which it was)
  if (!early.ok) {
    assert.equal(early.status, 409);
    assert.match((await early.json()).error, /not over yet/);
    await resignUnlessOver(page);
  }
  await page.locator('.status.over').waitFor();

  await page.goto(`${server.url}/replay/${id}`);
  const analyse = page.getByRole('button', { name: 'Analyse', exact: true });
  // a game the bot won within those moves was over at the early request, which asked for
  // the analysis already: the replay then shows it coming, with no button to press
  if (!early.ok) await analyse.click();
  await page.locator('.analysis-status', { hasText: /^Analysed \d+ moves/ }).waitFor({ timeout: 60000 });
  assert.equal(await analyse.isHidden(), true, 'the button goes once the analysis is there');
  const chart = page.getByRole('img', { name: 'Chance of winning over the moves' });
  await chart.waitFor();
  assert.equal(await page.locator('.win-chart polyline').count(), 2, 'a line for each seat');
  const desc = await page.locator('.win-chart desc').textContent();
  assert.match(desc ?? '', /White: \d+% at the start/);
  assert.match(desc ?? '', /Black: \d+% at the start/);

  // a turning point jumps to its ply
  const points = page.locator('.turning-points li button');
  assert.ok((await points.count()) >= 1, 'at least one turning point');
  const ply = Number(await points.first().getAttribute('data-ply'));
  await points.first().click();
  await page.locator('.replay-label', { hasText: `Ply ${ply} of` }).waitFor();
  assert.equal(await page.locator('#replay-ply').inputValue(), String(ply));

  // the beliefs: only in a seat's view, on that seat's hidden enemy pieces
  const heat = page.locator('#replay-heat');
  assert.equal(await heat.isDisabled(), true, 'the full reveal has nothing hidden');
  await page.locator('#replay-view').selectOption('white');
  await heat.check();
  await page.getByRole('button', { name: 'First', exact: true }).click();
  const beliefs = page.locator('.board .belief');
  assert.equal(await beliefs.count(), 21, 'every Black piece carries White\'s belief at the start');
  const label = await beliefs.first().getAttribute('aria-label');
  assert.match(label ?? '', /: \d+% likely$/);
  const onBlack = await page.evaluate(() => [...document.querySelectorAll('.board .belief')].every((b) => b.closest('.sq')?.querySelector('.piece.side-black')));
  assert.ok(onBlack, 'beliefs sit on Black pieces only');
  await heat.uncheck();
  assert.equal(await beliefs.count(), 0, 'the toggle hides them');

  // a phone: no sideways scrolling with the graph
  await page.setViewportSize(PHONE390);
  await assertNoSideScroll(page, 'replay with analysis at 390 px');
  await context.close();
});

test('a game played without the final reveal shows its player that seat\'s own analysis, and a stranger none', { timeout: 180000 }, async () => {
  const { page, frames, context, errors } = await newPage(browser, DESKTOP);
  page.on('dialog', (d) => d.accept());
  await enter(page, server.url, 'Ben');
  await page.getByRole('radio', { name: 'Game of the Generals' }).click();
  const box = page.locator('#opt-reveal_at_end');
  if (!(await box.isVisible())) await page.getByText('More', { exact: true }).first().click();
  await box.uncheck();
  await page.locator('#clock').selectOption('none');
  await page.getByRole('button', { name: 'Play the computer' }).click();
  await page.waitForURL(/\/game\//);
  const id = gameIdOf(page);
  await page.getByRole('button', { name: 'Random' }).click();
  await page.getByRole('button', { name: 'Ready' }).click();
  const turn = { ver: -1 };
  for (let i = 0; i < 4; i++) {
    const legal = await waitTurn(page, frames, id, turn);
    if (!legal) break;
    await clickMove(page, legal[0]);
  }
  await resignUnlessOver(page);
  await page.locator('.status.over').waitFor();
  const info = await (await fetch(`${server.url}/api/games/${id}`)).json();
  assert.equal(info.options.reveal_at_end, false);
  // the computer's game gives the player either seat
  const mine = Object.entries(info.players).find(([, p]) => p.name === 'Ben')?.[0];
  assert.ok(mine === 'white' || mine === 'black', JSON.stringify(info.players));

  await page.goto(`${server.url}/replay/${id}`);
  await page.getByRole('button', { name: 'Analyse', exact: true }).click();
  await page.locator('.win-chart').waitFor({ timeout: 60000 });
  assert.equal(await page.locator('.win-chart polyline').count(), 1, 'only the player\'s own seat');
  assert.equal(await page.locator('.win-chart polyline').getAttribute('data-seat'), mine);
  assert.deepEqual(errors, []);
  await context.close();

  // a stranger: no analysis, and the server says why
  const res = await fetch(`${server.url}/api/games/${id}/analysis`);
  assert.equal(res.status, 403);
  assert.match((await res.json()).error, /seat token/);
});
