//! The built-in bots of the 20×20 Blokus games: the Software-Challenge
//! seasons (2021, `swc_2021_blokus`; 2027, `swc_2027_blokus`) and classic
//! Blokus for 4, 3 and 2 players (`blokus_classic`, `_3`, `_2`).
//! [`RandomBot`] and [`GreedyBot`] play any of them through
//! [`BlokusGame`], as the games share moves and board and differ only in
//! rules the engine applies and in who plays against whom.

mod game;
mod greedy;
mod random;

pub use game::BlokusGame;
pub(crate) use game::free_corners;
pub use greedy::GreedyBot;
use rand_pcg::Pcg64;
pub use random::RandomBot;
use spielleiter_rules::entry;

use crate::{Bot, BotKind, GameBots};

/// The bot of `kind` for the Blokus game `G`, seeded with `seed` where it
/// draws at random (the bot catalogue's entry for the 20×20 Blokus games).
pub fn bot<G: BlokusGame + 'static>(kind: BotKind, seed: u64) -> Option<Box<dyn Bot<G> + Send>> {
    Some(match kind {
        BotKind::Illegal => return None,
        BotKind::Random => Box::new(RandomBot::new(Pcg64::new(
            u128::from(seed),
            // Any odd stream constant; fixed so a seed means one game.
            0x5851_f42d_4c95_7f2d_1405_7b7e_f767_814f,
        ))),
        BotKind::Greedy => Box::new(GreedyBot::new()),
    })
}

/// The bots of the 20×20 Blokus games of the catalogue: [`bot`] for each.
macro_rules! blokus_bots {
    ($($entry:ident),*) => {$(
        impl GameBots for entry::$entry {
            fn bot(kind: BotKind, seed: u64) -> Option<Box<dyn Bot<Self::Game> + Send>> {
                bot(kind, seed)
            }
        }
    )*};
}

blokus_bots!(
    Blokus2021,
    Blokus2027,
    BlokusClassic,
    BlokusClassic3,
    BlokusClassic2
);

#[cfg(test)]
mod tests {
    use spielleiter_rules::{
        AnyGame, Game, GameType,
        blokus::{Classic, ClassicPlayers, Color},
    };

    use super::*;
    use crate::Bot;

    const CLASSIC: [GameType; 3] = [
        GameType::BlokusClassic,
        GameType::BlokusClassic3,
        GameType::BlokusClassic2,
    ];

    /// Plays a classic game of `game_type` with a bot of `kinds[seat]` per
    /// seat; returns the final game.
    fn play(game_type: GameType, kinds: &[BotKind], seed: u64) -> AnyGame {
        let mut rng = rand_pcg::Pcg64::new(1, 1);
        let mut game = AnyGame::new(game_type, &mut rng);
        let mut bots: Vec<_> = kinds
            .iter()
            .enumerate()
            .map(|(seat, kind)| kind.build(game_type, seed + seat as u64).expect("a bot"))
            .collect();
        while let Some(seat) = game.player_to_move() {
            let mv = bots[seat].choose_move(&game);
            game.play(&mv).expect("bots play legal moves");
        }
        game
    }

    #[test]
    fn both_bots_play_every_classic_game_to_its_end() {
        for game_type in CLASSIC {
            for kind in [BotKind::Random, BotKind::Greedy] {
                let kinds = vec![kind; game_type.player_count()];
                let game = play(game_type, &kinds, 3);
                assert!(game.is_over());
                let (AnyGame::BlokusClassic(classic)
                | AnyGame::BlokusClassic3(classic)
                | AnyGame::BlokusClassic2(classic)) = &game
                else {
                    panic!("a classic game");
                };
                // Nobody could place any more.
                assert!(Color::ALL.iter().all(|&c| !classic.has_legal_move(c)));
                assert!(!game.winners().is_empty());
            }
        }
    }

    #[test]
    fn greedy_beats_random_in_the_four_player_game() {
        let mut greedy_wins = 0;
        let games = 8;
        for seed in 0..games {
            // Greedy in seat seed mod 4, random elsewhere.
            let greedy = seed as usize % 4;
            let kinds: Vec<_> = (0..4)
                .map(|s| {
                    if s == greedy {
                        BotKind::Greedy
                    } else {
                        BotKind::Random
                    }
                })
                .collect();
            let game = play(GameType::BlokusClassic, &kinds, seed * 10);
            if game.winners().contains(greedy) {
                greedy_wins += 1;
            }
        }
        assert!(greedy_wins >= 6, "greedy won {greedy_wins} of {games}");
    }

    #[test]
    fn opponents_follow_the_seats() {
        let two = Classic::new(ClassicPlayers::Two);
        assert_eq!(
            two.opponents(Color::Blue).iter().collect::<Vec<_>>(),
            [Color::Yellow, Color::Green]
        );
        let four = Classic::new(ClassicPlayers::Four);
        assert_eq!(four.opponents(Color::Red).len(), 3);
        assert!(!four.opponents(Color::Red).contains(Color::Red));
    }
}
