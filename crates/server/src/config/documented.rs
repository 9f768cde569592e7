//! The documentation of the settings agrees with their table: the config
//! file in this repository documents every key and no other, states each
//! default, and names each setting's own flag and variable; README's table
//! of settings names them and their defaults as the table does; a flag and
//! its variable are spelled alike.

use std::collections::BTreeMap;

use super::*;

const CONFIG_FILE: &str = include_str!("../../../../config/spielleiter.toml");
const README: &str = include_str!("../../../../README.md");

/// The settings of the move clock's per-game tables, `[clock.games.ID]`.
const GAMES_KEY: &str = "clock.games";

/// A line of the config file as this test reads it.
#[derive(Debug, PartialEq)]
enum Line<'a> {
    /// `[section]`.
    Section(&'a str),
    /// `key = value`, or `# key = value` (`commented`).
    Key { key: &'a str, commented: bool },
    /// Any other comment.
    Comment(&'a str),
    /// An empty line.
    Empty,
}

/// The key of a `key = value` line.
fn key_of(text: &str) -> Option<&str> {
    let (key, _) = text.split_once(" = ")?;
    key.chars()
        .all(|c| c.is_ascii_lowercase() || c == '_')
        .then_some(key)
}

fn read_line(line: &str) -> Line<'_> {
    let line = line.trim_end();
    if let Some(section) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
        return Line::Section(section);
    }
    match line.strip_prefix('#') {
        Some(comment) => match comment.strip_prefix(' ').and_then(key_of) {
            Some(key) => Line::Key {
                key,
                commented: true,
            },
            None => Line::Comment(comment),
        },
        None if line.is_empty() => Line::Empty,
        None => match key_of(line) {
            Some(key) => Line::Key {
                key,
                commented: false,
            },
            None => panic!("config file: a line of no known form: {line}"),
        },
    }
}

/// The flags (`--long`) and variables (`SPIELLEITER_…`) a text names.
fn mentions(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .filter(|word| {
            (word.starts_with("--") && word.len() > 2) || word.starts_with("SPIELLEITER_")
        })
        .map(|word| word.trim_end_matches('-').to_owned())
        .collect()
}

/// The flags and variable of `setting`, as a text names them.
fn names_of(setting: &Setting) -> Vec<String> {
    let Some(flag) = setting.flag else {
        return Vec::new();
    };
    let mut names = vec![format!("--{}", flag.long), flag.variable.to_owned()];
    names.extend(flag.negation.map(|negation| format!("--{negation}")));
    names
}

