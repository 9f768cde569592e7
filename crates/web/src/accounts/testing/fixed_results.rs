//! Canned contest results for the pages' tests and the access matrix:
//! matchdays of the championship set by the test, each encounter's games
//! all won by home, the tables computed by the model from the encounters
//! of the matchdays counted, and no final; the encounters' archives hold no
//! game (a replay allowed answers 404, one refused 401 or 403).

#![allow(clippy::unwrap_used)]

use std::sync::{Arc, Mutex};

use spielleiter_archive::{ArchiveError, ArchiveFuture, GameArchive};
use spielleiter_contest::{
    ContestResults, ContestSettings, Counted, Encounter, EncounterAccess, EncounterGame,
    EncounterId, EncounterKey, EncounterKind, EncounterResults, Entry, GameResult, GroupEntry,
    KnockoutResults, MatchdayEntry, MatchdayId, MatchdayResults, MatchdayStage, Pairing, Phase,
    PlayedEncounter, PlayingGame, PlayingMatchday, Progress, Side, Standings, StoreError,
    StoreFuture, TeamId,
};

use crate::accounts::results_pages::EncounterArchives;

/// The contest's seed in the canned tables.
const SEED: u64 = 7;

/// Matchdays set by the test.
#[derive(Debug, Default)]
pub(crate) struct FixedResults {
    matchdays: Mutex<Vec<MatchdayResults>>,
    playing: Mutex<Vec<PlayingMatchday>>,
}

/// One encounter of a canned matchday: its id, home and away.
pub(crate) type FixedEncounter = (i64, TeamId, TeamId);

impl FixedResults {
    /// Adds championship matchday `number`, published or only played,
    /// with `encounters` (each decided: home wins all 6 games) and no
    /// team sitting out.
    pub(crate) fn add_matchday(&self, number: u32, published: bool, encounters: &[FixedEncounter]) {
        let settings = ContestSettings::default();
        let encounters = encounters
            .iter()
            .zip(1..)
            .map(|(&(id, home, away), slot)| {
                let encounter = Encounter {
                    key: EncounterKey {
                        phase: Phase::Championship,
                        matchday: number,
                        group: 1,
                        slot,
                    },
                    pairing: Pairing { home, away },
                    entries: [Entry::StandIn; 2],
                    kind: EncounterKind::RoundRobin,
                };
                let games: Vec<Option<GameResult>> = (0..settings.games_per_encounter)
                    .map(|_| {
                        Some(GameResult {
                            winner: Some(Side::Home),
                            points: [30, 10],
                        })
                    })
                    .collect();
                let progress = encounter.progress(&settings, SEED, &games).unwrap();
                EncounterResults {
                    id: EncounterId(id),
                    encounter,
                    games: (1..)
                        .zip(&games)
                        .map(|(number, &result)| EncounterGame { number, result })
                        .collect(),
                    progress,
                }
            })
            .collect();
        self.matchdays.lock().unwrap().push(MatchdayResults {
            matchday: MatchdayEntry {
                id: MatchdayId(i64::from(number)),
                phase: Phase::Championship,
                number,
                stage: if published {
                    MatchdayStage::Published
                } else {
                    MatchdayStage::Played
                },
                deadline: None,
                published_at: None,
            },
            encounters,
            byes: Vec::new(),
        });
    }

    /// Lets `team` sit out matchday `number`.
    pub(crate) fn add_bye(&self, number: u32, team: TeamId) {
        let mut matchdays = self.matchdays.lock().unwrap();
        let day = matchdays
            .iter_mut()
            .find(|m| m.matchday.number == number)
            .unwrap();
        day.byes
            .push(spielleiter_contest::ByeEntry { group: 1, team });
    }

    /// Sets what is being played: championship matchday `number`
    /// (scheduled) with `games` (encounter, home, away, game number,
    /// worker) running, and `done` games played.
    pub(crate) fn set_playing(
        &self,
        number: u32,
        done: u32,
        games: &[(i64, TeamId, TeamId, u32, &str)],
    ) {
        let running = u32::try_from(games.len()).unwrap();
        *self.playing.lock().unwrap() = vec![PlayingMatchday {
            matchday: MatchdayEntry {
                id: MatchdayId(i64::from(number)),
                phase: Phase::Championship,
                number,
                stage: MatchdayStage::Scheduled,
                deadline: None,
                published_at: None,
            },
            done,
            running,
            waiting: 3,
            failed: 0,
            games: games
                .iter()
                .map(|&(encounter, home, away, number, worker)| PlayingGame {
                    encounter: EncounterId(encounter),
                    teams: [home, away],
                    number,
                    worker: worker.to_owned(),
                    started_ms: Some(1_800_000_000_000),
                })
                .collect(),
        }];
    }

    fn all(&self) -> Vec<MatchdayResults> {
        self.matchdays.lock().unwrap().clone()
    }
}

