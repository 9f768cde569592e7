//! Pictures of the Blokus games: the board with every colour's fields, the
//! outlines of the pieces, the last placement marked, each colour's pieces
//! beside the board, and per seat its colours and points. Classic Blokus
//! names its fields in Pentobi's notation (columns a–t, rows 1–20 from the
//! bottom) on the axes and in its moves; the seasons and the league game
//! keep their wire's coordinates and say so under the board.

use spielleiter_rules::{
    GameType,
    blokus::{
        BOARD_SIZE, Classic, ClassicPlayers, Color, Move, PieceKind, PieceSet, SwcBlokus,
        SwcVariant, Team,
        bcl::{BCL_BOARD_SIZE, Bcl, BclKind, BclMove, BclPlayer},
        notation::{PentobiCells, pentobi_column, pentobi_row},
        variant::EndRule,
    },
    entry,
};

use crate::{
    GamePicture, Labels, Picture,
    scene::{
        Board, Ground, Scene, SeatLine, Stock, StockPiece, Swatch, move_note, seat_name, title,
    },
};

/// The four colours in the rules' order (BLUE, YELLOW, RED, GREEN).
pub(crate) const FOUR_COLORS: [Swatch; 4] = [
    Swatch {
        name: "BLUE",
        label: "BLUE",
        fill: "#2f6fd6",
        letter: 'B',
        ansi_background: 44,
    },
    Swatch {
        name: "YELLOW",
        label: "YELLOW",
        fill: "#f0c02a",
        letter: 'Y',
        ansi_background: 43,
    },
    Swatch {
        name: "RED",
        label: "RED",
        fill: "#d8412b",
        letter: 'R',
        ansi_background: 41,
    },
    Swatch {
        name: "GREEN",
        label: "GREEN",
        fill: "#38a047",
        letter: 'G',
        ansi_background: 42,
    },
];

/// The two players of the 10×10 BLOKUS Champions League game: ONE orange,
/// TWO violet (the colours of two-player Blokus boards).
const TWO_PLAYERS: [Swatch; 2] = [
    Swatch {
        name: "ONE",
        label: "orange",
        fill: "#e8842c",
        letter: 'O',
        ansi_background: 43,
    },
    Swatch {
        name: "TWO",
        label: "violet",
        fill: "#7d4fb3",
        letter: 'V',
        ansi_background: 45,
    },
];

/// The side of a field of the 10×10 board, in pixels.
const FIELD_10: u32 = 44;

/// The side of a field of the 20×20 board, in pixels.
const FIELD_20: u32 = 24;

/// A square polyomino board of `size` fields: `color_at(x, y)` gives the
/// palette index on each field, `last_move` the fields of the last
/// placement (fields off the board are left out).
pub(crate) fn polyomino_board(
    size: usize,
    field_px: u32,
    palette: &'static [Swatch],
    color_at: impl Fn(i32, i32) -> Option<usize>,
    last_move: impl IntoIterator<Item = (i32, i32)>,
) -> Board {
    let mut board = Board::new(size, size, field_px, Ground::Grid, palette);
    board.tiles = (0..size as i32)
        .flat_map(|y| (0..size as i32).map(move |x| (x, y)))
        .map(|(x, y)| color_at(x, y))
        .collect();
    board.last_move = last_move
        .into_iter()
        .filter_map(|(x, y)| {
            let on_board = (0..size as i32).contains(&x) && (0..size as i32).contains(&y);
            on_board.then_some((x as usize, y as usize))
        })
        .collect();
    board
}

/// The text of a points total.
pub(crate) fn points(points: u32) -> String {
    match points {
        1 => "1 point".to_owned(),
        n => format!("{n} points"),
    }
}

/// The cells of a piece as the pictures draw it (from its kind's
/// unturned cells).
fn stock_cells(cells: &[(i8, i8)]) -> Vec<(u8, u8)> {
    cells
        .iter()
        .map(|&(x, y)| (x.unsigned_abs(), y.unsigned_abs()))
        .collect()
}

