//! Each game in the terminal, one module per game: text for people (a game
//! result with names, points and causes, used by `play`, `demo` and
//! `replay show`; the boards come from the renderer, `spielleiter-render`)
//! and the game's report in `spielleiter perft`
//! ([`PerftReport`](crate::perft::PerftReport)).
//!
//! Every game presents itself with a [`Presentation`] through [`GameView`],
//! implemented in its own module here ([`blokus`] for the 20×20 Blokus
//! games, [`ostseeschach2022`], [`bcl`]) with its perft report;
//! [`presentation`] and `perft::run` are generated from the rules
//! catalogue's list, so a game without a view or a report does not compile.
//! The plain presentation ([`Plain`]) names seats by label (`team ONE`) and
//! lists the points; a game that wants no more says so in its `impl`.

pub mod bcl;
pub mod blokus;
spielleiter_rules::test_games! {
    mod counting;
    mod tictactoe;
}
pub mod ostseeschach2022;

use std::fmt::Write;

use spielleiter_protocol::{Decimal, result::GameResult, seats::seat_label};
use spielleiter_rules::{CatalogueEntry, GameType, entry};

/// How a game shows its seats and points to people.
pub trait Presentation: Sync {
    /// A seat with its player's display name (empty if none), e.g.
    /// `alice (team ONE: BLUE, RED)`.
    fn seat(&self, seat: usize, name: &str) -> String {
        if name.is_empty() {
            format!("team {}", seat_label(seat))
        } else {
            format!("{name} (team {})", seat_label(seat))
        }
    }

    /// The game's own parts of a score (the parts after the win points),
    /// e.g. `87 points`.
    fn points(&self, parts: &[Decimal]) -> String {
        let parts: Vec<String> = parts.iter().map(Decimal::to_string).collect();
        format!("{} points", parts.join("/"))
    }
}

/// The plain presentation, for games that want no more (the test games).
#[allow(
    dead_code,
    reason = "only the test games (feature test-games of the rules) use it"
)]
pub struct Plain;

impl Presentation for Plain {}

/// A game's view in the terminal, implemented by its marker type
/// ([`entry`]) in the game's module here.
pub trait GameView: CatalogueEntry {
    /// How the game presents its seats and points.
    const PRESENTATION: &'static dyn Presentation;
}

/// Generates [`presentation`] from the rules catalogue's list (through
/// [`spielleiter_rules::for_each_game!`]).
macro_rules! view_catalogue {
    ($(
        $(#[doc = $doc:literal])*
        $(#[cfg($cfg:meta)])?
        $variant:ident { $($field:tt)* }
    )*) => {
        /// How `game` presents itself.
        pub fn presentation(game: GameType) -> &'static dyn Presentation {
            match game {
                $(
                    $(#[cfg($cfg)])?
                    GameType::$variant => <entry::$variant as GameView>::PRESENTATION,
                )*
            }
        }
    };
}

spielleiter_rules::for_each_game!(view_catalogue);

/// One line per seat with its points and cause, then who won. `names` are
/// the display names in seat order.
pub fn result_text(game: GameType, result: &GameResult, names: &[String]) -> String {
    let show = presentation(game);
    let name = |seat: usize| names.get(seat).map_or("", String::as_str);
    let mut out = String::new();
    for (seat, score) in result.scores.iter().enumerate() {
        let own_parts = score.parts.get(1..).unwrap_or_default();
        let _ = write!(
            out,
            "{}: {}, {}",
            show.seat(seat, name(seat)),
            show.points(own_parts),
            score.cause.name()
        );
        if !score.reason.is_empty() {
            let _ = write!(
                out,
                " ({})",
                spielleiter_protocol::english::english(&score.reason)
            );
        }
        out.push('\n');
    }
    match result.winners.as_slice() {
        [] => out.push_str("No winner.\n"),
        [winner] => {
            let _ = writeln!(out, "Winner: {}", show.seat(winner.seat, name(winner.seat)));
        }
        winners if winners.len() == result.scores.len() => out.push_str("Draw.\n"),
        winners => {
            let names: Vec<String> = winners
                .iter()
                .map(|w| show.seat(w.seat, name(w.seat)))
                .collect();
            let _ = writeln!(out, "Shared win: {}", names.join(", "));
        }
    }
    out
}
