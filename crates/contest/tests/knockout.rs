//! The final: a bracket from the previous phase's places (1–8, 4–5, 2–7,
//! 3–6), semi-finals, third place, final; the better seed at home; and
//! the way from championship groups to the champions league to the bracket.

use spielleiter_contest::{
    AtDeadline, Bracket, BracketSize, ContestSettings, EncounterKind, Entry, KnockoutError,
    KnockoutRound, Pairing, Phase, PlayedEncounter, Progress, Standings, TeamId, VersionId,
    qualifiers, schedule_matchday,
};

fn seeds(n: i64) -> Vec<TeamId> {
    (1..=n).map(|place| TeamId(100 + place)).collect()
}

fn pair(home: i64, away: i64) -> Pairing {
    Pairing {
        home: TeamId(100 + home),
        away: TeamId(100 + away),
    }
}

#[test]
fn a_bracket_of_eight_from_first_to_fourth() {
    let mut bracket = Bracket::new(&seeds(10), BracketSize::Eight).expect("bracket");
    assert_eq!(bracket.seeds, seeds(8), "places 9 and 10 are out");
    assert_eq!(
        bracket.rounds(),
        [
            KnockoutRound::QuarterFinal,
            KnockoutRound::SemiFinal,
            KnockoutRound::ThirdPlace,
            KnockoutRound::Final
        ]
    );
    assert_eq!(
        bracket.pairings(KnockoutRound::QuarterFinal),
        Ok(vec![pair(1, 8), pair(4, 5), pair(2, 7), pair(3, 6)])
    );
    assert_eq!(
        bracket.pairings(KnockoutRound::SemiFinal),
        Err(KnockoutError::NotReady {
            round: KnockoutRound::SemiFinal,
            waits_for: KnockoutRound::QuarterFinal
        })
    );
    // Upsets: 8 beats 1, 5 beats 4; 2 and 3 win.
    for (slot, winner) in [(1, 108), (2, 105), (3, 102), (4, 103)] {
        bracket
            .record(KnockoutRound::QuarterFinal, slot, TeamId(winner))
            .expect("quarter-final");
    }
    // The better seed is at home: 5 against 8, 2 against 3.
    assert_eq!(
        bracket.pairings(KnockoutRound::SemiFinal),
        Ok(vec![pair(5, 8), pair(2, 3)])
    );
    assert_eq!(bracket.placings(), None);
    bracket
        .record(KnockoutRound::SemiFinal, 1, TeamId(108))
        .expect("semi-final");
    bracket
        .record(KnockoutRound::SemiFinal, 2, TeamId(102))
        .expect("semi-final");
    assert_eq!(
        bracket.pairings(KnockoutRound::ThirdPlace),
        Ok(vec![pair(3, 5)])
    );
    assert_eq!(bracket.pairings(KnockoutRound::Final), Ok(vec![pair(2, 8)]));
    bracket
        .record(KnockoutRound::ThirdPlace, 1, TeamId(105))
        .expect("third place");
    bracket
        .record(KnockoutRound::Final, 1, TeamId(108))
        .expect("final");
    assert_eq!(
        bracket.placings(),
        Some([TeamId(108), TeamId(102), TeamId(105), TeamId(103)])
    );
    // A stored bracket reads back the same.
    let json = serde_json::to_string(&bracket).expect("json");
    assert_eq!(
        serde_json::from_str::<Bracket>(&json).expect("back"),
        bracket
    );
}

#[test]
fn wrong_records_are_refused() {
    let mut bracket = Bracket::new(&seeds(8), BracketSize::Eight).expect("bracket");
    assert_eq!(
        bracket.record(KnockoutRound::QuarterFinal, 1, TeamId(102)),
        Err(KnockoutError::NotAPlayer {
            round: KnockoutRound::QuarterFinal,
            slot: 1,
            winner: TeamId(102)
        })
    );
    assert_eq!(
        bracket.record(KnockoutRound::QuarterFinal, 5, TeamId(101)),
        Err(KnockoutError::NoSuchSlot {
            round: KnockoutRound::QuarterFinal,
            slot: 5
        })
    );
    assert_eq!(
        bracket.record(KnockoutRound::QuarterFinal, 0, TeamId(101)),
        Err(KnockoutError::NoSuchSlot {
            round: KnockoutRound::QuarterFinal,
            slot: 0
        })
    );
    bracket
        .record(KnockoutRound::QuarterFinal, 1, TeamId(101))
        .expect("once");
    assert_eq!(
        bracket.record(KnockoutRound::QuarterFinal, 1, TeamId(108)),
        Err(KnockoutError::AlreadyDecided {
            round: KnockoutRound::QuarterFinal,
            slot: 1
        })
    );
    assert_eq!(
        Bracket::new(&seeds(7), BracketSize::Eight),
        Err(KnockoutError::TooFewTeams {
            needed: 8,
            given: 7
        })
    );
    let twice = [TeamId(1), TeamId(2), TeamId(1), TeamId(3)];
    assert_eq!(
        Bracket::new(&twice, BracketSize::Four),
        Err(KnockoutError::DuplicateTeam(TeamId(1)))
    );
}

