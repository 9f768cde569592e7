//! Ostseeschach's board and moves for a person's page: each piece or tower
//! in its team's colour with its kind's letter, each move a step from a
//! field to a field. Column = x (the forward axis: ONE starts on the left),
//! row = y.

use spielleiter_rules::{
    Game, entry,
    ostseeschach::{BOARD_SIZE, Coordinates, Mistake, Move, Ostseeschach, PieceKind, Team},
};

use super::board::{Attempt, Board, Cell, Choice, GamePlay, LEGAL_AFTER_ALL};

/// The page's colour of each team (as the pictures draw them).
fn fill(team: Team) -> &'static str {
    match team {
        Team::One => "red",
        Team::Two => "blue",
    }
}

fn field(at: Coordinates) -> [i32; 2] {
    [at.x, at.y]
}

/// A kind's English name, as the board's key gives it.
pub(super) fn kind_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Herzmuschel => "cockle",
        PieceKind::Moewe => "gull",
        PieceKind::Seestern => "starfish",
        PieceKind::Robbe => "seal",
    }
}

/// How a kind of `team` moves, in words ("forward" is to the right for
/// ONE, to the left for TWO on the page).
fn movement(kind: PieceKind, team: Team) -> String {
    let forward = if team.direction() > 0 {
        "to the right"
    } else {
        "to the left"
    };
    match kind {
        PieceKind::Herzmuschel => {
            format!("a cockle moves one field diagonally forward ({forward})")
        }
        PieceKind::Moewe => "a gull moves one field straight up, down, left or right".to_owned(),
        PieceKind::Seestern => format!(
            "a starfish moves one field diagonally, or one field straight forward ({forward})"
        ),
        PieceKind::Robbe => {
            "a seal jumps like a knight in chess: two fields one way, then one to the side"
                .to_owned()
        }
    }
}

/// Why the piece on `from` cannot be chosen to move, or `None` if it can.
fn piece_refusal(game: &Ostseeschach, from: Coordinates) -> Option<String> {
    let team = game.team_to_move();
    let Some(piece) = game.piece_at(from) else {
        return Some(
            "There is no piece on that field: choose one of your marked pieces.".to_owned(),
        );
    };
    if piece.team != team {
        return Some(format!(
            "That is not your piece: yours are the {} ones.",
            fill(team)
        ));
    }
    let mut moves = 0;
    game.for_each_legal_move(|mv| moves += usize::from(mv.from == from));
    (moves == 0).then(|| {
        format!(
            "That {} cannot move anywhere now: {}, and every such field is off the board or taken by your own pieces.",
            kind_name(piece.kind),
            movement(piece.kind, team)
        )
    })
}

impl GamePlay for entry::Ostseeschach2022 {
    fn board(game: &Ostseeschach) -> Board {
        let size = BOARD_SIZE;
        let mut board = Board::empty(size, size);
        for (at, piece) in game.pieces() {
            if let Some(cell) = board.cell_mut(at.x, at.y) {
                let letter = piece.kind.letter();
                *cell = Cell {
                    fill: Some(fill(piece.team)),
                    // A tower shows its height.
                    text: Some(match piece.count {
                        1 => letter.to_string(),
                        count => format!("{letter}{count}"),
                    }),
                };
            }
        }
        board.color = Some(fill(game.team_to_move()));
        board.seat_colors = Team::ALL.iter().map(|&team| vec![fill(team)]).collect();
        board.key = "ONE red, TWO blue · H cockle (Herzmuschel) · M gull (Möwe) · S starfish \
                     (Seestern) · R seal (Robbe) · a number: a tower's height"
            .to_owned();
        board
    }

