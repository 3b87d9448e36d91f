// A game as one viewer knows it, kept up to date from the server's frames
// (docs/protocol.md: `sync` gives the whole state, each `event` one change, `legal` the moves;
// a `start` or `move` event carries the viewer's whole new observation, so nothing is rebuilt here).

/**
 * @typedef {object} GameState
 * @property {string} game        id
 * @property {string} kind        generals | stratego | banqi
 * @property {Record<string, any>} options
 * @property {Record<string, import('./net.js').Player>} players   names, bots, accounts and ratings
 * @property {boolean} [rated]  a rated game
 * @property {{base:number, inc:number}|null} clock
 * @property {Record<string, any>|null} clocks   seat → ms left, running → seat
 * @property {number} clocksAt    performance.now() when clocks arrived
 * @property {string|null} seat   the viewer's seat, null for a spectator
 * @property {'setup'|'playing'|'ended'} status
 * @property {Record<string, boolean>} setups
 * @property {any} observation
 * @property {any[]} history
 * @property {string|null} to_move
 * @property {Record<string,string>|null} colours
 * @property {string|null} draw_offer
 * @property {string|null} rematch_offer
 * @property {string|null} rematch
 * @property {{winner: string|null, reason: string}|null} result
 * @property {any} reveal
 * @property {string[]} legal
 * @property {{seat: string, name: string, text: string}[]} chat
 * @property {number} ver
 * @property {any} [last]  the last event applied
 */

/** @param {any} frame  a `sync` frame @returns {GameState} */
export function fromSync(frame) {
  const s = frame.state;
  return {
    ...s,
    observation: s.observation ?? null,
    history: s.history ?? [],
    to_move: s.to_move ?? null,
    colours: s.colours ?? s.observation?.colours ?? null,
    clocksAt: performance.now(),
    legal: [],
    chat: s.chat ?? [],
    ver: frame.ver,
  };
}

/**
 * Apply one event (frame.e) to the state, in place.
 * @param {GameState} st
 * @param {any} e
 */
export function applyEvent(st, e) {
  st.last = e;
  switch (e.type) {
    case 'setup':
      st.setups = { ...st.setups, [e.seat]: true };
      break;
    case 'start':
      st.status = 'playing';
      st.observation = e.observation;
      st.to_move = e.to_move;
      setClocks(st, e.clocks);
      break;
    case 'move':
      // the server sends the recipient's whole observation after each ply
      st.observation = e.observation;
      st.history = [...st.history, e.view];
      st.to_move = e.to_move;
      if (e.colours) st.colours = e.colours;
      st.legal = [];
      st.draw_offer = null;
      setClocks(st, e.clocks);
      break;
    case 'draw_offer':
      st.draw_offer = e.seat;
      break;
    case 'draw_decline':
      st.draw_offer = null;
      break;
    case 'rematch_offer':
      st.rematch_offer = e.seat;
      break;
    case 'rematch':
      st.rematch = e.game;
      break;
    case 'chat':
      st.chat = [...st.chat, { seat: e.seat, name: e.name, text: e.text }];
      break;
    case 'end':
      st.status = 'ended';
      st.result = e.result;
      st.reveal = e.reveal;
      st.legal = [];
      st.to_move = null;
      st.draw_offer = null;
      setClocks(st, e.clocks);
      if (e.reveal?.observation && st.options?.reveal_at_end !== false) st.observation = e.reveal.observation;
      else if (st.observation) st.observation.result = e.result;
      break;
    default:
      break;
  }
}

/** @param {GameState} st @param {any} clocks */
function setClocks(st, clocks) {
  if (clocks !== undefined) {
    st.clocks = clocks;
    st.clocksAt = performance.now();
  }
}
