// The words of the rules pages (/rules/generals, /rules/stratego, /rules/banqi), in one
// catalogue so that a translation can replace it whole. Written for a newcomer from
// docs/rules-generals.md, docs/rules-stratego.md and docs/rules-banqi.md; the server is the
// judge of every rule, these pages only explain them.

/**
 * @typedef {object} Section
 * @property {string} id        the anchor (#id) of the section
 * @property {string} heading
 * @property {string[]} paras   paragraphs
 * @property {string[]} [list]  a bulleted list after the paragraphs
 */

/**
 * @typedef {object} Beat  one line of the "who takes whom" diagram
 * @property {string} a        the piece that wins (code)
 * @property {string} b        the piece it takes (code)
 * @property {string} text     why, in words
 */

/**
 * @typedef {object} Ladder  pieces strongest first: each takes the ones after it
 * @property {string} caption
 * @property {string[]} order
 */

/**
 * @typedef {object} GameRules
 * @property {string} title        the page's heading
 * @property {string} lead         one or two lines under it
 * @property {Section[]} sections  aim, board, pieces, challenge, end (in this order)
 * @property {string} boardCaption the board diagram's caption (also its accessible name)
 * @property {Record<string, number>} counts   pieces of each kind per player (table order)
 * @property {Record<string, string>} notes    what each piece does (pieces table)
 * @property {Ladder[]} ladders
 * @property {Beat[]} beats
 * @property {string} beatsCaption
 * @property {Record<string, string>} options  option key -> what it means, in plain words
 * @property {string} optionsIntro
 */

/** Words every rules page shares. */
export const COMMON = {
  rules: 'Rules',
  pageTitle: (/** @type {string} */ game) => `salpakan · Rules of ${game}`,
  contents: 'On this page',
  otherGames: 'Rules of the other games',
  piecesTable: 'The pieces, strongest first',
  colPiece: 'Piece',
  colCount: 'Count',
  colNotes: 'What it does',
  takes: 'takes',
  ladderHint: 'Each piece takes the pieces after it in the row.',
  optionsHeading: 'Options',
  optionDefault: 'Default',
  playCta: 'Play this game',
  backToTop: 'Back to the top',
  matrixSummary: 'Every challenge at a glance',
  matrixCaption: 'Row: the piece that challenges. Column: the piece challenged.',
  matrixAttacker: 'Challenger',
  /** What each cell shows: the symbol drawn and the words read to screen readers. */
  matrixCells: {
    A: ['✓', 'challenger wins'],
    D: ['✗', 'challenger eliminated'],
    B: ['=', 'both eliminated'],
  },
  matrixLegend: '✓ the challenger eliminates the piece challenged · ✗ the challenger is eliminated · = both are eliminated',
  sections: { aim: 'The aim', board: 'The board', pieces: 'The pieces', challenge: 'Challenges', end: 'How the game ends', options: 'Options' },
};