/// The 21 pieces of each of the four colours, those left and those placed.
fn four_color_stock(remaining: impl Fn(Color) -> PieceSet) -> Vec<Stock> {
    Color::ALL
        .iter()
        .map(|&color| {
            let left = remaining(color);
            Stock {
                color: color.index(),
                pieces: PieceKind::ALL
                    .iter()
                    .map(|&kind| StockPiece {
                        cells: stock_cells(kind.canonical_cells()),
                        left: left.contains(kind),
                    })
                    .collect(),
            }
        })
        .collect()
}

/// The note saying how the seasons name a field: `(x,y)` as their wire
/// counts, (0,0) the top-left field.
const SWC_FIELDS: &str = "fields (x,y) as the wire counts them, (0,0) top left";

/// The note saying how classic Blokus names a field.
const PENTOBI_FIELDS: &str =
    "fields as in Pentobi: columns a–t from the left, rows 1–20 from the bottom";

/// The 20×20 board of the four colours, `color_at(x, y)` on each field,
/// with the fields of the last placement marked.
fn four_color_board(
    color_at: impl Fn(i32, i32) -> Option<Color>,
    last_move: Option<Move>,
) -> Board {
    let last_cells = match last_move {
        Some(Move::Set(placement)) => placement.cells().collect(),
        _ => Vec::new(),
    };
    polyomino_board(
        BOARD_SIZE,
        FIELD_20,
        &FOUR_COLORS,
        |x, y| color_at(x, y).map(Color::index),
        last_cells,
    )
}

/// The last round a game of the season `V` can reach: the round after its
/// turn limit is never played, so a finished game does not count it.
fn last_round<V: SwcVariant>() -> u32 {
    match V::END {
        EndRule::TurnLimit(turns) | EndRule::TurnLimitOrFinishedRound(turns) => {
            turns / V::COLORS as u32
        }
        EndRule::NoColorLeft => u32::MAX,
    }
}

/// A Software-Challenge Blokus game (2021 or 2027): seat ONE plays BLUE and
/// RED, seat TWO YELLOW and GREEN.
pub fn swc<V: SwcVariant>(
    game: &SwcBlokus<V>,
    name: &str,
    game_id: &'static str,
    labels: &Labels,
) -> Picture {
    let over = game.is_over() || labels.ended;
    let last_move = game.last_move();
    let board = four_color_board(|x, y| game.color_at(x, y), last_move);
    let seats = Team::ALL
        .iter()
        .map(|&team| SeatLine {
            name: seat_name(&labels.names, team.index()),
            colors: team.colors().iter().map(|c| c.index()).collect(),
            score: points(game.team_points(team)),
            gems: 0,
            to_move: !over && game.current_team() == team,
        })
        .collect();
    let mut notes = vec![
        format!(
            "every colour's first piece is {}",
            piece_words(game.start_piece())
        ),
        SWC_FIELDS.to_owned(),
    ];
    notes.extend(move_note(
        labels
            .last_move
            .clone()
            .or_else(|| last_move.map(|mv| blokus_move_words(mv, Fields::Swc))),
        (!over).then(|| color_word(game.current_color())),
    ));
    notes.extend(labels.notes.iter().cloned());
    Picture(Scene {
        game_id,
        turn: game.turn(),
        title: title(name, game.turn(), game.round().min(last_round::<V>()), over),
        board,
        seats,
        notes,
        letters_key: None,
        stock: four_color_stock(|color| game.remaining(color)),
    })
}

