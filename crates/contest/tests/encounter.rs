//! Encounters: the first move alternates, each game's seed depends on its
//! name alone, win points make the encounter's result, forfeits lose
//! unplayed, and a knockout encounter always ends with a winner: two more
//! games at a time up to the cap, then game points, then the lot.

use proptest::prelude::*;
use spielleiter_contest::{
    ContestSettings, DecidedBy, Encounter, EncounterError, EncounterKey, EncounterKind,
    EncounterOutcome, Entry, GameResult, Outcome, Pairing, Phase, Progress, Side, StandIn, TeamId,
    VersionId,
};

const SEED: u64 = 77;

fn encounter(kind: EncounterKind, entries: [Entry; 2]) -> Encounter {
    Encounter {
        key: EncounterKey {
            phase: if kind == EncounterKind::Knockout {
                Phase::Final
            } else {
                Phase::Championship
            },
            matchday: 2,
            group: 1,
            slot: 3,
        },
        pairing: Pairing {
            home: TeamId(10),
            away: TeamId(20),
        },
        entries,
        kind,
    }
}

const BOTH_PLAY: [Entry; 2] = [Entry::Version(VersionId(1)), Entry::Version(VersionId(2))];

fn home_wins() -> GameResult {
    GameResult {
        winner: Some(Side::Home),
        points: [30, 20],
    }
}

fn away_wins() -> GameResult {
    GameResult {
        winner: Some(Side::Away),
        points: [20, 30],
    }
}

fn draw(points: i64) -> GameResult {
    GameResult {
        winner: None,
        points: [points, points],
    }
}

fn decided(
    encounter: &Encounter,
    settings: &ContestSettings,
    games: &[GameResult],
) -> spielleiter_contest::EncounterResult {
    let games: Vec<Option<GameResult>> = games.iter().copied().map(Some).collect();
    match encounter.progress(settings, SEED, &games) {
        Ok(Progress::Decided(result)) => result,
        other => panic!("not decided: {other:?}"),
    }
}

#[test]
fn the_first_move_alternates_and_each_game_has_its_own_seed() {
    let encounter = encounter(EncounterKind::Knockout, BOTH_PLAY);
    let mut seeds = Vec::new();
    for index in 0..20 {
        let plan = encounter.game(index, SEED);
        let first = if index % 2 == 0 {
            Side::Home
        } else {
            Side::Away
        };
        assert_eq!(plan.first, first, "game {index}");
        assert_eq!(plan.seats[0], encounter.entries[first.index()]);
        assert_eq!(plan.seats[1], encounter.entries[first.other().index()]);
        assert_eq!(plan, encounter.game(index, SEED), "the same game again");
        assert_ne!(plan.stand_in_seed(0), plan.stand_in_seed(1));
        seeds.push(plan.seed);
    }
    seeds.sort_unstable();
    seeds.dedup();
    assert_eq!(seeds.len(), 20);
    // The seed is the encounter's name's, not its teams' or entries'.
    let other_teams = Encounter {
        pairing: Pairing {
            home: TeamId(1),
            away: TeamId(2),
        },
        entries: [Entry::StandIn, Entry::StandIn],
        ..encounter
    };
    assert_eq!(other_teams.game(3, SEED).seed, encounter.game(3, SEED).seed);
    assert_ne!(
        encounter.game(3, SEED + 1).seed,
        encounter.game(3, SEED).seed
    );
}

#[test]
fn seats_map_to_sides() {
    // Game 1 (index 1): away sits first. The server gave seat ONE the win
    // and 40 points: that is the away side.
    let result = GameResult::from_seats(Side::Away, [2, 0], [40, 25]);
    assert_eq!(result.winner, Some(Side::Away));
    assert_eq!(result.points, [25, 40]);
    let drawn = GameResult::from_seats(Side::Home, [1, 1], [7, 8]);
    assert_eq!(drawn.winner, None);
    assert_eq!(drawn.points, [7, 8]);
    assert_eq!(drawn.outcome(Side::Away), Outcome::Draw);
}

