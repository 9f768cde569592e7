//! Parsing single packets: leniency where decided (unknown attributes and
//! children, unknown packets), typed errors for malformed moves and
//! malformed XML.

use spielleiter_protocol::{
    ClientMessage, DecodeError, GameMove, GameType, MoveError, RoomData, ServerMessage,
    games::blokus2021::WireMove,
};
use spielleiter_rules::blokus::{Color, Move, PieceKind, Placement, Rotation};

fn decode(xml: &str) -> Result<ClientMessage, DecodeError> {
    ClientMessage::decode(xml.as_bytes(), Some(GameType::Blokus2021))
}

fn set_move(piece: &str) -> String {
    format!("<room roomId=\"r\"><data class=\"sc.plugin2021.SetMove\">{piece}</data></room>")
}

fn move_error(xml: &str) -> MoveError {
    match decode(xml) {
        Err(DecodeError::MalformedMove(e)) => e,
        other => panic!("expected a malformed move for {xml}, got {other:?}"),
    }
}

#[test]
fn set_move_with_defaults_and_extras() {
    let xml = set_move(
        r#"<piece kind="MONO" rotation="LEFT" color="RED" unknown="1"><position x="+4" y="-2" z="9"/><hint/></piece>"#,
    );
    assert_eq!(
        decode(&xml).expect("decodes"),
        ClientMessage::Move {
            room_id: "r".into(),
            mv: GameMove::Blokus2021(WireMove::Set(Placement {
                color: Color::Red,
                kind: PieceKind::Mono,
                rotation: Rotation::Left,
                flipped: false,
                x: 4,
                y: -2,
            })),
        }
    );
}

#[test]
fn is_flipped_is_read_like_java() {
    let xml = set_move(
        r#"<piece color="RED" kind="MONO" rotation="NONE" isFlipped="TRUE"><position x="0" y="0"/></piece>"#,
    );
    let Ok(ClientMessage::Move {
        mv: GameMove::Blokus2021(WireMove::Set(p)),
        ..
    }) = decode(&xml)
    else {
        panic!("not a set move");
    };
    assert!(p.flipped);
}

