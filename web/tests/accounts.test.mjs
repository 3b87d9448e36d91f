// Accounts, ratings, leaderboards and profiles in the browser (issue 17), against a real
// server run with `--leaderboard-min-games 1 --provisional-rd 349` so that one rated game is
// enough to be listed: a guest creates an account and keeps its games, logs out and in again;
// a second player creates an account from the first visit; a guest sees their rated seek
// greyed with the reason; the two accounts play a rated game that ends by resignation and
// both see their rating change; the winner gives a "good game"; the leaderboard lists both,
// and each profile shows the rating, its chart, the game (with a link to its replay) and the
// kudos.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { startServer, launch, newPage, enter, botGame, register, signIn, ratedGame, assertNoSideScroll, repo, RATED_FLAGS, DESKTOP, PHONE390 } from './helpers.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launch>>} */
let chrome;
// every account of this file signs in from one address within a minute or two: a limit above
// the default 10 a minute, so that the tests do not run into it
before(async () => { server = await startServer([...RATED_FLAGS, '--logins-per-minute', '60']); chrome = await launch(); });
after(async () => { await chrome?.close(); await server?.stop(); });

const PASSWORD = 'correct horse battery';

test('a guest creates an account and keeps its games; logs out and signs in again; a wrong password is refused', { timeout: 90000 }, async () => {
  const { page, context, errors } = await newPage(chrome.browser, DESKTOP);
  page.on('dialog', (d) => d.accept());
  // as a guest: one game against the computer, resigned at once
  const game = await botGame(page, server.url, 'Guesty', { game: 'banqi', title: 'Banqi', clock: 'none' });
  await page.locator('.side-panel .btn.danger').click();
  await page.locator('.result-banner').waitFor();
  const guestId = await page.evaluate(() => JSON.parse(localStorage.getItem('salpakan') ?? '{}').userId);
  await page.goto(server.url);
  await register(page, server.url, 'Guesty_acct', PASSWORD);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('salpakan') ?? '{}'));
  assert.equal(stored.token, undefined, 'the guest token is dropped once the account exists');
  assert.equal(stored.account, true);
  assert.equal(stored.userId, guestId, 'the guest became the account: same id');
  // the session is an HttpOnly cookie: the script cannot read it
  assert.ok(!(await page.evaluate(() => document.cookie)).includes('salpakan_session'));
  const cookies = await context.cookies();
  assert.ok(cookies.some((c) => c.name === 'salpakan_session' && c.httpOnly), 'an HttpOnly session cookie');
  // the guest's finished game is the account's: listed in its lobby and on its profile
  await page.goto(server.url);
  await page.locator(`#my-games [data-game="${game}"]`).waitFor();
  await page.locator('#my-profile').click();
  await page.waitForURL(/\/@\/Guesty_acct$/);
  await page.locator(`#history [data-game="${game}"] a[href="/replay/${game}"]`).waitFor();

  // log out of this device: the bar offers "Sign in" again and the lobby asks for a name
  await page.locator('#account-button').click();
  await page.getByRole('button', { name: 'Log out', exact: true }).click();
  await page.locator('#sign-in').waitFor();
  await page.locator('#name').waitFor();
  assert.equal((await context.cookies()).some((c) => c.name === 'salpakan_session' && c.value), false, 'the cookie is gone');
  // a wrong password: the server's sentence in the dialog, nothing signed in
  await page.locator('#sign-in').click();
  const dialog = page.locator('dialog.auth');
  await dialog.getByLabel('Name', { exact: true }).fill('Guesty_acct');
  await dialog.getByLabel('Password', { exact: true }).fill('not the password');
  await dialog.locator('#auth-submit').click();
  await dialog.locator('.form-error', { hasText: 'wrong name or password' }).waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await signIn(page, 'Guesty_acct', PASSWORD);
  await page.locator('form.create').waitFor();
  await page.locator(`#my-games [data-game="${game}"]`).waitFor();
  assert.deepEqual(errors.filter((e) => !/status of 40[19]/.test(e)), []);
  await context.close();
});

