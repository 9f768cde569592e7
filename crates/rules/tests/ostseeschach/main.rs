//! Integration tests of the Ostseeschach 2022 rules, one binary for all of
//! them.

// The rules of ostseeschach-2022.md one by one.
mod rules;
// The fast move generator and checker against the reference.
mod movegen;
// Properties of random complete games.
mod games;
// The perft data file tests/data/ostseeschach/ostseeschach.perft (in its own
// directory: the Blokus perft test reads every tests/data/*.perft).
mod perft;

// The perft data file reader.
mod perft_file;
// A second, independent implementation of the rules.
mod reference;
// Helpers: seeded random sources, positions, random games and setups.
mod util;