#[test]
fn more_wins_win_the_encounter_equal_wins_draw() {
    let settings = ContestSettings::default();
    let regular = encounter(EncounterKind::RoundRobin, BOTH_PLAY);
    let won = decided(
        &regular,
        &settings,
        &[
            home_wins(),
            away_wins(),
            home_wins(),
            draw(5),
            home_wins(),
            away_wins(),
        ],
    );
    assert_eq!(won.outcome, EncounterOutcome::Won(Side::Home));
    assert_eq!(won.decided_by, DecidedBy::Games);
    assert_eq!(
        (won.wins, won.draws, won.games, won.played),
        ([3, 2], 1, 6, 6)
    );
    assert_eq!(won.win_points, [7, 5]);
    assert_eq!(won.points, [30 * 3 + 20 * 2 + 5, 20 * 3 + 30 * 2 + 5]);
    assert_eq!(won.ranking_points, [2, 0]);
    assert_eq!(won.outcome(Side::Away), Outcome::Loss);

    let drawn = decided(
        &regular,
        &settings,
        &[
            home_wins(),
            away_wins(),
            draw(1),
            draw(1),
            home_wins(),
            away_wins(),
        ],
    );
    assert_eq!(drawn.outcome, EncounterOutcome::Drawn);
    assert_eq!(drawn.ranking_points, [1, 1]);
    assert_eq!(drawn.win_points, [6, 6]);
    // Game points do not decide a round-robin encounter.
    let lopsided = decided(
        &regular,
        &settings,
        &[
            GameResult {
                winner: Some(Side::Home),
                points: [90, 0],
            },
            away_wins(),
            draw(1),
            draw(1),
            home_wins(),
            away_wins(),
        ],
    );
    assert_eq!(lopsided.outcome, EncounterOutcome::Drawn);

    // Other point scales are the settings'.
    let three = ContestSettings {
        game_points: spielleiter_contest::PointScale {
            win: 3,
            draw: 1,
            loss: 0,
        },
        ranking_points: spielleiter_contest::PointScale {
            win: 3,
            draw: 1,
            loss: 0,
        },
        ..ContestSettings::default()
    };
    let won3 = decided(
        &regular,
        &three,
        &[
            home_wins(),
            away_wins(),
            home_wins(),
            draw(5),
            home_wins(),
            away_wins(),
        ],
    );
    assert_eq!((won3.win_points, won3.ranking_points), ([10, 7], [3, 0]));
}

#[test]
fn games_are_asked_for_then_waited_for() {
    let settings = ContestSettings::default();
    let regular = encounter(EncounterKind::RoundRobin, BOTH_PLAY);
    assert_eq!(
        regular.progress(&settings, SEED, &[]),
        Ok(Progress::Play(0..6))
    );
    let mut games = vec![None; 6];
    games[2] = Some(home_wins());
    assert_eq!(
        regular.progress(&settings, SEED, &games),
        Ok(Progress::Waiting { missing: 5 })
    );
    assert_eq!(
        regular.progress(&settings, SEED, &[Some(home_wins()); 3]),
        Ok(Progress::Play(3..6))
    );
    assert_eq!(
        regular.progress(&settings, SEED, &[Some(home_wins()); 7]),
        Err(EncounterError::TooManyGames { games: 7, max: 6 })
    );
}

#[test]
fn a_forfeit_loses_every_game_unplayed() {
    let settings = ContestSettings::default();
    let away_forfeits = encounter(
        EncounterKind::RoundRobin,
        [Entry::StandIn, Entry::freeze(None, true, StandIn::Forfeit)],
    );
    let result = decided(&away_forfeits, &settings, &[]);
    assert_eq!(result.outcome, EncounterOutcome::Won(Side::Home));
    assert_eq!(result.decided_by, DecidedBy::Forfeit);
    assert_eq!((result.wins, result.games, result.played), ([6, 0], 6, 0));
    assert_eq!(
        (result.win_points, result.ranking_points),
        ([12, 0], [2, 0])
    );
    assert_eq!(
        away_forfeits.progress(&settings, SEED, &[Some(home_wins())]),
        Err(EncounterError::GamesOfAForfeit(1))
    );

    // A disabled team forfeits even with an active version.
    let home_disabled = encounter(
        EncounterKind::RoundRobin,
        [
            Entry::freeze(Some(VersionId(3)), false, StandIn::RandomBot),
            Entry::Version(VersionId(4)),
        ],
    );
    assert_eq!(
        decided(&home_disabled, &settings, &[]).outcome,
        EncounterOutcome::Won(Side::Away)
    );

    let both = encounter(EncounterKind::RoundRobin, [Entry::Forfeit, Entry::Forfeit]);
    let nobody = decided(&both, &settings, &[]);
    assert_eq!(nobody.outcome, EncounterOutcome::BothForfeited);
    assert_eq!(nobody.ranking_points, [0, 0]);
    assert_eq!(nobody.outcome(Side::Home), Outcome::Loss);
    assert_eq!(nobody.outcome(Side::Away), Outcome::Loss);

    // In a knockout somebody must go on: the lot.
    let knockout = encounter(EncounterKind::Knockout, [Entry::Forfeit, Entry::Forfeit]);
    let lot = decided(&knockout, &settings, &[]);
    assert_eq!(lot.decided_by, DecidedBy::Lot);
    assert!(lot.winner().is_some());
}

