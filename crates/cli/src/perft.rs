//! `spielleiter perft --game ID`: counts the move sequences of each length
//! up to a depth from a game's initial position.
//!
//! Every game counts with the rules crate's generic `perft` (one node per
//! distinct effect, no optional moves, nothing past the end of the game)
//! unless its report says otherwise. Each game's report is its
//! [`PerftReport`], in the game's module of [`show`](crate::show) (a move
//! file replayed first, a start position chosen, a fast counter of its
//! own, a split by piece kind, as the game has them); [`run`] is generated
//! from the rules catalogue's list, so a game without one does not
//! compile. This module holds what the reports share: the options, the
//! replay of a move file of lines ([`replay_lines`]), the counts with
//! their timing ([`counts`]) and the generic count ([`generic_report`]).

use std::{fmt::Write as _, path::PathBuf, time::Instant};

use anyhow::{Context, bail};
use clap::Args;
use rand_pcg::Pcg64;
use spielleiter_protocol::seats::seat_label;
use spielleiter_rules::{
    AnyGame, CatalogueEntry, Game, GameType, blokus::PieceKind, entry, ostseeschach::StartLine,
};

/// Arguments of `spielleiter perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// The game.
    #[arg(long, default_value_t = GameType::DEFAULT, value_name = "ID")]
    pub(crate) game: GameType,
    /// Blokus (2021, 2027): the start piece shared by all colours, e.g.
    /// PENTO_L.
    #[arg(long, value_parser = parse_kind)]
    pub(crate) start_piece: Option<PieceKind>,
    /// Ostseeschach 2022: ONE's start line, 8 letters for y = 0 to 7 (`H`
    /// Herzmuschel, `M` Möwe, `S` Seestern, `R` Robbe; two of each), e.g.
    /// HMSRHMSR; TWO gets its rotation by 180°.
    #[arg(long, value_name = "LINE", value_parser = parse_start_line)]
    pub(crate) start_line: Option<StartLine>,
    /// Other games: the seed of what the game leaves to chance [default: 0].
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// A file of moves to play first; `#` starts a comment. Blokus (2021,
    /// 2027): one per line, `COLOR KIND ROTATION FLIPPED X Y` or `COLOR
    /// SKIP`. Classic Blokus: one per line, `COLOR KIND ROTATION FLIPPED X
    /// Y`, `COLOR CELLS` with the cells in Pentobi's notation (`BLUE
    /// a20,b20,c20`; `a1` is the lower-left field) or `COLOR pass` (only for
    /// a colour that cannot place). Ostseeschach 2022: `FX,FY-TX,TY`,
    /// separated by spaces or newlines. The Champions League game: one per line, `ONE|TWO
    /// KIND ROTATION FLIP ROW COL` (the place_to arguments), `ONE|TWO
    /// row,col row,col …` or `ONE|TWO pass`.
    #[arg(long)]
    pub(crate) moves: Option<PathBuf>,
    /// Count up to this many placements deep.
    #[arg(long)]
    pub(crate) depth: u32,
    /// Blokus (2021, 2027) and Ostseeschach 2022: also split perft(1) by
    /// the kind of the piece placed or moved.
    #[arg(long)]
    pub(crate) by_kind: bool,
}

fn parse_kind(name: &str) -> Result<PieceKind, String> {
    name.parse()
        .map_err(|_| format!("unknown piece kind `{name}` (e.g. PENTO_L)"))
}

fn parse_start_line(text: &str) -> Result<StartLine, String> {
    text.parse().map_err(|error| format!("{error}"))
}

/// A move of a move file that cannot be played; `P` is the game's error for
/// a malformed move text, `M` its mistake.
#[derive(Debug, thiserror::Error)]
pub enum MoveFileError<P, M> {
    /// The text is not a move in the game's text form.
    #[error("line {line}: `{text}`: {cause}")]
    Malformed {
        /// 1-based line number.
        line: usize,
        /// The move's text (Blokus: the line, trimmed).
        text: String,
        /// What is wrong with it.
        cause: P,
    },
    /// The move is illegal in the position reached.
    #[error("line {line}: `{text}` is illegal at turn {turn}: {mistake} ({name})")]
    Illegal {
        /// 1-based line number.
        line: usize,
        /// The move's text (Blokus: the line, trimmed).
        text: String,
        /// The turn at which it was tried.
        turn: u32,
        /// Why it is illegal.
        mistake: M,
        /// The mistake's official name.
        name: &'static str,
    },
}

