//! The configuration's behaviour: files, overrides, validation.

use std::{net::Ipv4Addr, path::PathBuf};

use super::*;

const EXAMPLE: &str = include_str!("../../../../config/spielleiter.toml");

#[test]
fn the_documented_example_file_states_the_defaults() {
    let mut config = Config::default();
    config
        .apply_file(Path::new("config/spielleiter.toml"), EXAMPLE)
        .expect("the example config parses");
    assert_eq!(config, Config::default());
}

#[test]
fn the_season_page_is_set_by_file_variable_or_flag_and_an_empty_store_unsets_it() {
    let mut config = Config::default();
    config
        .apply_file(
            Path::new("x.toml"),
            "[season]\nstore = \"league.sqlite\"\nname = \"spring\"\n",
        )
        .expect("parses");
    assert_eq!(
        (
            config.season_store.as_deref(),
            config.season_name.as_deref()
        ),
        (Some("league.sqlite"), Some("spring"))
    );
    config.apply(Overrides {
        season_store: Some(String::new()),
        ..Overrides::default()
    });
    assert_eq!(config.season_store, None);
    config.season_name = Some(String::new());
    assert!(config.validate().is_err());
}

#[test]
fn file_values_apply_and_overrides_win() {
    let mut config = Config::default();
    let text = "[server]\nport = 4000\nlisten = \"0.0.0.0\"\n[clock]\nenabled = false\n";
    config
        .apply_file(Path::new("x.toml"), text)
        .expect("parses");
    assert_eq!(config.port, 4000);
    assert!(!config.timeouts);
    config.apply(Overrides {
        port: Some(5000),
        ..Overrides::default()
    });
    assert_eq!(config.port, 5000);
    assert_eq!(config.listen, IpAddr::V4(Ipv4Addr::UNSPECIFIED));
}

#[test]
fn unknown_keys_and_wrong_types_are_errors() {
    let mut config = Config::default();
    let typo = config.apply_file(Path::new("x.toml"), "[server]\nprot = 1\n");
    assert!(matches!(typo, Err(ConfigError::Parse { .. })), "{typo:?}");
    let wrong = config.apply_file(Path::new("x.toml"), "[server]\nport = \"high\"\n");
    assert!(matches!(wrong, Err(ConfigError::Parse { .. })), "{wrong:?}");
}

#[test]
fn trusted_proxies_come_from_the_file_as_addresses_and_networks() {
    let mut config = Config::default();
    assert!(config.http_trusted_proxies.is_empty());
    let text = "[http]\ntrusted_proxies = [\"127.0.0.1\", \"10.0.0.0/8\", \"::1\"]\n";
    config
        .apply_file(Path::new("x.toml"), text)
        .expect("valid ranges");
    let trusted = |ip: &str| {
        let ip = ip.parse().expect("an address");
        config.http_trusted_proxies.iter().any(|r| r.contains(ip))
    };
    assert!(trusted("127.0.0.1") && trusted("10.9.8.7") && trusted("::1"));
    assert!(!trusted("192.0.2.1"));
    let wrong = Config::default().apply_file(
        Path::new("x.toml"),
        "[http]\ntrusted_proxies = [\"10.0.0.0/40\"]\n",
    );
    assert!(
        matches!(
            &wrong,
            Err(ConfigError::Invalid {
                key: "http.trusted_proxies",
                reason,
            }) if reason.contains("10.0.0.0/40")
        ),
        "{wrong:?}"
    );
}

#[test]
fn http_public_is_true_false_or_auto() {
    let public = |text: &str| {
        let mut config = Config::default();
        config
            .apply_file(Path::new("x.toml"), &format!("[http]\npublic = {text}\n"))
            .map(|()| config.http_public)
    };
    assert_eq!(public("true").ok(), Some(HttpPublic::Everyone));
    assert_eq!(public("false").ok(), Some(HttpPublic::LoginOnly));
    assert_eq!(public("\"auto\"").ok(), Some(HttpPublic::Auto));
    let wrong = public("\"sometimes\"");
    assert!(
        matches!(
            wrong,
            Err(ConfigError::Invalid {
                key: "http.public",
                ..
            })
        ),
        "{wrong:?}"
    );
    assert_eq!(
        "FALSE".parse::<HttpPublic>().ok(),
        Some(HttpPublic::LoginOnly)
    );
    assert_eq!(HttpPublic::Auto.to_string(), "auto");
}

