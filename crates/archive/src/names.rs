//! Replay file names: the one place that knows how a replay is named at
//! each step of its life and what a name says.
//!
//! A game's replay is `replay_<gameType>_<local time>_<names…>_<room>` plus
//! a suffix for its state: [`PARTIAL`] while the game runs, [`PLAIN`] or
//! [`GZIP`] once finished, [`UNFINISHED`] when a crash left it behind. The
//! room id (a random UUID) ends the stem, so a name is unique without
//! looking at the directory; only finished names are ever listed or opened
//! by name.

use std::path::{Path, PathBuf};

use spielleiter_rules::GameType;

/// A finished replay's suffix.
pub const PLAIN: &str = ".xml";
/// A finished, gzip-compressed replay's suffix.
pub const GZIP: &str = ".xml.gz";
/// The suffix of a replay being written.
pub const PARTIAL: &str = ".xml.partial";
/// A replay being compressed, before it gets its final name.
const PARTIAL_GZIP: &str = ".xml.partial.gz";
/// The suffix of a replay a crash interrupted, moved aside at start.
pub const UNFINISHED: &str = ".xml.unfinished";

/// A finished game's wire log (`--wire-log`), next to its replay: the
/// replay's stem and this suffix. Never a replay's name.
pub const WIRE_PLAIN: &str = ".wire.txt";
/// A finished game's gzip-compressed wire log (beside a `.xml.gz` replay).
pub const WIRE_GZIP: &str = ".wire.txt.gz";
/// The suffix of a wire log being written.
pub const WIRE_PARTIAL: &str = ".wire.txt.partial";
/// A wire log being compressed, before it gets its final name.
pub const WIRE_PARTIAL_GZIP: &str = ".wire.txt.partial.gz";
/// The suffix of a wire log a crash interrupted, moved aside at start
/// with its replay.
pub const WIRE_UNFINISHED: &str = ".wire.txt.unfinished";

/// The names the wire log of the finished replay `replay` may have, the
/// one its replay's compression implies first: `None` if `replay` is no
/// finished replay's name ([`is_replay_name`]).
pub fn wire_log_names(replay: &str) -> Option<[String; 2]> {
    if !is_replay_name(replay) {
        return None;
    }
    let stem = finished_stem(replay)?;
    let (first, second) = if is_gzip_name(replay) {
        (WIRE_GZIP, WIRE_PLAIN)
    } else {
        (WIRE_PLAIN, WIRE_GZIP)
    };
    Some([format!("{stem}{first}"), format!("{stem}{second}")])
}

/// Where a finished [`PARTIAL`] file is compressed before it gets its
/// final name: the same name with `PARTIAL_GZIP`'s suffix (`.xml.partial.gz`).
pub fn compressing(partial: &Path) -> PathBuf {
    let mut path = partial.as_os_str().to_owned();
    path.push(PARTIAL_GZIP.strip_prefix(PARTIAL).unwrap_or(".gz"));
    PathBuf::from(path)
}

/// `replay_<gameType>_<local time>_<name1>_<name2>_<room id>`, with every
/// character that is not safe in a file name replaced by `_`. The room id
/// (a random UUID) makes the name unique, however many games with the same
/// players end in the same second.
pub fn file_stem(game_type: &str, room: &str, names: &[&str]) -> String {
    let time = jiff::Zoned::now().strftime("%Y-%m-%d_%H-%M-%S");
    let mut stem = format!("replay_{}_{time}", sanitize(game_type));
    for name in names.iter().chain([&room]) {
        stem.push('_');
        stem.push_str(&sanitize(name));
    }
    stem
}

