//! Every random choice of a contest, derived from the contest's seed and
//! the name of the choice alone (decisions.md §27): a game's seed, a
//! group's draw, a round-robin plan's order, a lot.
//!
//! The derivation and the stream are written out here (SplitMix64, the
//! finaliser the arena's room seeds use, and Lemire's bounded draw) rather
//! than taken from `rand`: a contest stored today must draw the same groups
//! and lots after any dependency upgrade, and `rand` documents
//! value-changing releases of its shuffles and ranges. Nothing here is
//! meant to be unpredictable to an attacker; it is meant to be fair and
//! repeatable.

use crate::{ChallengeId, Phase, TeamId, VersionId};

/// What a derived seed is for: the first part of every derivation, so that
/// two kinds of choice with the same numbers never share a seed. The
/// numbers are stored contests' history: never renumber.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u64)]
pub(crate) enum Purpose {
    /// A game of an encounter.
    EncounterGame = 1,
    /// A friendly game.
    FriendlyGame = 2,
    /// A version's test game.
    TestGame = 3,
    /// The order of a group's teams in its round-robin plan.
    RoundRobin = 4,
    /// The draw of a phase's groups.
    GroupDraw = 5,
    /// A team's lot in a group's standings.
    StandingsLot = 6,
    /// The lot of a knockout encounter still tied after its games.
    EncounterLot = 7,
}