#[test]
fn the_open_files_needed_add_up_the_caps() {
    let needed = Config::default().open_files_needed();
    assert_eq!(needed.total(), 1024 + 512 + 64 + 2 * 256 + 64);
    let off = Config {
        replays: false,
        http: false,
        ..Config::default()
    }
    .open_files_needed();
    assert_eq!(off.total(), 1024 + 64 + 64);
}

#[test]
fn an_empty_passphrase_disables_administration() {
    let mut config = Config::default();
    config.apply(Overrides {
        admin_passphrase: Some(String::new()),
        ..Overrides::default()
    });
    assert_eq!(config.admin_passphrase, None);
}

#[test]
fn short_and_example_passphrases_are_warned_about() {
    let with = |passphrase: Option<&str>| Config {
        admin_passphrase: passphrase.map(str::to_owned),
        ..Config::default()
    };
    assert!(with(None).warnings().is_empty());
    assert!(with(Some("a long enough secret")).warnings().is_empty());
    let short = with(Some("secret")).warnings();
    assert!(short[0].contains("fewer than 12 characters"), "{short:?}");
    let example = with(Some("examplepassword")).warnings();
    assert!(example[0].contains("well-known example"), "{example:?}");
}

#[test]
fn a_log_level_must_be_a_level_or_directives() {
    for good in [
        "info",
        "DEBUG",
        "warn,spielleiter_server=debug",
        "off",
        "a::b=trace",
    ] {
        assert!(check_log_level(good).is_ok(), "{good}");
    }
    for bad in ["verbose", "info,loud", "x=loud"] {
        let reason = check_log_level(bad).expect_err(bad);
        assert!(
            reason.contains("trace, debug, info, warn, error, off"),
            "{reason}"
        );
    }
}

#[test]
fn the_listen_address_may_be_a_host_name() {
    assert_eq!(
        resolve_listen("0.0.0.0"),
        Ok(IpAddr::V4(Ipv4Addr::UNSPECIFIED))
    );
    assert_eq!(
        resolve_listen("localhost"),
        Ok(IpAddr::V4(Ipv4Addr::LOCALHOST))
    );
    assert!(resolve_listen("no-such-host.invalid").is_err());
    let mut config = Config::default();
    config
        .apply_file(Path::new("x.toml"), "[server]\nlisten = \"localhost\"\n")
        .expect("a host name");
    assert_eq!(config.listen, IpAddr::V4(Ipv4Addr::LOCALHOST));
}

#[test]
fn inconsistent_limits_are_rejected() {
    let mut config = Config::default();
    config.apply(Overrides {
        hard_timeout_ms: Some(1000),
        ..Overrides::default()
    });
    assert!(matches!(
        config.validate(),
        Err(ConfigError::Invalid {
            key: "clock.hard_limit_ms",
            ..
        })
    ));
}

#[test]
fn people_seats_come_from_the_file_and_a_short_idle_limit_is_refused() {
    let mut config = Config::default();
    assert_eq!(config.http_play_seats_per_address, 1);
    let text = "[http]\nplay_seats = 0\nplay_seats_per_address = 2\nplay_idle_secs = 900\n";
    config
        .apply_file(Path::new("x.toml"), text)
        .expect("parses");
    assert_eq!(config.http_play_seats, 0);
    assert_eq!(config.http_play_seats_per_address, 2);
    assert_eq!(config.http_play_idle, Duration::from_secs(900));
    config.validate().expect("valid");
    config.apply(Overrides {
        http_play_idle_secs: Some(30),
        ..Overrides::default()
    });
    assert!(matches!(
        config.validate(),
        Err(ConfigError::Invalid {
            key: "http.play_idle_secs",
            ..
        })
    ));
    let mut none_per_address = Config::default();
    none_per_address.apply(Overrides {
        http_play_seats_per_address: Some(0),
        ..Overrides::default()
    });
    assert!(matches!(
        none_per_address.validate(),
        Err(ConfigError::Invalid {
            key: "http.play_seats_per_address",
            ..
        })
    ));
}