/// A classic Blokus game (`blokus_classic`, `_3`, `_2`): per seat its
/// colours and points (one colour each for four players, BLUE and RED /
/// YELLOW and GREEN for two, and for three GREEN played in turn for
/// nobody), and every colour's points under the seats.
pub fn classic(game: &Classic, labels: &Labels) -> Picture {
    let over = game.is_over() || labels.ended;
    let players = game.players();
    let last_move = game.last_move();
    let mut board = four_color_board(|x, y| game.color_at(x, y), last_move);
    board.column_names = (0..BOARD_SIZE as i32)
        .filter_map(pentobi_column)
        .map(String::from)
        .collect();
    board.row_names = (0..BOARD_SIZE as i32)
        .filter_map(pentobi_row)
        .map(|row| row.to_string())
        .collect();
    let to_move = game.player_to_move().filter(|_| !over);
    let seats = (0..players.count())
        .map(|seat| SeatLine {
            name: seat_name(&labels.names, seat),
            colors: players
                .scoring_colors(seat)
                .iter()
                .map(|c| c.index())
                .collect(),
            score: points(game.points(seat)),
            gems: 0,
            to_move: to_move == Some(seat),
        })
        .collect();
    let by_color: Vec<String> = Color::ALL
        .iter()
        .map(|&c| format!("{} {}", c.name(), game.color_points(c)))
        .collect();
    let mut notes = vec![
        format!("points by colour: {}", by_color.join(", ")),
        PENTOBI_FIELDS.to_owned(),
    ];
    if players == ClassicPlayers::Three {
        notes.push(
            "GREEN is played in turn by ONE, TWO, THREE; its points count for nobody".to_owned(),
        );
    }
    notes.extend(move_note(
        labels
            .last_move
            .clone()
            .or_else(|| last_move.map(|mv| blokus_move_words(mv, Fields::Pentobi))),
        (!over).then(|| color_word(game.current_color())),
    ));
    notes.extend(labels.notes.iter().cloned());
    let game_type = match players {
        ClassicPlayers::Four => GameType::BlokusClassic,
        ClassicPlayers::Three => GameType::BlokusClassic3,
        ClassicPlayers::Two => GameType::BlokusClassic2,
    };
    Picture(Scene {
        game_id: game_type.id(),
        turn: game.turn(),
        title: title(game_type.title(), game.turn(), game.round(), over),
        board,
        seats,
        notes,
        letters_key: None,
        stock: four_color_stock(|color| game.remaining(color)),
    })
}

/// The 10×10 game of the BLOKUS Champions League (`blokus_bcl`): rows and
/// columns as the game counts them ((row, col), (0,0) top left), per player
/// its cells and, once out, why.
pub fn bcl(game: &Bcl, labels: &Labels) -> Picture {
    let over = game.is_over() || labels.ended;
    let last_move = game.last_move();
    let last_cells: Vec<(i32, i32)> = match last_move {
        Some(BclMove::Place(place)) => place.cells().map(|(row, col)| (col, row)).collect(),
        _ => Vec::new(),
    };
    let board = polyomino_board(
        BCL_BOARD_SIZE,
        FIELD_10,
        &TWO_PLAYERS,
        |x, y| game.player_at(y, x).map(BclPlayer::index),
        last_cells,
    );
    let seats = BclPlayer::ALL
        .iter()
        .map(|&player| {
            let cells = match game.points(player) {
                1 => "1 cell".to_owned(),
                n => format!("{n} cells"),
            };
            SeatLine {
                name: seat_name(&labels.names, player.index()),
                colors: vec![player.index()],
                score: match game.out_reason(player) {
                    Some(reason) => format!("{cells} · out: {}", reason.name()),
                    None => cells,
                },
                gems: 0,
                to_move: !over && game.current_player() == player,
            }
        })
        .collect();
    let mut notes = vec!["(row, col), (0,0) top left".to_owned()];
    notes.extend(move_note(
        labels
            .last_move
            .clone()
            .or_else(|| last_move.map(bcl_move_words)),
        (!over).then(|| seat_name(&[], game.current_player().index())),
    ));
    notes.extend(labels.notes.iter().cloned());
    let turn = game.turn();
    Picture(Scene {
        game_id: GameType::BlokusBcl.id(),
        turn,
        title: title(GameType::BlokusBcl.title(), turn, turn / 2 + 1, over),
        board,
        seats,
        notes,
        letters_key: Some("O: ONE · V: TWO"),
        stock: BclPlayer::ALL
            .iter()
            .map(|&player| Stock {
                color: player.index(),
                pieces: BclKind::ALL
                    .iter()
                    .flat_map(|&kind| {
                        // Of two blocks of a kind, the first placed is the
                        // first drawn pale.
                        let left = game.remaining(player, kind);
                        (0..kind.count()).map(move |copy| StockPiece {
                            cells: stock_cells(kind.canonical_cells()),
                            left: copy >= kind.count() - left.min(kind.count()),
                        })
                    })
                    .collect(),
            })
            .collect(),
    })
}

