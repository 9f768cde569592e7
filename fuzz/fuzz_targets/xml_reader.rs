//! The XML reader behind every packet. Any bytes are read as a client's
//! packet (lobby and administration, and as a player of each hosted game)
//! and as a server's packet of each hosted game (what the client library
//! reads). Reading never panics. A client's packet that reads writes back
//! to XML that reads as the same message. The client library reads servers'
//! packets leniently (a result may lack what its season's layout always
//! writes, or carry what only another season's layout holds), so there the
//! written form of what was read must read back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use spielleiter_protocol::{ClientMessage, GameType, ServerMessage};

fuzz_target!(|packet: &[u8]| {
    let games = GameType::ALL.iter().copied();
    for game in std::iter::once(None).chain(games.clone().map(Some)) {
        if let Ok(message) = ClientMessage::decode(packet, game) {
            let written = message.to_xml();
            let again = ClientMessage::decode(written.as_bytes(), game)
                .unwrap_or_else(|e| panic!("{written} does not read back: {e}"));
            assert_eq!(again, message, "{written}");
        }
    }
    for game in games {
        if let Ok(message) = ServerMessage::decode(packet, game) {
            let read_back = |message: &ServerMessage| {
                let written = message.to_xml();
                ServerMessage::decode(written.as_bytes(), game)
                    .unwrap_or_else(|e| panic!("{written} does not read back: {e}"))
            };
            let written = read_back(&message);
            assert_eq!(read_back(&written), written, "{}", written.to_xml());
        }
    }
});
