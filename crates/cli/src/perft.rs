//! `spielleiter perft --game ID`: counts the move sequences of each length
//! up to a depth from a game's initial position.
//!
//! Every game counts with the rules crate's generic `perft` (one node per
//! distinct effect, no optional moves, nothing past the end of the game).
//! The Blokus seasons (2021, 2027) have more: a move file replayed first,
//! the start piece chosen (`--start-piece`), their fast counter and a split
//! by piece kind; their counting rules are those of
//! `spielleiter_rules::blokus::perft`: one node per distinct placement, no
//! voluntary skips, stuck colours removed without a node. So has
//! Ostseeschach 2022: the start line chosen (`--start-line`), a move file,
//! its fast counter and the split by the kind of the moving piece; its
//! counting rules are those of `spielleiter_rules::ostseeschach::perft`:
//! one node per legal move, and a finished position is a leaf only at the
//! full depth. Classic Blokus (`blokus_classic`, `_3`, `_2`) counts as the
//! seasons do, replays move files in its own notation (the seasons' lines,
//! Pentobi's cells, `COLOR pass` for a stuck colour) and prints every
//! colour's points after the file. The BLOKUS Champions League game
//! (`blokus_bcl`) takes a move file in its own notation and counts as the
//! Blokus seasons do (one node per distinct kind and fields, stuck players
//! skipped without a node).
//!
//! Each game's report is its [`PerftReport`]; [`run`] is generated from
//! the rules catalogue's list, so a game without one does not compile.

use std::{fmt::Write as _, path::PathBuf, time::Instant};

use anyhow::{Context, bail};
use clap::Args;
use rand_pcg::Pcg64;
use spielleiter_protocol::seats::seat_label;
use spielleiter_rules::{
    AnyGame, CatalogueEntry, Game, GameType,
    blokus::{
        Classic, ClassicMistake, ClassicPlayers, Color, Mistake, Move, PieceKind, Swc2021, Swc2027,
        SwcBlokus, SwcVariant,
        bcl::{Bcl, BclMistake, BclMove, ParseBclMoveError},
        notation::{ParseMoveError, parse_classic},
        perft::{perft, perft_by_kind},
    },
    entry,
    ostseeschach::{self, Ostseeschach, StartLine},
};