/// A colour's name in a sentence: `Blue`.
fn color_word(color: Color) -> &'static str {
    match color {
        Color::Blue => "Blue",
        Color::Yellow => "Yellow",
        Color::Red => "Red",
        Color::Green => "Green",
    }
}

/// A piece kind as people name it: `the T tetromino`, `the monomino`. The
/// letters are the season's (`PENTO_R` is the R pentomino), which the
/// players' own code uses.
pub fn piece_words(kind: PieceKind) -> String {
    format!("the {}", piece_noun(kind.name()))
}

/// A piece's wire name (`PENTO_R`, `MONO`, BCL's `SHOTGUN`) as the noun
/// people use, without an article: `R pentomino`, `monomino`, `shotgun`.
pub fn piece_noun(name: &str) -> String {
    let (family, letter) = name.split_once('_').unwrap_or((name, ""));
    let family = match family {
        "MONO" => "monomino".to_owned(),
        "DOMINO" => "domino".to_owned(),
        "TRIO" => "tromino".to_owned(),
        "TETRO" => "tetromino".to_owned(),
        "PENTO" => "pentomino".to_owned(),
        other => other.to_lowercase(),
    };
    if letter.is_empty() {
        family
    } else {
        format!("{letter} {family}")
    }
}

/// How a Blokus move's fields are written.
#[derive(Clone, Copy)]
enum Fields {
    /// `(x,y)` as the Software-Challenge seasons (and the pictures'
    /// coordinates) count them: (0,0) top left.
    Swc,
    /// Pentobi's notation: a column letter and a row number from the
    /// bottom (`a20` is the top-left field).
    Pentobi,
}

/// A 20×20 Blokus move in words: `Blue places the T tetromino on (2,3)
/// (3,3) (4,3) (3,4)`, or `Blue passes`.
fn blokus_move_words(mv: Move, fields: Fields) -> String {
    match mv {
        Move::Skip(color) => format!("{} passes", color_word(color)),
        Move::Set(placement) => {
            let cells = match fields {
                Fields::Swc => {
                    let mut cells: Vec<(i32, i32)> = placement.cells().collect();
                    cells.sort_unstable_by_key(|&(x, y)| (y, x));
                    cells
                        .iter()
                        .map(|(x, y)| format!("({x},{y})"))
                        .collect::<Vec<_>>()
                        .join(" ")
                }
                Fields::Pentobi => PentobiCells(&placement).to_string().replace(',', " "),
            };
            format!(
                "{} places {} on {cells}",
                color_word(placement.color),
                piece_words(placement.kind)
            )
        }
    }
}

/// The last move of `after` in words, if a move led there from `before`
/// (the turn went on).
fn blokus_last_move_words(
    before_turn: u32,
    after_turn: u32,
    last_move: Option<Move>,
    fields: Fields,
) -> Option<String> {
    (after_turn > before_turn)
        .then_some(last_move)
        .flatten()
        .map(|mv| blokus_move_words(mv, fields))
}

/// The turns from `before_turn + 1` up to `after_turn` (exclusive), which
/// the rules gave colours that could place no piece (`who` names the
/// colour or player of a turn): one line each, as the move list shows
/// them after the move that led there.
fn skipped_words(before_turn: u32, after_turn: u32, who: impl Fn(u32) -> String) -> Vec<String> {
    (before_turn.saturating_add(1)..after_turn)
        .map(|turn| format!("{} is skipped: no piece fits", who(turn)))
        .collect()
}

/// The colour of turn `turn` of a four-colour game, in a sentence.
fn turn_color_word(turn: u32) -> String {
    color_word(Color::from_index(turn as usize % Color::ALL.len())).to_owned()
}

/// A BCL move in words: `ONE places the handgun on (r0,c1) …` in the
/// game's (row, col), or `TWO passes`.
fn bcl_move_words(mv: BclMove) -> String {
    let player = seat_name(&[], mv.player().index());
    match mv {
        BclMove::Pass(_) => format!("{player} passes"),
        BclMove::Place(place) => {
            let cells: Vec<String> = place
                .cells()
                .map(|(row, col)| format!("({row},{col})"))
                .collect();
            format!(
                "{player} places the {} on {}",
                place.kind.name().to_lowercase(),
                cells.join(" ")
            )
        }
    }
}