test('a rated game between two accounts: both see the rating change, a good game, the leaderboard and both profiles', { timeout: 150000 }, async () => {
  const ana = await newPage(chrome.browser, DESKTOP);
  const ben = await newPage(chrome.browser, PHONE390);
  const eve = await newPage(chrome.browser, PHONE390);
  // Ana from the first visit's "Sign in" link, switching to "Create account"; Ben from the bar
  await ana.page.goto(server.url);
  await ana.page.locator('.have-account button').click();
  await ana.page.locator('#auth-switch').click();
  await ana.page.locator('#auth-name').fill('Ana');
  await ana.page.locator('#auth-password').fill(PASSWORD);
  await ana.page.locator('#auth-submit').click();
  await ana.page.locator('#my-profile', { hasText: 'Ana' }).waitFor();
  await register(ben.page, server.url, 'Ben', PASSWORD);
  // a guest cannot take a rated seek: shown greyed, with the reason, not hidden
  await enter(eve.page, server.url, 'Eve');

  // the seek, as Eve sees it while it is open
  const game = await ratedGame(ana.page, ben.page, server.url, 'a', async () => {
    const row = eve.page.locator('#seeks .row', { has: eve.page.locator('.badge.rated') }).first();
    await row.waitFor();
    assert.match(await row.getAttribute('class') ?? '', /blocked/);
    assert.match(await row.locator('.why').textContent() ?? '', /Only for players with an account/);
    assert.ok(await row.getByRole('button', { name: /Accept/ }).isDisabled());
    assert.match(await row.locator('.seek-by').textContent() ?? '', /Ana\s*1500\?/, 'the creator, rated 1500, provisional');
  });

  // both see the change: Ana (who resigned) lost points, Ben gained them, on the end screen
  // and beside the names
  const change = async (/** @type {import('playwright-core').Page} */ page, /** @type {string} */ seatName) => {
    const line = page.locator('.end-ratings li', { hasText: seatName });
    await line.waitFor();
    return (await line.locator('.diff').textContent()) ?? '';
  };
  assert.match(await change(ana.page, 'Your rating'), /^−\d+$/);
  assert.match(await change(ana.page, 'Ben'), /^\+\d+$/);
  assert.match(await change(ben.page, 'Your rating'), /^\+\d+$/);
  assert.match(await change(ben.page, 'Ana'), /^−\d+$/);
  await ben.page.locator('#end-close').click();
  const benBar = ben.page.locator('.player-bar.bottom');
  assert.match(await benBar.locator('.diff').textContent() ?? '', /^\+\d+$/);
  assert.match(await benBar.locator('.rating').textContent() ?? '', /^1[5-9]\d\d$/, 'Ben is rated above 1500, no longer provisional');
  assert.match(await ben.page.locator('#game-terms').textContent() ?? '', /Rated/);

  // a good game: once; the button then says it was given
  await ben.page.locator('#kudos').click();
  await ben.page.locator('#kudos', { hasText: 'Good game given' }).waitFor();
  assert.ok(await ben.page.locator('#kudos').isDisabled());

  // the leaderboard: both, Ben first (at a phone's width, nothing wider than the screen)
  await ben.page.goto(`${server.url}/leaderboard/generals`);
  const rows = ben.page.locator('#leaderboard tbody tr');
  await rows.first().waitFor();
  assert.deepEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-player'))), ['Ben', 'Ana']);
  assert.equal(await ben.page.locator('.board-tab[aria-current="page"]').textContent(), 'Game of the Generals');
  await assertNoSideScroll(ben.page, 'leaderboard');
  // a board with nobody on it says so
  await ben.page.locator('.board-tab', { hasText: 'Banqi' }).click();
  await ben.page.locator('.leaderboard-body .empty').waitFor();

  // Ana's profile from Ben's browser: the rating, its chart, the game, the kudos; a report button
  await ben.page.goto(`${server.url}/@/Ana`);
  const card = ben.page.locator('.rating-card[data-board="generals"]');
  await card.waitFor();
  assert.match(await card.locator('.rating-big strong').textContent() ?? '', /^1[0-4]\d\d$/);
  assert.equal(await card.locator('svg.rating-chart circle.dot').count(), 1);
  await ben.page.locator(`#history [data-game="${game}"] a[href="/replay/${game}"]`).waitFor();
  assert.match(await ben.page.locator(`#history [data-game="${game}"]`).textContent() ?? '', /Ben/);
  assert.equal(await ben.page.locator('[data-stat="kudos"] strong').textContent(), '1');
  await ben.page.locator('#report').waitFor();
  await assertNoSideScroll(ben.page, 'profile');
  // Ben's own profile has no report button
  await ben.page.goto(`${server.url}/@/Ben`);
  await ben.page.locator('.rating-card[data-board="generals"]').waitFor();
  assert.equal(await ben.page.locator('#report').count(), 0);
  assert.equal(await ben.page.locator('[data-stat="kudos"] strong').textContent(), '0');

  // a report of Ana, from her profile
  await ben.page.goto(`${server.url}/@/Ana`);
  await ben.page.locator('#report').click();
  await ben.page.locator('#report-reason').selectOption('stalling');
  await ben.page.locator('#report-text').fill('Resigned at once, every time.');
  await ben.page.getByRole('button', { name: 'Send report' }).click();
  await ben.page.locator('.toast', { hasText: 'Report sent' }).waitFor();

  // an unknown player: said so
  await ben.page.goto(`${server.url}/@/Nobody_here`);
  await ben.page.getByRole('heading', { name: 'No such player' }).waitFor();
  for (const p of [ana, ben, eve]) {
    assert.deepEqual(p.errors.filter((e) => !/status of 40[134]/.test(e)), []);
    await p.context.close();
  }
});

