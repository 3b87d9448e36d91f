// salpakan in the browser: the router and start-up. The screens live in their own modules:
// lobby.js (lobby, first visit, challenge links), game.js (setup and play), replay.js,
// rules.js (the rules pages), leaderboard.js, profile.js and moderation.js (ratings and
// reputation; the account dialogs are in account.js); every word comes from the message
// catalogues (i18n.js).

import { replace } from './dom.js';
import { installSprite } from './pieces.js';
import { applyMotion } from './settings.js';
import { rulesGame, rulesPage, rulesTitle } from './rules.js';
import { initLang, T } from './i18n.js';
import { go, main, redraw, setRoute } from './router.js';
import { header } from './header.js';
import { lobbyScreen, challengeScreen } from './lobby.js';
import { gameScreen } from './game.js';
import { replayScreen } from './replay.js';
import { arbiterScreen, tableScreen } from './arbiter.js';
import { leaderboardScreen } from './leaderboard.js';
import { profileScreen } from './profile.js';
import { moderationScreen } from './moderation.js';
import { checkSession } from './account.js';

export { go };

function route() {
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/game\/([\w-]+)$/))) return gameScreen(m[1]);
  if ((m = path.match(/^\/replay\/([\w-]+)$/))) return replayScreen(m[1]);
  if ((m = path.match(/^\/challenge\/([\w-]+)$/))) return challengeScreen(m[1]);
  if ((m = path.match(/^\/arbiter\/([\w-]+)$/))) return tableScreen(m[1]);
  if (path === '/arbiter') return arbiterScreen();
  if ((m = path.match(/^\/leaderboard(?:\/([\w-]+))?\/?$/))) return leaderboardScreen(m[1] ?? 'generals');
  if ((m = path.match(/^\/@\/([^/]+)$/))) return profileScreen(safeDecode(m[1]));
  if (path === '/moderation') return moderationScreen();
  const rules = rulesGame(path);
  if (rules) return rulesScreen(rules);
  return lobbyScreen();
}

/** A path segment decoded (a broken escape is kept as it is). */
function safeDecode(/** @type {string} */ s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** A rules page (rules.js draws it); a #section in the link scrolls there. */
function rulesScreen(/** @type {import('./pieces.js').GameName} */ game) {
  header();
  document.getElementById('nav-rules')?.setAttribute('href', `/rules/${game}`);
  document.title = rulesTitle(game);
  // a link within the page (#section) only scrolls: the page stays as it is (in its language)
  const shown = main.querySelector(`[data-rules="${game}"]`);
  if (!shown || shown.getAttribute('data-lang') !== document.documentElement.lang) {
    const page = rulesPage(game);
    page.dataset.lang = document.documentElement.lang;
    replace(main, page);
  }
  const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
  if (target) target.scrollIntoView();
  else window.scrollTo(0, 0);
}

document.addEventListener('click', (e) => {
  const a = /** @type {Element} */ (e.target).closest('a[data-link]');
  if (a instanceof HTMLAnchorElement && !e.ctrlKey && !e.metaKey && !e.shiftKey && e.button === 0) {
    e.preventDefault();
    go(a.pathname + a.search + a.hash);
  }
});
window.addEventListener('popstate', redraw);

// ---------------------------------------------------------------- start

initLang();
document.querySelector('meta[name="description"]')?.setAttribute('content', T.welcome.nameIntro);
installSprite();
applyMotion();
setRoute(route);
redraw();
// who this browser is, for the account's menu (a session may have ended elsewhere)
checkSession();
