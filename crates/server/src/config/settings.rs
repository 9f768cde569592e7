//! Every setting of the server, once: [`for_each_setting!`], the table
//! [`Config`](super::Config), [`Overrides`](super::Overrides), the config
//! file's layout, [`SETTINGS`](super::SETTINGS) and the binary's flags are
//! generated from.

/// Hands the table of the server's settings to `$callback!`, a macro of the
/// caller's: the one place each setting is defined. This crate generates
/// its configuration from it; the binary generates its flags' types (the
/// rest of a flag, its name, variable and help, it reads from
/// [`SETTINGS`](crate::config::SETTINGS)).
///
/// The table is grouped by the config file's sections, in the file's order;
/// each row is
///
/// ```text
/// /// Help: what the setting does, in the unit it is given in.
/// KEY => NAME: TYPE {      // its key in the section, its field of Overrides
///     config: FIELD: TYPE [= CONVERT],  // the Config field it sets (how a value becomes it)
///     apply: FN,           // instead: how it changes the Config with others
///     default: VALUE,      // its default as given; none: the key has no value
///     shown: "TEXT",       // how the help and the docs state the default
///     file: TYPE = FN,     // the file's type, and how it becomes a value
///     flag: Flag::new(…),  // its flag and variable
/// }
/// ```
///
/// A caller that needs only the names and types matches each row with
/// `$(#[doc = $doc:literal])* $key:ident => $name:ident: $given:ty
/// { $($clause:tt)* }` under `$([$section:ident] …)*`.
#[macro_export]
macro_rules! for_each_setting {
    ($callback:ident) => {
        $callback! {
            [server]
            /// Address to listen on, an IP address or a host name (0.0.0.0
            /// for all interfaces, as in a container).
            listen => listen: Option<::std::net::IpAddr> {
                config: listen: ::std::net::IpAddr,
                default: ::std::net::IpAddr::V4(::std::net::Ipv4Addr::LOCALHOST),
                file: String = |text: String| $crate::config::resolve_listen(&text),
                flag: $crate::config::Flag::new("listen", "SPIELLEITER_LISTEN", "ADDR"),
            }
            /// TCP port; 0 picks a free one.
            port => port: Option<u16> {
                config: port: u16,
                default: 13050,
                flag: $crate::config::Flag::new("port", "SPIELLEITER_PORT", "PORT")
                    .short('p')
                    .negative_numbers(),
            }
            /// Connections served at once; further ones are told so and
            /// closed.
            max_connections => max_connections: Option<usize> {
                config: max_connections: usize,
                default: 1024,
                flag: $crate::config::Flag::new("max-connections", "SPIELLEITER_MAX_CONNECTIONS", "N"),
            }
            /// Largest accepted message (one top-level XML element) in
            /// bytes.
            max_message_bytes => max_message_bytes: Option<usize> {
                config: max_message_bytes: usize,
                default: 1024 * 1024,
                flag: $crate::config::Flag::new(
                    "max-message-bytes",
                    "SPIELLEITER_MAX_MESSAGE_BYTES",
                    "BYTES",
                ),
            }
            /// Deepest accepted element nesting within one message.
            max_nesting_depth => max_nesting_depth: Option<usize> {
                config: max_nesting_depth: usize,
                default: 32,
            }
            /// Seconds a connection that is neither seated in a room nor an
            /// administrator may stay silent before it is closed.
            idle_limit_secs => idle_limit_secs: Option<u64> {
                config: idle_limit: ::core::time::Duration = ::core::time::Duration::from_secs,
                default: 60,
                flag: $crate::config::Flag::new(
                    "idle-limit-secs",
                    "SPIELLEITER_IDLE_LIMIT_SECS",
                    "SECS",
                ),
            }
            /// Seconds running games may go on after SIGINT/SIGTERM before
            /// they are ended.
            shutdown_grace_secs => shutdown_grace_secs: Option<u64> {
                config: shutdown_grace: ::core::time::Duration = ::core::time::Duration::from_secs,
                default: 10,
                flag: $crate::config::Flag::new(
                    "shutdown-grace-secs",
                    "SPIELLEITER_SHUTDOWN_GRACE_SECS",
                    "SECS",
                ),
            }
            /// Connections served at once from one IP address.
            max_connections_per_ip => max_connections_per_ip: Option<usize> {
                config: max_connections_per_ip: usize,
                default: 32,
                flag: $crate::config::Flag::new(
                    "max-connections-per-ip",
                    "SPIELLEITER_MAX_CONNECTIONS_PER_IP",
                    "N",
                ),
            }
            /// Whether loopback addresses (127.0.0.0/8, ::1) are exempt from
            /// server.max_connections_per_ip.
            loopback_exempt => loopback_exempt: Option<bool> {
                config: loopback_exempt: bool,
                default: false,
            }
            /// Seconds a message may take from its first byte to its last.
            message_timeout_secs => message_timeout_secs: Option<u64> {
                config: message_timeout: ::core::time::Duration = ::core::time::Duration::from_secs,
                default: 10,
            }
            /// Bytes of unfinished messages held for all connections
            /// together; beyond it, a connection with a large unfinished
            /// message is closed.
            max_unfinished_bytes => max_unfinished_bytes: Option<usize> {
                config: max_unfinished_bytes: usize,
                default: 64 << 20,
            }
            /// Bytes waiting to be sent to a player (or any connection that
            /// is not an administrator) before its reader stops reading.
            player_outbox_bytes => player_outbox_bytes: Option<usize> {
                config: player_outbox_bytes: usize,
                default: 4 << 20,
            }
            /// The same bound for administrators, who observe whole games.
            observer_outbox_bytes => observer_outbox_bytes: Option<usize> {
                config: observer_outbox_bytes: usize,
                default: 16 << 20,
            }
            /// Seconds a connection may stay over its outbox bound before it
            /// is closed (a player loses with `LEFT`).
            slow_reader_grace_secs => slow_reader_grace_secs: Option<u64> {
                config: slow_reader_grace: ::core::time::Duration = ::core::time::Duration::from_secs,
                default: 10,
            }

            [admin]
            /// Administrator passphrase; without one (or with an empty one),
            /// administration is disabled.
            passphrase => admin_passphrase: Option<String> {
                config: admin_passphrase: Option<String> = $crate::config::non_empty,
                flag: $crate::config::Flag::new(
                    "admin-passphrase",
                    "SPIELLEITER_ADMIN_PASSPHRASE",
                    "TEXT",
                )
                .secret(),
            }
            /// Milliseconds the next `authenticate` from an address waits
            /// after a failed one; the wait doubles with every further
            /// failure.
            backoff_initial_ms => auth_backoff_initial_ms: Option<u64> {
                config: auth_backoff_initial: ::core::time::Duration = ::core::time::Duration::from_millis,
                default: 100,
            }
            /// The longest wait between failed `authenticate`s from one
            /// address, in milliseconds.
            backoff_max_ms => auth_backoff_max_ms: Option<u64> {
                config: auth_backoff_max: ::core::time::Duration = ::core::time::Duration::from_millis,
                default: 10_000,
            }

            [games]
            /// Rooms created by `join` start paused.
            start_paused => start_paused: Option<bool> {
                config: start_paused: bool,
                default: false,
                flag: $crate::config::Flag::new("start-paused", "SPIELLEITER_START_PAUSED", "BOOL"),
            }
            /// The game of a `join` without `gameType`: it joins an open room
            /// of this game or opens one.
            default => default_game: Option<::spielleiter_rules::GameType> {
                config: default_game: ::spielleiter_rules::GameType,
                default: ::spielleiter_rules::GameType::DEFAULT,
                file: String = |id: String| id.parse::<::spielleiter_rules::GameType>().map_err(|e: ::spielleiter_rules::UnknownGameType| e.to_string()),
                flag: $crate::config::Flag::new("default-game", "SPIELLEITER_DEFAULT_GAME", "ID"),
            }
            /// Seed for the random start pieces (reproducible games).
            seed => seed: Option<u64> {
                config: seed: Option<u64> = Some,
                shown: "from the OS",
                flag: $crate::config::Flag::new("seed", "SPIELLEITER_SEED", "SEED"),
            }
            /// Seconds a prepared room may wait for its reserved players
            /// before it is closed and its codes expire.
            reservation_expiry_secs => reservation_expiry_secs: Option<u64> {
                config: reservation_expiry: ::core::time::Duration = ::core::time::Duration::from_secs,
                default: 3600,
            }

            [clock]
            /// Whether players are timed (a prepared slot can switch it off
            /// for its player).
            enabled => timeouts: Option<bool> {
                config: timeouts: bool,
                default: true,
                flag: $crate::config::Flag::new("timeouts", "SPIELLEITER_TIMEOUTS", "BOOL")
                    .negation("no-timeout"),
            }
            /// Soft move time limit of every game type in milliseconds: a
            /// move later than this after its request loses with
            /// `SOFT_TIMEOUT`.
            soft_limit_ms => soft_timeout_ms: Option<u64> {
                apply: $crate::config::set_every_soft_limit,
                shown: "each game's own",
                flag: $crate::config::Flag::new("soft-timeout-ms", "SPIELLEITER_SOFT_TIMEOUT_MS", "MS"),
            }
            /// Hard move time limit of every game type in milliseconds:
            /// without any move this long after its request, the player
            /// loses with `HARD_TIMEOUT`.
            hard_limit_ms => hard_timeout_ms: Option<u64> {
                apply: $crate::config::set_every_hard_limit,
                shown: "each game's own",
                flag: $crate::config::Flag::new("hard-timeout-ms", "SPIELLEITER_HARD_TIMEOUT_MS", "MS"),
            }
            /// Move time limits of one game type, `GAME=SOFT_MS[/HARD_MS]`
            /// (`GAME` a game type's id, as `[games] default` takes one, e.g.
            /// `GAME=2000/10000`), over those of every game
            /// type; repeat the flag for several games, or separate them by
            /// `;` in the variable. In the config file: a table
            /// `[clock.games.GAME]` with `soft_limit_ms` and `hard_limit_ms`.
            games => game_move_limits: Vec<$crate::config::GameMoveLimits> {
                config: move_limits: ::std::collections::BTreeMap<
                    ::spielleiter_rules::GameType,
                    $crate::clock::TimeLimits,
                >,
                apply: $crate::config::set_move_limits,
                default: $crate::config::each_games_own_move_limits(),
                shown: "each game's own",
                file: ::std::collections::BTreeMap<String, $crate::config::GameClock> =
                    $crate::config::GameClock::limits_of_games,
                flag: $crate::config::Flag::new("move-time", "SPIELLEITER_MOVE_TIME", "GAME=MS[/MS]")
                    .delimiter(';'),
            }

            [replays]
            /// Whether games are written to replay files.
            enabled => replays: Option<bool> {
                config: replays: bool,
                default: true,
                flag: $crate::config::Flag::new("replays", "SPIELLEITER_REPLAYS", "BOOL"),
            }
            /// Directory for replay files (created if missing).
            dir => replay_dir: Option<::std::path::PathBuf> {
                config: replay_dir: ::std::path::PathBuf,
                default: ::std::path::PathBuf::from("replays"),
                flag: $crate::config::Flag::new("replay-dir", "SPIELLEITER_REPLAY_DIR", "DIR"),
            }
            /// Compress finished replays with gzip (`NAME.xml.gz`).
            gzip => replay_gzip: Option<bool> {
                config: replay_gzip: bool,
                default: false,
                flag: $crate::config::Flag::new("replay-gzip", "SPIELLEITER_REPLAY_GZIP", "BOOL"),
            }
            /// Keep every game's wire log next to its replay: each seat's
            /// bytes in and out with their times, as `NAME.wire.txt` (a
            /// prepared room may ask for its own with `wireLog="true"`).
            wire_log => wire_log: Option<bool> {
                config: wire_log: bool,
                default: false,
                flag: $crate::config::Flag::new("wire-log", "SPIELLEITER_WIRE_LOG", "BOOL")
                    .bare("true"),
            }
            /// The most bytes of one seat a wire log keeps.
            wire_log_bytes => wire_log_bytes: Option<usize> {
                config: wire_log_bytes: usize,
                default: $crate::replay::wire_log::DEFAULT_WIRE_LOG_BYTES,
                flag: $crate::config::Flag::new("wire-log-bytes", "SPIELLEITER_WIRE_LOG_BYTES", "BYTES"),
            }

            [http]
            /// Whether the web side (pages, /metrics, /healthz) is served.
            enabled => http: Option<bool> {
                config: http: bool,
                default: true,
                flag: $crate::config::Flag::new("http", "SPIELLEITER_HTTP", "BOOL"),
            }
            /// The web side's TCP port, on the listen address; 0 picks a free
            /// one.
            port => http_port: Option<u16> {
                config: http_port: u16,
                default: 13080,
                flag: $crate::config::Flag::new("http-port", "SPIELLEITER_HTTP_PORT", "PORT")
                    .negative_numbers(),
            }
            /// Who sees running games on the web side: `true` everyone,
            /// `false` only after a login (whatever the listen address: set
            /// it behind a reverse proxy), `auto` everyone on a loopback
            /// listen address and only after a login elsewhere.
            public => http_public: Option<$crate::config::HttpPublic> {
                config: http_public: $crate::config::HttpPublic,
                default: $crate::config::HttpPublic::Auto,
                file: $crate::config::FilePublic = $crate::config::FilePublic::parse,
                flag: $crate::config::Flag::new("http-public", "SPIELLEITER_HTTP_PUBLIC", "true|false|auto")
                    .bare("true"),
            }
            /// Web connections served at once; further ones are closed at
            /// once.
            max_connections => http_max_connections: Option<usize> {
                config: http_max_connections: usize,
                default: 256,
                flag: $crate::config::Flag::new(
                    "http-max-connections",
                    "SPIELLEITER_HTTP_MAX_CONNECTIONS",
                    "N",
                ),
            }
            /// Web connections served at once from one IP address (loopback
            /// is exempt when server.loopback_exempt is).
            max_connections_per_ip => http_max_connections_per_ip: Option<usize> {
                config: http_max_connections_per_ip: usize,
                default: 32,
                flag: $crate::config::Flag::new(
                    "http-max-connections-per-ip",
                    "SPIELLEITER_HTTP_MAX_CONNECTIONS_PER_IP",
                    "N",
                ),
            }
            /// Live event streams open at once from one IP address.
            max_streams_per_ip => http_max_streams_per_ip: Option<usize> {
                config: http_max_streams_per_ip: usize,
                default: 8,
            }
            /// Seconds a web connection may take to send a request's headers,
            /// counted from its start or from the end of the previous answer:
            /// a keep-alive connection that stays idle this long is closed
            /// too.
            header_timeout_secs => http_header_timeout_secs: Option<u64> {
                config: http_header_timeout: ::core::time::Duration = ::core::time::Duration::from_secs,
                default: 10,
            }
            /// Seconds a web connection may take nothing of what is sent to
            /// it, and a request (other than an event stream) may take from
            /// its headers to its answer, body included.
            stall_timeout_secs => http_stall_timeout_secs: Option<u64> {
                config: http_stall_timeout: ::core::time::Duration = ::core::time::Duration::from_secs,
                default: 30,
            }
            /// File descriptors kept beyond the connection caps for the rest
            /// of the process (listeners, the runtime, logs, directory
            /// scans): see `Config::open_files_needed`.
            reserved_files => reserved_files: Option<u64> {
                config: reserved_files: u64,
                default: 64,
            }
            /// People's seats (`/play`) open at once on the web side; 0
            /// turns playing in the browser off.
            play_seats => http_play_seats: Option<usize> {
                config: http_play_seats: usize,
                default: 4,
            }
            /// People's seats (`/play`) one IP address may hold at once (an
            /// IPv6 address counts by its /64), so that one visitor cannot
            /// take every seat.
            play_seats_per_address => http_play_seats_per_address: Option<usize> {
                config: http_play_seats_per_address: usize,
                default: 1,
                flag: $crate::config::Flag::new(
                    "http-play-seats-per-address",
                    "SPIELLEITER_HTTP_PLAY_SEATS_PER_ADDRESS",
                    "N",
                ),
            }
            /// Seconds a person's seat may go without a request from its
            /// browser, or without a move while it is the person's turn,
            /// before it leaves its game (and loses it by the rules).
            play_idle_secs => http_play_idle_secs: Option<u64> {
                config: http_play_idle: ::core::time::Duration = ::core::time::Duration::from_secs,
                default: 600,
            }
            /// A reverse proxy in front of the web side, as an address or a
            /// network (`127.0.0.1`, `10.0.0.0/8`; repeat the flag, or
            /// separate them by `,` in the variable): a request from it
            /// counts as coming from the client its `X-Forwarded-For` names,
            /// for the passphrase back-off and the caps per address of seats
            /// and event streams. Without any, every request counts as
            /// coming from its TCP peer.
            trusted_proxies => http_trusted_proxies: Option<Vec<$crate::limits::AddressRange>> {
                config: http_trusted_proxies: Vec<$crate::limits::AddressRange>,
                default: Vec::new(),
                shown: "none",
                file: Vec<String> = $crate::config::address_ranges,
                flag: $crate::config::Flag::new(
                    "http-trusted-proxy",
                    "SPIELLEITER_HTTP_TRUSTED_PROXIES",
                    "ADDR[/PREFIX]",
                )
                .delimiter(','),
            }
            /// Whether the contest's cookies are `Secure` (sent only over
            /// TLS): set it where a proxy in front of the web side
            /// terminates TLS.
            secure_cookies => http_secure_cookies: Option<bool> {
                config: http_secure_cookies: bool,
                default: false,
                flag: $crate::config::Flag::new(
                    "http-secure-cookies",
                    "SPIELLEITER_HTTP_SECURE_COOKIES",
                    "BOOL",
                )
                .bare("true"),
            }
            /// The web side's public address (`https://contest.example.org`),
            /// which the links the contest's pages hand out start with.
            /// Empty: the address each request came to.
            public_url => http_public_url: Option<String> {
                config: http_public_url: Option<String> = $crate::config::non_empty,
                shown: "the address a request came to",
                flag: $crate::config::Flag::new("http-public-url", "SPIELLEITER_HTTP_PUBLIC_URL", "URL"),
            }

            [log]
            /// Log filter when RUST_LOG is not set: a level, or
            /// `target=level` directives (e.g. `debug`).
            level => log_level: Option<String> {
                config: log_level: String,
                default: "info".to_owned(),
                flag: $crate::config::Flag::new("log-level", "SPIELLEITER_LOG_LEVEL", "FILTER"),
            }
            /// Log format: `text`, or `json` (one JSON object per line).
            format => log_format: Option<$crate::config::LogFormat> {
                config: log_format: $crate::config::LogFormat,
                default: $crate::config::LogFormat::Text,
                flag: $crate::config::Flag::new("log-format", "SPIELLEITER_LOG_FORMAT", "FORMAT"),
            }

            [season]
            /// A season's store (`postgres://…`, or a SQLite file): the web
            /// side adds the season page `/season` (standings, progress,
            /// every game with its replay), read-only, and when the store
            /// holds a contest the teams' pages under `/contest`. Empty:
            /// neither.
            store => season_store: Option<String> {
                config: season_store: Option<String> = $crate::config::non_empty,
                flag: $crate::config::Flag::new("store", "SPIELLEITER_STORE", "URL").secret(),
            }
            /// The season of the store the page shows.
            name => season_name: Option<String> {
                config: season_name: Option<String> = Some,
                shown: "the store's only season",
                flag: $crate::config::Flag::new("season", "SPIELLEITER_SEASON", "NAME"),
            }

            [contest]
            /// Memory of each new password hash (Argon2id), in KiB.
            password_memory_kib => contest_password_memory_kib: Option<u32> {
                config: contest_password_memory_kib: u32,
                default: 19_456,
            }
            /// Passes of each new password hash over its memory.
            password_passes => contest_password_passes: Option<u32> {
                config: contest_password_passes: u32,
                default: 2,
            }
            /// Lanes of each new password hash.
            password_lanes => contest_password_lanes: Option<u32> {
                config: contest_password_lanes: u32,
                default: 1,
            }
            /// The SMTP relay (`HOST` or `HOST:PORT`, port 25 by default)
            /// the contest's notices are mailed through, without TLS: a
            /// relay of this host or network that sends on. Empty: no mail.
            mail_smtp => contest_mail_smtp: Option<String> {
                config: contest_mail_smtp: Option<String> = $crate::config::non_empty,
                shown: "no mail",
                flag: $crate::config::Flag::new("mail-smtp", "SPIELLEITER_MAIL_SMTP", "HOST:PORT"),
            }
            /// Whom the notices' mails are from (`Contest
            /// <contest@example.org>`); needed with `mail_smtp`.
            mail_from => contest_mail_from: Option<String> {
                config: contest_mail_from: Option<String> = $crate::config::non_empty,
                shown: "none",
                flag: $crate::config::Flag::new("mail-from", "SPIELLEITER_MAIL_FROM", "ADDRESS"),
            }
        }
    };
}