test('the account menu: an API token shown once and revoked, a new password, log out everywhere, delete the account', { timeout: 90000 }, async () => {
  const { page, context, errors } = await newPage(chrome.browser, PHONE390);
  page.on('dialog', (d) => d.accept());
  await register(page, server.url, 'Tala', PASSWORD);
  const menu = async (/** @type {string} */ item) => {
    await page.locator('#account-button').click();
    await page.locator('#account-menu').getByRole('button', { name: item, exact: true }).click();
  };
  // an API token: its secret shown once, listed by name, then revoked
  await menu('API tokens');
  const tokens = page.locator('dialog.tokens-dialog');
  await tokens.locator('.tokens .empty').waitFor();
  await tokens.getByLabel('New token’s name').fill('my bot');
  await tokens.getByRole('button', { name: 'Create token' }).click();
  const secret = await tokens.locator('#token-secret').inputValue();
  assert.match(secret, /^\S{16,}$/);
  // the token works as a Bearer token: GET /api/me says it is Tala
  const me = await (await fetch(`${server.url}/api/me`, { headers: { Authorization: `Bearer ${secret}` } })).json();
  assert.equal(me.name, 'Tala');
  await tokens.locator('.tokens li', { hasText: 'my bot' }).waitFor();
  await tokens.getByRole('button', { name: 'Revoke the token my bot' }).click();
  await tokens.locator('.tokens .empty').waitFor();
  assert.equal((await fetch(`${server.url}/api/me`, { headers: { Authorization: `Bearer ${secret}` } })).status, 401);
  await tokens.getByRole('button', { name: 'Done' }).click();

  // a new password: the old one no longer signs in
  await menu('Change password');
  await page.locator('#pw-old').fill(PASSWORD);
  await page.locator('#pw-new').fill('a brand new password');
  await page.locator('dialog').getByRole('button', { name: 'Change password' }).click();
  await page.locator('.toast', { hasText: 'Password changed' }).waitFor();
  const login = async (/** @type {string} */ password) => (await fetch(`${server.url}/api/session`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Tala', password }) })).status;
  assert.equal(await login(PASSWORD), 401);
  assert.equal(await login('a brand new password'), 200);

  // log out everywhere, sign in again, then delete the account: its name is free again
  await menu('Log out everywhere');
  await page.locator('#sign-in').waitFor();
  await signIn(page, 'Tala', 'a brand new password');
  await menu('Delete account');
  await page.locator('#delete-password').fill('a brand new password');
  await page.getByRole('button', { name: 'Delete my account' }).click();
  await page.locator('#sign-in').waitFor();
  assert.equal((await fetch(`${server.url}/api/players/Tala`)).status, 404);
  await register(page, server.url, 'Tala', PASSWORD);
  assert.deepEqual(errors.filter((e) => !/status of 40[134]/.test(e)), []);
  await context.close();
});

test('a moderator set from the command line reads a report, marks the account and closes it', { timeout: 90000 }, async () => {
  const { page, context, errors } = await newPage(chrome.browser, DESKTOP);
  page.on('dialog', (d) => d.accept());
  const created = await fetch(`${server.url}/api/accounts`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Troll', password: PASSWORD }) });
  assert.equal(created.status, 201);
  await register(page, server.url, 'Mona', PASSWORD);
  await page.goto(`${server.url}/@/Troll`);
  await page.locator('#report').click();
  await page.locator('#report-reason').selectOption('abuse');
  await page.locator('#report-text').fill('Insults in the chat.');
  await page.getByRole('button', { name: 'Send report' }).click();
  await page.locator('.toast', { hasText: 'Report sent' }).waitFor();
  // not a moderator yet: the page says whom it is for
  await page.goto(`${server.url}/moderation`);
  await page.locator('#reports .empty', { hasText: 'This page is for moderators.' }).waitFor();
  const admin = spawnSync(process.env.SALPAKAN_BIN ?? path.join(repo, 'target', 'debug', 'salpakan'), ['admin', '--db', server.db, 'moderator', 'Mona', 'on'], { encoding: 'utf8' });
  assert.equal(admin.status, 0, `${admin.stdout}${admin.stderr}`);
  // the running server takes the change at its next housekeeping pass (every 10 s)
  const row = page.locator('#reports .report-row', { hasText: 'Troll' });
  for (let i = 0; i < 30 && !(await row.count()); i++) {
    await page.waitForTimeout(1000);
    await page.reload();
    await row.or(page.locator('#reports .empty')).first().waitFor();
  }
  assert.match(await row.textContent() ?? '', /Abuse or insults.*Reported by\s*Mona.*Insults in the chat\./s);
  await row.getByLabel('Note to mark Troll with').fill('warned about chat');
  await row.getByRole('button', { name: 'Mark' }).click();
  await page.locator('.toast', { hasText: 'Troll is marked.' }).waitFor();
  // the menu offers the moderation page; the note shows on the profile, to moderators only
  await page.locator('#account-button').click();
  await page.locator('#account-menu').getByRole('link', { name: 'Moderation' }).waitFor();
  await page.keyboard.press('Escape');
  await page.goto(`${server.url}/@/Troll`);
  await page.locator('#marked', { hasText: 'warned about chat' }).waitFor();
  assert.ok(!JSON.stringify(await (await fetch(`${server.url}/api/players/Troll`)).json()).includes('warned'), 'the note is for moderators only');
  // closing: Troll can no longer sign in
  await page.goto(`${server.url}/moderation`);
  await page.locator('#reports .report-row', { hasText: 'Troll' }).getByRole('button', { name: 'Close account' }).click();
  await page.locator('.toast', { hasText: 'Troll’s account is closed.' }).waitFor();
  const login = await fetch(`${server.url}/api/session`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Troll', password: PASSWORD }) });
  assert.ok(login.status === 403 || login.status === 401, `a closed account signs in: ${login.status}`);
  assert.deepEqual(errors.filter((e) => !/status of 40[134]/.test(e)), []);
  await context.close();
});
