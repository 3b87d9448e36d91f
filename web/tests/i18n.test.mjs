// The message catalogues (no browser): every language has exactly the keys of English, with
// the same shape (same list lengths, functions taking the same arguments), and no empty
// value; the language tags map as the client promises; and no screen module carries an
// English sentence of its own (every word the player reads is in a catalogue).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import en from '../assets/i18n/en.js';
import fil from '../assets/i18n/fil.js';
import zhHant from '../assets/i18n/zh-Hant.js';
import { langOf, LANGS, CATALOGUES } from '../assets/i18n.js';

const assets = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'assets');

/**
 * Compare a catalogue with English, key by key; returns the differences.
 * @param {any} ref @param {any} cat @param {string} at @param {string[]} out
 */
function diff(ref, cat, at, out) {
  if (typeof ref === 'function') {
    if (typeof cat !== 'function') out.push(`${at}: a function in English, ${typeof cat} here`);
    else if (cat.length !== ref.length) out.push(`${at}: takes ${cat.length} arguments, English ${ref.length}`);
    return out;
  }
  if (typeof ref === 'string') {
    if (typeof cat !== 'string') out.push(`${at}: a string in English, ${typeof cat} here`);
    else if (!cat.trim()) out.push(`${at}: empty`);
    return out;
  }
  if (Array.isArray(ref)) {
    if (!Array.isArray(cat)) out.push(`${at}: a list in English`);
    else if (cat.length !== ref.length) out.push(`${at}: ${cat.length} entries, English ${ref.length}`);
    else ref.forEach((x, i) => diff(x, cat[i], `${at}[${i}]`, out));
    return out;
  }
  if (ref && typeof ref === 'object') {
    if (!cat || typeof cat !== 'object') { out.push(`${at}: an object in English`); return out; }
    for (const k of Object.keys(ref)) {
      if (!(k in cat)) out.push(`${at}.${k}: missing`);
      else diff(ref[k], cat[k], `${at}.${k}`, out);
    }
    for (const k of Object.keys(cat)) if (!(k in ref)) out.push(`${at}.${k}: not in English`);
  }
  return out;
}

test('every catalogue has exactly the keys of English, with the same shape', () => {
  assert.deepEqual(diff(en, en, 'en', []), [], 'English itself has an empty value');
  assert.deepEqual(diff(en, fil, 'fil', []), []);
  assert.deepEqual(diff(en, zhHant, 'zh-Hant', []), []);
  assert.deepEqual(LANGS, ['en', 'fil', 'zh-Hant']);
  for (const l of LANGS) assert.ok(CATALOGUES[l], `catalogue ${l}`);
});

test('the diff finds a missing key, an extra key, an empty value and a changed argument list', () => {
  const broken = { ...en, nav: { ...en.nav, lobby: ' ' }, extra: 'x', app: { ...en.app, title: () => '' } };
  delete (/** @type {any} */ (broken)).end;
  const found = diff(en, broken, 'x', []);
  assert.ok(found.includes('x.end: missing'));
  assert.ok(found.includes('x.extra: not in English'));
  assert.ok(found.includes('x.nav.lobby: empty'));
  assert.ok(found.some((f) => f.startsWith('x.app.title: takes 0')));
});

test('every sentence function gives a non-empty sentence in every language', () => {
  // called with sample arguments of the kinds the client passes: names, numbers, lists
  const sample = (/** @type {Function} */ f) => {
    const args = [];
    for (let i = 0; i < f.length; i++) args.push('Ana');
    return args;
  };
  const calls = {
    'lobby.versus': [['Ana', 'Ben']], 'game.lost': ['White', ['Private']], 'levels.mcts': [300, 'strong'], 'levels.name': [3, 'Medium'],
    'clock.control': [10, 5], 'app.serverAnswered': [500], 'setup.toPlace': ['Private', 2], 'setup.placed': [3, 21], 'setup.setupName': [1],
    'game.movesCount': [4], 'replay.moves': [4], 'replay.plyOf': [1, 9, 'x'], 'game.opponentSetup': ['Ana', true], 'games.switchSummary': ['x', true],
  };
  for (const [l, cat] of Object.entries({ en, fil, 'zh-Hant': zhHant })) {
    const walk = (/** @type {any} */ v, /** @type {string} */ at) => {
      if (typeof v === 'function') {
        const args = /** @type {Record<string, any[]>} */ (calls)[at] ?? sample(v);
        const out = v(...args);
        assert.equal(typeof out, 'string', `${l} ${at}`);
        assert.ok(out.trim().length > 0, `${l} ${at} is empty`);
        assert.ok(!out.includes('undefined') && !out.includes('[object'), `${l} ${at}: ${out}`);
      } else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) walk(x, at ? `${at}.${k}` : k);
      }
    };
    walk(cat, '');
  }
});

test('language tags: fil and tl mean Filipino, every Chinese tag Traditional Chinese, en English, others none', () => {
  for (const t of ['fil', 'fil-PH', 'tl', 'tl-PH', 'TL']) assert.equal(langOf(t), 'fil', t);
  for (const t of ['zh-TW', 'zh-Hant', 'zh-HK', 'zh', 'zh-Hant-TW', 'zh-MO']) assert.equal(langOf(t), 'zh-Hant', t);
  for (const t of ['en', 'en-US', 'en-PH']) assert.equal(langOf(t), 'en', t);
  for (const t of ['de', 'ja', '', null, undefined]) assert.equal(langOf(t), null, String(t));
});

test('the pieces keep their names: Banqi 帥仕相俥傌炮兵 / 將士象車馬包卒, Generals ranks as Filipino players say them', () => {
  assert.equal(Object.values(zhHant.pieces.banqiColoured).map((n) => n.slice(1)).join(''), '帥仕相俥傌炮兵將士象車馬包卒');
  assert.equal(zhHant.games.banqi.title, '暗棋');
  assert.equal(fil.pieces.generals.PVT, 'Private');
  assert.equal(fil.pieces.generals['5G'], 'Five-Star General');
  assert.equal(fil.pieces.generals.SPY, 'Spy');
  assert.equal(fil.pieces.generals.FLG, 'Flag');
});

test('no screen module carries an English sentence of its own: every word is in a catalogue', () => {
  // a quoted capitalised word followed by a lower-case one ('Your move', `Set up your`)
  const sentence = /(['"`])[A-Z][a-z]+,? [a-z]+[^'"`]*\1?/;
  const found = [];
  // layout.js is data generated from the engine (board geometry, with the engine's own English
  // piece names, which the client never shows: it takes every word from the catalogues).
  for (const file of readdirSync(assets).filter((f) => f.endsWith('.js') && f !== 'layout.js')) {
    const lines = readFileSync(path.join(assets, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      const code = line.replace(/^\s*(\/\/|\*|\/\*).*$/, '').replace(/\/\/ .*$/, '');
      if (sentence.test(code)) found.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(found, []);
});