fn ready<'a, T: Send + 'a>(value: Result<T, StoreError>) -> StoreFuture<'a, T> {
    Box::pin(std::future::ready(value))
}

impl ContestResults for FixedResults {
    fn groups(&self) -> StoreFuture<'_, Vec<GroupEntry>> {
        ready(Ok(Vec::new()))
    }

    fn matchdays(&self) -> StoreFuture<'_, Vec<MatchdayEntry>> {
        ready(Ok(self.all().into_iter().map(|m| m.matchday).collect()))
    }

    fn matchday(&self, phase: Phase, number: u32) -> StoreFuture<'_, MatchdayResults> {
        ready(
            self.all()
                .into_iter()
                .find(|m| m.matchday.phase == phase && m.matchday.number == number)
                .ok_or(StoreError::NotFound("matchday")),
        )
    }

    fn standings(&self, phase: Phase, counted: Counted) -> StoreFuture<'_, Vec<Standings>> {
        let days: Vec<MatchdayResults> = self
            .all()
            .into_iter()
            .filter(|m| m.matchday.phase == phase)
            .filter(|m| counted == Counted::All || m.matchday.published())
            .collect();
        let mut teams: Vec<TeamId> = days
            .iter()
            .flat_map(|m| &m.encounters)
            .flat_map(|e| e.encounter.pairing.teams())
            .collect();
        teams.sort_unstable();
        teams.dedup();
        let played: Vec<PlayedEncounter> = days
            .iter()
            .flat_map(|m| &m.encounters)
            .filter_map(|e| match &e.progress {
                Progress::Decided(result) => Some(PlayedEncounter {
                    key: e.encounter.key,
                    pairing: e.encounter.pairing,
                    result: *result,
                }),
                _ => None,
            })
            .collect();
        ready(Ok(days
            .iter()
            .map(|m| {
                Standings::compute(SEED, phase, 1, &teams, &played, m.matchday.number).unwrap()
            })
            .collect()))
    }

    fn knockout(&self) -> StoreFuture<'_, Option<KnockoutResults>> {
        ready(Ok(None))
    }

    fn encounter(&self, encounter: EncounterId) -> StoreFuture<'_, EncounterAccess> {
        let found = self.all().into_iter().find_map(|m| {
            m.encounters
                .iter()
                .find(|e| e.id == encounter)
                .map(|e| EncounterAccess {
                    teams: e.encounter.pairing.teams(),
                    published: m.matchday.published(),
                    phase: m.matchday.phase,
                    matchday: m.matchday.number,
                })
        });
        ready(found.ok_or(StoreError::NotFound("encounter")))
    }

    fn encounter_season(&self, encounter: EncounterId) -> StoreFuture<'_, Option<String>> {
        ready(Ok(Some(format!("encounter-{encounter}"))))
    }

    fn playing(&self) -> StoreFuture<'_, Vec<PlayingMatchday>> {
        ready(Ok(self.playing.lock().unwrap().clone()))
    }
}

/// Archives that hold no game.
#[derive(Debug)]
pub(crate) struct NoGames;

#[derive(Debug)]
struct EmptyArchive;

impl EncounterArchives for NoGames {
    fn archive<'a>(&'a self, _: &'a str) -> ArchiveFuture<'a, Arc<dyn GameArchive>> {
        Box::pin(std::future::ready(Ok(
            Arc::new(EmptyArchive) as Arc<dyn GameArchive>
        )))
    }
}

impl GameArchive for EmptyArchive {
    fn describe(&self) -> String {
        "no games".to_owned()
    }

    fn store<'a>(
        &'a self,
        _: &'a spielleiter_archive::FinishedGame,
        _: Option<spielleiter_archive::Fence>,
    ) -> ArchiveFuture<'a, spielleiter_archive::Stored> {
        gone()
    }

    fn list(&self) -> ArchiveFuture<'_, Vec<spielleiter_archive::ArchivedGame>> {
        Box::pin(std::future::ready(Ok(Vec::new())))
    }

    fn record<'a>(&'a self, _: &'a str) -> ArchiveFuture<'a, spielleiter_archive::GameRecord> {
        gone()
    }

    fn replay<'a>(&'a self, _: &'a str) -> ArchiveFuture<'a, spielleiter_archive::StoredReplay> {
        gone()
    }

    fn player_log<'a>(
        &'a self,
        _: &'a str,
        _: usize,
    ) -> ArchiveFuture<'a, spielleiter_archive::StoredBytes> {
        gone()
    }

    fn wire_log<'a>(&'a self, _: &'a str) -> ArchiveFuture<'a, spielleiter_archive::StoredBytes> {
        gone()
    }

    fn contents<'a>(&'a self, _: &'a str) -> ArchiveFuture<'a, spielleiter_archive::Contents> {
        gone()
    }
}

fn gone<'a, T: 'a>() -> ArchiveFuture<'a, T> {
    Box::pin(async { Err(ArchiveError::NotFound("no such game".to_owned())) })
}