/// What is wrong with `file` as the documentation of the settings: every
/// key once (a per-game table of the move clock for one game or more),
/// with its default where it has one (commented out with an example where
/// it has none), and each comment naming only the flags and variables of
/// the keys it stands above, and every flag and variable somewhere.
fn file_disagreements(file: &str) -> Vec<String> {
    let mut wrong = Vec::new();
    let mut section = "";
    // The comment lines above the next key, and what they name.
    let mut comment: Vec<(usize, String)> = Vec::new();
    let mut documented: BTreeMap<&'static str, Vec<usize>> = BTreeMap::new();
    let mut named: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    // The keys under one comment, with the comment's first line.
    let mut run: Vec<&'static Setting> = Vec::new();
    let mut run_comment: Vec<(usize, String)> = Vec::new();
    let mut check_run = |run: &mut Vec<&'static Setting>,
                         run_comment: &mut Vec<(usize, String)>,
                         wrong: &mut Vec<String>| {
        let allowed: Vec<String> = run.iter().flat_map(|setting| names_of(setting)).collect();
        for (number, text) in run_comment.iter() {
            for mention in mentions(text) {
                if !allowed.contains(&mention) {
                    wrong.push(format!(
                        "line {number}: the comment names {mention}, which is no flag or variable of {}",
                        run.iter().map(|setting| setting.key).collect::<Vec<_>>().join(", ")
                    ));
                }
                for setting in run.iter() {
                    named.entry(setting.key).or_default().push(mention.clone());
                }
            }
        }
        run.clear();
        run_comment.clear();
    };
    for (index, text) in file.lines().enumerate() {
        let number = index + 1;
        match read_line(text) {
            Line::Comment(text) => {
                if !run.is_empty() {
                    check_run(&mut run, &mut run_comment, &mut wrong);
                }
                comment.push((number, text.to_owned()));
            }
            Line::Empty => {
                check_run(&mut run, &mut run_comment, &mut wrong);
                comment.clear();
            }
            Line::Section(name) => {
                check_run(&mut run, &mut run_comment, &mut wrong);
                section = name;
                if name.starts_with("clock.games.") {
                    // The comment above a game's table documents the
                    // per-game setting.
                    let games = setting_of_key(GAMES_KEY).expect("the per-game move clock");
                    run.push(games);
                    run_comment = std::mem::take(&mut comment);
                    check_run(&mut run, &mut run_comment, &mut wrong);
                    documented.entry(games.key).or_default().push(number);
                } else if !SETTINGS
                    .iter()
                    .any(|s| s.key.split_once('.').map(|(s, _)| s) == Some(name))
                {
                    wrong.push(format!(
                        "line {number}: [{name}] is no section of the settings"
                    ));
                }
                comment.clear();
            }
            Line::Key { key, commented } => {
                let Some(setting) = (if section.starts_with("clock.games.") {
                    matches!(key, "soft_limit_ms" | "hard_limit_ms")
                        .then(|| setting_of_key(GAMES_KEY))
                        .flatten()
                } else {
                    setting_of_key(&format!("{section}.{key}"))
                }) else {
                    wrong.push(format!("line {number}: `{section}.{key}` is no setting"));
                    continue;
                };
                if run.is_empty() {
                    run_comment = std::mem::take(&mut comment);
                }
                run.push(setting);
                if setting.key != GAMES_KEY {
                    documented.entry(setting.key).or_default().push(number);
                }
                // The value alone in its section: an example that must be
                // valid, or the default.
                let value = text.trim_start_matches("# ");
                let mut config = Config::default();
                match config.apply_file(Path::new("line"), &format!("[{section}]\n{value}\n")) {
                    Err(error) => wrong.push(format!("line {number}: `{value}`: {error}")),
                    Ok(()) if commented && setting.has_default => wrong.push(format!(
                        "line {number}: `{}` has a default ({}): state it, not commented out",
                        setting.key,
                        setting.default_text()
                    )),
                    Ok(()) if !commented && !setting.has_default => wrong.push(format!(
                        "line {number}: `{}` has no default: comment the example out",
                        setting.key
                    )),
                    Ok(()) if !commented && config != Config::default() => wrong.push(format!(
                        "line {number}: `{value}` is not the default of `{}` ({})",
                        setting.key,
                        setting.default_text()
                    )),
                    Ok(()) => {}
                }
            }
        }
    }
    check_run(&mut run, &mut run_comment, &mut wrong);
    for setting in SETTINGS {
        match documented.get(setting.key).map(Vec::len) {
            None => wrong.push(format!("`{}` is not documented", setting.key)),
            Some(n) if n > 1 && setting.key != GAMES_KEY => {
                wrong.push(format!("`{}` is documented {n} times", setting.key));
            }
            Some(_) => {}
        }
        let said = named.get(setting.key).cloned().unwrap_or_default();
        for name in names_of(setting) {
            // A negation (`--no-timeout`) need not be named.
            let negation = setting
                .flag
                .and_then(|flag| flag.negation)
                .is_some_and(|negation| name.strip_prefix("--") == Some(negation));
            if !said.contains(&name) && !negation {
                wrong.push(format!(
                    "the comment of `{}` does not name {name}",
                    setting.key
                ));
            }
        }
    }
    wrong
}

