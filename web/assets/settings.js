// What the browser remembers (localStorage): the player's name and token, settings, and the
// library of saved setups. Sounds are made with Web Audio: no sound files.

const KEY = 'salpakan';

/**
 * @typedef {object} Stored
 * @property {string} [name]
 * @property {string} [token]  a guest's token (an account's session is an HttpOnly cookie instead)
 * @property {string} [userId]
 * @property {boolean} [account]  signed in with an account (its session cookie was set)
 * @property {boolean} [moderator]  the account may see reports and mark or close accounts
 * @property {boolean} [sound]
 * @property {boolean} [motion]
 * @property {Record<string, SavedSetup[]>} [setups]  key: game/army
 * @property {Record<string, string>} [seats]  game id → seat token
 * @property {string[]} [mySeeks]  ids of seeks this browser opened
 * @property {Record<string, string>} [botLevels]  game → the computer strength last chosen (a bot name)
 */

/** @typedef {{name: string, placement: Record<string,string>, saved: number}} SavedSetup */

/** @returns {Stored} */
export function load() {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? '{}') ?? {};
  } catch {
    return {};
  }
}

/** @param {Partial<Stored>} patch */
export function save(patch) {
  const s = { ...load(), ...patch };
  localStorage.setItem(KEY, JSON.stringify(s));
  applyMotion();
  return s;
}

/** Sounds are off until the player turns them on in the settings. */
export function soundOn() {
  return load().sound === true;
}

export function motionOn() {
  return load().motion !== false && !matchMedia('(prefers-reduced-motion: reduce)').matches;
}

export function applyMotion() {
  document.documentElement.classList.toggle('no-motion', !motionOn());
}

/** Saved setups for a game and army (setups are stored as White's/Red's placement, ranks from the seat's side). */
export function savedSetups(/** @type {string} */ game, /** @type {string} */ army) {
  return load().setups?.[`${game}/${army}`] ?? [];
}

/** @param {string} game @param {string} army @param {SavedSetup[]} list */
export function storeSetups(game, army, list) {
  const all = { ...(load().setups ?? {}) };
  all[`${game}/${army}`] = list;
  save({ setups: all });
}

/** @type {AudioContext|null} */
let audio = null;

/**
 * A short sound made with Web Audio (no sound files): 'move', 'challenge' (a clash), 'capture',
 * 'win', 'loss', 'end' (a draw, or a game watched), 'notify'. Silent unless sound is on.
 */
export function sound(/** @type {'move'|'challenge'|'capture'|'win'|'loss'|'end'|'notify'} */ kind) {
  if (!soundOn()) return;
  try {
    audio ??= new AudioContext();
    /** @type {Record<string, [number, number][]>} */
    const tones = {
      move: [[520, 0.05]], challenge: [[300, 0.08], [220, 0.12]], capture: [[392, 0.07], [262, 0.1]],
      win: [[523, 0.1], [659, 0.1], [784, 0.22]], loss: [[392, 0.14], [330, 0.14], [262, 0.26]],
      end: [[440, 0.12], [554, 0.12], [659, 0.2]], notify: [[660, 0.06], [880, 0.08]],
    };
    let t = audio.currentTime;
    for (const [freq, len] of tones[kind]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      osc.type = 'triangle';
      gain.gain.setValueAtTime(0.12, t);
      gain.gain.exponentialRampToValueAtTime(0.001, t + len);
      osc.connect(gain).connect(audio.destination);
      osc.start(t);
      osc.stop(t + len);
      t += len;
    }
  } catch {
    // no audio available: stay silent
  }
}
