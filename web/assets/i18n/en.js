// The client's words in English: the reference catalogue. Every other language (fil.js,
// zh-Hant.js) has exactly these keys (checked by web/tests/i18n.test.mjs and by the type
// checker: each is typed as this catalogue). Functions build sentences that hold numbers or
// names, so that each language can order and inflect them its own way.

/** The first letter in capitals (a sentence's start). */
const upper = (/** @type {string} */ s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

const en = {
  /** The language's own name in the picker, and the picker's label. */
  lang: { name: 'English', label: 'Language' },

  app: {
    /** @param {string} page */
    title: (page) => `salpakan · ${page}`,
    brandLabel: 'salpakan, lobby',
    notConnected: 'Not connected: reconnecting…',
    /** @param {number} status */
    serverAnswered: (status) => `The server answered ${status}.`,
    refused: 'Refused.',
  },

  nav: { lobby: 'Lobby', rules: 'Rules', you: 'Your name', settings: 'Settings', leaderboard: 'Leaderboard' },

  settings: {
    title: 'Settings',
    sound: 'Sound',
    soundHelp: 'Short tones for moves, battles and the end of a game (off unless you turn it on).',
    motion: 'Animations',
    motionHelp: 'Battles and moves are animated (never when your device asks for reduced motion).',
    done: 'Done',
  },

  /** Seats and colours as the board names them. */
  seats: { white: 'White', black: 'Black', red: 'Red', blue: 'Blue', first: 'First player', second: 'Second player' },
  colours: { red: 'Red', black: 'Black', white: 'White', blue: 'Blue' },

  pieces: {
    generals: {
      '5G': 'General of the Army', '4G': 'General', '3G': 'Lieutenant General', '2G': 'Major General', '1G': 'Brigadier General',
      COL: 'Colonel', LTC: 'Lieutenant Colonel', MAJ: 'Major', CPT: 'Captain', '1LT': '1st Lieutenant', '2LT': '2nd Lieutenant',
      SGT: 'Sergeant', PVT: 'Private', SPY: 'Spy', FLG: 'Flag',
    },
    stratego: {
      '10': 'Marshal', '9': 'General', '8': 'Colonel', '7': 'Major', '6': 'Captain', '5': 'Lieutenant', '4': 'Sergeant',
      '3': 'Miner', '2': 'Scout', S: 'Spy', B: 'Bomb', F: 'Flag',
    },
    /** Banqi pieces by kind (lower case code), without their colour. */
    banqi: { k: 'General', g: 'Advisor', m: 'Elephant', r: 'Chariot', n: 'Horse', c: 'Cannon', p: 'Soldier' },
    /** Banqi pieces with their colour (each colour has its own character). */
    banqiColoured: {
      K: 'Red General', G: 'Red Advisor', M: 'Red Elephant', R: 'Red Chariot', N: 'Red Horse', C: 'Red Cannon', P: 'Red Soldier',
      k: 'Black General', g: 'Black Advisor', m: 'Black Elephant', r: 'Black Chariot', n: 'Black Horse', c: 'Black Cannon', p: 'Black Soldier',
    },
  },

  /** Each game's name and options, as the forms and summaries show them. */
  games: {
    generals: {
      title: 'Game of the Generals',
      options: {
        army: { label: 'Army', help: 'How many pieces each player sets up: the reduced army makes a shorter game.', choices: { full: 'Full (21 pieces)', reduced: 'Reduced (11 pieces)' } },
        flag_rule: { label: 'When a Flag reaches the far row', help: 'A Flag that walks to the other side wins, unless the opponent can still take it.', choices: { adjacent: 'Wins unless an enemy is beside it', one_turn: 'Opponent always gets one turn', electronic: 'Wins at once' } },
        reveal: { label: 'What a challenge shows', help: 'Officially the arbiter only says which piece was removed, never the ranks.', choices: { none: 'Nothing (official)', winner: 'The winner’s rank', both: 'Both ranks' } },
        first: { label: 'Who moves first', help: 'The colour that makes the first move of the game.', choices: { white: 'White', black: 'Black' } },
        open_flag: { label: 'Show both Flags', help: 'Each player can see where the other’s Flag stands.', choices: {} },
        reveal_at_end: { label: 'Show all pieces at the end', help: 'When the game is over, both armies are turned face up.', choices: {} },
      },
    },
    stratego: {
      title: 'Stratego',
      options: {
        army: { label: 'Army', help: 'Classic is the full game; Barrage and Duel are quick games with few pieces. Ultimate Lightning (Gravon): 20 pieces; equal ranks: the attacker wins; a Bomb goes with the piece it stops; Scouts defuse Bombs; Captains move two squares; reaching the enemy back rank rescues a captured piece (twice a game).', choices: { classic: 'Classic (40 pieces)', barrage: 'Barrage (8 pieces)', duel: 'Duel (10 pieces)', ultimate_lightning: 'Ultimate Lightning (20 pieces)' } },
        scout_strike: { label: 'Scouts may run and attack', help: 'A Scout may run several squares in a line and attack at the end of its run.', choices: {} },
        chase_rule: { label: 'No endless chasing', help: 'A piece may not chase the same enemy piece round and round for ever.', choices: {} },
        two_square_limit: { label: 'Limit on moving back and forth', help: 'How often a piece may move back and forth between the same two squares.', choices: { 3: 'At most three times', 5: 'At most five times', off: 'No limit' } },
      },
    },
    banqi: {
      title: 'Banqi',
      options: {
        ruleset: { label: 'Rules', help: 'Regional rule sets differ in how cannons capture and which pieces may take which.', choices: { taiwan: 'Taiwan (cannons jump)', hongkong: 'Hong Kong', mainland: 'Mainland' } },
        capture_face_down: { label: 'Capture face-down pieces', help: 'A piece may attack a piece that is still face down, turning it up.', choices: {} },
        chain_captures: { label: 'Several captures in one turn', help: 'After a capture the same piece may capture again, or stop.', choices: {} },
        cannon_direct: { label: 'Cannons also capture next door', help: 'A cannon may also take a piece beside it, without jumping.', choices: {} },
      },
    },
    /** @param {string} label @param {boolean} on */
    switchSummary: (label, on) => `${label}: ${on ? 'on' : 'off'}`,
    /** @param {string} label @param {string} value */
    valueSummary: (label, value) => `${label}: ${value}`,
  },

  /** The first visit: what salpakan is, and a game against the computer in one click. */
  welcome: {
    tagline: 'Hidden-piece war games, played fair.',
    line1: 'salpakan is a place to play Game of the Generals, Stratego and Banqi: war games where you cannot see your opponent’s pieces.',
    line2: 'A neutral arbiter sees both armies, decides every battle and tells no one more than the rules allow.',
    quickTitle: 'Play the computer now',
    quickHelp: 'One click: a friendly level, the usual rules, no clock.',
    /** @param {string} title */
    quickLabel: (title) => `Play ${title} against the computer`,
    defaultName: 'Guest',
    orName: 'Or choose a name first, to play people too:',
    nameTitle: 'Welcome',
    nameIntro: 'Play Game of the Generals, Stratego and Banqi with a neutral arbiter that sees both armies and tells no secrets.',
    nameLabel: 'Your name',
    namePlaceholder: 'e.g. Ana',
    continue: 'Continue',
    haveAccount: 'Have an account?',
  },

  lobby: {
    title: 'Lobby',
    heading: 'salpakan lobby',
    seeks: 'Open seeks',
    live: 'Live games',
    mine: 'Your games',
    recent: 'Recent games',
    noRecent: 'Finished games appear here, to replay.',
    noMine: 'Games you play appear here.',
    noSeeks: 'No open seeks. Create one!',
    noGames: 'No games in progress.',
    cancel: 'Cancel',
    accept: 'Accept',
    /** @param {string} who @param {string} game */
    acceptLabel: (who, game) => `Accept ${who}'s ${game} seek`,
    /** @param {string[]} names */
    versus: (names) => names.join(' vs '),
    settingUp: 'setting up',
    replay: 'Replay',
    play: 'Play',
    watch: 'Watch',
    newGame: 'New game',
    game: 'Game',
    /** @param {string} title */
    howToPlay: (title) => `How to play ${title}`,
    /** @param {string} label */
    moreAbout: (label) => `More about “${label}”`,
    more: 'More',
    timeControl: 'Time control',
    minutes: 'Minutes',
    increment: 'Increment (s)',
    strength: 'Computer strength',
    createSeek: 'Create seek',
    challengeFriend: 'Challenge a friend',
    playComputer: 'Play the computer',
    seekCreated: 'Seek created: waiting for an opponent.',
    rated: 'Rated',
    casual: 'Casual',
    needAccount: 'Only for players with an account.',
    /** @param {number} n */
    needCompletion: (n) => `Only for players who finish at least ${n}% of their games (known after 5 games).`,
    /** @param {number|null} lo @param {number|null} hi */
    needRating: (lo, hi) => (lo != null && hi != null ? `Only for ratings from ${lo} to ${hi}.` : lo != null ? `Only for ratings of ${lo} or more.` : `Only for ratings up to ${hi}.`),
    /** @param {string} board */
    ratingTitle: (board) => `Rating in ${board} (? while provisional)`,
    completionTitle: 'Games finished by play, not abandoned',
    /** @param {number} n */
    completion: (n) => `${n}% finished`,
    /** @param {number} n */
    minCompletionShort: (n) => `${n}%+ finished`,
    /** @param {number|null} lo @param {number|null} hi */
    rangeShort: (lo, hi) => `rating ${lo ?? '…'}–${hi ?? '…'}`,
    anyone: 'Any share',
    opponents: 'Rated or casual, and who may accept',
    ratedSwitch: 'Rated game',
    ratedHelp: 'Both ratings change. Rated games are between accounts, with a clock and the usual rules.',
    ratedNeedsAccount: 'Rated games need an account.',
    minCompletion: 'Games the opponent finishes',
    ratingFrom: 'Rating from',
    ratingTo: 'to',
    rangeHelp: 'Leave empty for any rating. The computer plays anyone.',
  },

  clock: {
    none: 'No clock',
    custom: 'Custom…',
    /** @param {number} min @param {number} inc */
    control: (min, inc) => `${min} min${inc ? ` + ${inc} s` : ''}`,
  },

  /** The computer's strength levels (the bots of GET /api/bots, weakest first). */
  levels: {
    words: ['Beginner', 'Easy', 'Medium', 'Hard', 'Expert', 'Master', 'Grandmaster'],
    /** @param {number} n @param {string} word */
    name: (n, word) => `Level ${n} · ${word}`,
    random: 'Plays any legal move at random: good for learning the rules.',
    greedy: 'Takes whatever it can at once, but never plans ahead.',
    /** @param {number} ms @param {'strong'|'solid'|'quick'} kind */
    mcts: (ms, kind) => `Plays out many possible games before each move (thinks ${ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`} a move): ${{ strong: 'a strong opponent', solid: 'a solid opponent', quick: 'quick, but sees traps' }[kind]}.`,
    /** @param {string} bot */
    other: (bot) => `The computer player “${bot}”.`,
  },

  challenge: {
    title: 'Challenge',
    needName: 'You have been challenged to a game. Choose a name to accept.',
    loading: 'Loading the challenge…',
    heading: 'Challenge a friend',
    /** @param {string} game @param {string} clock */
    sendLink: (game, clock) => `Send this link to your opponent. The game (${game}, ${clock}) starts when they open it and accept.`,
    link: 'Link',
    copy: 'Copy',
    copied: 'Link copied.',
    waiting: 'Waiting for your opponent…',
    cancel: 'Cancel challenge',
    /** @param {string} who */
    challengesYou: (who) => `${who} challenges you`,
    accept: 'Accept',
    decline: 'Decline',
    closed: 'This challenge is no longer open.',
    back: 'Back to the lobby',
  },

  /** Why a game ended, as a phrase after "… won". */
  reasons: {
    flag_captured: 'by capturing the Flag', flag_reached: 'with the Flag on the far rank', resignation: 'by resignation', agreement: 'by agreement',
    time: 'on time', abandonment: 'by abandonment', forfeit: 'by forfeit', quiet_plies: 'after too many moves without a capture', no_legal_moves: 'as no legal move was left',
    no_moves: 'as no movable piece was left', no_pieces_left: 'as no pieces were left', repetition: 'by repetition', both_no_moves: 'as neither side could move',
  },

  game: {
    connecting: 'Connecting…',
    offline: 'Connection lost: reconnecting…',
    notFound: 'Game not found',
    noSuchGame: 'There is no such game.',
    checkLink: 'Check the link, or start a new game from the lobby.',
    back: 'Back to the lobby',
    /** @param {string} title */
    board: (title) => `${title} board`,
    /** @param {string} name */
    won: (name) => `${name} won`,
    draw: 'Draw',
    youWon: 'You won!',
    youLost: 'You lost',
    nobodyWon: 'Nobody won',
    /** @param {string} name @param {string} side */
    wonAs: (name, side) => `${name} (${side}) won`,
    /** @param {string} who @param {string} why */
    resultLine: (who, why) => `${who}${why ? ' ' + why : ''}.`,
    chainHint: 'Your piece may capture again, or you can stop here.',
    endChain: 'End capture chain',
    rescueTitle: 'Rescue',
    rescueText: 'Your piece reaches the enemy’s back rank: you may bring back one of your captured pieces onto an empty square of your half (if your piece wins its attack).',
    rescuePiece: 'Piece to rescue',
    rescueSquare: 'Square to put it on',
    pieceLabel: 'Piece',
    squareLabel: 'Square',
    rescue: 'Rescue',
    noRescue: 'No rescue',
    /** @param {string} title @param {string} seat */
    setupHead: (title, seat) => `${title}: you play ${seat}`,
    /** @param {string} who @param {string} clock */
    against: (who, clock) => `Against ${who} · ${clock}`,
    notConnectedRetry: 'Not connected: try again in a moment.',
    /** @param {string} who @param {boolean} ready */
    opponentSetup: (who, ready) => `${who} ${ready ? 'is ready.' : 'is still setting up…'}`,
    bot: 'bot',
    colourUnknown: 'colour not yet known',
    you: ' (you)',
    /** @param {string} seat @param {string[]} pieces */
    lost: (seat, pieces) => `${seat}’s lost pieces: ${pieces.length ? pieces.join(', ') : 'none'}`,
    unknown: 'unknown',
    youWonStatus: 'You won',
    ready: 'Ready. Waiting for your opponent’s setup…',
    settingUp: 'The players are setting up.',
    yourMove: 'Your move.',
    /** @param {string} who */
    toMove: (who) => `${who} to move.`,
    /** @param {string} who */
    watching: (who) => `Watching · ${who} to move.`,
    drawOffered: 'Draw offered.',
    acceptDraw: 'Accept draw',
    decline: 'Decline',
    youOfferedDraw: 'Draw offered',
    offerDraw: 'Offer draw',
    resign: 'Resign',
    resignConfirm: 'Resign this game?',
    toRematch: 'Go to the rematch',
    acceptRematch: 'Accept rematch',
    rematchOffered: 'Rematch offered',
    rematch: 'Rematch',
    replay: 'Replay',
    download: 'Download record',
    moves: 'Moves',
    /** @param {number} n */
    movesCount: (n) => `Moves (${n})`,
    sayHi: 'Say something',
    playersOnly: 'Chat (players only)',
    chat: 'Chat',
    chatMessage: 'Chat message',
    send: 'Send',
    rated: 'Rated',
    casual: 'Casual',
    rating: 'Rating (? while provisional)',
    ratingChange: 'Rating change in this game',
    ratingChanges: 'Rating changes',
    yourRating: 'Your rating',
    /** @param {string} before @param {string} after */
    ratingMove: (before, after) => `${before} → ${after}`,
    kudos: 'Good game!',
    kudosGiven: 'Good game given',
    kudosSent: 'You thanked your opponent for a good game.',
    /** @param {string} name */
    report: (name) => `Report ${name}`,
  },

  /** Lines of the move list and the notices, in each game's own words. */
  plies: {
    you: 'You',
    aPiece: 'a piece',
    /** @param {string} who @param {string} sq @param {string} piece */
    flipped: (who, sq, piece) => `${who} flipped ${sq}: ${piece}`,
    /** @param {string} who @param {string} piece @param {string} move @param {string} taken */
    captured: (who, piece, move, taken) => `${who}: ${piece} ${move} captured ${taken}`,
    /** @param {string} who @param {string} move @param {string} piece */
    tried: (who, move, piece) => `${who} tried ${move}, turning up ${piece}`,
    /** @param {string} who */
    endChain: (who) => `${who} ended the capture chain`,
    /** @param {string} who @param {string} piece @param {string} move */
    moved: (who, piece, move) => `${who}: ${piece ? piece + ' ' : ''}${move}`,
    /** @param {string} piece @param {string} sq */
    rescued: (piece, sq) => `; rescued ${piece} to ${sq}`,
    challenged: 'challenged',
    attacked: 'attacked',
    /** @param {string} piece */
    won: (piece) => `${upper(piece)} won`,
    bothRemoved: 'both removed',
    /** @param {string} who @param {string} move @param {string} attacker @param {string} verb @param {string} defender @param {string} result */
    battle: (who, move, attacker, verb, defender, result) => `${who}: ${move}, ${attacker} ${verb} ${defender}: ${result}`,
  },

  /**
   * The battle announcement at the square. Only what this viewer's view of the ply carries
   * is named: a rank the arbiter keeps secret is never filled in.
   */
  battle: {
    /** Generals, in the official words: who was eliminated. */
    generals: {
      /** @param {string} piece */
      yourEliminated: (piece) => `Your ${piece} was eliminated.`,
      yourPieceEliminated: 'Your piece was eliminated.',
      /** @param {string} piece */
      theirEliminated: (piece) => `The enemy ${piece} was eliminated.`,
      theirPieceEliminated: 'The challenged piece was eliminated.',
      attackerEliminated: 'The attacker was eliminated.',
      defenderEliminated: 'The defender was eliminated.',
      bothEliminated: 'Both eliminated.',
      /** @param {string} piece */
      bothWith: (piece) => `Both eliminated: your ${piece} and the enemy piece.`,
      /** @param {string} seat @param {string} sq */
      spectator: (seat, sq) => `${seat} challenged on ${sq}.`,
    },
    /** Stratego: both ranks are shown to everyone. */
    stratego: {
      /** @param {string} att @param {string} def */
      attackerWins: (att, def) => `${upper(att)} takes ${def}.`,
      /** @param {string} att @param {string} def */
      defenderWins: (att, def) => `${upper(def)} stops ${att}.`,
      /** @param {string} att @param {string} def */
      both: (att, def) => `${upper(att)} and ${def}: both removed.`,
      /** @param {string} piece */
      your: (piece) => `your ${piece}`,
      /** @param {string} piece */
      theirs: (piece) => `the enemy ${piece}`,
      /** @param {string} seat @param {string} piece */
      seats: (seat, piece) => `${seat}’s ${piece}`,
    },
    /** Banqi captures, in the open. */
    banqi: {
      /** @param {string} piece @param {string} taken */
      capture: (piece, taken) => `${piece} captures ${taken}.`,
      /** @param {string} piece */
      turnedUp: (piece) => `Turned up: ${piece}.`,
    },
  },

  /** The end screen over the board. */
  end: {
    youWon: 'You won!',
    youLost: 'You lost',
    draw: 'Draw',
    /** @param {string} name */
    won: (name) => `${name} won`,
    /** the reason, in a full sentence for the end screen @type {Record<string, (winner: string, loser: string) => string>} */
    why: {
      flag_captured: (w, l) => `${w} captured ${l}’s Flag.`,
      flag_reached: (w) => `${w}’s Flag reached the far row and could not be stopped.`,
      resignation: (w, l) => `${l} resigned.`,
      agreement: () => 'The players agreed to a draw.',
      time: (w, l) => `${l} ran out of time.`,
      abandonment: (w, l) => `${l} left the game.`,
      forfeit: (w, l) => `${l} forfeited the game.`,
      quiet_plies: () => 'Too many moves without a capture or a flip.',
      no_legal_moves: (w, l) => `${l} had no legal move left.`,
      no_moves: (w, l) => `${l} had no piece left that could move.`,
      no_pieces_left: (w, l) => `${l} had no pieces left.`,
      repetition: () => 'The same position came back too often.',
      both_no_moves: () => 'Neither side could move.',
    },
    /** @param {string} reason */
    otherReason: (reason) => `Reason: ${reason}.`,
    revealed: 'Every piece is now shown face up on the board.',
    notRevealed: 'This game keeps its armies hidden at the end: you see only what you saw while playing.',
    showBoard: 'Show the board',
    title: 'Game over',
  },

  setup: {
    title: 'Set up your army',
    hint: 'Drag pieces onto the highlighted ranks, or tap a piece and then a square. Your setup stays secret.',
    keys: 'Keyboard: Tab to the pieces, Enter picks one; Shift+Tab back to the board, arrow keys and Enter place it.',
    tray: 'Pieces to place (arrow keys choose, Enter picks)',
    ready: 'Ready',
    random: 'Random',
    botSetup: 'Bot setup',
    clear: 'Clear',
    save: 'Save',
    library: 'Saved setups',
    /** @param {string} piece @param {number} n */
    toPlace: (piece, n) => `${piece}: ${n} to place`,
    allPlaced: 'All pieces placed.',
    /** @param {number} placed @param {number} total */
    placed: (placed, total) => `${placed} of ${total} pieces placed.`,
    ownRanks: 'Place your pieces on your own highlighted ranks.',
    placeFirst: 'Place some pieces first.',
    /** @param {number} n */
    setupName: (n) => `Setup ${n}`,
    /** @param {string} name */
    savedAs: (name) => `Saved as “${name}”.`,
    noSaved: 'No saved setups for this army yet. Arrange one and press Save.',
    /** @param {string} name */
    use: (name) => `Use ${name}`,
    useShort: 'Use',
    /** @param {string} name */
    delete: (name) => `Delete ${name}`,
    deleteShort: 'Delete',
  },

  /** The board's labels for screen readers. */
  squares: {
    /** @param {string} sq */
    lake: (sq) => `${sq}, lake`,
    /** @param {string} sq */
    empty: (sq) => `${sq}, empty`,
    /** @param {string} sq */
    faceDown: (sq) => `${sq}, face-down piece`,
    /** @param {string} sq @param {string} side */
    unknown: (sq, side) => `${sq}, ${side ? side + ' ' : ''}piece, rank unknown`,
    /** @param {string} sq @param {string} side @param {string} piece */
    piece: (sq, side, piece) => `${sq}, ${side ? side + ' ' : ''}${piece}`,
  },

  /** The replay screen. */
  analysis: {
    title: 'Analysis',
    about: 'The strongest computer player judges every position from what each player could know at that moment.',
    analyse: 'Analyse',
    queued: 'Waiting for the server to start the analysis…',
    running: 'The server is analysing the game…',
    /** @param {string} why */
    failed: (why) => `The analysis failed: ${why}`,
    /** @param {number} plies @param {number} samples */
    done: (plies, samples) => `Analysed ${plies} moves (${samples} sampled positions a move).`,
    graphTitle: 'Chance of winning over the moves',
    /** @param {string} seat @param {number} first @param {number} last @param {number} lo @param {number} hi */
    graphSummary: (seat, first, last, lo, hi) => `${seat}: ${first}% at the start, ${last}% after the last move (lowest ${lo}%, highest ${hi}%).`,
    turningPoints: 'Turning points',
    /** @param {number} ply @param {string} seat @param {number} before @param {number} after */
    turn: (ply, seat, before, after) => `Ply ${ply}: ${seat} ${before}% → ${after}%`,
    heat: 'Show what this player believed about the hidden pieces',
    heatNeedsSeat: 'Choose one player’s view to see what that player believed.',
    /** @param {string} piece @param {number} p */
    belief: (piece, p) => `${piece}: ${p}% likely`,
  },

  replay: {
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
    movesList: 'Moves',
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
    /** @param {string} a @param {string} b */
    players: (a, b) => `${a} vs ${b}`,
  },

  /** The rules pages: words every page shares, then each game's own. */
  rules: {
    common: {
      /** @param {string} game */
      heading: (game) => `Rules: ${game}`,
      /** @param {string} game */
      pageTitle: (game) => `salpakan · Rules of ${game}`,
      contents: 'On this page',
      otherGames: 'Rules of the other games',
      piecesTable: 'The pieces, strongest first',
      colPiece: 'Piece',
      colCount: 'Count',
      colNotes: 'What it does',
      takes: 'takes',
      optionDefault: 'Default',
      playCta: 'Play this game',
      matrixSummary: 'Every challenge at a glance',
      matrixCaption: 'Row: the piece that challenges. Column: the piece challenged.',
      /** What each cell's symbol means, read to screen readers. */
      matrixCells: { A: 'challenger wins', D: 'challenger eliminated', B: 'both eliminated' },
      matrixLegend: '✓ the challenger eliminates the piece challenged · ✗ the challenger is eliminated · = both are eliminated',
      sections: { aim: 'The aim', board: 'The board', pieces: 'The pieces', challenge: 'Challenges', end: 'How the game ends', options: 'Options' },
    },
    generals: {
      lead: 'A Filipino war game for two players (also called Salpakan). You see your own pieces; of the enemy you only see where they stand. A neutral arbiter decides every fight and tells nobody the ranks.',
      headings: { challenge: 'Challenges' },
      aim: [
        'Capture the enemy Flag, or bring your own Flag to the far side of the board.',
        'You never see the ranks of the enemy pieces. You learn about them only from who wins each fight.',
      ],
      board: [
        'The board has 9 columns (a to i) and 8 rows (1 to 8). White sets up on rows 1 to 3 and Black on rows 6 to 8.',
        'Before the game each player places all 21 pieces anywhere in their own three rows, face towards themselves. The two rows in the middle start empty.',
      ],
      pieces: [
        'Each army has 21 pieces: 15 ranks, from the five-star General of the Army down to the Private, plus the Spy and the Flag.',
        'Every piece, the Flag too, moves one square forward, backward or sideways, never diagonally and never onto one of its own pieces.',
      ],
      challenge: ['Moving onto an enemy piece is a challenge. The arbiter looks at both pieces and removes the loser:'],
      challengeList: [
        'The higher rank eliminates the lower.',
        'The Spy eliminates every officer and the Sergeant, but a Private eliminates the Spy.',
        'Any piece eliminates the Flag. If two Flags meet, the one that moved wins.',
        'Two pieces of the same rank are both eliminated.',
        'The winner stays on, or moves into, the square.',
        'The arbiter only says which piece was removed (the attacker, the defender or both), never the ranks: after a fight you still do not know what beat you. Options can show the winner’s rank or both ranks.',
      ],
      endList: [
        'You win when you capture the enemy Flag, or when the enemy Flag challenges a piece and is eliminated.',
        'You win when your Flag reaches the far row (row 8 for White, row 1 for Black) and no enemy piece stands right beside it. If an enemy piece is beside it, the opponent gets one turn to challenge it; if they do not, you win.',
        'A player may resign, offer a draw, or lose on time when a clock is used.',
        'At the end both armies are shown face up.',
      ],
      boardCaption: 'The Game of the Generals board: 9 columns and 8 rows; White sets up on the three bottom rows, Black on the three top rows.',
      notes: {
        '5G': 'Five stars: the highest rank. Only the Spy can eliminate it.',
        '4G': 'Four stars.', '3G': 'Three stars.', '2G': 'Two stars.', '1G': 'One star.',
        COL: 'Three suns.', LTC: 'Two suns.', MAJ: 'One sun.',
        CPT: 'Three triangles.', '1LT': 'Two triangles.', '2LT': 'One triangle.',
        SGT: 'Three chevrons: the lowest officer rank.',
        PVT: 'One chevron: loses to everyone except the Spy and the Flag.',
        SPY: 'Eliminates every officer and the Sergeant, but loses to a Private.',
        FLG: 'Lose it and you lose the game. It can move, and can win by reaching the far row.',
      },
      ladders: ['From the highest rank to the lowest: each piece takes the ones after it.'],
      beatsCaption: 'The exceptions',
      beats: [
        'The Spy eliminates every officer, even the General of the Army, and the Sergeant.',
        'The Private is the only piece that eliminates the Spy.',
        'Every piece eliminates the Flag, even a Private.',
        'Equal ranks: both pieces are eliminated.',
      ],
      optionsIntro: 'When you create a game you can change these rules. The first choice of each is the usual one.',
      options: {
        army: 'Full: each player has the 21 pieces above. Reduced: 11 pieces (the General of the Army, the General, the Lieutenant General, the Brigadier General, a Colonel, a Captain, a 1st Lieutenant, two Privates, a Spy and the Flag) for a shorter game.',
        flag_rule: 'What happens when a Flag reaches the far row. “Wins unless an enemy is beside it” (the usual rule): it wins at once, unless an enemy piece stands right next to it, then the opponent gets one turn to challenge it. “Opponent always gets one turn”: the opponent always gets that turn. “Wins at once”: the Flag wins the moment it arrives, as on the electronic board.',
        reveal: 'What everyone learns from a challenge. “Nothing” (the official rule): only which piece was removed. “The winner’s rank”: the rank of the piece that survives is shown. “Both ranks”: both pieces are shown. A rank once shown stays known.',
        first: 'Which colour makes the first move.',
        open_flag: 'Each player sees where the other’s Flag stands from the start.',
        reveal_at_end: 'When the game is over, every piece of both armies is turned face up for everyone.',
      },
    },
    stratego: {
      lead: 'A war game for two players. You see your own army; the enemy’s pieces stand with their backs to you until they fight. Every fight shows both pieces.',
      headings: { challenge: 'Attacks' },
      aim: ['Capture the enemy Flag, or leave the enemy without a move.'],
      board: [
        'The board has 10 columns (a to j) and 10 rows. Red sets up on rows 1 to 4 and Blue on rows 7 to 10; Red moves first.',
        'Two lakes in the middle (c5, d5, c6, d6 and g5, h5, g6, h6) can never be entered or crossed.',
      ],
      pieces: [
        'Each army has 40 pieces. Pieces move one square forward, backward or sideways, never diagonally and never onto one of their own.',
        'Bombs and the Flag never move. A Scout may run any number of empty squares in a straight line, like a rook in chess, but never over a piece or a lake.',
      ],
      challenge: ['Moving onto an enemy piece is an attack. Both pieces are turned face up for both players, and:'],
      challengeList: [
        'The higher rank wins and the loser is removed. If the attacker wins, it moves into the square.',
        'Equal ranks: both pieces are removed.',
        'The Spy wins when it attacks the Marshal; if the Marshal attacks first, the Spy loses.',
        'Any piece that attacks a Bomb is removed, except the Miner, which defuses it.',
        'Any piece that attacks the Flag captures it and wins the game.',
        'A piece that survived a fight stays known to the opponent. A Scout that runs more than one square shows that it is a Scout.',
      ],
      endList: [
        'You win when you capture the enemy Flag.',
        'A player who cannot make any move (only Bombs and the Flag left, or every move forbidden) loses. If neither player can move, it is a draw.',
        'A player may resign, offer a draw, or lose on time when a clock is used.',
      ],
      boardCaption: 'The Stratego board: 10 columns and 10 rows with two lakes in the middle; Red sets up on the four bottom rows, Blue on the four top rows.',
      notes: {
        '10': 'The strongest piece. Loses only to a Bomb, and to the Spy when the Spy attacks it.',
        '9': 'Second strongest.',
        '3': 'Weak in a fight, but the only piece that can defuse a Bomb.',
        '2': 'Runs any distance in a straight line: the army’s eyes.',
        S: 'The weakest piece, but takes the Marshal when it attacks first.',
        B: 'Never moves. Removes every attacker except a Miner.',
        F: 'Never moves. Lose it and you lose the game.',
      },
      ladders: ['From the highest rank to the lowest: each piece takes the ones after it.'],
      beatsCaption: 'The exceptions',
      beats: [
        'The Spy takes the Marshal, but only when the Spy attacks.',
        'Only a Miner defuses a Bomb; every other attacker is removed.',
        'A Bomb removes any other attacker, even the Marshal. The Bomb stays.',
        'Any piece captures the Flag, and the game is won.',
      ],
      optionsIntro: 'When you create a game you can change these rules. The first choice of each is the usual one.',
      options: {
        army: 'Classic: the 40 pieces above. Barrage: 8 pieces (Marshal, General, Miner, two Scouts, Spy, Bomb and Flag). Duel: 10 pieces (Marshal, General, two Miners, two Scouts, Spy, two Bombs and Flag). Barrage and Duel are quick games. Ultimate Lightning (as played on Gravon): 20 pieces (Marshal, General, Colonel, Major, two Captains, two Lieutenants, two Sergeants, two Miners, four Scouts, Spy, two Bombs and Flag) and five extra rules: with equal ranks the attacker wins; a Bomb is removed together with the piece it stops; Scouts, not Miners, defuse Bombs; a Captain may move two squares (straight, or turning once); and a piece other than a Scout that reaches the enemy’s back row may bring back one of your captured pieces onto an empty square of your half, at most twice a game.',
        scout_strike: 'On: a Scout may run several squares and attack the enemy piece at the end of its run. Off: a Scout attacks only a piece right next to it.',
        chase_rule: 'On: a piece may not chase the same enemy piece round and round for ever. The chaser may not bring about a position that already happened during the chase; the chased piece is never restricted.',
        two_square_limit: 'How many times in a row a piece may move back and forth between the same two squares: at most three (the modern rule), at most five (the older rule), or no limit. A player left with no other move loses.',
      },
    },
    banqi: {
      lead: 'A Chinese game (Dark Chess, Half Chess) for two players on half a xiangqi board. Every piece starts face down, so neither player knows where anything is.',
      headings: { challenge: 'Captures' },
      aim: ['Capture every piece of the other colour, or leave the other player without a move.'],
      board: [
        'The board has 4 columns (a to d) and 8 rows. All 32 pieces, 16 red and 16 black, are shuffled and laid face down, one on every square.',
        'Nobody, not even the players, knows which piece is where until it is turned up.',
      ],
      pieces: [
        'On your turn you do one thing: turn up any face-down piece, move one of your face-up pieces one square forward, backward or sideways to an empty square, or capture with it.',
        'The first piece turned up decides the colours: the player who turned it plays that colour. You may only move and capture with face-up pieces of your own colour.',
      ],
      challenge: ['A piece captures an enemy piece next to it that is of equal or lower rank, by moving onto it. Under the usual (Taiwan) rules:'],
      challengeList: [
        'The General cannot capture Soldiers, and Soldiers can capture the General.',
        'The Cannon captures any piece, the General included, but only by jumping over exactly one piece (of either colour, face up or down) along a row or column; it cannot capture a piece right next to it. It moves like the others, one square to an empty square.',
        'Any piece except a Soldier captures a Cannon.',
        'Face-down pieces cannot be captured. Every turn is seen by both players: there is nothing hidden except the face-down pieces.',
      ],
      endList: [
        'You win when the other player has no pieces of their colour left on the board, face up or face down.',
        'A player with nothing to do (no piece to turn up, no move, no capture) loses.',
        'After 50 turns in a row with no piece turned up and no capture, the game is a draw.',
        'A player may resign, offer a draw, or lose on time when a clock is used.',
      ],
      boardCaption: 'The Banqi board: 4 columns and 8 rows, one face-down piece on every square; here three pieces have been turned up.',
      notes: {
        K: 'The highest rank, but cannot capture Soldiers, and Soldiers capture it.',
        C: 'Captures by jumping over exactly one piece, any rank.',
        P: 'The lowest rank, but captures the General.',
      },
      ladders: [
        'Taiwan rules (the usual): each piece takes the ones after it; the Cannon stands outside the row.',
        'Hong Kong rules: no jumps, every piece captures next to it; Soldiers capture the General, the General cannot capture Soldiers.',
        'Mainland rules: no jumps; the General and the Soldier capture each other.',
      ],
      beatsCaption: 'The exceptions (Taiwan rules)',
      beats: [
        'A Soldier captures the General; the General cannot capture Soldiers.',
        'A Cannon captures any piece by jumping over exactly one piece.',
        'Any piece except a Soldier captures a Cannon next to it.',
      ],
      optionsIntro: 'When you create a game you can change these rules. The first choice of each is the usual one.',
      options: {
        ruleset: 'Which regional rules decide captures: Taiwan (the usual: Cannons jump), Hong Kong or Mainland, with the orders shown above.',
        capture_face_down: 'A piece may attack a face-down piece. It is turned up for everyone: if it is an enemy piece the attacker could take, it is captured; otherwise it stays, face up, and the attacker stays where it was.',
        chain_captures: 'After a capture, the same piece may capture again in the same turn, and again, or stop (the “End capture chain” button).',
        cannon_direct: 'A Cannon may also take a Soldier or a Cannon right next to it, without jumping.',
      },
    },
  },
  /** The rated boards: a game, or a game with an army or rule set rated on its own. */
  boards: {
    names: { generals: 'Game of the Generals', stratego: 'Stratego', 'stratego-barrage': 'Stratego Barrage', banqi: 'Banqi' },
  },

  /** Accounts: signing in, the account's menu and its dialogs. */
  account: {
    signIn: 'Sign in',
    createAccount: 'Create account',
    signInTitle: 'Sign in',
    createTitle: 'Create an account',
    signInIntro: 'Sign in with your account’s name and password.',
    createIntro: 'An account keeps your name, your ratings and your games on every device.',
    createGuestIntro: 'You become the account: the games you played as a guest stay yours.',
    nameRule: '2 to 20 letters, digits, _ or -.',
    passwordRule: 'At least 8 characters.',
    name: 'Name',
    password: 'Password',
    create: 'Create account',
    haveAccount: 'I already have an account',
    noAccount: 'No account yet? Create one',
    cancel: 'Cancel',
    /** @param {string} name */
    created: (name) => `Welcome, ${name}: your account is ready.`,
    /** @param {string} name */
    welcomeBack: (name) => `Welcome back, ${name}.`,
    menu: 'Account menu',
    profile: 'Your profile',
    moderation: 'Moderation',
    changePassword: 'Change password',
    oldPassword: 'Current password',
    newPassword: 'New password',
    otherSessionsEnd: 'Your other devices will be signed out.',
    passwordChanged: 'Password changed. Your other devices are signed out.',
    tokens: 'API tokens',
    tokensIntro: 'A token lets a bot or a script play as your account. Keep it secret; revoke it when it is no longer used.',
    noTokens: 'No tokens yet.',
    /** @param {string} created @param {string} used */
    tokenDates: (created, used) => `Created ${created} · last used ${used}`,
    never: 'never',
    revoke: 'Revoke',
    /** @param {string} name */
    revokeLabel: (name) => `Revoke the token ${name}`,
    tokenName: 'New token’s name',
    newToken: 'Create token',
    /** @param {string} name */
    tokenOnce: (name) => `Token “${name}”: copy it now, it is shown only once.`,
    copy: 'Copy',
    copied: 'Copied.',
    done: 'Done',
    deleteAccount: 'Delete account',
    deleteTitle: 'Delete your account?',
    deleteText: 'Your games stay, shown under the name “deleted player”. Your ratings leave the leaderboards, and your name becomes free for others. This cannot be undone.',
    deleteConfirm: 'Delete my account',
    deleted: 'Your account is deleted.',
    logOut: 'Log out',
    logOutEverywhere: 'Log out everywhere',
    loggedOut: 'You are logged out.',
    loggedOutEverywhere: 'You are logged out on every device.',
  },

  /** Reporting a player to the moderators. */
  report: {
    /** @param {string} name */
    title: (name) => `Report ${name}`,
    intro: 'Tell the moderators what happened. They see your name, this player’s and your words.',
    aboutGame: 'Tell the moderators what happened in this game. They see your name, this player’s, the game and your words.',
    reason: 'Reason',
    reasons: { cheating: 'Cheating', abuse: 'Abuse or insults', stalling: 'Stalling or leaving games', other: 'Something else' },
    text: 'What happened',
    textHelp: 'Up to 500 characters.',
    send: 'Send report',
    cancel: 'Cancel',
    sent: 'Report sent to the moderators. Thank you.',
  },

  /** The leaderboard of each board. */
  leaderboard: {
    heading: 'Leaderboards',
    /** @param {string} board */
    title: (board) => `Leaderboard: ${board}`,
    boards: 'Boards',
    loading: 'Loading the leaderboard…',
    rules: 'The best 100 players active in the last 30 days, with enough rated games for a settled rating. Trend: the change over the last 7 days.',
    empty: 'Nobody here yet: players appear after a few rated games.',
    rank: '#',
    player: 'Player',
    rating: 'Rating',
    rd: 'Deviation',
    games: 'Games',
    trend: 'Trend',
    /** @param {string} change */
    trendLabel: (change) => `${change} in the last 7 days`,
  },

  /** A player's profile page. */
  profile: {
    loading: 'Loading the profile…',
    notFound: 'No such player',
    bot: 'BOT',
    /** @param {string} day */
    memberSince: (day) => `Member since ${day}`,
    /** @param {string} day */
    lastSeen: (day) => `last seen ${day}`,
    /** @param {string} note */
    marked: (note) => `Marked by a moderator: ${note}`,
    report: 'Report this player',
    reputation: 'Reputation',
    completion: 'games finished',
    finished: 'finished by play',
    abandoned: 'abandoned',
    kudos: '“good game” received',
    completionLater: 'The share of games finished is shown after 5 games.',
    completionHelp: 'Finished by play: a win, a loss, a draw or a resignation. Abandoned: left during setup, left the game, or let the clock run out without moving.',
    ratings: 'Ratings',
    noRatings: 'No rated games yet.',
    record: 'Wins, draws and losses',
    game: 'Game',
    wins: 'Won',
    draws: 'Drawn',
    losses: 'Lost',
    games: 'Games',
    more: 'Older games',
    noGames: 'No finished games yet.',
    provisional: 'Provisional (?): it settles after a few more rated games.',
    /** @param {number} games @param {number} w @param {number} d @param {number} l */
    counts: (games, w, d, l) => `${games} rated ${games === 1 ? 'game' : 'games'}: ${w} won, ${d} drawn, ${l} lost`,
    /** @param {string} board */
    chartTitle: (board) => `Rating history in ${board}`,
    /** @param {string} board @param {number} first @param {number} last @param {number} n @param {number} hi @param {number} lo */
    chartSummary: (board, first, last, n, hi, lo) => `${board}: from ${first} to ${last} over ${n} rated ${n === 1 ? 'game' : 'games'}; highest ${hi}, lowest ${lo}.`,
    outcome: { win: 'Won', loss: 'Lost', draw: 'Draw' },
    outcomeShort: { win: 'W', loss: 'L', draw: 'D' },
    unknownPlayer: 'a guest',
    vs: 'vs',
    rated: 'rated',
    casual: 'casual',
    /** @param {string} name */
    replayLabel: (name) => `Replay the game against ${name}`,
  },

  /** The moderators' page. */
  moderation: {
    title: 'Moderation',
    reports: 'Reports',
    onlyModerators: 'This page is for moderators.',
    loading: 'Loading the reports…',
    none: 'No reports.',
    by: 'Reported by',
    game: 'The game',
    closed: 'This account is closed.',
    /** @param {string} name */
    note: (name) => `Note to mark ${name} with`,
    notePlaceholder: 'A note for the mark',
    mark: 'Mark',
    close: 'Close account',
    /** @param {string} name */
    closeConfirm: (name) => `Close ${name}’s account? It can no longer sign in and leaves the leaderboards.`,
    /** @param {string} name */
    markedDone: (name) => `${name} is marked.`,
    /** @param {string} name */
    closedDone: (name) => `${name}’s account is closed.`,
  },

  /** The arbiter at the table (/arbiter): phones beside a real board. */
  arbiter: {
    title: 'Arbiter at the table',
    lobbyLink: 'Use a phone as the arbiter',
    intro: 'Playing on a real board? A phone is the neutral arbiter: each of you tells it your own piece in secret, and it says only what the rules let it say.',
    yourName: 'Your name',
    nameFirst: 'Type your name first.',
    joinHeading: 'Join a table',
    code: 'Room code',
    join: 'Join',
    createHeading: 'Start a table',
    gameLabel: 'Game',
    modeLabel: 'Arbiter',
    modeHelp: 'Challenges only: for each challenge, each of you enters the rank of your own piece. The whole game: you both enter your setups and every move made on the real board.',
    modeChallenge: 'Challenges only',
    modeFull: 'The whole game',
    revealLabel: 'After a challenge, announce',
    reveal: { none: 'only which piece leaves', winner: 'also the winner’s rank', both: 'both ranks' },
    flagRuleLabel: 'A Flag on the far rank wins',
    flagRule: { adjacent: 'unless an enemy is beside it', one_turn: 'after one enemy turn', electronic: 'at once (1980 electronic game)' },
    armyLabel: 'Army',
    army: { classic: 'Classic (40 pieces)', barrage: 'Barrage (8 pieces)', duel: 'Duel (10 pieces)' },
    pass: 'One phone for both players (pass it between you)',
    create: 'Start the table',
    codeShow: 'The other player opens this page and types this code:',
    waiting: 'Waiting for the other player to join…',
    noneYet: 'No challenge yet. When one piece challenges another, both of you enter your own piece.',
    /** @param {string} seat */
    entryFor: (seat) => `${seat}: your piece in this challenge`,
    otherEntered: 'The other player has entered their piece.',
    attacked: 'My piece attacked',
    defended: 'My piece was challenged',
    whichRank: 'Then tap the rank of your piece:',
    entered: 'Entered. Waiting for the other player…',
    /** @param {number} n */
    challengeN: (n) => `Challenge ${n}`,
    /** @param {string} seat */
    removedAttacker: (seat) => `${seat}’s attacking piece loses: take it off the board.`,
    /** @param {string} seat */
    removedDefender: (seat) => `${seat}’s challenged piece loses: take it off the board.`,
    removedBoth: 'Equal ranks: both pieces leave the board.',
    /** @param {string} seat */
    flagCaptured: (seat) => `${seat} captured the Flag!`,
    /** @param {string} seat @param {string} rank */
    shownAttacker: (seat, rank) => `${seat} attacked with the ${rank}.`,
    /** @param {string} seat @param {string} rank */
    shownDefender: (seat, rank) => `${seat}’s piece was the ${rank}.`,
    /** @param {string} seat */
    wins: (seat) => `${seat} wins`,
    endFlag: 'The Flag was captured.',
    endResign: 'The other player resigned.',
    endHome: 'The Flag reached the far rank.',
    /** @param {number} n */
    count: (n) => (n === 1 ? 'One challenge in all.' : `${n} challenges in all.`),
    eliminated: 'Pieces each side lost',
    lostNone: 'none',
    newTable: 'New table',
    next: 'Next challenge',
    /** @param {string} seat */
    passTo: (seat) => `Pass the phone to ${seat}`,
    /** @param {string} seat */
    ready: (seat) => `I am ${seat}: enter my piece`,
    sound: 'Sound (a bugle call when a Flag falls)',
    resign: 'Resign',
    /** @param {string} seat */
    resignConfirm: (seat) => `Resign for ${seat}?`,
    flagHome: 'My Flag reached the far rank',
    /** @param {string} seat */
    flagHomeConfirm: (seat) => `Did ${seat}’s Flag win on the far rank, by the rule you chose?`,
    fullIntro: 'The server keeps the true position. Open the board, enter your setup in secret, then enter every move made on the real board: it refuses illegal moves and says which piece to take off after each challenge.',
    /** @param {string} seat */
    openBoard: (seat) => `Open the board as ${seat}`,
    hidePass: 'Hide and pass the phone',
    /** @param {string} seat */
    showBoard: (seat) => `I am ${seat}: show my board`,
  },
};

export default en;

/** @typedef {typeof en} Catalogue */