/** @type {Record<'generals'|'stratego'|'banqi', GameRules>} */
export const RULES = {
  generals: {
    title: 'Game of the Generals',
    lead: 'A Filipino war game for two players (also called Salpakan). You see your own pieces; of the enemy you only see where they stand. A neutral arbiter decides every fight and tells nobody the ranks.',
    sections: [
      { id: 'aim', heading: 'The aim', paras: [
        'Capture the enemy Flag, or bring your own Flag to the far side of the board.',
        'You never see the ranks of the enemy pieces. You learn about them only from who wins each fight.',
      ] },
      { id: 'board', heading: 'The board', paras: [
        'The board has 9 columns (a to i) and 8 rows (1 to 8). White sets up on rows 1 to 3 and Black on rows 6 to 8.',
        'Before the game each player places all 21 pieces anywhere in their own three rows, face towards themselves. The two rows in the middle start empty.',
      ] },
      { id: 'pieces', heading: 'The pieces', paras: [
        'Each army has 21 pieces: 15 ranks, from the five-star General of the Army down to the Private, plus the Spy and the Flag.',
        'Every piece, the Flag too, moves one square forward, backward or sideways, never diagonally and never onto one of its own pieces.',
      ] },
      { id: 'challenge', heading: 'Challenges', paras: [
        'Moving onto an enemy piece is a challenge. The arbiter looks at both pieces and removes the loser:',
      ], list: [
        'The higher rank eliminates the lower.',
        'The Spy eliminates every officer and the Sergeant, but a Private eliminates the Spy.',
        'Any piece eliminates the Flag. If two Flags meet, the one that moved wins.',
        'Two pieces of the same rank are both eliminated.',
        'The winner stays on, or moves into, the square.',
        'The arbiter only says which piece was removed (the attacker, the defender or both), never the ranks: after a fight you still do not know what beat you. Options can show the winner’s rank or both ranks.',
      ] },
      { id: 'end', heading: 'How the game ends', paras: [], list: [
        'You win when you capture the enemy Flag, or when the enemy Flag challenges a piece and is eliminated.',
        'You win when your Flag reaches the far row (row 8 for White, row 1 for Black) and no enemy piece stands right beside it. If an enemy piece is beside it, the opponent gets one turn to challenge it; if they do not, you win.',
        'A player may resign, offer a draw, or lose on time when a clock is used.',
        'At the end both armies are shown face up.',
      ] },
    ],
    boardCaption: 'The Game of the Generals board: 9 columns and 8 rows; White sets up on the three bottom rows, Black on the three top rows.',
    counts: { '5G': 1, '4G': 1, '3G': 1, '2G': 1, '1G': 1, COL: 1, LTC: 1, MAJ: 1, CPT: 1, '1LT': 1, '2LT': 1, SGT: 1, PVT: 6, SPY: 2, FLG: 1 },
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
    ladders: [{ caption: 'From the highest rank to the lowest: each piece takes the ones after it.', order: ['5G', '4G', '3G', '2G', '1G', 'COL', 'LTC', 'MAJ', 'CPT', '1LT', '2LT', 'SGT', 'PVT'] }],
    beatsCaption: 'The exceptions',
    beats: [
      { a: 'SPY', b: '5G', text: 'The Spy eliminates every officer, even the General of the Army, and the Sergeant.' },
      { a: 'PVT', b: 'SPY', text: 'The Private is the only piece that eliminates the Spy.' },
      { a: 'PVT', b: 'FLG', text: 'Every piece eliminates the Flag, even a Private.' },
      { a: 'MAJ', b: 'MAJ', text: 'Equal ranks: both pieces are eliminated.' },
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
    title: 'Stratego',
    lead: 'A war game for two players. You see your own army; the enemy’s pieces stand with their backs to you until they fight. Every fight shows both pieces.',
    sections: [
      { id: 'aim', heading: 'The aim', paras: [
        'Capture the enemy Flag, or leave the enemy without a move.',
      ] },
      { id: 'board', heading: 'The board', paras: [
        'The board has 10 columns (a to j) and 10 rows. Red sets up on rows 1 to 4 and Blue on rows 7 to 10; Red moves first.',
        'Two lakes in the middle (c5, d5, c6, d6 and g5, h5, g6, h6) can never be entered or crossed.',
      ] },
      { id: 'pieces', heading: 'The pieces', paras: [
        'Each army has 40 pieces. Pieces move one square forward, backward or sideways, never diagonally and never onto one of their own.',
        'Bombs and the Flag never move. A Scout may run any number of empty squares in a straight line, like a rook in chess, but never over a piece or a lake.',
      ] },
      { id: 'challenge', heading: 'Attacks', paras: [
        'Moving onto an enemy piece is an attack. Both pieces are turned face up for both players, and:',
      ], list: [
        'The higher rank wins and the loser is removed. If the attacker wins, it moves into the square.',
        'Equal ranks: both pieces are removed.',
        'The Spy wins when it attacks the Marshal; if the Marshal attacks first, the Spy loses.',
        'Any piece that attacks a Bomb is removed, except the Miner, which defuses it.',
        'Any piece that attacks the Flag captures it and wins the game.',
        'A piece that survived a fight stays known to the opponent. A Scout that runs more than one square shows that it is a Scout.',
      ] },
      { id: 'end', heading: 'How the game ends', paras: [], list: [
        'You win when you capture the enemy Flag.',
        'A player who cannot make any move (only Bombs and the Flag left, or every move forbidden) loses. If neither player can move, it is a draw.',
        'A player may resign, offer a draw, or lose on time when a clock is used.',
      ] },
    ],
    boardCaption: 'The Stratego board: 10 columns and 10 rows with two lakes in the middle; Red sets up on the four bottom rows, Blue on the four top rows.',
    counts: { '10': 1, '9': 1, '8': 2, '7': 3, '6': 4, '5': 4, '4': 4, '3': 5, '2': 8, S: 1, B: 6, F: 1 },
    notes: {
      '10': 'The strongest piece. Loses only to a Bomb, and to the Spy when the Spy attacks it.',
      '9': 'Second strongest.', '8': '', '7': '', '6': '', '5': '', '4': '',
      '3': 'Weak in a fight, but the only piece that can defuse a Bomb.',
      '2': 'Runs any distance in a straight line: the army’s eyes.',
      S: 'The weakest piece, but takes the Marshal when it attacks first.',
      B: 'Never moves. Removes every attacker except a Miner.',
      F: 'Never moves. Lose it and you lose the game.',
    },
    ladders: [{ caption: 'From the highest rank to the lowest: each piece takes the ones after it.', order: ['10', '9', '8', '7', '6', '5', '4', '3', '2', 'S'] }],
    beatsCaption: 'The exceptions',
    beats: [
      { a: 'S', b: '10', text: 'The Spy takes the Marshal, but only when the Spy attacks.' },
      { a: '3', b: 'B', text: 'Only a Miner defuses a Bomb; every other attacker is removed.' },
      { a: 'B', b: '10', text: 'A Bomb removes any other attacker, even the Marshal. The Bomb stays.' },
      { a: '2', b: 'F', text: 'Any piece captures the Flag, and the game is won.' },
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
    title: 'Banqi',
    lead: 'A Chinese game (Dark Chess, Half Chess) for two players on half a xiangqi board. Every piece starts face down, so neither player knows where anything is.',
    sections: [
      { id: 'aim', heading: 'The aim', paras: [
        'Capture every piece of the other colour, or leave the other player without a move.',
      ] },
      { id: 'board', heading: 'The board', paras: [
        'The board has 4 columns (a to d) and 8 rows. All 32 pieces, 16 red and 16 black, are shuffled and laid face down, one on every square.',
        'Nobody, not even the players, knows which piece is where until it is turned up.',
      ] },
      { id: 'pieces', heading: 'The pieces', paras: [
        'On your turn you do one thing: turn up any face-down piece, move one of your face-up pieces one square forward, backward or sideways to an empty square, or capture with it.',
        'The first piece turned up decides the colours: the player who turned it plays that colour. You may only move and capture with face-up pieces of your own colour.',
      ] },
      { id: 'challenge', heading: 'Captures', paras: [
        'A piece captures an enemy piece next to it that is of equal or lower rank, by moving onto it. Under the usual (Taiwan) rules:',
      ], list: [
        'The General cannot capture Soldiers, and Soldiers can capture the General.',
        'The Cannon captures any piece, the General included, but only by jumping over exactly one piece (of either colour, face up or down) along a row or column; it cannot capture a piece right next to it. It moves like the others, one square to an empty square.',
        'Any piece except a Soldier captures a Cannon.',
        'Face-down pieces cannot be captured. Every turn is seen by both players: there is nothing hidden except the face-down pieces.',
      ] },
      { id: 'end', heading: 'How the game ends', paras: [], list: [
        'You win when the other player has no pieces of their colour left on the board, face up or face down.',
        'A player with nothing to do (no piece to turn up, no move, no capture) loses.',
        'After 50 turns in a row with no piece turned up and no capture, the game is a draw.',
        'A player may resign, offer a draw, or lose on time when a clock is used.',
      ] },
    ],
    boardCaption: 'The Banqi board: 4 columns and 8 rows, one face-down piece on every square; here three pieces have been turned up.',
    counts: { K: 1, G: 2, M: 2, R: 2, N: 2, C: 2, P: 5 },
    notes: {
      K: 'The highest rank, but cannot capture Soldiers, and Soldiers capture it.',
      G: '', M: '', R: '', N: '',
      C: 'Captures by jumping over exactly one piece, any rank.',
      P: 'The lowest rank, but captures the General.',
    },
    ladders: [
      { caption: 'Taiwan rules (the usual): each piece takes the ones after it; the Cannon stands outside the row.', order: ['K', 'G', 'M', 'R', 'N', 'P'] },
      { caption: 'Hong Kong rules: no jumps, every piece captures next to it; Soldiers capture the General, the General cannot capture Soldiers.', order: ['K', 'R', 'N', 'C', 'G', 'M', 'P'] },
      { caption: 'Mainland rules: no jumps; the General and the Soldier capture each other.', order: ['K', 'G', 'M', 'R', 'N', 'C', 'P'] },
    ],
    beatsCaption: 'The exceptions (Taiwan rules)',
    beats: [
      { a: 'P', b: 'k', text: 'A Soldier captures the General; the General cannot capture Soldiers.' },
      { a: 'C', b: 'k', text: 'A Cannon captures any piece by jumping over exactly one piece.' },
      { a: 'N', b: 'c', text: 'Any piece except a Soldier captures a Cannon next to it.' },
    ],
    optionsIntro: 'When you create a game you can change these rules. The first choice of each is the usual one.',
    options: {
      ruleset: 'Which regional rules decide captures: Taiwan (the usual: Cannons jump), Hong Kong or Mainland, with the orders shown above.',
      capture_face_down: 'A piece may attack a face-down piece. It is turned up for everyone: if it is an enemy piece the attacker could take, it is captured; otherwise it stays, face up, and the attacker stays where it was.',
      chain_captures: 'After a capture, the same piece may capture again in the same turn, and again, or stop (the “End capture chain” button).',
      cannon_direct: 'A Cannon may also take a Soldier or a Cannon right next to it, without jumping.',
    },
  },
};
