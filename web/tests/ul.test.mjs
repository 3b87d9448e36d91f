// Stratego Ultimate Lightning through the UI: two people choose the army in a seek, set up
// from saved setups, and play to a rescue; the mover picks the piece and square in the
// rescue dialog, and both boards show the rescued piece (a rescue is public).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, enter, shotBoth, parsed, clickMove, DESKTOP, PHONE } from './helpers.mjs';

/** Red: a Scout on a4 and a Captain on j4 in front, the rest on ranks 1–2. */
const RED = 'a4:2 j4:6 a1:F b1:B c1:B d1:S e1:2 f1:2 g1:2 h1:3 i1:3 j1:4 a2:4 b2:5 c2:5 d2:6 e2:7 f2:8 g2:9 h2:10';
/** Blue: its Marshal on a7, a Scout on e7, the rest on ranks 9–10; file j empty. */
const BLUE = 'a7:10 e7:2 a10:F b10:B c10:B d10:S e10:2 f10:2 g10:2 h10:3 i10:3 a9:4 b9:4 c9:5 d9:5 e9:6 f9:6 g9:7 h9:8 i9:9';

const placement = (/** @type {string} */ t) => Object.fromEntries(t.split(' ').map((i) => i.split(':')));
/** Saved setups are kept from Red's side: Blue's is turned round. */
const turned = (/** @type {Record<string,string>} */ p) => Object.fromEntries(Object.entries(p).map(([s, c]) =>
  [String.fromCharCode(97 + 9 - (s.charCodeAt(0) - 97)) + String(11 - Number(s.slice(1))), c]));

/** Stores both scenario setups in the page's library (localStorage). */
async function storeSetups(/** @type {import('playwright-core').Page} */ page) {
  await page.evaluate(([red, blue]) => {
    const s = JSON.parse(localStorage.getItem('salpakan') ?? '{}');
    s.setups = { ...(s.setups ?? {}), 'stratego/ultimate_lightning': [
      { name: 'Red scenario', placement: red, saved: 1 }, { name: 'Blue scenario', placement: blue, saved: 2 }] };
    localStorage.setItem('salpakan', JSON.stringify(s));
  }, [placement(RED), turned(placement(BLUE))]);
}

/** The move events this page got for `game`, in order. */
const moves = (/** @type {string[]} */ frames, /** @type {string} */ game) =>
  parsed(frames).filter((m) => m.t === 'event' && m.game === game && m.e?.type === 'move').map((m) => m.e);

test('Ultimate Lightning: the army is chosen in a seek, and a rescue is chosen in its dialog and shown to both', { timeout: 120000 }, async () => {
  const server = await startServer();
  const { browser, close } = await launch();
  try {
    const ana = await newPage(browser, DESKTOP);
    const ben = await newPage(browser, PHONE);
    await enter(ana.page, server.url, 'Ana');
    await enter(ben.page, server.url, 'Ben');
    await storeSetups(ana.page);
    await storeSetups(ben.page);
    await ana.page.getByRole('radio', { name: 'Stratego' }).click();
    await ana.page.locator('#opt-army').selectOption('ultimate_lightning');
    await ana.page.getByRole('button', { name: 'Create seek' }).click();
    await ben.page.getByRole('button', { name: /Accept Ana's Stratego seek/ }).click();
    await ana.page.waitForURL(/\/game\//);
    await ben.page.waitForURL(/\/game\//);
    const game = new URL(ana.page.url()).pathname.split('/').pop() ?? '';

    /** @type {Record<string, typeof ana>} */
    const by = {};
    for (const p of [ana, ben]) {
      await p.page.getByRole('heading', { name: 'Set up your army' }).waitFor();
      const red = (await p.page.locator('.setup-head h1').textContent())?.includes('Red');
      by[red ? 'red' : 'blue'] = p;
      await p.page.getByRole('button', { name: red ? 'Use Red scenario' : 'Use Blue scenario' }).click();
      await p.page.locator('.setup-status', { hasText: 'All pieces placed.' }).waitFor();
      assert.equal(await p.page.locator('.board .piece').count(), 20);
      await p.page.getByRole('button', { name: 'Ready' }).click();
    }
    const { red, blue } = by;
    const script = [['red', 'a4-a7'], ['blue', 'e7-e6'], ['red', 'j4-j6'], ['blue', 'e6-e5'], ['red', 'j6-j8'], ['blue', 'e5-e6']];
    for (const [i, [seat, mv]] of script.entries()) {
      const p = seat === 'red' ? red : blue;
      await p.page.locator('.status', { hasText: 'Your move.' }).waitFor();
      await clickMove(p.page, mv);
      for (const q of [red, blue]) {
        for (let k = 0; k < 400 && moves(q.frames, game).length <= i; k++) await q.page.waitForTimeout(25);
        assert.equal(moves(q.frames, game).length, i + 1, `${seat} ${mv}`);
      }
    }
    // The Captain (two squares a move) reaches Blue's back rank: the dialog offers the lost Scout.
    await red.page.locator('.status', { hasText: 'Your move.' }).waitFor();
    await clickMove(red.page, 'j8-j10');
    const dialog = red.page.getByRole('dialog', { name: 'Rescue' });
    await dialog.waitFor();
    assert.deepEqual(await dialog.locator('select[name=piece] option').allTextContents(), ['Scout']);
    const squares = await dialog.locator('select[name=square] option').allTextContents();
    assert.ok(squares.includes('a4') && !squares.includes('a7') && !squares.includes('a1'), squares.join(' '));
    await dialog.locator('select[name=square]').selectOption('a4');
    await shotBoth(red.page, 'stratego-ul-rescue');
    await dialog.getByRole('button', { name: 'Rescue', exact: true }).click();
    for (const q of [red, blue]) {
      for (let k = 0; k < 400 && moves(q.frames, game).length < 7; k++) await q.page.waitForTimeout(25);
      const e = moves(q.frames, game)[6];
      assert.deepEqual(e.view.rescue, { piece: '2', square: 'a4' });
      await q.page.locator('.board [data-sq="a4"] .piece').waitFor();
      assert.match(await q.page.locator('.board [data-sq="a4"]').getAttribute('aria-label') ?? '', /Scout/);
    }
    assert.deepEqual(red.errors, []);
    assert.deepEqual(blue.errors, []);
  } finally {
    await close();
    await server.stop();
  }
});
