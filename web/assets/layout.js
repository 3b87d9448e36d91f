// Generated from the engine (salpakan_engine::layout::layout_js): do not edit.
// Regenerate: cargo run -p salpakan-engine --example layout_js > web/assets/layout.js

/**
 * @typedef {object} Layout
 * @property {string} game
 * @property {string} title
 * @property {number} files
 * @property {number} ranks
 * @property {[string, string]} seats
 * @property {boolean} has_setup
 * @property {[string[], string[]]} setup_areas
 * @property {string[]} lakes
 * @property {string[]} order          piece codes strongest first
 * @property {Record<string, number>} army
 * @property {Record<string, Record<string, number>>} armies
 * @property {Record<string, string>} names
 */

/** @type {Record<'generals' | 'stratego' | 'banqi', Layout>} */
export const LAYOUT = {
  generals: {"game":"generals","title":"Game of the Generals","files":9,"ranks":8,"seats":["white","black"],"has_setup":true,"setup_areas":[["a1","b1","c1","d1","e1","f1","g1","h1","i1","a2","b2","c2","d2","e2","f2","g2","h2","i2","a3","b3","c3","d3","e3","f3","g3","h3","i3"],["a6","b6","c6","d6","e6","f6","g6","h6","i6","a7","b7","c7","d7","e7","f7","g7","h7","i7","a8","b8","c8","d8","e8","f8","g8","h8","i8"]],"lakes":[],"order":["5G","4G","3G","2G","1G","COL","LTC","MAJ","CPT","1LT","2LT","SGT","PVT","SPY","FLG"],"army":{"5G":1,"4G":1,"3G":1,"2G":1,"1G":1,"COL":1,"LTC":1,"MAJ":1,"CPT":1,"1LT":1,"2LT":1,"SGT":1,"PVT":6,"SPY":2,"FLG":1},"armies":{"full":{"5G":1,"4G":1,"3G":1,"2G":1,"1G":1,"COL":1,"LTC":1,"MAJ":1,"CPT":1,"1LT":1,"2LT":1,"SGT":1,"PVT":6,"SPY":2,"FLG":1},"reduced":{"5G":1,"4G":1,"3G":1,"1G":1,"COL":1,"CPT":1,"1LT":1,"PVT":2,"SPY":1,"FLG":1}},"names":{"5G":"General of the Army","4G":"General","3G":"Lieutenant General","2G":"Major General","1G":"Brigadier General","COL":"Colonel","LTC":"Lieutenant Colonel","MAJ":"Major","CPT":"Captain","1LT":"1st Lieutenant","2LT":"2nd Lieutenant","SGT":"Sergeant","PVT":"Private","SPY":"Spy","FLG":"Flag"}},
  stratego: {"game":"stratego","title":"Stratego","files":10,"ranks":10,"seats":["red","blue"],"has_setup":true,"setup_areas":[["a1","b1","c1","d1","e1","f1","g1","h1","i1","j1","a2","b2","c2","d2","e2","f2","g2","h2","i2","j2","a3","b3","c3","d3","e3","f3","g3","h3","i3","j3","a4","b4","c4","d4","e4","f4","g4","h4","i4","j4"],["a7","b7","c7","d7","e7","f7","g7","h7","i7","j7","a8","b8","c8","d8","e8","f8","g8","h8","i8","j8","a9","b9","c9","d9","e9","f9","g9","h9","i9","j9","a10","b10","c10","d10","e10","f10","g10","h10","i10","j10"]],"lakes":["c5","d5","g5","h5","c6","d6","g6","h6"],"order":["10","9","8","7","6","5","4","3","2","S","B","F"],"army":{"F":1,"S":1,"2":8,"3":5,"4":4,"5":4,"6":4,"7":3,"8":2,"9":1,"10":1,"B":6},"armies":{"classic":{"F":1,"S":1,"2":8,"3":5,"4":4,"5":4,"6":4,"7":3,"8":2,"9":1,"10":1,"B":6},"barrage":{"F":1,"S":1,"2":2,"3":1,"9":1,"10":1,"B":1},"duel":{"F":1,"S":1,"2":2,"3":2,"9":1,"10":1,"B":2},"ultimate_lightning":{"F":1,"S":1,"2":4,"3":2,"4":2,"5":2,"6":2,"7":1,"8":1,"9":1,"10":1,"B":2}},"names":{"10":"Marshal","9":"General","8":"Colonel","7":"Major","6":"Captain","5":"Lieutenant","4":"Sergeant","3":"Miner","2":"Scout","S":"Spy","B":"Bomb","F":"Flag"}},
  banqi: {"game":"banqi","title":"Banqi","files":4,"ranks":8,"seats":["first","second"],"has_setup":false,"setup_areas":[[],[]],"lakes":[],"order":["K","G","M","R","N","C","P","k","g","m","r","n","c","p"],"army":{},"armies":{},"names":{"K":"red General","G":"red Advisor","M":"red Elephant","R":"red Chariot","N":"red Horse","C":"red Cannon","P":"red Soldier","k":"black General","g":"black Advisor","m":"black Elephant","r":"black Chariot","n":"black Horse","c":"black Cannon","p":"black Soldier"}},
};