/// Arguments of `spielleiter perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// The game.
    #[arg(long, default_value_t = GameType::DEFAULT, value_name = "ID")]
    game: GameType,
    /// Blokus (2021, 2027): the start piece shared by all colours, e.g.
    /// PENTO_L.
    #[arg(long, value_parser = parse_kind)]
    start_piece: Option<PieceKind>,
    /// Ostseeschach 2022: ONE's start line, 8 letters for y = 0 to 7 (`H`
    /// Herzmuschel, `M` Möwe, `S` Seestern, `R` Robbe; two of each), e.g.
    /// HMSRHMSR; TWO gets its rotation by 180°.
    #[arg(long, value_name = "LINE", value_parser = parse_start_line)]
    start_line: Option<StartLine>,
    /// Other games: the seed of what the game leaves to chance [default: 0].
    #[arg(long)]
    seed: Option<u64>,
    /// A file of moves to play first; `#` starts a comment. Blokus (2021,
    /// 2027): one per line, `COLOR KIND ROTATION FLIPPED X Y` or `COLOR
    /// SKIP`. Classic Blokus: one per line, `COLOR KIND ROTATION FLIPPED X
    /// Y`, `COLOR CELLS` with the cells in Pentobi's notation (`BLUE
    /// a20,b20,c20`; `a1` is the lower-left field) or `COLOR pass` (only for
    /// a colour that cannot place). Ostseeschach 2022: `FX,FY-TX,TY`,
    /// separated by spaces or newlines. blokus_bcl: one per line, `ONE|TWO
    /// KIND ROTATION FLIP ROW COL` (the place_to arguments), `ONE|TWO
    /// row,col row,col …` or `ONE|TWO pass`.
    #[arg(long)]
    moves: Option<PathBuf>,
    /// Count up to this many placements deep.
    #[arg(long)]
    depth: u32,
    /// Blokus (2021, 2027) and Ostseeschach 2022: also split perft(1) by
    /// the kind of the piece placed or moved.
    #[arg(long)]
    by_kind: bool,
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
fn replay_lines<G, M, P, E>(
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

/// Plays the moves of a move file's text from the initial position of a
/// game of the season `V`.
///
/// # Errors
///
/// The first malformed or illegal line.
pub fn replay<V: SwcVariant>(
    start_piece: PieceKind,
    text: &str,
) -> Result<SwcBlokus<V>, MoveFileError<ParseMoveError, Mistake>> {
    replay_lines(
        SwcBlokus::<V>::new(start_piece),
        text,
        SwcBlokus::turn,
        str::parse::<Move>,
        |game, mv| game.play(mv).map_err(|m| (m, m.name())),
    )
}

/// Plays the moves of a classic Blokus move file's text (see
/// [`parse_classic`]; `#` comments) from the initial position of a game of
/// `players`. A pass is accepted for a colour the rules have skipped
/// already ([`Classic::play_recorded`]).
///
/// # Errors
///
/// The first malformed or illegal line.
pub fn replay_classic(
    players: ClassicPlayers,
    text: &str,
) -> Result<Classic, MoveFileError<ParseMoveError, ClassicMistake>> {
    replay_lines(
        Classic::new(players),
        text,
        Classic::turn,
        parse_classic,
        |game, mv| game.play_recorded(mv).map_err(|m| (m, m.name())),
    )
}

/// Plays the moves of a BCL move file's text (one move per line in the
/// rules' notation, `#` comments) from the initial position. A pass of a
/// player the rules have already skipped is accepted, as in game records.
///
/// # Errors
///
/// The first malformed or illegal line.
pub fn replay_bcl(text: &str) -> Result<Bcl, MoveFileError<ParseBclMoveError, BclMistake>> {
    replay_lines(
        Bcl::new(),
        text,
        Bcl::turn,
        str::parse::<BclMove>,
        |game, mv| game.play_recorded(mv).map_err(|m| (m, m.name())),
    )
}

/// Plays the moves of an Ostseeschach move file's text (`FX,FY-TX,TY`,
/// separated by whitespace, `#` comments) from the position dealt with
/// `start_line`.
///
/// # Errors
///
/// The first malformed or illegal move.
pub fn replay_ostseeschach(
    start_line: StartLine,
    text: &str,
) -> Result<
    Ostseeschach,
    MoveFileError<ostseeschach::notation::ParseMoveError, ostseeschach::Mistake>,
> {
    let mut game = Ostseeschach::new(start_line);
    for (line, word) in ostseeschach::notation::move_file_words(text) {
        let mv: ostseeschach::Move = word.parse().map_err(|cause| MoveFileError::Malformed {
            line,
            text: word.to_owned(),
            cause,
        })?;
        game.play(&mv).map_err(|mistake| MoveFileError::Illegal {
            line,
            text: word.to_owned(),
            turn: game.turn(),
            mistake,
            name: mistake.name(),
        })?;
    }
    Ok(game)
}

/// A game's report in `spielleiter perft`, implemented by its marker type
/// ([`entry`]): here for the hosted games, in the
/// game's module of `show` for the test games.
pub trait PerftReport: CatalogueEntry {
    /// Counts as `args` ask, printing the report to stdout.
    ///
    /// # Errors
    ///
    /// Options the game does not take; an unreadable, malformed or illegal
    /// move file.
    fn run(args: &PerftArgs) -> anyhow::Result<()>;
}

impl PerftReport for entry::Blokus2021 {
    fn run(args: &PerftArgs) -> anyhow::Result<()> {
        run_swc_blokus::<Swc2021>(args)
    }
}

impl PerftReport for entry::Blokus2027 {
    fn run(args: &PerftArgs) -> anyhow::Result<()> {
        run_swc_blokus::<Swc2027>(args)
    }
}

impl PerftReport for entry::BlokusClassic {
    fn run(args: &PerftArgs) -> anyhow::Result<()> {
        run_classic(ClassicPlayers::Four, args)
    }
}

impl PerftReport for entry::BlokusClassic3 {
    fn run(args: &PerftArgs) -> anyhow::Result<()> {
        run_classic(ClassicPlayers::Three, args)
    }
}

impl PerftReport for entry::BlokusClassic2 {
    fn run(args: &PerftArgs) -> anyhow::Result<()> {
        run_classic(ClassicPlayers::Two, args)
    }
}

impl PerftReport for entry::Ostseeschach2022 {
    fn run(args: &PerftArgs) -> anyhow::Result<()> {
        run_ostseeschach_2022(args)
    }
}

impl PerftReport for entry::BlokusBcl {
    fn run(args: &PerftArgs) -> anyhow::Result<()> {
        run_bcl(args)
    }
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

/// A Blokus season: a move file and the start piece, the fast counter.
fn run_swc_blokus<V: SwcVariant>(args: &PerftArgs) -> anyhow::Result<()> {
    let game = args.game;
    if args.seed.is_some() || args.start_line.is_some() {
        bail!("{game} takes --start-piece, not --seed or --start-line");
    }
    let start_piece = args
        .start_piece
        .with_context(|| format!("{game} needs --start-piece (e.g. PENTO_L)"))?;
    let (text, source) = move_file(args)?;
    let position = replay::<V>(start_piece, &text).with_context(|| format!("in {source}"))?;
    print!("{}", report(&position, args.depth, args.by_kind));
    Ok(())
}

/// Classic Blokus: a move file, the points it leaves, the fast counter.
fn run_classic(players: ClassicPlayers, args: &PerftArgs) -> anyhow::Result<()> {
    let game = args.game;
    if args.seed.is_some() || args.start_line.is_some() || args.start_piece.is_some() {
        bail!("{game} takes only --moves and --depth (no start piece, seed or start line)");
    }
    if args.by_kind {
        bail!("--by-kind is for the Blokus seasons and Ostseeschach only");
    }
    let (text, source) = move_file(args)?;
    let position = replay_classic(players, &text).with_context(|| format!("in {source}"))?;
    print!("{}", classic_report(&position, args.depth));
    Ok(())
}

/// The classic report: the position's summary, every colour's points
/// (`points BLUE n YELLOW n RED n GREEN n`), perft(1) … perft(depth).
fn classic_report(game: &Classic, depth: u32) -> String {
    let mut out = String::new();
    let _ = match game.player_to_move() {
        Some(seat) => writeln!(
            out,
            "{}, turn {}, round {}, {} to move (seat {})",
            game.players().game_id(),
            game.turn(),
            game.round(),
            game.current_color(),
            seat_label(seat)
        ),
        None => writeln!(
            out,
            "{}, turn {}, round {}, game over",
            game.players().game_id(),
            game.turn(),
            game.round()
        ),
    };
    out.push_str("points");
    for color in Color::ALL {
        let _ = write!(out, " {color} {}", game.color_points(color));
    }
    out.push('\n');
    counts(&mut out, depth, |d| perft(game, d));
    out
}

/// Ostseeschach 2022: the start line, a move file, the fast counter.
fn run_ostseeschach_2022(args: &PerftArgs) -> anyhow::Result<()> {
    if args.seed.is_some() || args.start_piece.is_some() {
        bail!("swc_2022_ostseeschach takes --start-line, not --seed or --start-piece");
    }
    let start_line = args
        .start_line
        .context("swc_2022_ostseeschach needs --start-line (e.g. HMSRHMSR)")?;
    let (text, source) = move_file(args)?;
    let game = replay_ostseeschach(start_line, &text).with_context(|| format!("in {source}"))?;
    print!(
        "{}",
        ostseeschach_report(start_line, &game, args.depth, args.by_kind)
    );
    Ok(())
}

/// The BLOKUS Champions League game: a move file, the fast counter.
fn run_bcl(args: &PerftArgs) -> anyhow::Result<()> {
    if args.seed.is_some()
        || args.start_piece.is_some()
        || args.start_line.is_some()
        || args.by_kind
    {
        bail!("blokus_bcl takes --moves and --depth only");
    }
    let (text, source) = move_file(args)?;
    let game = replay_bcl(&text).with_context(|| format!("in {source}"))?;
    print!("{}", bcl_report(&game, args.depth));
    Ok(())
}

/// The BCL report: the position's summary, then perft(1) … perft(depth)
/// with timing.
fn bcl_report(game: &Bcl, depth: u32) -> String {
    let mut out = String::new();
    let status = if game.is_over() { ", game over" } else { "" };
    let _ = writeln!(
        out,
        "turn {}, {} to move{status}",
        game.turn(),
        game.current_player()
    );
    counts(&mut out, depth, |d| perft(game, d));
    out
}

/// The text of `--moves` (empty without one) and how to name it in errors.
fn move_file(args: &PerftArgs) -> anyhow::Result<(String, String)> {
    match &args.moves {
        Some(path) => Ok((
            std::fs::read_to_string(path)
                .with_context(|| format!("cannot read move file {}", path.display()))?,
            path.display().to_string(),
        )),
        None => Ok((String::new(), "(no move file)".to_owned())),
    }
}

/// The Ostseeschach report: the position's summary, perft(1) …
/// perft(depth) with timing, and optionally perft(1) by the kind of the
/// moving piece.
fn ostseeschach_report(
    start_line: StartLine,
    game: &Ostseeschach,
    depth: u32,
    by_kind: bool,
) -> String {
    let mut out = String::new();
    let status = if game.is_over() { ", game over" } else { "" };
    let _ = writeln!(
        out,
        "start line {start_line}, turn {}, {} to move, ambers {}:{}{status}",
        game.turn(),
        game.team_to_move(),
        game.ambers(ostseeschach::Team::One),
        game.ambers(ostseeschach::Team::Two),
    );
    counts(&mut out, depth, |d| ostseeschach::perft::perft(game, d));
    if by_kind {
        let split = ostseeschach::perft::perft_by_kind(game);
        for (kind, count) in ostseeschach::PieceKind::ALL.iter().zip(split) {
            if count > 0 {
                let _ = writeln!(out, "{} {count}", kind.name());
            }
        }
    }
    out
}

/// The report: the position's summary, perft(1) … perft(depth) with timing,
/// and optionally perft(1) by kind.
fn report<V: SwcVariant>(game: &SwcBlokus<V>, depth: u32, by_kind: bool) -> String {
    let mut out = String::new();
    let status = if game.is_over() { ", game over" } else { "" };
    let _ = writeln!(
        out,
        "start piece {}, turn {}, round {}, {} to move{status}",
        game.start_piece(),
        game.turn(),
        game.round(),
        game.current_color()
    );
    counts(&mut out, depth, |d| perft(game, d));
    if by_kind {
        for (kind, count) in PieceKind::ALL.iter().zip(perft_by_kind(game)) {
            if count > 0 {
                let _ = writeln!(out, "{} {count}", kind.name());
            }
        }
    }
    out
}

/// `perft d N (… s, … nodes/s)` for d = 1 ..= `depth`, counted by `count`.
fn counts(out: &mut String, depth: u32, count: impl Fn(u32) -> u64) {
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

    #[test]
    fn a_move_file_with_comments_and_blank_lines_replays() {
        let text = "# opening\n\nBLUE PENTO_L LEFT false 16 0 # top right\nYELLOW PENTO_L NONE false 0 0\n";
        let game = replay::<Swc2021>(PieceKind::PentoL, text).expect("legal moves");
        assert_eq!(game.turn(), 2);
        let report = report(&game, 1, true);
        assert!(report.starts_with("start piece PENTO_L, turn 2, round 1, RED to move\nperft 1 "));
        assert!(report.contains("\nPENTO_L "));
    }

    #[test]
    fn errors_name_the_line() {
        let malformed = replay::<Swc2021>(PieceKind::PentoL, "\nBLUE PENTO_L SIDEWAYS false 0 0\n");
        let error = malformed.expect_err("bad rotation").to_string();
        assert!(
            error.starts_with("line 2: `BLUE PENTO_L SIDEWAYS false 0 0`: unknown rotation"),
            "{error}"
        );

        let illegal = replay::<Swc2021>(
            PieceKind::PentoL,
            "BLUE PENTO_L NONE false 0 0\nBLUE SKIP\n",
        );
        let error = illegal.expect_err("wrong colour").to_string();
        assert_eq!(
            error,
            "line 2: `BLUE SKIP` is illegal at turn 1: the move's colour is not on turn (WRONG_COLOR)"
        );
    }

    #[test]
    fn a_classic_move_file_takes_both_notations_and_prints_the_points() {
        // BLUE's and YELLOW's first pieces in Pentobi's cells, RED's in the
        // wire form, GREEN's monomino.
        let text = "BLUE a20,b20,c20 # TRIO_I\nYELLOW s20,t20,t19\n\
                    RED PENTO_V NONE false 17 17\nGREEN a1\n";
        let game = replay_classic(ClassicPlayers::Four, text).expect("legal");
        let report = classic_report(&game, 1);
        assert!(
            report.starts_with(
                "blokus_classic, turn 4, round 2, BLUE to move (seat ONE)\n\
                 points BLUE 3 YELLOW 3 RED 5 GREEN 1\nperft 1 "
            ),
            "{report}"
        );
        // A pass while a piece fits, and a first piece off the own corner.
        let error = replay_classic(ClassicPlayers::Two, "BLUE pass\n")
            .expect_err("no voluntary pass")
            .to_string();
        assert!(error.ends_with("(PASS_WHILE_PLACEMENT_EXISTS)"), "{error}");
        let error = replay_classic(ClassicPlayers::Three, "BLUE t1\n")
            .expect_err("RED's corner")
            .to_string();
        assert!(error.ends_with("(NOT_IN_OWN_CORNER)"), "{error}");
        let error = replay_classic(ClassicPlayers::Three, "BLUE a20,z9\n")
            .expect_err("no field z9")
            .to_string();
        assert!(
            error.starts_with("line 1: `BLUE a20,z9`: expected the cells"),
            "{error}"
        );
    }

    #[test]
    fn a_2027_move_file_follows_the_border_rule() {
        // GREEN starts in the middle of the bottom edge: legal in 2027 only.
        let text = "BLUE PENTO_V NONE false 0 0\nYELLOW PENTO_V RIGHT false 17 0\n\
                    RED PENTO_V MIRROR false 17 17\nGREEN PENTO_V NONE false 8 17\n";
        let game = replay::<Swc2027>(PieceKind::PentoV, text).expect("legal in 2027");
        assert!(
            report(&game, 1, false)
                .starts_with("start piece PENTO_V, turn 4, round 2, BLUE to move\nperft 1 ")
        );
        let error = replay::<Swc2021>(PieceKind::PentoV, text)
            .expect_err("not in a corner")
            .to_string();
        assert!(error.starts_with("line 4: "), "{error}");
        assert!(error.ends_with("(NOT_IN_CORNER)"), "{error}");
        // PENTO_X, never drawn in 2021, touches the border in 68 ways.
        let x = replay::<Swc2027>(PieceKind::PentoX, "").expect("no moves");
        assert!(report(&x, 1, false).contains("\nperft 1 68 ("));
    }

    #[test]
    fn a_bcl_move_file_takes_every_form() {
        // The rules' perft file's game after 6 blocks, in both forms.
        let text = "ONE BOOMERANG SINGLE NONE 2 0 # place_to\nTWO 9,9\n\
                    ONE CROWBAR DOUBLE HORIZONTAL 4 1\nTWO 5,8 5,9 6,8 6,9 7,8 8,8\n\
                    ONE HANDGUN DOUBLE HORIZONTAL 6 0\nTWO 7,6 8,6 9,6 9,7\n";
        let game = replay_bcl(text).expect("legal moves");
        let report = bcl_report(&game, 2);
        assert!(
            report.starts_with("turn 6, ONE to move\nperft 1 44 ("),
            "{report}"
        );
        assert!(report.contains("\nperft 2 764 ("), "{report}");
        let error = replay_bcl("ONE DOT NONE NONE 0 0\nTWO DOT NONE NONE 0 0\n")
            .expect_err("overlap")
            .to_string();
        assert_eq!(
            error,
            "line 2: `TWO DOT NONE NONE 0 0` is illegal at turn 1: the block would cover an occupied field (OVERLAP)"
        );
        let error = replay_bcl("ONE pass\n")
            .expect_err("a block fits")
            .to_string();
        assert!(error.ends_with("(PASS_WHILE_PLACEMENT_EXISTS)"), "{error}");
        let error = replay_bcl("ONE CIRCLE NONE NONE 0 0\n")
            .expect_err("no such kind")
            .to_string();
        assert!(
            error.starts_with("line 1: `ONE CIRCLE NONE NONE 0 0`: unknown block kind"),
            "{error}"
        );
    }
}
