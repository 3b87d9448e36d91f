//! Fixed Game of the Generals setups shared by the ai crate's tests.

/// White's army in rank order: the Flag and the Privates and Spies on the back rank, the
/// Generals to the Captain on the second, the Lieutenants and the Sergeant on the third.
pub const GENERALS_WHITE: &str = "a1:FLG b1:PVT c1:PVT d1:PVT e1:PVT f1:PVT g1:PVT h1:SPY i1:SPY \
    a2:5G b2:4G c2:3G d2:2G e2:1G f2:COL g2:LTC h2:MAJ i2:CPT a3:1LT b3:2LT c3:SGT";

/// Black's army as White's, mirrored onto ranks 8, 7 and 6.
pub const GENERALS_BLACK: &str = "a8:FLG b8:PVT c8:PVT d8:PVT e8:PVT f8:PVT g8:PVT h8:SPY i8:SPY \
    a7:5G b7:4G c7:3G d7:2G e7:1G f7:COL g7:LTC h7:MAJ i7:CPT a6:1LT b6:2LT c6:SGT";
