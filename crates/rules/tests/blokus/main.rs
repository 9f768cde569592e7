//! Integration tests of the Blokus rules of every variant, one binary for
//! all of them.

// The behaviours of the official test suite tagged [L] (official-tests.md).
mod official;
// Appendix A of blokus-2021.md and the orientation algebra.
mod orientations;
// The fast move generator against a deliberately simple reference.
mod movegen;
// Properties of random complete games, and the end rule of decisions.md §1.
mod games;
// Perft data files in tests/data/*.perft.
mod perft;
// Blokus 2027: border start, PENTO_X, the end at turn 96.
mod swc2027;
// Classic Blokus for 4, 3 and 2 players.
mod classic;
// The 10×10 BLOKUS Champions League game.
mod bcl;
// Uniform random placements of every variant.
mod sampling;
// First-move counts of every variant, tests/data/first-moves.txt.
mod first_moves;

// The perft data file reader.
mod perft_file;
// Helpers: a seeded random source, random games, the reference generator.
mod util;
