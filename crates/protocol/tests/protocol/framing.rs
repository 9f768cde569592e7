//! The frame decoder on real transcripts: split at every byte offset, in one
//! read, with the spacing and ordering variations clients produce.

use spielleiter_protocol::{ClientMessage, GameType, ServerMessage, StreamEvent};

use crate::{
    util::{split_feed, vector},
    vectors::{join_sequence_client_messages, join_sequence_server_messages},
};

fn decode_all_server(events: &[StreamEvent]) -> Vec<ServerMessage> {
    events
        .iter()
        .filter_map(|e| match e {
            StreamEvent::Frame(f) => {
                Some(ServerMessage::decode(f.as_bytes(), GameType::Blokus2021).expect("decodes"))
            }
            StreamEvent::End => None,
        })
        .collect()
}

fn decode_all_client(events: &[StreamEvent]) -> Vec<ClientMessage> {
    events
        .iter()
        .filter_map(|e| match e {
            StreamEvent::Frame(f) => Some(
                ClientMessage::decode(f.as_bytes(), Some(GameType::Blokus2021)).expect("decodes"),
            ),
            StreamEvent::End => None,
        })
        .collect()
}

#[test]
fn server_transcript_split_at_every_byte() {
    let text = vector("join-sequence.server-to-client.xml");
    let expected = join_sequence_server_messages();
    for split in 0..=text.len() {
        let (events, error) = split_feed(text.as_bytes(), split);
        assert!(error.is_none(), "split {split}: {error:?}");
        assert_eq!(decode_all_server(&events), expected, "split {split}");
    }
}

#[test]
fn client_transcript_split_at_every_byte() {
    let text = vector("join-sequence.client-to-server.xml") + "</protocol>";
    let expected = join_sequence_client_messages();
    for split in 0..=text.len() {
        let (events, error) = split_feed(text.as_bytes(), split);
        assert!(error.is_none(), "split {split}: {error:?}");
        assert_eq!(events.last(), Some(&StreamEvent::End), "split {split}");
        assert_eq!(decode_all_client(&events), expected, "split {split}");
    }
}

#[test]
fn client_variations_decode_to_the_same_messages() {
    // XML declaration, no whitespace at all, attributes reordered and
    // spaced, `<x />`, extra attributes and children, comments.
    let text = concat!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><protocol>",
        "<join gameType='swc_2021_blokus' />",
        "<room  roomId = \"f0e1d2c3-b4a5-4697-8877-665544332211\" extra=\"1\">",
        "<!-- my move --><data class=\"sc.plugin2021.SetMove\">",
        "<hint content=\"debug\"/>",
        "<piece isFlipped=\"false\" rotation=\"NONE\" kind=\"PENTO_V\" color=\"BLUE\" foo=\"bar\">",
        "<position y=\"0\" x=\"0\" />",
        "</piece></data></room>\r\n\r\n</protocol>",
    );
    for split in 0..=text.len() {
        let (events, error) = split_feed(text.as_bytes(), split);
        assert!(error.is_none(), "split {split}: {error:?}");
        assert_eq!(
            decode_all_client(&events),
            join_sequence_client_messages(),
            "split {split}"
        );
    }
}

#[test]
fn end_of_stream_in_the_middle_of_a_transcript() {
    let text = "<protocol><join gameType=\"swc_2021_blokus\"/></protocol><close/>";
    let (events, error) = split_feed(text.as_bytes(), 20);
    assert!(error.is_none());
    assert_eq!(events.len(), 2);
    assert_eq!(events[1], StreamEvent::End);
}