/// Keeps letters, digits, `-` and `.`; everything else (spaces, slashes,
/// control characters) becomes `_`. Long names are cut so the file name
/// stays within common file-system limits.
pub fn sanitize(name: &str) -> String {
    name.chars()
        .take(40)
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// `stem` for the first attempt, `stem_N` for the N-th: the name a file
/// gets when its first name is taken.
pub fn numbered(stem: &str, attempt: u32) -> String {
    if attempt == 1 {
        stem.to_owned()
    } else {
        format!("{stem}_{attempt}")
    }
}

/// Whether `name` is the name of a finished replay file: a plain file name
/// (letters, digits, `_`, `-`, `.`, as `file_stem` writes them; not
/// hidden) ending in [`PLAIN`] or [`GZIP`]. Only such names are looked up
/// in the replay directory.
pub fn is_replay_name(name: &str) -> bool {
    let plain = !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'));
    plain && (name.ends_with(PLAIN) || name.ends_with(GZIP))
}

/// Whether a finished replay's file name says it is gzip-compressed.
pub fn is_gzip_name(name: &str) -> bool {
    name.ends_with(".gz")
}

/// A finished replay's name without its suffix ([`PLAIN`] or [`GZIP`]).
pub fn finished_stem(name: &str) -> Option<&str> {
    name.strip_suffix(GZIP).or_else(|| name.strip_suffix(PLAIN))
}

/// Whether the finished replay `name` is the one the server wrote for
/// room `room`: its stem ends with `_<room>`, or `_<room>_<N>` when its
/// first name was taken.
pub fn names_room(name: &str, room: &str) -> bool {
    let Some(stem) = finished_stem(name) else {
        return false;
    };
    let room = sanitize(room);
    let numbered_stem = stem
        .rsplit_once('_')
        .filter(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .map(|(before, _)| before);
    [Some(stem), numbered_stem]
        .into_iter()
        .flatten()
        .any(|stem| {
            stem.strip_suffix(room.as_str())
                .is_some_and(|s| s.ends_with('_'))
        })
}

/// The game a replay's file name names (`replay_<gameType>_…`): the longest
/// id that fits, so that `blokus_classic_3` is not taken for
/// `blokus_classic`.
pub fn game_of_name(name: &str) -> Option<GameType> {
    let rest = name.strip_prefix("replay_")?;
    GameType::ALL
        .iter()
        .copied()
        .filter(|game| {
            rest.strip_prefix(game.id())
                .is_some_and(|after| after.starts_with(['_', '.']))
        })
        .max_by_key(|game| game.id().len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_cannot_escape_the_directory() {
        assert_eq!(sanitize("../../etc/passwd"), ".._.._etc_passwd");
        assert_eq!(sanitize("Häschen Schule"), "Häschen_Schule");
        assert_eq!(sanitize("a\nb"), "a_b");
        assert!(!file_stem("swc_2021_blokus", "../r", &["a/b", "c"]).contains('/'));
    }

    #[test]
    fn only_plain_finished_replay_names_are_accepted() {
        assert!(is_replay_name("replay_swc_2021_blokus_2024-01-01_a_b.xml"));
        // Every name the writer gives is one, whatever the players' names.
        let stem = file_stem("swc_2021_blokus", "r-1", &["Häschen Schule", "../b\\c"]);
        assert!(is_replay_name(&format!("{stem}{PLAIN}")), "{stem}");
        assert!(
            is_replay_name(&format!("{}{GZIP}", numbered(&stem, 2))),
            "{stem}"
        );
        assert!(is_replay_name("x.xml.gz"));
        for bad in [
            "",
            "x.xml.partial",
            "x.xml.unfinished",
            "../x.xml",
            "a/b.xml",
            ".hidden.xml",
            "x.txt",
            "x y.xml",
        ] {
            assert!(!is_replay_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn wire_logs_are_named_after_their_replay_and_are_no_replays() {
        let stem = file_stem("swc_2027_blokus", "r-1", &["a", "b"]);
        let [plain, gzip] = wire_log_names(&format!("{stem}{PLAIN}")).expect("a replay name");
        assert_eq!(plain, format!("{stem}{WIRE_PLAIN}"));
        assert_eq!(gzip, format!("{stem}{WIRE_GZIP}"));
        let [first, _] = wire_log_names(&format!("{stem}{GZIP}")).expect("a replay name");
        assert_eq!(first, format!("{stem}{WIRE_GZIP}"));
        for name in [plain, gzip, format!("{stem}{WIRE_PARTIAL}")] {
            assert!(!is_replay_name(&name), "{name}");
            assert_eq!(wire_log_names(&name), None, "{name}");
        }
        assert_eq!(wire_log_names("../x.xml"), None);
    }

    #[test]
    fn the_game_comes_from_the_name() {
        assert_eq!(
            game_of_name("replay_swc_2021_blokus_2024-05-01T10-00-00_a_b.xml"),
            Some(GameType::Blokus2021)
        );
        assert_eq!(
            game_of_name("replay_blokus_classic_3_2026-11-25_a_b_c_r1.xml"),
            Some(GameType::BlokusClassic3)
        );
        assert_eq!(
            game_of_name("replay_blokus_classic_2026-11-25_a_b_c_d_r1.xml"),
            Some(GameType::BlokusClassic)
        );
        assert_eq!(
            game_of_name("replay_blokus_classic_2.xml"),
            Some(GameType::BlokusClassic2)
        );
        assert_eq!(game_of_name("replay_chess_x.xml"), None);
        assert_eq!(game_of_name("swc_2021_blokus.xml"), None);
    }

    #[test]
    fn a_name_names_its_room_also_numbered_and_gzipped() {
        assert!(names_room("replay_g_t_a_b_room-1.xml", "room-1"));
        assert!(names_room("replay_g_t_a_b_room-1_2.xml.gz", "room-1"));
        assert!(!names_room("replay_g_t_a_b_room-12.xml", "room-1"));
        assert!(!names_room("replay_g_t_a_b_xroom-1.xml", "room-1"));
        assert!(!names_room("replay_g_t_a_b_room-1.xml.partial", "room-1"));
        let stem = file_stem("g", "6f1c-42", &["a", "b"]);
        assert!(names_room(&format!("{stem}{PLAIN}"), "6f1c-42"));
        assert!(names_room(
            &format!("{}{GZIP}", numbered(&stem, 3)),
            "6f1c-42"
        ));
    }
}
