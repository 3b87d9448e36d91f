// The client's words, in one catalogue per screen, for translation. (Older screens still
// carry their strings inline; new and reworked ones take them from here.)

/** The first visit: what salpakan is, and a game against the computer in one click. */
export const WELCOME = {
  line1: 'salpakan is a place to play Game of the Generals, Stratego and Banqi: war games where you cannot see your opponent’s pieces.',
  line2: 'A neutral arbiter sees both armies, decides every battle and tells no one more than the rules allow.',
  quickTitle: 'Play the computer now',
  quickHelp: 'One click: a friendly level, the usual rules, no clock.',
  /** @param {string} title */
  quickButton: (title) => title,
  /** @param {string} title */
  quickLabel: (title) => `Play ${title} against the computer`,
  defaultName: 'Guest',
  orName: 'Or choose a name first, to play people too:',
};

/** The replay screen. */
export const REPLAY = {
  title: 'Replay',
  /** @param {string} game */
  heading: (game) => `Replay: ${game}`,
  loading: 'Loading the record…',
  unreadable: 'This record could not be read.',
  notPublished: 'The full record is published when the game ends. Come back then.',
  watch: 'Watch the game',
  ownCopyOnly: 'The full record is published when the game ends (never, for a game played without the final reveal). Until then you can download your own copy: your army and what you saw.',
  downloadOwn: 'Download your copy',
  back: 'Back to the lobby',
  move: 'Move',
  first: 'First',
  previous: 'Previous move',
  next: 'Next move',
  last: 'Last',
  play: 'Play',
  pause: 'Pause',
  flip: 'Flip board',
  download: 'Download record',
  view: 'Show',
  viewFull: 'Everything (full reveal)',
  /** @param {string} seat */
  viewSeat: (seat) => `What ${seat} saw`,
  /** @param {number} n */
  moves: (n) => `Moves (${n})`,
  share: 'Link to this move',
  copied: 'Link copied.',
  startBanqi: 'Start position, every piece face down.',
  startFull: 'Start position, every piece shown.',
  /** @param {string} seat */
  startSeat: (seat) => `Start position, as ${seat} saw it.`,
  /** @param {number} at @param {number} n @param {string} words */
  plyOf: (at, n, words) => `Ply ${at} of ${n}: ${words}`,
  aPiece: 'a piece',
  /** @param {string} who */
  endChain: (who) => `${who} ended the capture chain`,
  /** @param {string} who @param {string} sq @param {string} piece */
  flipped: (who, sq, piece) => `${who} flipped ${sq}: ${piece}`,
  /** @param {string} who @param {string} mover @param {string} path @param {string} target */
  triedFaceDown: (who, mover, path, target) => `${who}: ${mover} ${path} tried a face-down piece: ${target}`,
  /** @param {string} who @param {string} mover @param {string} path @param {string} target */
  captured: (who, mover, path, target) => `${who}: ${mover} ${path} captured ${target}`,
  /** @param {string} who @param {string} mover @param {string} path */
  moved: (who, mover, path) => `${who}: ${mover} ${path}`,
  challenged: 'challenged',
  attacked: 'attacked',
  /** @param {string} piece */
  won: (piece) => `${piece} won`,
  bothRemoved: 'both removed',
  /** @param {string} who @param {string} mover @param {string} path @param {string} verb @param {string} target @param {string} res */
  battle: (who, mover, path, verb, target, res) => `${who}: ${mover} ${path} ${verb} ${target}: ${res}`,
  /** @param {string} seat */
  seatWon: (seat) => `${seat} won`,
  draw: 'Draw',
  unfinished: 'Unfinished',
};
