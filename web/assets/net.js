// Talking to the server (docs/protocol.md): HTTP for the guest identity, lobby actions and
// records; one WebSocket per screen for live updates. Everything the rest of the client
// knows about the wire is in this file.

import { load, save } from './settings.js';
import { T } from './i18n.js';

/**
 * @typedef {{base: number, inc: number}|null} TimeControl
 * @typedef {{id: string, kind: string, options: Record<string, any>, clock: TimeControl, by: string, by_id?: string, seat?: string|null, public?: boolean,
 *   rated?: boolean, board?: string|null, min_completion?: number|null, rating_min?: number|null, rating_max?: number|null,
 *   by_account?: boolean, by_rating?: number|null, by_provisional?: boolean, by_completion?: number|null}} Seek
 * @typedef {{name: string, bot?: string|null, account?: boolean, rating?: number|null, provisional?: boolean}} Player
 * @typedef {{game: string, kind: string, options?: Record<string, any>, clock?: TimeControl, players: Record<string, Player>, status?: string, result?: any, rated?: boolean}} GameSummary
 */

/** A refused request: the server's sentence, and the HTTP status (0 when none came back). */
export class ApiError extends Error {
  constructor(/** @type {string} */ message, status = 0) {
    super(message);
    this.status = status;
  }
}

/**
 * Whether this browser has an identity: a guest token, or an account's session (the
 * HttpOnly cookie, which the script cannot read: the account flag remembers that it was set).
 */
export function signedIn() {
  const s = load();
  return !!(s.token || s.account);
}

/**
 * @param {string} method
 * @param {string} path
 * @param {any} [body]
 */
export async function api(method, path, body) {
  const token = load().token;
  /** @type {Record<string,string>} */
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  // same-origin fetches send the session cookie of an account
  const res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  const type = res.headers.get('content-type') ?? '';
  const data = type.includes('json') ? await res.json() : await res.text();
  if (!res.ok) throw new ApiError(typeof data === 'object' && data?.error ? data.error : T.app.serverAnswered(res.status), res.status);
  return data;
}

/** Make sure this browser has a guest identity with this name (an account keeps its own). */
export async function ensureGuest(/** @type {string} */ name) {
  const s = load();
  if (s.account || (s.token && s.name === name)) return s;
  const g = await api('POST', '/api/guest', { name });
  return save({ name: g.name, token: g.token, userId: g.id });
}

/** Remember a seat token (from accepting, a bot game, a `seat` frame or GET /api/me). */
export function rememberSeat(/** @type {string} */ game, /** @type {string} */ token) {
  const seats = { ...(load().seats ?? {}) };
  seats[game] = token;
  save({ seats });
}

/** This browser's seat token for a game, if it plays in it. */
export function seatToken(/** @type {string} */ game) {
  return load().seats?.[game] ?? null;
}

/**
 * A full-arbiter game held by one passed phone (issue 19): both seats' tokens, and whether
 * the "pass the phone" curtain is up. Kept for this tab only (sessionStorage).
 * @typedef {{tokens: Record<string, string>, curtain: boolean}} PassedPhone
 */

const passKey = (/** @type {string} */ game) => `salpakan.pass.${game}`;

/**
 * Mark `game` as played on one passed phone, with the token of each seat (the board is
 * opened for a seat: no curtain until that seat has entered something).
 */
export function rememberPassedPhone(/** @type {string} */ game, /** @type {Record<string, string>} */ tokens) {
  savePassedPhone(game, { tokens, curtain: false });
}

/** The passed-phone state of `game`, or null when it is not played on a passed phone. */
export function passedPhone(/** @type {string} */ game) {
  try {
    const v = JSON.parse(sessionStorage.getItem(passKey(game)) ?? 'null');
    return v && typeof v.tokens === 'object' ? /** @type {PassedPhone} */ (v) : null;
  } catch {
    return null;
  }
}

/** Store the passed-phone state of `game`. */
export function savePassedPhone(/** @type {string} */ game, /** @type {PassedPhone} */ p) {
  try {
    sessionStorage.setItem(passKey(game), JSON.stringify(p));
  } catch {
    // no storage: the curtain lasts until this page is left
  }
}

/** Fetch the seat tokens of every game of this guest (after a reload on a new device, too). */
export async function refreshSeats() {
  if (!signedIn()) return;
  try {
    const me = await api('GET', '/api/me');
    const seats = { ...(load().seats ?? {}) };
    for (const g of me.games ?? []) seats[g.game] = g.seat_token;
    save({ seats });
    return me;
  } catch {
    return null;
  }
}

/**
 * The one WebSocket of a screen (`/ws`): says hello with the guest token on every (re)open,
 * then lets the screen join what it follows. Reconnects by itself.
 */
export class Live {
  /**
   * @param {(msg: any) => void} onMessage
   * @param {(open: boolean) => void} [onOpen]  after the hello on each (re)connection
   */
  constructor(onMessage, onOpen) {
    this.onMessage = onMessage;
    this.onOpen = onOpen;
    this.closed = false;
    this.retry = 0;
    /** @type {WebSocket|null} */
    this.ws = null;
    this.connect();
  }

  connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      const s = load();
      // a guest shows its token; an account's hello carries none (the upgrade's cookie says who)
      if (s.token) this.send({ t: 'hello', token: s.token });
      else if (s.account) this.send({ t: 'hello' });
      this.onOpen?.(true);
    };
    ws.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      if (this.closed) return;
      this.onOpen?.(false);
      const wait = Math.min(5000, 300 * 2 ** this.retry++);
      setTimeout(() => !this.closed && this.connect(), wait);
    };
  }

  /** Send a message (the protocol version is added). @param {Record<string, any>} msg */
  send(msg) {
    if (this.ws?.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ v: 1, ...msg }));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    this.ws?.close();
  }
}
