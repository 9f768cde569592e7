//! End-to-end tests: a real server on a loopback port, scripted clients.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

// A whole game, message by message, and its replay.
mod game;
// Bad input of every kind, each next to an undisturbed game.
mod bad_input;
// Prepare, reservations, observers, pause, step and cancel.
mod admin;
// The move clock in real time.
mod clock;
// Shutdown and replay files.
mod lifecycle;
// The client library and the built-in bots.
mod client;
// Floods and expensive input next to the reference game.
mod flood;
// N seats: the three-seat test game and its own dialect.
mod seats;
// Passphrase guessing and unused reservations.
mod security;
// Blokus 2027 in the official 2027 layout, and next to a 2021 game.
mod season2027;
// Faults of the machine: replay directory, full disk, a crash's leftovers.
mod faults;
// Ostseeschach 2022 next to Blokus 2021: games, replays, observers, admin.
mod ostseeschach;
// Bad moves of Ostseeschach 2022 and Blokus 2027, each next to a reference game.
mod bad_moves;
// The BLOKUS Champions League game: a whole game next to Blokus 2021,
// disqualifications with the seed's codes, the clock, the illegal bot.
mod bcl;
// The web side: routes, live event streams, access.
mod web;
// The web side's own budget: connection caps, header time limit, guessing.
mod web_limits;
// Classic Blokus for 4, 3 and 2 players: bad input next to a reference game.
mod classic;
// The toy game of the README's "Adding a game" (tic-tac-toe, test-only).
mod tictactoe;
// Wire logs: each seat's bytes next to the replay, the cap, off by default.
mod wire_log;
