//! `spielleiter-bench --syscalls`: counts the system calls of the server's process
//! during a run with `perf stat` on the kernel's system call tracepoints
//! (`raw_syscalls:sys_enter` and a few `syscalls:sys_enter_*`), so that
//! the report can say how many a move costs and which.
//!
//! Counting a tracepoint costs the kernel a little per system call, so the
//! counted run's CPU figures are a little higher than an uncounted run's.
//! Where `perf` is missing or may not read the tracepoints (they need root
//! or `kernel.perf_event_paranoid = -1`), the count is skipped with the
//! reason.

use std::{
    io::Read,
    process::{Child, Command, Stdio},
};

/// The system calls counted one by one: those a move's path makes (socket
/// reads and writes, the runtime's polling and wake-ups) and the replay
/// files' largest.
const ONE_BY_ONE: [&str; 7] = [
    "recvfrom",
    "writev",
    "sendto",
    "epoll_wait",
    "futex",
    "write",
    "fdatasync",
];

/// The tracepoint counting every system call.
const ALL: &str = "raw_syscalls:sys_enter";

/// A `perf stat` counting this process's system calls.
#[derive(Debug)]
pub struct SyscallCounter {
    perf: Child,
}

/// System calls counted: all of them and those of [`ONE_BY_ONE`].
#[derive(Debug, Clone, PartialEq)]
pub struct SyscallCounts {
    /// Every system call.
    pub total: u64,
    /// The counts of [`ONE_BY_ONE`], in that order.
    pub by_name: Vec<(&'static str, u64)>,
}

impl SyscallCounts {
    /// The report's line: system calls per move, the largest kinds first.
    pub fn per_move(&self, moves: u64) -> String {
        let moves = moves.max(1) as f64;
        let mut named = self.by_name.clone();
        named.sort_by_key(|&(_, count)| std::cmp::Reverse(count));
        let mut parts: Vec<String> = named
            .iter()
            .filter(|(_, count)| *count > 0)
            .map(|(name, count)| format!("{name} {:.2}", *count as f64 / moves))
            .collect();
        let other = self.total - named.iter().map(|(_, count)| count).sum::<u64>();
        parts.push(format!("other {:.2}", other as f64 / moves));
        format!(
            "{:.1} per move ({})",
            self.total as f64 / moves,
            parts.join(", ")
        )
    }
}

impl SyscallCounter {
    /// Starts counting the system calls of this process (all its threads).
    ///
    /// # Errors
    ///
    /// Why counting is not possible here (no `perf`).
    pub fn start() -> Result<SyscallCounter, String> {
        let mut command = Command::new("perf");
        command.args(["stat", "-x", ",", "-e", ALL]);
        for name in ONE_BY_ONE {
            command.args(["-e", &format!("syscalls:sys_enter_{name}")]);
        }
        command
            .args(["-p", &std::process::id().to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        match command.spawn() {
            Ok(perf) => Ok(SyscallCounter { perf }),
            Err(error) => Err(format!(
                "cannot start `perf` ({error}); install it to count"
            )),
        }
    }

    /// Stops counting and returns the counts.
    ///
    /// # Errors
    ///
    /// What `perf` said when it could not count (e.g. no permission to read
    /// the tracepoints).
    pub fn stop(mut self) -> Result<SyscallCounts, String> {
        #[cfg(unix)]
        {
            use nix::{sys::signal, unistd::Pid};
            // `perf stat` prints its counts when interrupted.
            if let Ok(pid) = i32::try_from(self.perf.id()) {
                let _ = signal::kill(Pid::from_raw(pid), signal::Signal::SIGINT);
            }
        }
        #[cfg(not(unix))]
        let _ = self.perf.kill();
        let mut said = String::new();
        if let Some(mut stderr) = self.perf.stderr.take() {
            let _ = stderr.read_to_string(&mut said);
        }
        let _ = self.perf.wait();
        parse(&said).ok_or_else(|| {
            let said = said.trim();
            let first = said.lines().next().unwrap_or("no output");
            format!("`perf stat` could not count system calls (needs root or kernel.perf_event_paranoid = -1): {first}")
        })
    }
}

/// Reads `perf stat -x ,` output: one line per event, the count first and
/// the event's name third.
fn parse(said: &str) -> Option<SyscallCounts> {
    let count = |event: &str| -> Option<u64> {
        said.lines().find_map(|line| {
            let mut fields = line.split(',');
            let value = fields.next()?;
            (fields.nth(1)? == event).then(|| value.trim().parse().ok())?
        })
    };
    let total = count(ALL)?;
    let by_name = ONE_BY_ONE
        .iter()
        .map(|&name| Some((name, count(&format!("syscalls:sys_enter_{name}"))?)))
        .collect::<Option<Vec<_>>>()?;
    Some(SyscallCounts { total, by_name })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perf_stat_output_is_read_per_event() {
        let said = "\
120000,,raw_syscalls:sys_enter,5000000,100.00,,
30000,,syscalls:sys_enter_recvfrom,5000000,100.00,,
40000,,syscalls:sys_enter_writev,5000000,100.00,,
0,,syscalls:sys_enter_sendto,5000000,100.00,,
20000,,syscalls:sys_enter_epoll_wait,5000000,100.00,,
10000,,syscalls:sys_enter_futex,5000000,100.00,,
5000,,syscalls:sys_enter_write,5000000,100.00,,
100,,syscalls:sys_enter_fdatasync,5000000,100.00,,
";
        let counts = parse(said).expect("counts");
        assert_eq!(counts.total, 120_000);
        assert_eq!(counts.by_name[1], ("writev", 40_000));
        assert_eq!(
            counts.per_move(10_000),
            "12.0 per move (writev 4.00, recvfrom 3.00, epoll_wait 2.00, futex 1.00, write 0.50, fdatasync 0.01, other 1.49)"
        );
    }

    #[test]
    fn events_perf_could_not_count_are_no_counts() {
        assert!(parse("<not supported>,,raw_syscalls:sys_enter,0,100.00,,\n").is_none());
        assert!(parse("event syntax error: 'raw_syscalls:sys_enter'\n").is_none());
        assert!(parse("").is_none());
    }
}