#[test]
fn move_limits_apply_to_every_game_then_to_one() {
    let game = GameType::ALL[0];
    let mut config = Config::default();
    let (soft, hard) = game.default_move_time();
    assert_eq!(config.limits(game), Some(TimeLimits { soft, hard }));
    let id = game.id();
    let text =
        format!("[clock]\nsoft_limit_ms = 3000\n[clock.games.{id}]\nhard_limit_ms = 20000\n");
    config
        .apply_file(Path::new("x.toml"), &text)
        .expect("parses");
    let from_file = TimeLimits {
        soft: Duration::from_millis(3000),
        hard: Duration::from_millis(20_000),
    };
    assert_eq!(config.limits(game), Some(from_file));
    config.apply(Overrides {
        game_move_limits: vec![format!("{id}=500/800").parse().expect("valid")],
        ..Overrides::default()
    });
    let from_flag = TimeLimits {
        soft: Duration::from_millis(500),
        hard: Duration::from_millis(800),
    };
    assert_eq!(config.limits(game), Some(from_flag));
    config.apply(Overrides {
        timeouts: Some(false),
        ..Overrides::default()
    });
    assert_eq!(config.limits(game), None);
}

#[test]
fn game_ids_in_settings_must_be_hosted() {
    let mut config = Config::default();
    let unknown = config.apply_file(Path::new("x.toml"), "[games]\ndefault = \"chess\"\n");
    assert!(
        matches!(
            unknown,
            Err(ConfigError::Invalid {
                key: "games.default",
                ..
            })
        ),
        "{unknown:?}"
    );
    let unknown = config.apply_file(
        Path::new("x.toml"),
        "[clock.games.chess]\nsoft_limit_ms = 1\n",
    );
    assert!(
        matches!(
            unknown,
            Err(ConfigError::Invalid {
                key: "clock.games",
                ..
            })
        ),
        "{unknown:?}"
    );
    assert!("chess=1/2".parse::<GameMoveLimits>().is_err());
    let id = GameType::ALL[0].id();
    assert!(format!("{id}=1/x").parse::<GameMoveLimits>().is_err());
    assert_eq!(
        format!("{id}=1500").parse(),
        Ok(GameMoveLimits {
            game: GameType::ALL[0],
            soft_ms: Some(1500),
            hard_ms: None,
        })
    );
}

#[test]
fn an_explicit_missing_file_is_an_error() {
    let missing = Config::load(
        Some(Path::new("/nonexistent/spielleiter.toml")),
        Overrides::default(),
    );
    assert!(matches!(missing, Err(ConfigError::Read { .. })));
}

/// `Config::load` on a file of `text` in a directory of its own.
fn load_file(text: &str, overrides: Overrides) -> (Result<Config, ConfigError>, PathBuf) {
    static FILES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "spielleiter-config-{}-{}",
        std::process::id(),
        FILES.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join("spielleiter.toml");
    std::fs::write(&path, text).expect("the file written");
    let loaded = Config::load(Some(&path), overrides);
    std::fs::remove_dir_all(&dir).expect("the directory removed");
    (loaded, path)
}

#[test]
fn an_invalid_value_of_the_file_is_named_by_its_path_and_line() {
    let text = "[server]\nport = 4000\nmax_connections = 0\n";
    let (loaded, path) = load_file(text, Overrides::default());
    let error = loaded.expect_err("invalid");
    assert_eq!(
        error.to_string(),
        format!(
            "invalid setting `server.max_connections` (config file {}, line 3): must be at least 1",
            path.display()
        )
    );
    // Given on top of the file, the value is not the file's.
    let (loaded, _) = load_file(
        text,
        Overrides {
            max_connections: Some(0),
            ..Overrides::default()
        },
    );
    assert!(
        matches!(
            loaded,
            Err(ConfigError::Invalid {
                key: "server.max_connections",
                ..
            })
        ),
        "{loaded:?}"
    );
    // A value that is no value names its line too.
    let (loaded, _) = load_file("[games]\n\ndefault = \"chess\"\n", Overrides::default());
    assert!(
        matches!(
            loaded,
            Err(ConfigError::InFile {
                key: "games.default",
                line: 3,
                ..
            })
        ),
        "{loaded:?}"
    );
}

#[test]
fn an_invalid_move_clock_is_blamed_on_the_file_only_if_nothing_else_gave_one() {
    let text = "[clock]\nhard_limit_ms = 10000\nsoft_limit_ms = 0\n";
    let (loaded, _) = load_file(text, Overrides::default());
    assert!(
        matches!(
            loaded,
            Err(ConfigError::InFile {
                key: "clock.soft_limit_ms",
                line: 3,
                ..
            })
        ),
        "{loaded:?}"
    );
    let (loaded, _) = load_file(
        text,
        Overrides {
            hard_timeout_ms: Some(20_000),
            ..Overrides::default()
        },
    );
    assert!(
        matches!(loaded, Err(ConfigError::Invalid { .. })),
        "{loaded:?}"
    );
}
