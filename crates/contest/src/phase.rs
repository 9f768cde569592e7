//! The phases of a contest ([`Phase`]) and the rounds of its final
//! ([`KnockoutRound`]).

use core::fmt;

use serde::{Deserialize, Serialize};

/// A phase of a contest, in the order they are played (decisions.md §32).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Trial matchdays: played and shown, never counted.
    Trial,
    /// The championship: groups of about 20, round-robin matchdays.
    Championship,
    /// The champions league: the best of each championship group, in the
    /// same mode.
    ChampionsLeague,
    /// The final: a knockout of 8 (or 4).
    Final,
}

impl Phase {
    /// Every phase, in the order they are played.
    pub const ALL: [Phase; 4] = [
        Phase::Trial,
        Phase::Championship,
        Phase::ChampionsLeague,
        Phase::Final,
    ];

    /// The phase's number in seeds (stored contests' history: never
    /// renumber).
    pub const fn number(self) -> u64 {
        match self {
            Phase::Trial => 1,
            Phase::Championship => 2,
            Phase::ChampionsLeague => 3,
            Phase::Final => 4,
        }
    }

    /// Whether the phase's results make standings. Trial matchdays are
    /// played and shown but count for nothing; the final is ranked by its
    /// bracket, not a table.
    pub const fn has_standings(self) -> bool {
        matches!(self, Phase::Championship | Phase::ChampionsLeague)
    }

    /// Whether the phase is played in round-robin matchdays (the final is a
    /// knockout).
    pub const fn is_round_robin(self) -> bool {
        !matches!(self, Phase::Final)
    }

    /// The phase's name for people.
    pub const fn title(self) -> &'static str {
        match self {
            Phase::Trial => "trial matchdays",
            Phase::Championship => "championship",
            Phase::ChampionsLeague => "champions league",
            Phase::Final => "final",
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

/// A round of the final's knockout, in the order they are played. The
/// match for third place is a round of its own, so that it can be played
/// and published before the final.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KnockoutRound {
    /// Four encounters of a bracket of 8.
    QuarterFinal,
    /// Two encounters.
    SemiFinal,
    /// The two losers of the semi-finals.
    ThirdPlace,
    /// The two winners of the semi-finals.
    Final,
}

impl KnockoutRound {
    /// Every round, in the order they are played.
    pub const ALL: [KnockoutRound; 4] = [
        KnockoutRound::QuarterFinal,
        KnockoutRound::SemiFinal,
        KnockoutRound::ThirdPlace,
        KnockoutRound::Final,
    ];

    /// The round of [`number`](KnockoutRound::number) `number`, if there
    /// is one.
    pub fn of_number(number: u32) -> Option<KnockoutRound> {
        KnockoutRound::ALL
            .into_iter()
            .find(|round| round.number() == number)
    }

    /// The round's number in the final's matchdays and seeds (stored
    /// contests' history: never renumber).
    pub const fn number(self) -> u32 {
        match self {
            KnockoutRound::QuarterFinal => 1,
            KnockoutRound::SemiFinal => 2,
            KnockoutRound::ThirdPlace => 3,
            KnockoutRound::Final => 4,
        }
    }

    /// The round's name for people.
    pub const fn title(self) -> &'static str {
        match self {
            KnockoutRound::QuarterFinal => "quarter-final",
            KnockoutRound::SemiFinal => "semi-final",
            KnockoutRound::ThirdPlace => "match for third place",
            KnockoutRound::Final => "final",
        }
    }
}

impl fmt::Display for KnockoutRound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_is_found_by_its_own_number_only() {
        for round in KnockoutRound::ALL {
            assert_eq!(KnockoutRound::of_number(round.number()), Some(round));
        }
        assert_eq!(KnockoutRound::of_number(0), None);
        assert_eq!(KnockoutRound::of_number(5), None);
    }

    #[test]
    fn only_the_championship_and_champions_league_make_tables() {
        let counted: Vec<Phase> = Phase::ALL
            .into_iter()
            .filter(|p| p.has_standings())
            .collect();
        assert_eq!(counted, [Phase::Championship, Phase::ChampionsLeague]);
        assert!(!Phase::Final.is_round_robin());
        assert!(Phase::Trial.is_round_robin());
    }

    #[test]
    fn phases_serialise_by_name() {
        assert_eq!(
            serde_json::to_string(&Phase::ChampionsLeague)
                .ok()
                .as_deref(),
            Some("\"champions_league\"")
        );
        assert_eq!(
            serde_json::from_str::<KnockoutRound>("\"third_place\"").ok(),
            Some(KnockoutRound::ThirdPlace)
        );
    }

    #[test]
    fn numbers_are_distinct() {
        let mut phases: Vec<u64> = Phase::ALL.iter().map(|p| p.number()).collect();
        phases.dedup();
        assert_eq!(phases.len(), 4);
    }
}