impl GamePicture for entry::Blokus2021 {
    fn picture(game: &Self::Game, labels: &Labels) -> Picture {
        let game_type = GameType::Blokus2021;
        swc(game, game_type.title(), game_type.id(), labels)
    }

    fn last_move_in_words(before: &Self::Game, after: &Self::Game) -> Option<String> {
        blokus_last_move_words(before.turn(), after.turn(), after.last_move(), Fields::Swc)
    }

    fn skipped_in_words(before: &Self::Game, after: &Self::Game) -> Vec<String> {
        skipped_words(before.turn(), after.turn(), turn_color_word)
    }
}

impl GamePicture for entry::Blokus2027 {
    fn picture(game: &Self::Game, labels: &Labels) -> Picture {
        let game_type = GameType::Blokus2027;
        swc(game, game_type.title(), game_type.id(), labels)
    }

    fn last_move_in_words(before: &Self::Game, after: &Self::Game) -> Option<String> {
        blokus_last_move_words(before.turn(), after.turn(), after.last_move(), Fields::Swc)
    }

    fn skipped_in_words(before: &Self::Game, after: &Self::Game) -> Vec<String> {
        skipped_words(before.turn(), after.turn(), turn_color_word)
    }
}

/// The three classic variants draw and say their moves alike (Pentobi's
/// fields).
macro_rules! classic_picture {
    ($($entry:ident),+) => {
        $(
            impl GamePicture for entry::$entry {
                fn picture(game: &Self::Game, labels: &Labels) -> Picture {
                    classic(game, labels)
                }

                fn last_move_in_words(before: &Self::Game, after: &Self::Game) -> Option<String> {
                    blokus_last_move_words(
                        before.turn(),
                        after.turn(),
                        after.last_move(),
                        Fields::Pentobi,
                    )
                }

                fn skipped_in_words(before: &Self::Game, after: &Self::Game) -> Vec<String> {
                    skipped_words(before.turn(), after.turn(), turn_color_word)
                }
            }
        )+
    };
}

classic_picture!(BlokusClassic, BlokusClassic3, BlokusClassic2);

impl GamePicture for entry::BlokusBcl {
    fn picture(game: &Self::Game, labels: &Labels) -> Picture {
        bcl(game, labels)
    }

    fn last_move_in_words(before: &Self::Game, after: &Self::Game) -> Option<String> {
        (after.turn() > before.turn())
            .then(|| after.last_move())
            .flatten()
            .map(bcl_move_words)
    }

    fn skipped_in_words(before: &Self::Game, after: &Self::Game) -> Vec<String> {
        skipped_words(before.turn(), after.turn(), |turn| {
            seat_name(&[], turn as usize % BclPlayer::ALL.len())
        })
    }
}

#[cfg(test)]
mod tests {
    use spielleiter_rules::blokus::{Swc2021, Swc2027};

    use super::*;

    #[test]
    fn a_game_ended_by_the_server_has_nobody_to_move_and_says_so() {
        let labels = Labels {
            names: vec!["bad".to_owned(), "good".to_owned()],
            notes: vec!["result: good wins".to_owned()],
            ended: true,
            last_move: None,
        };
        let picture = bcl(&Bcl::new(), &labels);
        let scene = &picture.0;
        assert!(scene.title.ends_with(" · game over"), "{}", scene.title);
        assert!(scene.seats.iter().all(|seat| !seat.to_move));
        assert!(scene.notes.iter().all(|note| !note.contains("to move")));
        // The letters' key is the terminal's only.
        assert!(scene.notes.iter().all(|note| !note.contains("O: ONE")));
        assert!(picture.text(false).contains("O: ONE · V: TWO"));
    }

    #[test]
    fn the_last_round_is_the_one_of_the_turn_limit() {
        // 2021: 100 turns of four colours; 2027: 96.
        assert_eq!(last_round::<Swc2021>(), 25);
        assert_eq!(last_round::<Swc2027>(), 24);
    }
}