    fn refusal(game: &Ostseeschach, attempt: &Attempt) -> String {
        let Some([fx, fy]) = attempt.from else {
            return "Choose one of your marked pieces first.".to_owned();
        };
        let from = Coordinates::new(fx, fy);
        let Some(&[tx, ty]) = attempt.cells.first() else {
            // Only a piece clicked.
            return piece_refusal(game, from).unwrap_or_else(|| LEGAL_AFTER_ALL.to_owned());
        };
        let team = game.team_to_move();
        let Err(mistake) = game.is_legal(&Move::new(fx, fy, tx, ty)) else {
            return LEGAL_AFTER_ALL.to_owned();
        };
        let kind = game.piece_at(from).map(|piece| piece.kind);
        match (mistake, kind) {
            (Mistake::OutOfBounds, _) => "That field is off the board.".to_owned(),
            (Mistake::InvalidMovement, Some(kind)) => {
                format!("That piece cannot move there: {}.", movement(kind, team))
            }
            (Mistake::DestinationBlocked, Some(kind)) => format!(
                "That {} cannot move there: your own piece stands there.",
                kind_name(kind)
            ),
            // The start field holds no piece of the team to move.
            _ => piece_refusal(game, from).unwrap_or_else(|| "That is no legal move.".to_owned()),
        }
    }

    fn choice(_game: &Ostseeschach, mv: &Move) -> Choice {
        Choice {
            label: format!("{} to {}", mv.from, mv.to),
            piece: None,
            from: Some(field(mv.from)),
            cells: vec![field(mv.to)],
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use rand::SeedableRng;
    use spielleiter_rules::{AnyGame, GameType, ostseeschach};

    use super::{super::board::refusal, *};

    #[test]
    fn a_refused_ostseeschach_click_names_the_piece_and_how_it_moves() {
        let game = AnyGame::new(
            GameType::Ostseeschach2022,
            &mut rand_pcg::Pcg64::seed_from_u64(11),
        );
        let AnyGame::Ostseeschach2022(typed) = &game else {
            unreachable!()
        };
        let team = typed.team_to_move();
        let pieces: Vec<_> = typed.pieces().collect();
        let why = |from: ostseeschach::Coordinates, to: Option<[i32; 2]>| {
            refusal(
                &game,
                &Attempt {
                    piece: None,
                    cells: to.into_iter().collect(),
                    from: Some([from.x, from.y]),
                },
            )
        };
        // A field without a piece, and the opponent's piece.
        let empty = (0..8)
            .flat_map(|x| (0..8).map(move |y| ostseeschach::Coordinates::new(x, y)))
            .find(|&at| typed.piece_at(at).is_none())
            .expect("an empty field");
        assert!(
            why(empty, None).contains("no piece on that field"),
            "{}",
            why(empty, None)
        );
        let (theirs, _) = pieces.iter().find(|(_, p)| p.team != team).expect("theirs");
        assert!(
            why(*theirs, None).starts_with("That is not your piece"),
            "{}",
            why(*theirs, None)
        );
        // Each own piece: to every field on the board, and off it.
        let mut said = BTreeMap::new();
        for &(from, piece) in pieces.iter().filter(|(_, p)| p.team == team) {
            for x in -1..9 {
                for y in 0..8 {
                    let mv = ostseeschach::Move::new(from.x, from.y, x, y);
                    let Err(mistake) = typed.is_legal(&mv) else {
                        assert_eq!(why(from, Some([x, y])), LEGAL_AFTER_ALL);
                        continue;
                    };
                    let text = why(from, Some([x, y]));
                    let expected = match mistake.name() {
                        "OUT_OF_BOUNDS" => "off the board".to_owned(),
                        "INVALID_MOVEMENT" => {
                            format!("That piece cannot move there: a {}", kind_name(piece.kind))
                        }
                        "DESTINATION_BLOCKED" => "your own piece stands there".to_owned(),
                        other => panic!("{other} for {mv:?}"),
                    };
                    assert!(
                        text.contains(&expected),
                        "{mv:?}: {text:?} does not say {expected:?}"
                    );
                    said.insert(mistake.name(), text);
                }
            }
        }
        assert_eq!(said.len(), 3, "{said:?}");
    }
}