/// SplitMix64's finaliser: neighbouring inputs give unrelated outputs.
pub(crate) const fn split_mix(value: u64) -> u64 {
    let mut z = value.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed for `purpose` and `parts` under the contest's `seed`: each
/// part is folded in through the finaliser, so the order of the parts
/// matters and no part can cancel another.
pub(crate) fn derive(seed: u64, purpose: Purpose, parts: &[u64]) -> u64 {
    let mut state = split_mix(seed ^ split_mix(purpose as u64));
    for &part in parts {
        state = split_mix(state ^ split_mix(part));
    }
    state
}

/// A stream of numbers from one derived seed (SplitMix64).
#[derive(Clone, Debug)]
pub(crate) struct Stream {
    state: u64,
}

impl Stream {
    pub(crate) fn new(seed: u64) -> Stream {
        Stream { state: seed }
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound` ≥ 1), each equally likely
    /// (Lemire's multiply-and-reject).
    pub(crate) fn below(&mut self, bound: u64) -> u64 {
        debug_assert!(bound > 0);
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let product = u128::from(self.next_u64()) * u128::from(bound);
            if (product as u64) >= threshold {
                return (product >> 64) as u64;
            }
        }
    }

    /// Shuffles `items` (Fisher–Yates), every order equally likely.
    pub(crate) fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// Where an encounter stands in its contest: the name its games' seeds and
/// its lot derive from. Matchday and round numbers count from 1 within the
/// phase (a knockout round's number is its
/// [`KnockoutRound::number`](crate::KnockoutRound::number)), the group from
/// 1 within the phase (1 in the final), the slot from 1 within the group's
/// matchday in the order of the plan. None of them is a store id, so a
/// matchday scheduled again after a crash (or in a fresh store) names the
/// same encounters.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct EncounterKey {
    /// The phase.
    pub phase: Phase,
    /// The matchday's number in the phase, or the knockout round's.
    pub matchday: u32,
    /// The group's number in the phase.
    pub group: u32,
    /// The encounter's place in the group's matchday, from 1.
    pub slot: u32,
}

impl EncounterKey {
    /// The seed of game `game` (from 0) of this encounter: from the
    /// contest's seed and this key alone (decisions.md §27), so a game
    /// played again is the same game.
    pub fn game_seed(&self, contest_seed: u64, game: u32) -> u64 {
        derive(
            contest_seed,
            Purpose::EncounterGame,
            &[
                self.phase.number(),
                u64::from(self.matchday),
                u64::from(self.group),
                u64::from(self.slot),
                u64::from(game),
            ],
        )
    }

    /// The seed of the lot that decides this encounter when its games and
    /// game points leave it tied (knockout only).
    pub(crate) fn lot_seed(&self, contest_seed: u64) -> u64 {
        derive(
            contest_seed,
            Purpose::EncounterLot,
            &[
                self.phase.number(),
                u64::from(self.matchday),
                u64::from(self.group),
                u64::from(self.slot),
            ],
        )
    }
}

/// The seed of game `game` (from 0) of friendly challenge `challenge`.
pub fn friendly_game_seed(contest_seed: u64, challenge: ChallengeId, game: u32) -> u64 {
    derive(
        contest_seed,
        Purpose::FriendlyGame,
        &[challenge.0 as u64, u64::from(game)],
    )
}

/// The seed of test game `game` (from 0) of version `version`; a test run
/// again plays the same games.
pub fn test_game_seed(contest_seed: u64, version: VersionId, game: u32) -> u64 {
    derive(
        contest_seed,
        Purpose::TestGame,
        &[version.0 as u64, u64::from(game)],
    )
}

/// The lot of `team` in group `group` of `phase`: teams level on ranking
/// points and the second criterion are ordered by it, higher first. Drawn
/// once per phase and group, so two teams level on several matchdays keep
/// their order.
pub(crate) fn standings_lot(contest_seed: u64, phase: Phase, group: u32, team: TeamId) -> u64 {
    derive(
        contest_seed,
        Purpose::StandingsLot,
        &[phase.number(), u64::from(group), team.0 as u64],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_mix_matches_the_reference_stream() {
        // The first outputs of SplitMix64 seeded with 0 (Vigna's reference
        // implementation): the stream is the published one, so a stored
        // contest's draws can be recomputed by anyone.
        let mut stream = Stream::new(0);
        assert_eq!(stream.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(stream.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(stream.next_u64(), 0x06c4_5d18_8009_454f);
    }

    #[test]
    fn derived_seeds_depend_on_every_part_and_its_place() {
        let key = EncounterKey {
            phase: Phase::Championship,
            matchday: 3,
            group: 2,
            slot: 4,
        };
        let base = key.game_seed(42, 1);
        assert_eq!(base, key.game_seed(42, 1));
        let changed = [
            key.game_seed(43, 1),
            key.game_seed(42, 2),
            EncounterKey { matchday: 4, ..key }.game_seed(42, 1),
            EncounterKey { group: 3, ..key }.game_seed(42, 1),
            EncounterKey { slot: 5, ..key }.game_seed(42, 1),
            EncounterKey {
                phase: Phase::ChampionsLeague,
                ..key
            }
            .game_seed(42, 1),
            // The same numbers in other places.
            EncounterKey {
                matchday: 2,
                group: 3,
                ..key
            }
            .game_seed(42, 1),
            friendly_game_seed(42, ChallengeId(1), 1),
            test_game_seed(42, VersionId(1), 1),
        ];
        for (i, seed) in changed.iter().enumerate() {
            assert_ne!(*seed, base, "change {i}");
        }
    }

    #[test]
    fn bounded_draws_cover_the_range_evenly() {
        let mut stream = Stream::new(7);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[stream.below(6) as usize] += 1;
        }
        // Each face 10 000 ± 5 %: far outside this only with a biased draw.
        for count in counts {
            assert!((9_500..=10_500).contains(&count), "{counts:?}");
        }
        assert_eq!(Stream::new(1).below(1), 0);
    }

    #[test]
    fn a_shuffle_is_a_permutation_and_depends_on_the_seed() {
        let original: Vec<u32> = (0..20).collect();
        let mut a = original.clone();
        Stream::new(1).shuffle(&mut a);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, original);
        let mut b = original.clone();
        Stream::new(2).shuffle(&mut b);
        assert_ne!(a, b);
        let mut again = original.clone();
        Stream::new(1).shuffle(&mut again);
        assert_eq!(a, again);
    }
}
