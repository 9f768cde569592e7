//! Finding the replay file of a game: the server's replay names end with the
//! room id, and every recorded packet carries it too, so the file named
//! after the room, or else (a replay named otherwise) the file whose first
//! packet names the room, is the game's.

use std::{
    fs::File,
    io::Read,
    path::{Path, PathBuf},
    time::{Duration, SystemTime},
};

use flate2::read::GzDecoder;

/// How long after a game's end its replay may take to appear (the server
/// publishes it after sending the result).
const PUBLISH_PATIENCE: Duration = Duration::from_secs(3);
/// How often the directory is looked at meanwhile.
const POLL_INTERVAL: Duration = Duration::from_millis(20);
/// The first packet starts within this many bytes of the file.
const HEAD_BYTES: usize = 256;

/// Waits for the finished replay of room `room` in `dir`, considering only
/// files modified since `since`; `None` if none appears in time.
pub async fn find_replay(dir: &Path, room: &str, since: SystemTime) -> Option<PathBuf> {
    let needle = format!("roomId=\"{room}\"");
    let deadline = tokio::time::Instant::now() + PUBLISH_PATIENCE;
    loop {
        let (dir_owned, needle_owned) = (dir.to_owned(), needle.clone());
        let room_owned = room.to_owned();
        let found = tokio::task::spawn_blocking(move || {
            scan(&dir_owned, &room_owned, &needle_owned, since)
        })
        .await
        .ok()
        .flatten();
        if found.is_some() || tokio::time::Instant::now() >= deadline {
            return found;
        }
        tokio::time::sleep(POLL_INTERVAL).await;
    }
}

fn scan(dir: &Path, room: &str, needle: &str, since: SystemTime) -> Option<PathBuf> {
    let named = |path: &PathBuf| {
        path.file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".gz").or(Some(n)))
            .and_then(|n| n.strip_suffix(".xml"))
            .is_some_and(|stem| stem.ends_with(&format!("_{room}")))
    };
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .filter(|entry| {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            name.starts_with("replay_") && (name.ends_with(".xml") || name.ends_with(".xml.gz"))
        })
        .filter(|entry| {
            entry
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|modified| modified >= since)
        })
        .map(|entry| entry.path())
        .find(|path| named(path) || head(path).is_some_and(|head| head.contains(needle)))
}

/// The first bytes of a replay, decompressed if it is gzipped.
fn head(path: &Path) -> Option<String> {
    let file = File::open(path).ok()?;
    let mut buf = Vec::with_capacity(HEAD_BYTES);
    let reader: Box<dyn Read> = if path.extension().is_some_and(|e| e == "gz") {
        Box::new(GzDecoder::new(file))
    } else {
        Box::new(file)
    };
    reader.take(HEAD_BYTES as u64).read_to_end(&mut buf).ok()?;
    Some(String::from_utf8_lossy(&buf).into_owned())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::io::Write;

    use super::*;

    #[tokio::test]
    async fn the_replay_naming_the_room_is_found_also_gzipped() {
        let dir = tempfile::tempdir().unwrap();
        let since = SystemTime::now() - Duration::from_secs(5);
        let replay = |room: &str| format!("<protocol>\n<room roomId=\"{room}\">\n</protocol>");
        std::fs::write(dir.path().join("replay_x_a_b.xml"), replay("one")).unwrap();
        std::fs::write(dir.path().join("other.xml"), replay("two")).unwrap();
        let gz = dir.path().join("replay_x_a_b_2.xml.gz");
        let mut encoder = flate2::write::GzEncoder::new(
            File::create(&gz).unwrap(),
            flate2::Compression::default(),
        );
        encoder.write_all(replay("three").as_bytes()).unwrap();
        encoder.finish().unwrap();

        assert_eq!(
            find_replay(dir.path(), "one", since).await,
            Some(dir.path().join("replay_x_a_b.xml"))
        );
        assert_eq!(find_replay(dir.path(), "three", since).await, Some(gz));
        // Not a replay file name, and too old: not found.
        assert_eq!(scan(dir.path(), "two", "roomId=\"two\"", since), None);
        let later = SystemTime::now() + Duration::from_secs(60);
        assert_eq!(scan(dir.path(), "one", "roomId=\"one\"", later), None);
        // The server's names end with the room id: found by the name alone.
        let named = dir.path().join("replay_x_c_d_four.xml.gz");
        std::fs::write(&named, "not read").unwrap();
        assert_eq!(find_replay(dir.path(), "four", since).await, Some(named));
    }
}
