//! Every hosted game's move decoder (each game of the catalogue, so a new
//! game is fuzzed as soon as it is listed). The input is the `data` element
//! of a player's `room` packet, read as a move of each game. Reading never
//! panics; a move that reads writes back to the same move; and the move,
//! completed by the rules (`resolve`), is played on a position a few plies
//! into the game without a panic, legal or not.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rand_pcg::Pcg64;
use spielleiter_protocol::{ClientMessage, GameType};
use spielleiter_rules::{AnyGame, Game};

fuzz_target!(|data: &[u8]| {
    let mut packet = b"<room roomId=\"r\">".to_vec();
    packet.extend_from_slice(data);
    packet.extend_from_slice(b"</room>");
    for &game in GameType::ALL {
        let Ok(message @ ClientMessage::Move { .. }) = ClientMessage::decode(&packet, Some(game))
        else {
            continue;
        };
        let written = message.to_xml();
        let again = ClientMessage::decode(written.as_bytes(), Some(game))
            .unwrap_or_else(|e| panic!("{written} does not read back: {e}"));
        assert_eq!(again, message, "{written}");
        let ClientMessage::Move { mv, .. } = message else {
            unreachable!()
        };
        assert_eq!(mv.game_type(), game);
        let _ = mv.description();
        let mut position = AnyGame::new(game, &mut Pcg64::new(7, 11));
        // The input's length picks how far into the game the move lands.
        for _ in 0..data.len() % 4 {
            let mut first = None;
            position.for_each_legal_move(|legal| {
                first.get_or_insert(legal);
            });
            match first {
                Some(legal) if !position.is_over() => position.play(&legal).expect("a legal move"),
                _ => break,
            }
        }
        if let Some(resolved) = mv.resolve(&position) {
            let _ = position.play(&resolved);
        }
    }
});
