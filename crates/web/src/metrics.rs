//! `GET /metrics`: the server's counters in the Prometheus text format,
//! read at each scrape from the server's [`ServerStats`] and the rooms'
//! snapshots (the server counts with plain atomics; nothing is counted
//! twice).

use std::{sync::Arc, time::Duration};

use axum::{extract::State, http::header, response::IntoResponse};
use prometheus::{
    Encoder, TextEncoder,
    proto::{Bucket, Counter, Gauge, Histogram, LabelPair, Metric, MetricFamily, MetricType},
};
use spielleiter_rules::GameType;
use spielleiter_server::{
    showroom::RoomPhase,
    stats::{END_CAUSES, ServerStats},
};

use crate::{app::App, play};

/// The upper bounds of the move latency histogram: 50 µs × 2^k, exact
/// boundaries of the server's own histogram, from 50 µs to 1.6 s.
const LATENCY_BOUNDS: std::ops::Range<u32> = 0..16;

fn latency_bound(k: u32) -> Duration {
    Duration::from_micros(50 << k)
}

fn labels(pairs: &[(&str, &str)]) -> Vec<LabelPair> {
    pairs
        .iter()
        .map(|(name, value)| {
            let mut label = LabelPair::default();
            label.set_name((*name).to_owned());
            label.set_value((*value).to_owned());
            label
        })
        .collect()
}

fn family(name: &str, help: &str, kind: MetricType, metrics: Vec<Metric>) -> MetricFamily {
    let mut family = MetricFamily::default();
    family.set_name(name.to_owned());
    family.set_help(help.to_owned());
    family.set_field_type(kind);
    family.set_metric(metrics);
    family
}

fn counter(value: u64, pairs: &[(&str, &str)]) -> Metric {
    let mut counter = Counter::default();
    counter.set_value(value as f64);
    let mut metric = Metric::default();
    metric.set_label(labels(pairs));
    metric.set_counter(counter);
    metric
}

fn gauge(value: u64, pairs: &[(&str, &str)]) -> Metric {
    let mut gauge = Gauge::default();
    gauge.set_value(value as f64);
    let mut metric = Metric::default();
    metric.set_label(labels(pairs));
    metric.set_gauge(gauge);
    metric
}

fn latency(stats: &ServerStats) -> Metric {
    let histogram_source = &stats.move_latency;
    let buckets = LATENCY_BOUNDS
        .map(|k| {
            let bound = latency_bound(k);
            let mut bucket = Bucket::default();
            // Via microseconds: exact decimals (1.6384, not 1.6383999999999999).
            bucket.set_upper_bound(bound.as_micros() as f64 / 1e6);
            bucket.set_cumulative_count(histogram_source.count_below(bound));
            bucket
        })
        .collect();
    let mut histogram = Histogram::default();
    histogram.set_sample_count(histogram_source.count());
    histogram.set_sample_sum(histogram_source.sum().as_secs_f64());
    histogram.set_bucket(buckets);
    let mut metric = Metric::default();
    metric.set_histogram(histogram);
    metric
}

/// What the web side counts itself, as of a scrape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WebFigures {
    /// Open event streams.
    pub streams: u64,
    /// People's seats whose game runs.
    pub seats_open: u64,
    /// People's seats opened since the start.
    pub seats_opened: u64,
    /// People's seats refused since the start because every seat was taken.
    pub seats_refused_full: u64,
    /// People's seats refused since the start because the address held its
    /// share.
    pub seats_refused_per_address: u64,
    /// Questions why a click is no move refused since the start because
    /// their seat asked more than its budget.
    pub questions_refused: u64,
    /// Contest logins since the start: succeeded, failed (unknown name or
    /// wrong password, one count), throttled (refused unchecked).
    pub contest_logins: [u64; 3],
}

