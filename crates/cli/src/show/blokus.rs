//! The 20×20 Blokus games in the terminal: for people, the seasons (2021,
//! 2027) with seats as teams with their colours, classic Blokus with seats,
//! colours, points and places (their boards are drawn by the renderer,
//! `spielleiter-render`); and their reports in `spielleiter perft`.
//!
//! The seasons' perft takes a move file and the start piece
//! (`--start-piece`), counts with their fast counter and splits perft(1) by
//! piece kind; the counting rules are those of
//! `spielleiter_rules::blokus::perft`: one node per distinct placement, no
//! voluntary skips, stuck colours removed without a node. Classic Blokus
//! counts as the seasons do, replays move files in its own notation (the
//! seasons' lines, Pentobi's cells, `COLOR pass` for a stuck colour) and
//! prints every colour's points after the file.

use std::fmt::Write as _;

use anyhow::{Context, bail};
use spielleiter_protocol::{Decimal, seats::seat_label};
use spielleiter_rules::{
    blokus::{
        Classic, ClassicMistake, ClassicPlayers, Color, Mistake, Move, PieceKind, Swc2021, Swc2027,
        SwcBlokus, SwcVariant, Team,
        notation::{ParseMoveError, parse_classic},
        perft::{perft, perft_by_kind},
    },
    entry,
};

use super::{GameView, Presentation};
use crate::perft::{MoveFileError, PerftArgs, PerftReport, counts, move_file, replay_lines};

/// The [`Presentation`] of the Blokus seasons.
#[derive(Clone, Copy, Debug)]
pub struct SwcBlokusPresentation;

impl Presentation for SwcBlokusPresentation {
    fn seat(&self, seat: usize, name: &str) -> String {
        let team = Team::ALL[seat.min(1)];
        let [a, b] = team.colors().map(Color::name);
        if name.is_empty() {
            format!("team {} ({a}, {b})", team.name())
        } else {
            format!("{name} (team {}: {a}, {b})", team.name())
        }
    }

    fn points(&self, parts: &[Decimal]) -> String {
        let points = parts
            .first()
            .map_or_else(|| "?".to_owned(), Decimal::to_string);
        format!("{points} points")
    }
}

/// The [`Presentation`] of classic Blokus for `players`.
#[derive(Clone, Copy, Debug)]
pub struct ClassicPresentation(pub ClassicPlayers);

impl Presentation for ClassicPresentation {
    /// `alice (seat ONE: BLUE, RED)`; in the three-player game GREEN,
    /// played in turn, is named with nobody.
    fn seat(&self, seat: usize, name: &str) -> String {
        let colors: Vec<&str> = if seat < self.0.count() {
            self.0
                .scoring_colors(seat)
                .iter()
                .map(|c| c.name())
                .collect()
        } else {
            Vec::new()
        };
        let label = seat_label(seat);
        let colors = colors.join(", ");
        if name.is_empty() {
            format!("seat {label} ({colors})")
        } else {
            format!("{name} (seat {label}: {colors})")
        }
    }

    /// `87 points, place 1`.
    fn points(&self, parts: &[Decimal]) -> String {
        let part = |i: usize| {
            parts
                .get(i)
                .map_or_else(|| "?".to_owned(), Decimal::to_string)
        };
        format!("{} points, place {}", part(0), part(1))
    }
}

impl GameView for entry::Blokus2021 {
    const PRESENTATION: &'static dyn Presentation = &SwcBlokusPresentation;
}

impl GameView for entry::Blokus2027 {
    const PRESENTATION: &'static dyn Presentation = &SwcBlokusPresentation;
}

impl GameView for entry::BlokusClassic {
    const PRESENTATION: &'static dyn Presentation = &ClassicPresentation(ClassicPlayers::Four);
}

impl GameView for entry::BlokusClassic3 {
    const PRESENTATION: &'static dyn Presentation = &ClassicPresentation(ClassicPlayers::Three);
}

