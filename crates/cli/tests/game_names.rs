//! No game is named outside its folders: the server, the web side and the
//! command line know the games only through the rules catalogue and the
//! layers' traits (README, "Adding a game"), so that a new game is added in
//! its folders alone. This test reads their sources and fails on a game's
//! id or catalogue variant name outside a game's own file.
//!
//! What is read is production code: a test module (`#[cfg(test)] mod
//! tests`, which ends a file by the house style) and a test file
//! (`tests.rs`) may play any game. A game's own file is one that
//! implements a layer's trait for a game's marker (`for entry::Variant`),
//! as `crates/web/src/play/<game>.rs` and `crates/cli/src/show/<game>.rs`
//! do. The catalogue's generated code names no game in the text: it is
//! generated from the list (`for_each_game!`).

use std::path::{Path, PathBuf};

/// The source trees that name no game.
const TREES: [&str; 3] = ["crates/server/src", "crates/web/src", "crates/cli/src"];

/// Each entry of the catalogue's list as (variant, id), the test-only games
/// too (whatever the features of this build).
macro_rules! names_of_games {
    ($(
        $(#[doc = $doc:literal])*
        $(#[cfg($cfg:meta)])?
        $variant:ident { $($key:ident: $value:expr),* $(,)? }
    )*) => {
        fn games() -> Vec<(&'static str, String)> {
            vec![$((
                stringify!($variant),
                [$((stringify!($key), stringify!($value))),*]
                    .iter()
                    .find(|(key, _)| *key == "id")
                    .map(|(_, id)| id.trim_matches('"').to_owned())
                    .expect("every game has an id"),
            )),*]
        }
    };
}

spielleiter_rules::for_each_game!(names_of_games);

/// The workspace's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.rs` file below `dir`, but test files.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            if path.file_name().is_some_and(|name| name != "tests") {
                sources(&path, out);
            }
        } else if path.extension().is_some_and(|ending| ending == "rs")
            && path.file_name().is_some_and(|name| name != "tests.rs")
        {
            out.push(path);
        }
    }
}

/// The lines of `text` before its test module, numbered from 1.
fn production_lines(text: &str) -> Vec<(usize, &str)> {
    let lines: Vec<&str> = text.lines().collect();
    let end = lines
        .windows(2)
        .position(|pair| {
            pair[0].trim() == "#[cfg(test)]" && pair[1].trim_start().starts_with("mod tests {")
        })
        .unwrap_or(lines.len());
    lines[..end]
        .iter()
        .enumerate()
        .map(|(index, line)| (index + 1, *line))
        .collect()
}

/// Where `text` (the file `path`, from the root) names a game: `path:line:
/// text` for each line that names one.
fn named_games(path: &str, text: &str, names: &[String]) -> Vec<String> {
    production_lines(text)
        .into_iter()
        .filter(|(_, line)| names.iter().any(|name| line.contains(name.as_str())))
        .map(|(number, line)| format!("{path}:{number}: {}", line.trim()))
        .collect()
}

/// Whether `text` is a game's own file: it implements a layer's trait for
/// a game's marker.
fn is_a_games_file(text: &str) -> bool {
    production_lines(text)
        .iter()
        .any(|(_, line)| line.contains(" for entry::"))
}

/// Every game's id and variant name.
fn names() -> Vec<String> {
    let games = games();
    assert!(games.len() >= 9, "the catalogue lists the games: {games:?}");
    games
        .into_iter()
        .flat_map(|(variant, id)| [variant.to_owned(), id])
        .collect()
}

#[test]
fn no_game_is_named_outside_its_folders() {
    let names = names();
    let root = root();
    let mut found = Vec::new();
    let mut read = 0;
    for tree in TREES {
        let mut files = Vec::new();
        sources(&root.join(tree), &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file)
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            read += 1;
            if is_a_games_file(&text) {
                continue;
            }
            let path = file
                .strip_prefix(&root)
                .expect("below the root")
                .to_string_lossy()
                .replace('\\', "/");
            found.extend(named_games(&path, &text, &names));
        }
    }
    assert!(read > 50, "the trees were read: {read} files");
    assert!(
        found.is_empty(),
        "a game is named outside its folders (ask the catalogue, or move the code into the \
         game's folder):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_reader_finds_a_name_in_code_and_comments_but_not_in_tests() {
    let names = names();
    let text = "//! Only `swc_2021_blokus`.\nfn f() -> GameType { GameType::BlokusBcl }\n\
                fn g() {}\n#[cfg(test)]\nmod tests {\n    const GAME: &str = \"blokus_classic_3\";\n}\n";
    assert_eq!(
        named_games("crates/web/src/x.rs", text, &names),
        [
            "crates/web/src/x.rs:1: //! Only `swc_2021_blokus`.",
            "crates/web/src/x.rs:2: fn f() -> GameType { GameType::BlokusBcl }",
        ]
    );
    assert!(!is_a_games_file(text));
    assert!(is_a_games_file("impl GameView for entry::BlokusBcl {}\n"));
    // The test-only games are named as well.
    assert!(names.iter().any(|name| name == "test_tictactoe"));
    assert!(names.iter().any(|name| name == "TestTicTacToe"));
}
