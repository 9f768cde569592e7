//! Ostseeschach 2022 in the terminal: for people, seats as teams with
//! their colour and direction, ambers and the light pieces' lead as points
//! (its board is drawn by the renderer, `spielleiter-render`); and its
//! report in `spielleiter perft`: the start line chosen (`--start-line`), a
//! move file, its fast counter and the split by the kind of the moving
//! piece. The counting rules are those of
//! `spielleiter_rules::ostseeschach::perft`: one node per legal move, and a
//! finished position is a leaf only at the full depth.

use std::fmt::Write as _;

use anyhow::{Context, bail};
use spielleiter_protocol::Decimal;
use spielleiter_rules::{
    entry,
    ostseeschach::{self, Ostseeschach, StartLine, Team},
};

use super::{GameView, Presentation};
use crate::perft::{MoveFileError, PerftArgs, PerftReport, counts, move_file};

/// Ostseeschach 2022's [`Presentation`].
#[derive(Clone, Copy, Debug)]
pub struct Ostseeschach2022;

/// How a team is described: its official colour and where it starts.
fn team_description(team: Team) -> &'static str {
    match team {
        Team::One => "red, from x = 0",
        Team::Two => "blue, from x = 7",
    }
}

impl Presentation for Ostseeschach2022 {
    fn seat(&self, seat: usize, name: &str) -> String {
        let team = Team::ALL[seat.min(1)];
        let description = team_description(team);
        if name.is_empty() {
            format!("team {team} ({description})")
        } else {
            format!("{name} (team {team}: {description})")
        }
    }

    /// `N ambers, light piece ahead: K` from the parts `Bernsteine` and
    /// `Leichtfiguren Vorne`, worded as the pages and pictures word them.
    fn points(&self, parts: &[Decimal]) -> String {
        let part = |index: usize| {
            parts
                .get(index)
                .map_or_else(|| "?".to_owned(), Decimal::to_string)
        };
        let ambers = part(0);
        let word = if ambers == "1" { "amber" } else { "ambers" };
        format!("{ambers} {word}, light piece ahead: {}", part(1))
    }
}

impl GameView for entry::Ostseeschach2022 {
    const PRESENTATION: &'static dyn Presentation = &Ostseeschach2022;
}

impl PerftReport for entry::Ostseeschach2022 {
    fn run(args: &PerftArgs) -> anyhow::Result<()> {
        run_ostseeschach_2022(args)
    }
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

/// Ostseeschach 2022: the start line, a move file, the fast counter.
fn run_ostseeschach_2022(args: &PerftArgs) -> anyhow::Result<()> {
    let game = args.game;
    if args.seed.is_some() || args.start_piece.is_some() {
        bail!("{game} takes --start-line, not --seed or --start-piece");
    }
    let start_line = args
        .start_line
        .with_context(|| format!("{game} needs --start-line (e.g. HMSRHMSR)"))?;
    let (text, source) = move_file(args)?;
    let game = replay_ostseeschach(start_line, &text).with_context(|| format!("in {source}"))?;
    print!(
        "{}",
        ostseeschach_report(start_line, &game, args.depth, args.by_kind)
    );
    Ok(())
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

#[cfg(test)]
mod tests {
    use spielleiter_protocol::{
        GameType,
        dialect::ResultLayout,
        games::ostseeschach2022::score_definition,
        result::{GameResult, PlayerScore, ScoreCause},
    };

    use super::*;
    use crate::show::result_text;

    #[test]
    fn results_name_teams_ambers_lead_and_the_winner() {
        let score = |cause, parts: [i64; 3]| PlayerScore {
            display_name: String::new(),
            cause,
            reason: String::new(),
            parts: parts.into_iter().map(Decimal::integer).collect(),
        };
        let result = GameResult {
            layout: ResultLayout::Season2022,
            definition: score_definition(),
            scores: vec![
                score(ScoreCause::Regular, [1, 1, 3]),
                score(ScoreCause::Regular, [1, 1, 3]),
            ],
            winners: Vec::new(),
            conclusion: None,
        };
        let text = result_text(
            GameType::Ostseeschach2022,
            &result,
            &["alice".to_owned(), String::new()],
        );
        assert_eq!(
            text,
            "alice (team ONE: red, from x = 0): 1 amber, light piece ahead: 3, REGULAR\n\
             team TWO (blue, from x = 7): 1 amber, light piece ahead: 3, REGULAR\n\
             No winner.\n"
        );
    }
}