/// Every metric family, as of now.
pub fn families(stats: &ServerStats, web: WebFigures) -> Vec<MetricFamily> {
    let get = ServerStats::get;
    let mut rooms = vec![[0u64; 4]; GameType::ALL.len()];
    for room in stats.rooms.open_rooms() {
        let snapshot = room.borrow();
        if let Some(game) = GameType::ALL
            .iter()
            .position(|&g| g == snapshot.game_type())
        {
            let phase = match snapshot.phase {
                RoomPhase::Waiting => 0,
                RoomPhase::Running => 1,
                RoomPhase::Paused => 2,
                RoomPhase::Over => 3,
            };
            rooms[game][phase] += 1;
        }
    }
    let phases = [
        RoomPhase::Waiting,
        RoomPhase::Running,
        RoomPhase::Paused,
        RoomPhase::Over,
    ];
    let room_metrics = GameType::ALL
        .iter()
        .enumerate()
        .flat_map(|(index, game)| {
            let counts = rooms[index];
            phases.iter().enumerate().map(move |(p, phase)| {
                gauge(counts[p], &[("game", game.id()), ("phase", phase.name())])
            })
        })
        .collect();
    let finished = GameType::ALL
        .iter()
        .flat_map(|&game| {
            END_CAUSES.iter().enumerate().map(move |(cause, label)| {
                counter(
                    stats.finished_by_cause.get(game, cause),
                    &[("game", game.id()), ("cause", label)],
                )
            })
        })
        .collect();
    vec![
        family(
            "spielleiter_rooms",
            "Open rooms by game and phase.",
            MetricType::GAUGE,
            room_metrics,
        ),
        family(
            "spielleiter_games_finished_total",
            "Games that reached a result, by game and how they ended.",
            MetricType::COUNTER,
            finished,
        ),
        family(
            "spielleiter_moves_total",
            "Moves applied.",
            MetricType::COUNTER,
            vec![counter(get(&stats.moves), &[])],
        ),
        family(
            "spielleiter_move_latency_seconds",
            "Server-added latency per move: from reading a move to writing the next move request.",
            MetricType::HISTOGRAM,
            vec![latency(stats)],
        ),
        family(
            "spielleiter_timeouts_total",
            "Games lost on time, by limit.",
            MetricType::COUNTER,
            vec![
                counter(get(&stats.soft_timeouts), &[("limit", "soft")]),
                counter(get(&stats.hard_timeouts), &[("limit", "hard")]),
            ],
        ),
        family(
            "spielleiter_protocol_errors_total",
            "Packets that could not be read (malformed, unknown, broken framing).",
            MetricType::COUNTER,
            vec![counter(get(&stats.protocol_errors), &[])],
        ),
        family(
            "spielleiter_connections",
            "Game connections being served now.",
            MetricType::GAUGE,
            vec![gauge(get(&stats.connections_open), &[])],
        ),
        family(
            "spielleiter_connections_total",
            "Game connections, by what became of them: served, or refused at once (a connection limit).",
            MetricType::COUNTER,
            vec![
                counter(get(&stats.connections_served), &[("outcome", "served")]),
                counter(get(&stats.refused_connections), &[("outcome", "refused")]),
            ],
        ),
        family(
            "spielleiter_slow_clients_total",
            "Connections closed for not reading their answers, or for too slow a message.",
            MetricType::COUNTER,
            vec![
                counter(get(&stats.slow_readers), &[("kind", "reader")]),
                counter(get(&stats.slow_messages), &[("kind", "message")]),
            ],
        ),
        family(
            "spielleiter_failed_authentications_total",
            "Wrong administrator passphrases: authenticate on the game port, logins and bearer tokens on the web side.",
            MetricType::COUNTER,
            vec![counter(get(&stats.failed_authentications), &[])],
        ),
        family(
            "spielleiter_rooms_unresponsive_total",
            "Rooms that did not answer in time and were ended.",
            MetricType::COUNTER,
            vec![counter(get(&stats.rooms_unresponsive), &[])],
        ),
        family(
            "spielleiter_web_streams",
            "Open event streams of the web pages.",
            MetricType::GAUGE,
            vec![gauge(web.streams, &[])],
        ),
        family(
            "spielleiter_web_connections_refused_total",
            "Web connections refused at once (a cap of the web side's connection budget).",
            MetricType::COUNTER,
            vec![counter(get(&stats.web_refused_connections), &[])],
        ),
        family(
            "spielleiter_play_seats",
            "People's seats (/play) whose game runs.",
            MetricType::GAUGE,
            vec![gauge(web.seats_open, &[])],
        ),
        family(
            "spielleiter_play_seats_opened_total",
            "People's seats (/play) opened.",
            MetricType::COUNTER,
            vec![counter(web.seats_opened, &[])],
        ),
        family(
            "spielleiter_play_seats_refused_total",
            "People's seats (/play) refused, by why: every seat taken (http.play_seats), or the address holding its share (http.play_seats_per_address).",
            MetricType::COUNTER,
            vec![
                counter(web.seats_refused_full, &[("reason", "all_taken")]),
                counter(web.seats_refused_per_address, &[("reason", "per_address")]),
            ],
        ),
        family(
            "spielleiter_play_questions_refused_total",
            &format!(
                "Questions why a click is no move (/api/play/ID/why) refused with 429: their seat asked more than {} a second.",
                play::QUESTIONS_PER_SECOND
            ),
            MetricType::COUNTER,
            vec![counter(web.questions_refused, &[])],
        ),
        family(
            "spielleiter_contest_logins_total",
            "Contest logins (/contest/login, and the current password of a password change), by outcome: succeeded, failed (an unknown name or a wrong password, alike), throttled (refused unchecked: the name's or the address's back-off too far off).",
            MetricType::COUNTER,
            ["succeeded", "failed", "throttled"]
                .iter()
                .zip(web.contest_logins)
                .map(|(outcome, count)| counter(count, &[("outcome", outcome)]))
                .collect(),
        ),
    ]
}

/// `GET /metrics`.
pub async fn metrics(State(app): State<Arc<App>>) -> impl IntoResponse {
    let refused = app.play.as_ref().map_or((0, 0), play::Seats::refused);
    let web = WebFigures {
        streams: app.open_streams(),
        seats_open: app.play.as_ref().map_or(0, |seats| seats.running() as u64),
        seats_opened: app.play.as_ref().map_or(0, play::Seats::opened),
        seats_refused_full: refused.0,
        seats_refused_per_address: refused.1,
        questions_refused: app.play.as_ref().map_or(0, play::Seats::questions_refused),
        contest_logins: app.contest.as_ref().map_or([0; 3], |door| {
            let logins = door.logins();
            [&logins.succeeded, &logins.failed, &logins.throttled]
                .map(|count| count.load(std::sync::atomic::Ordering::Relaxed))
        }),
    };
    let families = families(&app.stats, web);
    let encoder = TextEncoder::new();
    let mut text = Vec::with_capacity(8 * 1024);
    if let Err(error) = encoder.encode(&families, &mut text) {
        tracing::warn!(%error, "cannot encode the metrics");
    }
    ([(header::CONTENT_TYPE, prometheus::TEXT_FORMAT)], text)
}