impl GameView for entry::BlokusClassic2 {
    const PRESENTATION: &'static dyn Presentation = &ClassicPresentation(ClassicPlayers::Two);
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

/// Plays the moves of a move file's text from the initial position of a
/// game of the season `V`.
///
/// # Errors
///
/// The first malformed or illegal line.
pub fn replay_season<V: SwcVariant>(
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
    let position =
        replay_season::<V>(start_piece, &text).with_context(|| format!("in {source}"))?;
    print!("{}", season_report(&position, args.depth, args.by_kind));
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

/// The report: the position's summary, perft(1) … perft(depth) with timing,
/// and optionally perft(1) by kind.
fn season_report<V: SwcVariant>(game: &SwcBlokus<V>, depth: u32, by_kind: bool) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::show::result_text;
    use spielleiter_protocol::{
        GameType,
        dialect::ResultLayout,
        games::blokus2021::score_definition,
        result::{GameResult, PlayerScore, ScoreCause, Winner},
    };

    #[test]
    fn results_name_teams_points_causes_and_the_winner() {
        let score = |cause, points| PlayerScore {
            display_name: String::new(),
            cause,
            reason: String::new(),
            parts: vec![Decimal::integer(0), Decimal::integer(points)],
        };
        let result = GameResult {
            layout: ResultLayout::Season2021,
            definition: score_definition(),
            scores: vec![
                score(ScoreCause::Regular, 87),
                score(ScoreCause::SoftTimeout, 65),
            ],
            winners: vec![Winner {
                display_name: "alice".to_owned(),
                seat: 0,
            }],
            conclusion: None,
        };
        let text = result_text(
            GameType::Blokus2021,
            &result,
            &["alice".to_owned(), String::new()],
        );
        assert_eq!(
            text,
            "alice (team ONE: BLUE, RED): 87 points, REGULAR\n\
             team TWO (YELLOW, GREEN): 65 points, SOFT_TIMEOUT\n\
             Winner: alice (team ONE: BLUE, RED)\n"
        );
    }

    #[test]
    fn a_move_file_with_comments_and_blank_lines_replays() {
        let text = "# opening\n\nBLUE PENTO_L LEFT false 16 0 # top right\nYELLOW PENTO_L NONE false 0 0\n";
        let game = replay_season::<Swc2021>(PieceKind::PentoL, text).expect("legal moves");
        assert_eq!(game.turn(), 2);
        let report = season_report(&game, 1, true);
        assert!(report.starts_with("start piece PENTO_L, turn 2, round 1, RED to move\nperft 1 "));
        assert!(report.contains("\nPENTO_L "));
    }

    #[test]
    fn errors_name_the_line() {
        let malformed =
            replay_season::<Swc2021>(PieceKind::PentoL, "\nBLUE PENTO_L SIDEWAYS false 0 0\n");
        let error = malformed.expect_err("bad rotation").to_string();
        assert!(
            error.starts_with("line 2: `BLUE PENTO_L SIDEWAYS false 0 0`: unknown rotation"),
            "{error}"
        );

        let illegal = replay_season::<Swc2021>(
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
        let game = replay_season::<Swc2027>(PieceKind::PentoV, text).expect("legal in 2027");
        assert!(
            season_report(&game, 1, false)
                .starts_with("start piece PENTO_V, turn 4, round 2, BLUE to move\nperft 1 ")
        );
        let error = replay_season::<Swc2021>(PieceKind::PentoV, text)
            .expect_err("not in a corner")
            .to_string();
        assert!(error.starts_with("line 4: "), "{error}");
        assert!(error.ends_with("(NOT_IN_CORNER)"), "{error}");
        // PENTO_X, never drawn in 2021, touches the border in 68 ways.
        let x = replay_season::<Swc2027>(PieceKind::PentoX, "").expect("no moves");
        assert!(season_report(&x, 1, false).contains("\nperft 1 68 ("));
    }
}