#[test]
fn a_tied_knockout_encounter_goes_on_two_games_at_a_time() {
    let settings = ContestSettings::default();
    let knockout = encounter(EncounterKind::Knockout, BOTH_PLAY);
    let tied_pair = [home_wins(), away_wins()];
    let mut games: Vec<Option<GameResult>> = tied_pair.repeat(3).into_iter().map(Some).collect();
    // 3–3 after six: two more, then two more, … while tied.
    for next in (6..20).step_by(2) {
        assert_eq!(
            knockout.progress(&settings, SEED, &games),
            Ok(Progress::Play(next..next + 2)),
            "after {} games",
            games.len()
        );
        // Only one of the two played: it waits for the second.
        games.push(Some(home_wins()));
        assert_eq!(
            knockout.progress(&settings, SEED, &games),
            Ok(Progress::Play(next + 1..next + 2))
        );
        games.push(Some(away_wins()));
    }
    // Tied after 20 with equal game points: the lot.
    let lot = decided(
        &knockout,
        &settings,
        &games.iter().flatten().copied().collect::<Vec<_>>(),
    );
    assert_eq!(
        (lot.games, lot.wins, lot.decided_by),
        (20, [10, 10], DecidedBy::Lot)
    );
    assert_eq!(lot.ranking_points.iter().sum::<u32>(), 2);
    assert_eq!(
        knockout.progress(&settings, SEED, &[Some(home_wins()); 21]),
        Err(EncounterError::TooManyGames { games: 21, max: 20 })
    );

    // Tied after 20 with more game points for away: game points decide.
    let mut by_points: Vec<GameResult> = tied_pair.repeat(10);
    by_points[19] = GameResult {
        winner: Some(Side::Away),
        points: [20, 31],
    };
    let result = decided(&knockout, &settings, &by_points);
    assert_eq!(
        (result.outcome, result.decided_by),
        (EncounterOutcome::Won(Side::Away), DecidedBy::GamePoints)
    );

    // 4–4 after eight, then home wins game 9 and draws game 10: decided
    // by games after ten.
    let mut extended: Vec<GameResult> = tied_pair.repeat(4);
    extended.extend([home_wins(), draw(0)]);
    let result = decided(&knockout, &settings, &extended);
    assert_eq!(
        (result.outcome, result.decided_by, result.games),
        (EncounterOutcome::Won(Side::Home), DecidedBy::Games, 10)
    );
}

#[test]
fn the_lot_is_the_encounters_own() {
    let settings = ContestSettings::default();
    let games: Vec<GameResult> = [draw(3)].repeat(20);
    let winners: Vec<Option<Side>> = (1..=40)
        .map(|slot| {
            let mut knockout = encounter(EncounterKind::Knockout, BOTH_PLAY);
            knockout.key.slot = slot;
            let first = decided(&knockout, &settings, &games);
            assert_eq!(first, decided(&knockout, &settings, &games), "again");
            first.winner()
        })
        .collect();
    let home = winners.iter().filter(|w| **w == Some(Side::Home)).count();
    assert!((8..=32).contains(&home), "home won {home} of 40 lots");
}

fn game_result() -> impl Strategy<Value = GameResult> {
    (0u8..3, 0i64..100, 0i64..100).prop_map(|(w, a, b)| GameResult {
        winner: match w {
            0 => Some(Side::Home),
            1 => Some(Side::Away),
            _ => None,
        },
        points: [a, b],
    })
}

proptest! {
    /// Any knockout encounter, played game by game as asked, ends within
    /// the cap with a winner; by games exactly when the wins differ.
    #[test]
    fn every_knockout_encounter_ends_with_a_winner(
        results in proptest::collection::vec(game_result(), 20),
        seed: u64,
    ) {
        let settings = ContestSettings::default();
        let knockout = encounter(EncounterKind::Knockout, BOTH_PLAY);
        let mut games: Vec<Option<GameResult>> = Vec::new();
        let result = loop {
            match knockout.progress(&settings, seed, &games).expect("progress") {
                Progress::Play(range) => {
                    prop_assert_eq!(range.start as usize, games.len());
                    prop_assert!(range.end <= 20 && !range.is_empty());
                    for index in range {
                        games.push(Some(results[index as usize]));
                    }
                }
                Progress::Waiting { .. } => unreachable!("every game has its result"),
                Progress::Decided(result) => break result,
            }
        };
        prop_assert!(result.winner().is_some());
        prop_assert!(result.games >= 6 && result.games <= 20 && result.games % 2 == 0);
        let by_games = result.wins[0] != result.wins[1];
        prop_assert_eq!(by_games, result.decided_by == DecidedBy::Games);
        if result.games < 20 {
            prop_assert!(by_games);
        }
        let winner = result.winner().expect("winner").index();
        if by_games {
            prop_assert!(result.wins[winner] > result.wins[1 - winner]);
        }
        prop_assert_eq!(result.ranking_points[winner], 2);
        prop_assert_eq!(result.ranking_points[1 - winner], 0);
        prop_assert_eq!(result.win_points[0] + result.win_points[1], 2 * result.games);
    }
}
