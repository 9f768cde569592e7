//! Integration tests of the Blokus 2021 rules, one binary for all of them.

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

// The perft data file reader.
mod perft_file;
// Helpers: a seeded random source, random games, the reference generator.
mod util;