#[test]
fn the_config_file_documents_every_setting_with_its_default_flag_and_variable() {
    let wrong = file_disagreements(CONFIG_FILE);
    assert!(
        wrong.is_empty(),
        "config/spielleiter.toml:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn a_config_file_that_disagrees_with_the_settings_is_found_out() {
    let changed = |from: &str, to: &str| {
        assert!(CONFIG_FILE.contains(from), "{from}");
        file_disagreements(&CONFIG_FILE.replacen(from, to, 1)).join("\n")
    };
    // A key that does not exist.
    let text = changed("port = 13050\n", "port = 13050\nprot = 13050\n");
    assert!(text.contains("`server.prot` is no setting"), "{text}");
    // A key missing.
    let text = changed("max_nesting_depth = 32\n", "");
    assert!(
        text.contains("`server.max_nesting_depth` is not documented"),
        "{text}"
    );
    // A wrong default.
    let text = changed("max_nesting_depth = 32\n", "max_nesting_depth = 33\n");
    assert!(
        text.contains("is not the default of `server.max_nesting_depth` (32)"),
        "{text}"
    );
    let text = changed("soft_limit_ms = 5000\n", "soft_limit_ms = 5001\n");
    assert!(
        text.contains("is not the default of `clock.games`"),
        "{text}"
    );
    // A default commented out, an example stated.
    let text = changed("\nport = 13050\n", "\n# port = 13050\n");
    assert!(
        text.contains("`server.port` has a default (13050)"),
        "{text}"
    );
    let text = changed("# seed = 42\n", "seed = 42\n");
    assert!(text.contains("`games.seed` has no default"), "{text}");
    // Another setting's variable, or its own left out.
    let text = changed("SPIELLEITER_LISTEN", "SPIELLEITER_PORT");
    assert!(
        text.contains("names SPIELLEITER_PORT, which is no flag or variable of server.listen"),
        "{text}"
    );
    assert!(
        text.contains("the comment of `server.listen` does not name SPIELLEITER_LISTEN"),
        "{text}"
    );
}

/// What is wrong with README's table of settings: each row's flags must be
/// one setting's, and its variable, key and default that setting's.
fn readme_disagreements(readme: &str) -> Vec<String> {
    let header = "| setting | flag | variable | config key | default |";
    let Some(start) = readme.find(header) else {
        return vec!["README has no table of settings".to_owned()];
    };
    let code = |cell: &str| cell.trim().trim_matches('`').to_owned();
    let mut wrong = Vec::new();
    for row in readme[start..]
        .lines()
        .skip(2)
        .take_while(|line| line.starts_with('|'))
    {
        let cells: Vec<&str> = row.trim_matches('|').split(" | ").collect();
        let [_, flags, variable, key, default] = cells[..] else {
            wrong.push(format!("a row of other than five cells: {row}"));
            continue;
        };
        let longs: Vec<String> = flags
            .split('`')
            .skip(1)
            .step_by(2)
            .filter_map(|flag| flag.split_whitespace().next())
            .flat_map(|flag| flag.split('/'))
            .filter(|flag| flag.starts_with("--"))
            .map(str::to_owned)
            .collect();
        let Some(setting) = setting_of_key(&code(key)) else {
            wrong.push(format!("{row}: {} is no setting", key.trim()));
            continue;
        };
        let names = names_of(setting);
        if longs.is_empty() || longs.iter().any(|long| !names.contains(long)) {
            wrong.push(format!(
                "{row}: {flags} are not the flags of {}",
                setting.key
            ));
        }
        if !names.contains(&code(variable)) || !code(variable).starts_with("SPIELLEITER_") {
            wrong.push(format!(
                "{row}: {variable} is not the variable of {}",
                setting.key
            ));
        }
        if code(default) != setting.default_text() {
            wrong.push(format!(
                "{row}: the default of {} is {}",
                setting.key,
                setting.default_text()
            ));
        }
    }
    wrong
}

#[test]
fn readmes_table_of_settings_names_their_flags_variables_keys_and_defaults() {
    let wrong = readme_disagreements(README);
    assert!(wrong.is_empty(), "README.md:\n{}", wrong.join("\n"));
}

#[test]
fn a_readme_row_that_disagrees_with_the_settings_is_found_out() {
    let changed = |from: &str, to: &str| {
        assert!(README.contains(from), "{from}");
        readme_disagreements(&README.replacen(from, to, 1)).join("\n")
    };
    let text = changed("| `server.port` | `13050` |", "| `server.port` | `13051` |");
    assert!(
        text.contains("the default of server.port is 13050"),
        "{text}"
    );
    let text = changed("| `-p/--port` |", "| `-p/--prot` |");
    assert!(text.contains("are not the flags of server.port"), "{text}");
    let text = changed(
        "`SPIELLEITER_PORT` | `server.port`",
        "`SPIELLEITER_HTTP_PORT` | `server.port`",
    );
    assert!(
        text.contains("is not the variable of server.port"),
        "{text}"
    );
    let text = changed("`server.port`", "`server.prot`");
    assert!(text.contains("is no setting"), "{text}");
}

/// Settings whose variable is not their flag in capitals: a flag given
/// once per value names one, the variable holding them all names several.
const VARIABLES_NAMED_OTHERWISE: &[(&str, &str)] =
    &[("http-trusted-proxy", "SPIELLEITER_HTTP_TRUSTED_PROXIES")];

#[test]
fn a_settings_flag_and_variable_are_spelled_alike_and_no_two_settings_share_a_name() {
    let mut seen = Vec::new();
    for setting in SETTINGS {
        let mut names = vec![setting.name.to_owned(), setting.key.to_owned()];
        if let Some(flag) = setting.flag {
            let alike = format!("SPIELLEITER_{}", flag.long.to_uppercase().replace('-', "_"));
            let otherwise = VARIABLES_NAMED_OTHERWISE
                .iter()
                .any(|&(long, variable)| long == flag.long && variable == flag.variable);
            assert!(
                flag.variable == alike || otherwise,
                "`{}`: the variable of --{} is {}, not {alike}",
                setting.key,
                flag.long,
                flag.variable
            );
            names.extend(names_of(setting));
            names.extend(flag.short.map(|short| format!("-{short}")));
        }
        for name in names {
            assert!(!seen.contains(&name), "`{}`: {name} is taken", setting.key);
            seen.push(name);
        }
    }
    // Each exception is still one.
    for (long, variable) in VARIABLES_NAMED_OTHERWISE {
        assert!(
            SETTINGS
                .iter()
                .filter_map(|setting| setting.flag)
                .any(|flag| flag.long == *long && flag.variable == *variable),
            "--{long}"
        );
    }
}
