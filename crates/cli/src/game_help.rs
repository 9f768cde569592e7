//! Help texts that name games, made from the rules catalogue (and the
//! bots' and leagues' entries in it) when the command line is built, so
//! that the options say which games they mean without naming one: a game
//! is named only in its own folders.

use spielleiter_bots::BotKind;
use spielleiter_rules::GameType;

/// A game to show an id by: the first of the catalogue.
fn example() -> GameType {
    GameType::ALL.first().copied().unwrap_or(GameType::DEFAULT)
}

/// `WHAT, e.g. `ID``, with an id of the catalogue.
pub fn with_example(what: &str) -> String {
    format!("{what}, e.g. `{}`", example())
}

/// `spielleiter play --game`: an example, and the game joined without a
/// reservation.
pub fn play_game() -> String {
    format!(
        "{}: the one to join without a reservation [default: {}]. With a reservation it is not \
         needed: the room's first state tells its game",
        with_example("The game"),
        GameType::DEFAULT
    )
}

/// `spielleiter play --bot`: the bots, and the games that have the one
/// that breaks a rule.
pub fn play_bot() -> String {
    let breaking: Vec<&str> = GameType::ALL
        .iter()
        .filter(|&&game| BotKind::Illegal.build(game, 0).is_ok())
        .map(|game| game.id())
        .collect();
    format!(
        "The built-in bot: `random`, `greedy`, or `illegal` ({} only: breaks a rule at its \
         second move, to test a league)",
        breaking.join(", ")
    )
}

/// `spielleiter tournament --games-per-pair`: the games whose league plays
/// other than one game per seat order.
pub fn games_per_pair() -> String {
    let own: Vec<String> = GameType::ALL
        .iter()
        .filter(|game| {
            u32::try_from(game.player_count()).ok() != Some(game.league().games_per_table)
        })
        .map(|game| format!("{} for {game}", game.league().games_per_table))
        .collect();
    format!(
        "Games each pair plays (each table, in a game of more than two players), seats \
         alternating [default: {}, as its league; otherwise one per seat order]",
        own.join(", ")
    )
}

/// A season's name as `season create` gives it, with the default game.
pub fn season_name() -> String {
    format!(
        "The season's name in the store [default: `season create` names it after its game and \
         the day (`{}-2026-11-28`); the other commands take the store's only season]",
        GameType::DEFAULT
    )
}
