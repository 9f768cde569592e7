//! Pictures of Ostseeschach: the 8×8 board with every piece as a disc of
//! its team's colour and its kind's letter (`H` Herzmuschel, `M` Möwe, `S`
//! Seestern, `R` Robbe), towers with the buried piece under the top one and
//! their height, the last move's two fields marked, and per team its
//! ambers (as gems) and score parts, worded as the pages word them (`2
//! ambers · light piece ahead: 3`).

use spielleiter_rules::{
    GameType, entry,
    ostseeschach::{BOARD_SIZE, Move, Ostseeschach, PieceKind, Team},
};

use crate::{
    GamePicture, Labels, Picture,
    scene::{Board, Ground, Scene, SeatLine, Swatch, Token, move_note, seat_name, title},
};

/// The teams' colours: ONE red, TWO blue, as the official viewer.
const TEAMS: [Swatch; 2] = [
    Swatch {
        name: "ONE",
        label: "red",
        fill: "#c8372d",
        letter: '1',
        ansi_background: 41,
    },
    Swatch {
        name: "TWO",
        label: "blue",
        fill: "#2f5fae",
        letter: '2',
        ansi_background: 44,
    },
];

/// The side of a field, in pixels.
const FIELD: u32 = 56;

/// The key to the letters, under the seats.
const KEY: &str = "H Herzmuschel · M Möwe · S Seestern · R Robbe · a number: a tower's height";

/// An Ostseeschach game.
pub fn picture(game: &Ostseeschach, labels: &Labels) -> Picture {
    let over = game.is_over() || labels.ended;
    let mut board = Board::new(BOARD_SIZE, BOARD_SIZE, FIELD, Ground::Checkered, &TEAMS);
    board.tokens = game
        .pieces()
        .filter_map(|(field, piece)| {
            let x = usize::try_from(field.x).ok()?;
            let y = usize::try_from(field.y).ok()?;
            Some(Token {
                x,
                y,
                color: piece.team.index(),
                // Only opponents are captured: a tower's buried piece is
                // the other team's.
                under: (piece.count > 1).then(|| piece.team.opponent().index()),
                letter: piece.kind.letter(),
                height: piece.count,
                label: piece.to_string(),
            })
        })
        .collect();
    if let Some(mv) = game.last_move() {
        board.last_move = [mv.from, mv.to]
            .into_iter()
            .filter(|c| c.is_on_board())
            .map(|c| (c.x as usize, c.y as usize))
            .collect();
    }
    let seats = Team::ALL
        .iter()
        .map(|&team| {
            let [ambers, lead] = game.score_parts(team);
            SeatLine {
                name: seat_name(&labels.names, team.index()),
                colors: vec![team.index()],
                score: format!("{} · light piece ahead: {lead}", ambers_words(ambers)),
                gems: ambers,
                to_move: !over && game.team_to_move() == team,
            }
        })
        .collect();
    let turn = game.turn();
    let mut notes = vec![KEY.to_owned()];
    notes.extend(move_note(
        labels.last_move.clone().or_else(|| {
            game.last_move().map(|mv| {
                // The piece on the target field is the mover's, unless its
                // tower was taken off the board.
                let moved = game
                    .piece_at(mv.to)
                    .filter(|p| p.team != game.team_to_move());
                move_words(
                    game.team_to_move().opponent(),
                    moved.map(|p| p.kind),
                    mv,
                    None,
                    0,
                )
            })
        }),
        (!over).then(|| team_word(game.team_to_move())),
    ));
    notes.extend(labels.notes.iter().cloned());
    Picture(Scene {
        game_id: GameType::Ostseeschach2022.id(),
        turn,
        title: title(GameType::Ostseeschach2022.title(), turn, turn / 2 + 1, over),
        board,
        seats,
        notes,
        letters_key: None,
        stock: Vec::new(),
    })
}
/// A team's name in a sentence: its colour, `Red` (ONE) or `Blue` (TWO).
fn team_word(team: Team) -> &'static str {
    match team {
        Team::One => "Red",
        Team::Two => "Blue",
    }
}

/// A piece kind's name for people: `Möwe`.
fn kind_word(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Herzmuschel => "Herzmuschel",
        PieceKind::Moewe => "Möwe",
        PieceKind::Seestern => "Seestern",
        PieceKind::Robbe => "Robbe",
    }
}

/// `1 amber`, `2 ambers`.
fn ambers_words(ambers: u32) -> String {
    match ambers {
        1 => "1 amber".to_owned(),
        n => format!("{n} ambers"),
    }
}

/// A move in words: `Red moves the Möwe from (1,1) to (2,1)`, what it
/// takes, if known, and the ambers it wins (`and wins an amber`). Fields
/// are `(x,y)` as the pictures count them.
fn move_words(
    team: Team,
    moved: Option<PieceKind>,
    mv: Move,
    taken: Option<(Team, PieceKind)>,
    ambers_won: u32,
) -> String {
    let piece = moved.map_or_else(|| "a piece".to_owned(), |k| format!("the {}", kind_word(k)));
    let mut words = format!(
        "{} moves {piece} from ({},{}) to ({},{})",
        team_word(team),
        mv.from.x,
        mv.from.y,
        mv.to.x,
        mv.to.y
    );
    if let Some((owner, kind)) = taken {
        words.push_str(&format!(
            " and takes {}'s {}",
            team_word(owner),
            kind_word(kind)
        ));
    }
    match ambers_won {
        0 => {}
        1 => words.push_str(" and wins an amber"),
        n => words.push_str(&format!(" and wins {n} ambers")),
    }
    words
}

impl GamePicture for entry::Ostseeschach2022 {
    fn picture(game: &Self::Game, labels: &Labels) -> Picture {
        picture(game, labels)
    }

    fn last_move_in_words(before: &Self::Game, after: &Self::Game) -> Option<String> {
        if after.turn() <= before.turn() {
            return None;
        }
        let mv = after.last_move()?;
        let team = before.team_to_move();
        let moved = before.piece_at(mv.from).map(|p| p.kind);
        let taken = before
            .piece_at(mv.to)
            .filter(|p| p.team != team)
            .map(|p| (p.team, p.kind));
        let [ambers_before, _] = before.score_parts(team);
        let [ambers_after, _] = after.score_parts(team);
        let won = ambers_after.saturating_sub(ambers_before);
        Some(move_words(team, moved, mv, taken, won))
    }
}