#[test]
fn malformed_moves_are_typed_errors() {
    let position = r#"<position x="1" y="2"/>"#;
    let cases = [
        (
            set_move(""),
            MoveError::MissingElement { element: "piece" },
        ),
        (
            set_move(r#"<piece color="RED" kind="MONO" rotation="NONE"/>"#),
            MoveError::MissingElement {
                element: "position",
            },
        ),
        (
            set_move(&format!(r#"<piece kind="MONO" rotation="NONE">{position}</piece>"#)),
            MoveError::MissingAttribute {
                element: "piece",
                attribute: "color",
            },
        ),
        (
            set_move(&format!(r#"<piece color="RED" rotation="NONE">{position}</piece>"#)),
            MoveError::MissingAttribute {
                element: "piece",
                attribute: "kind",
            },
        ),
        (
            set_move(&format!(r#"<piece color="RED" kind="MONO">{position}</piece>"#)),
            MoveError::MissingAttribute {
                element: "piece",
                attribute: "rotation",
            },
        ),
        (
            set_move(&format!(
                r#"<piece color="RED" kind="HEXO" rotation="NONE">{position}</piece>"#
            )),
            MoveError::UnknownName {
                what: "piece kind",
                value: "HEXO".into(),
            },
        ),
        (
            set_move(&format!(
                r#"<piece color="red" kind="MONO" rotation="NONE">{position}</piece>"#
            )),
            MoveError::UnknownName {
                what: "colour",
                value: "red".into(),
            },
        ),
        (
            set_move(&format!(
                r#"<piece color="RED" kind="MONO" rotation="UPSIDE">{position}</piece>"#
            )),
            MoveError::UnknownName {
                what: "rotation",
                value: "UPSIDE".into(),
            },
        ),
        (
            set_move(r#"<piece color="RED" kind="MONO" rotation="NONE"><position x="1.5" y="2"/></piece>"#),
            MoveError::InvalidCoordinate {
                value: "1.5".into(),
            },
        ),
        (
            set_move(r#"<piece color="RED" kind="MONO" rotation="NONE"><position x="1" y="2147483648"/></piece>"#),
            MoveError::InvalidCoordinate {
                value: "2147483648".into(),
            },
        ),
        (
            set_move(r#"<piece color="RED" kind="MONO" rotation="NONE"><position y="2"/></piece>"#),
            MoveError::MissingAttribute {
                element: "position",
                attribute: "x",
            },
        ),
        (
            r#"<room roomId="r"><data class="sc.plugin2021.SkipMove"><color>PINK</color></data></room>"#
                .to_owned(),
            MoveError::UnknownName {
                what: "colour",
                value: "PINK".into(),
            },
        ),
    ];
    for (xml, expected) in cases {
        assert_eq!(move_error(&xml), expected, "{xml}");
    }
}

#[test]
fn a_skip_without_colour_is_for_the_colour_on_turn() {
    let message =
        decode(r#"<room roomId="r"><data class="sc.plugin2021.SkipMove" /></room>"#).expect("ok");
    let ClientMessage::Move {
        mv: GameMove::Blokus2021(mv),
        ..
    } = message
    else {
        panic!("not a move: {message:?}");
    };
    assert_eq!(mv, WireMove::Skip(None));
    assert_eq!(mv.resolve(Color::Green), Move::Skip(Color::Green));
    // The echo keeps the colourless form.
    assert_eq!(
        message_xml(mv),
        "<room roomId=\"r\">\n  <data class=\"sc.plugin2021.SkipMove\"/>\n</room>"
    );
}

fn message_xml(mv: WireMove) -> String {
    ClientMessage::Move {
        room_id: "r".into(),
        mv: GameMove::Blokus2021(mv),
    }
    .to_xml()
}

#[test]
fn room_packets_without_a_move() {
    assert_eq!(
        decode(r#"<room roomId="r"><data class="memento"><state/></data></room>"#).expect("ok"),
        ClientMessage::RoomWithoutMove {
            room_id: "r".into(),
            data_class: Some("memento".into()),
        }
    );
    assert_eq!(
        decode(r#"<room roomId="r"/>"#).expect("ok"),
        ClientMessage::RoomWithoutMove {
            room_id: "r".into(),
            data_class: None,
        }
    );
    // The unused aliases of the move classes are not moves.
    assert_eq!(
        decode(r#"<room roomId="r"><data class="setmove"/></room>"#).expect("ok"),
        ClientMessage::RoomWithoutMove {
            room_id: "r".into(),
            data_class: Some("setmove".into()),
        }
    );
}

#[test]
fn unknown_packets_are_reported_not_rejected() {
    assert_eq!(
        decode("<yarr><x/></yarr>").expect("ok"),
        ClientMessage::Unknown {
            name: "yarr".into()
        }
    );
    assert_eq!(
        decode(r#"<joined roomId="x"/>"#).expect("ok"),
        ClientMessage::Unknown {
            name: "joined".into()
        }
    );
    assert_eq!(
        ServerMessage::decode(b"<news/>", GameType::Blokus2021).expect("ok"),
        ServerMessage::Unknown {
            name: "news".into()
        }
    );
}

#[test]
fn missing_required_attributes_are_errors() {
    assert!(matches!(
        decode("<joinRoom/>"),
        Err(DecodeError::MissingAttribute {
            element: "joinRoom",
            attribute: "roomId"
        })
    ));
    assert!(matches!(
        decode("<cancel/>"),
        Err(DecodeError::MissingAttribute {
            element: "cancel",
            ..
        })
    ));
    // A join without gameType is accepted (the official server does too).
    assert_eq!(
        decode("<join/>").expect("ok"),
        ClientMessage::Join { game_type: None }
    );
}

#[test]
fn slots_read_missing_flags_as_false() {
    let ClientMessage::Prepare(prepare) =
        decode(r#"<prepare gameType="swc_2021_blokus"><slot displayName="p1"/><slot/></prepare>"#)
            .expect("ok")
    else {
        panic!("not a prepare");
    };
    assert!(!prepare.pause);
    assert_eq!(prepare.slots.len(), 2);
    assert_eq!(prepare.slots[0].display_name.as_deref(), Some("p1"));
    assert!(!prepare.slots[0].can_timeout && !prepare.slots[0].reserved);
    assert_eq!(prepare.slots[1].display_name, None);
}

#[test]
fn malformed_xml_is_an_error() {
    for xml in [
        "<join gameType=\"x\">",
        "<join gameType=x/>",
        "<room roomId=\"r\"><data></room>",
        "<join a=\"1\" a=\"2\"/>",
        // First-wins would read "a" here: a repeat is malformed instead.
        "<join gameType=\"a\" gameType=\"b\"/>",
        "<close a='1' a='1'/>",
        "<room roomId=\"r\"><data class=\"x\"><hint n='1' n='2'/></data></room>",
        "<join gameType=\"&bogus;\"/>",
        "",
    ] {
        assert!(decode(xml).is_err(), "{xml}");
    }
    assert!(
        ClientMessage::decode(b"<join gameType=\"\xff\"/>", Some(GameType::Blokus2021)).is_err()
    );
}

#[test]
fn the_long_close_name_closes_too() {
    assert_eq!(
        decode("<sc.protocol.CloseConnection/>").expect("ok"),
        ClientMessage::Close
    );
    assert_eq!(decode("<close/>").expect("ok"), ClientMessage::Close);
}

#[test]
fn errors_repeat_only_a_prefix_of_the_input() {
    let long = "x".repeat(100_000);
    let error = decode(&set_move(&format!(
        r#"<piece kind="{long}" rotation="NONE" color="RED"><position x="0" y="0"/></piece>"#
    )))
    .expect_err("unknown piece kind");
    let text = error.to_string();
    assert!(text.len() < 300, "{} bytes", text.len());
    assert!(text.contains(&format!("{}…", &long[..200])), "{text}");
}

#[test]
fn escaped_values_are_unescaped() {
    assert_eq!(
        decode(r#"<authenticate password="a&amp;b&#x9;&lt;&quot;&apos;"/>"#).expect("ok"),
        ClientMessage::Authenticate {
            password: "a&b\t<\"'".into()
        }
    );
}

#[test]
fn server_messages_that_need_parts() {
    for xml in [
        r#"<room roomId="r"/>"#,
        r#"<room roomId="r"><data class="memento"/></room>"#,
        r#"<room roomId="r"><data class="nope"/></room>"#,
        r#"<room roomId="r"><data class="welcomeMessage" color="THREE"/></room>"#,
        r#"<room roomId="r"><data class="error"><originalMessage class="x"/></data></room>"#,
        r#"<joinedGameRoom roomId="r" playerCount="two"/>"#,
    ] {
        assert!(
            ServerMessage::decode(xml.as_bytes(), GameType::Blokus2021).is_err(),
            "{xml}"
        );
    }
    assert_eq!(
        ServerMessage::decode(
            br#"<room roomId="r"><data class="paused" paused="true"/></room>"#,
            GameType::Blokus2021
        )
        .expect("ok"),
        ServerMessage::Room {
            room_id: "r".into(),
            data: RoomData::Paused { paused: true }
        }
    );
}
