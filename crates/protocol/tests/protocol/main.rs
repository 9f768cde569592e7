//! Integration tests of `spielleiter-protocol`, one module per area.

// Shared helpers: the official example files and the values they encode.
mod util;
// Every example file decodes to the expected value and encodes back.
mod vectors;
// The same for the 2022 season's files (Ostseeschach).
mod season2022;
// The same for the Blokus 2027 examples.
mod season2027;
// The frame decoder on transcripts split at every byte, and edge cases.
mod framing;
// blokus_bcl: its moves, states and results.
mod bcl;
// Single packets: leniency, typed errors.
mod messages;
// Property tests: round trips, arbitrary input.
mod roundtrip;
// Classic Blokus on the wire: states, moves, results, README examples.
mod classic;
// protocol/README.md's examples are encoder output.
mod docs;
// protocol/README.md's piece pictures are the rules' shapes.
mod pieces;