/// Plays the moves of a move file of one move per line (`#` starts a
/// comment) on `game`: each line parsed by `parse`, then played by `play`,
/// which gives the mistake and its name; `turn` tells the turn it was tried
/// at.
///
/// # Errors
///
/// The first malformed or illegal line.
pub(crate) fn replay_lines<G, M, P, E>(
    mut game: G,
    text: &str,
    turn: impl Fn(&G) -> u32,
    parse: impl Fn(&str) -> Result<M, P>,
    mut play: impl FnMut(&mut G, &M) -> Result<(), (E, &'static str)>,
) -> Result<G, MoveFileError<P, E>> {
    for (index, raw) in text.lines().enumerate() {
        let content = raw.split('#').next().unwrap_or_default().trim();
        if content.is_empty() {
            continue;
        }
        let line = index + 1;
        let mv = parse(content).map_err(|cause| MoveFileError::Malformed {
            line,
            text: content.to_owned(),
            cause,
        })?;
        let at = turn(&game);
        play(&mut game, &mv).map_err(|(mistake, name)| MoveFileError::Illegal {
            line,
            text: content.to_owned(),
            turn: at,
            mistake,
            name,
        })?;
    }
    Ok(game)
}

/// A game's report in `spielleiter perft`, implemented by its marker type
/// ([`entry`]) in the game's module of [`show`](crate::show).
pub trait PerftReport: CatalogueEntry {
    /// Counts as `args` ask, printing the report to stdout.
    ///
    /// # Errors
    ///
    /// Options the game does not take; an unreadable, malformed or illegal
    /// move file.
    fn run(args: &PerftArgs) -> anyhow::Result<()>;
}

/// Generates [`run`] from the rules catalogue's list (through
/// [`spielleiter_rules::for_each_game!`]).
macro_rules! perft_catalogue {
    ($(
        $(#[doc = $doc:literal])*
        $(#[cfg($cfg:meta)])?
        $variant:ident { $($field:tt)* }
    )*) => {
        /// Runs the subcommand, printing to stdout.
        ///
        /// # Errors
        ///
        /// An unreadable, malformed or illegal move file.
        pub fn run(args: &PerftArgs) -> anyhow::Result<()> {
            match args.game {
                $(
                    $(#[cfg($cfg)])?
                    GameType::$variant => <entry::$variant as PerftReport>::run(args),
                )*
            }
        }
    };
}

spielleiter_rules::for_each_game!(perft_catalogue);

/// Any game: the generic count from the initial position (for games without
/// a move file format or a faster counter of their own: the test games).
///
/// # Errors
///
/// Options only the hosted games take.
#[allow(
    dead_code,
    reason = "only the test games (feature test-games of the rules) use it"
)]
pub fn generic_report(game_type: GameType, args: &PerftArgs) -> anyhow::Result<()> {
    if args.start_piece.is_some()
        || args.start_line.is_some()
        || args.moves.is_some()
        || args.by_kind
    {
        bail!(
            "--start-piece, --start-line, --moves and --by-kind are for the Blokus seasons and Ostseeschach only"
        );
    }
    let mut rng = Pcg64::new(u128::from(args.seed.unwrap_or(0)), 0x0a02_bdbf_7bb3_c0a7);
    let game = AnyGame::new(game_type, &mut rng);
    let mut out = String::new();
    let _ = match game.player_to_move() {
        Some(seat) => writeln!(
            out,
            "{game_type}, turn {}, team {} to move",
            game.turn(),
            seat_label(seat)
        ),
        None => writeln!(out, "{game_type}, turn {}, game over", game.turn()),
    };
    counts(&mut out, args.depth, |depth| {
        spielleiter_rules::perft(&game, depth)
    });
    print!("{out}");
    Ok(())
}

/// The text of `--moves` (empty without one) and how to name it in errors.
pub(crate) fn move_file(args: &PerftArgs) -> anyhow::Result<(String, String)> {
    match &args.moves {
        Some(path) => Ok((
            std::fs::read_to_string(path)
                .with_context(|| format!("cannot read move file {}", path.display()))?,
            path.display().to_string(),
        )),
        None => Ok((String::new(), "(no move file)".to_owned())),
    }
}

/// `perft d N (… s, … nodes/s)` for d = 1 ..= `depth`, counted by `count`.
pub(crate) fn counts(out: &mut String, depth: u32, count: impl Fn(u32) -> u64) {
    for d in 1..=depth {
        let started = Instant::now();
        let nodes = count(d);
        let seconds = started.elapsed().as_secs_f64();
        let _ = writeln!(out, "perft {d} {nodes} ({})", timing(nodes, seconds));
    }
}

/// Shortest count worth a rate: a count over less time than this says
/// more about the clock than about the move generator.
const SHORTEST_TIMED_SECONDS: f64 = 0.01;

/// `1.380 s, 30.1 M nodes/s`, `0.020 s, 2,900 nodes/s`, or only the time
/// when it is too short for a rate.
fn timing(nodes: u64, seconds: f64) -> String {
    if seconds < SHORTEST_TIMED_SECONDS {
        return format!("{seconds:.3} s");
    }
    let rate = nodes as f64 / seconds;
    if rate >= 1e6 {
        format!("{seconds:.3} s, {:.1} M nodes/s", rate / 1e6)
    } else {
        format!("{seconds:.3} s, {} nodes/s", grouped(rate as u64))
    }
}

/// `1234567` as `1,234,567`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_grouped_and_left_out_for_counts_too_quick_to_time() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(223_346_019), "223,346,019");
        assert_eq!(timing(58, 0.0), "0.000 s");
        assert_eq!(timing(30_000, 0.02), "0.020 s, 1.5 M nodes/s");
        assert_eq!(timing(2_900, 0.02), "0.020 s, 145,000 nodes/s");
    }
}