#[test]
fn a_bracket_of_four_starts_with_the_semi_finals() {
    let mut bracket = Bracket::new(&seeds(4), BracketSize::Four).expect("bracket");
    assert_eq!(
        bracket.pairings(KnockoutRound::QuarterFinal),
        Err(KnockoutError::NoSuchRound(KnockoutRound::QuarterFinal))
    );
    assert_eq!(
        bracket.pairings(KnockoutRound::SemiFinal),
        Ok(vec![pair(1, 4), pair(2, 3)])
    );
    bracket
        .record(KnockoutRound::SemiFinal, 1, TeamId(101))
        .expect("semi");
    bracket
        .record(KnockoutRound::SemiFinal, 2, TeamId(103))
        .expect("semi");
    bracket
        .record(KnockoutRound::Final, 1, TeamId(103))
        .expect("final");
    bracket
        .record(KnockoutRound::ThirdPlace, 1, TeamId(104))
        .expect("third");
    assert_eq!(
        bracket.placings(),
        Some([TeamId(103), TeamId(101), TeamId(104), TeamId(102)])
    );
}

#[test]
fn a_round_is_scheduled_as_knockout_encounters_named_by_round_and_slot() {
    let bracket = Bracket::new(&seeds(8), BracketSize::Eight).expect("bracket");
    let settings = ContestSettings::default();
    let encounters = bracket
        .schedule_round(KnockoutRound::QuarterFinal, &settings, |team| AtDeadline {
            active: (team != TeamId(106)).then_some(VersionId(team.0)),
            enabled: true,
        })
        .expect("round");
    assert_eq!(encounters.len(), 4);
    for (slot, encounter) in (1..).zip(&encounters) {
        assert_eq!(encounter.kind, EncounterKind::Knockout);
        assert_eq!(encounter.key.phase, Phase::Final);
        assert_eq!(encounter.key.matchday, KnockoutRound::QuarterFinal.number());
        assert_eq!(encounter.key.slot, slot);
    }
    // Place 6 has no active version: the stand-in plays.
    assert_eq!(
        encounters[3].entries,
        [Entry::Version(VersionId(103)), Entry::StandIn]
    );
    assert_eq!(
        encounters[0].progress(&settings, 1, &[]),
        Ok(Progress::Play(0..6))
    );
}

/// From 40 teams in two championship groups over one cycle, the best 8 of
/// each into the champions league, and its best 8 into the final: the
/// phases hand their places on.
#[test]
fn championship_to_champions_league_to_final() {
    let settings = ContestSettings::default();
    let seed = 5;
    let teams: Vec<TeamId> = (1..=40).map(TeamId).collect();
    let groups =
        spielleiter_contest::draw_groups(seed, Phase::Championship, &teams, 2).expect("draw");
    let everyone = |team: TeamId| AtDeadline {
        active: Some(VersionId(team.0)),
        enabled: true,
    };
    // The stronger team (higher id) wins every game: the tables are known.
    let play = |phase: Phase, groups: &[Vec<TeamId>], matchdays: u32| {
        let mut played = Vec::new();
        for matchday in 1..=matchdays {
            let schedule = schedule_matchday(
                seed,
                &settings,
                phase,
                matchday,
                (1..).zip(groups.iter().map(Vec::as_slice)),
                everyone,
            )
            .expect("schedule");
            for encounter in schedule.encounters {
                let home_stronger = encounter.pairing.home > encounter.pairing.away;
                let games: Vec<_> = (0..6)
                    .map(|_| {
                        Some(spielleiter_contest::GameResult {
                            winner: Some(if home_stronger {
                                spielleiter_contest::Side::Home
                            } else {
                                spielleiter_contest::Side::Away
                            }),
                            points: [1, 1],
                        })
                    })
                    .collect();
                let Ok(Progress::Decided(result)) = encounter.progress(&settings, seed, &games)
                else {
                    panic!("decided");
                };
                played.push(PlayedEncounter {
                    key: encounter.key,
                    pairing: encounter.pairing,
                    result,
                });
            }
        }
        played
    };
    let championship = play(Phase::Championship, &groups, 19);
    let tables: Vec<Standings> = (1..)
        .zip(&groups)
        .map(|(number, group)| {
            Standings::compute(seed, Phase::Championship, number, group, &championship, 19)
                .expect("table")
        })
        .collect();
    for (table, group) in tables.iter().zip(&groups) {
        let mut strongest = group.clone();
        strongest.sort_unstable_by(|a, b| b.cmp(a));
        assert_eq!(table.top(20).collect::<Vec<_>>(), strongest);
    }
    let league = qualifiers(&tables, settings.champions_league_size);
    assert_eq!(league.len(), 16);
    assert_eq!(
        &league[..2],
        &[tables[0].rows[0].team, tables[1].rows[0].team]
    );
    let league_groups = vec![league.clone()];
    let league_played = play(Phase::ChampionsLeague, &league_groups, 15);
    let league_table =
        Standings::compute(seed, Phase::ChampionsLeague, 1, &league, &league_played, 15)
            .expect("league table");
    let ranked: Vec<TeamId> = league_table.top(16).collect();
    let mut strongest = league.clone();
    strongest.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(ranked, strongest);
    let bracket = Bracket::new(&ranked, settings.bracket).expect("bracket");
    assert_eq!(
        bracket
            .pairings(KnockoutRound::QuarterFinal)
            .expect("quarter-finals")[0],
        Pairing {
            home: ranked[0],
            away: ranked[7]
        }
    );
}
