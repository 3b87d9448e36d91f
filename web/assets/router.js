// Moving between screens without reloading: go(path) pushes a history entry and draws the
// screen for it; each screen says what to do when it is left (close its WebSocket, stop timers).

/** @type {() => void} */
let route = () => {};
/** @type {(() => void)|null} what to do when leaving the current screen */
let leaving = null;

/** The element every screen draws into. */
export const main = /** @type {HTMLElement} */ (document.getElementById('main'));

/** Set the function that draws the screen for the current location. */
export function setRoute(/** @type {() => void} */ fn) {
  route = fn;
}

/** Draw the screen for the current location again (after a language change, a popstate). */
export function redraw() {
  leaving?.();
  leaving = null;
  route();
}

/** Go to a path of the client. */
export function go(/** @type {string} */ path) {
  history.pushState(null, '', path);
  redraw();
}

/** What to do when the current screen is left. */
export function onLeave(/** @type {(() => void)|null} */ fn) {
  leaving = fn;
}

/**
 * A screen may redraw itself in a new language without being left (a game keeps its
 * connection and a setup in progress): null to redraw the whole screen.
 * @type {{relabel: (() => void)|null}}
 */
export const screen = { relabel: null };
