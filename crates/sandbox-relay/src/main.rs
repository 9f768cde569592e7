//! The relay: PID 1 of a sandboxed player's container. It owns the only
//! way out of the container: a player's container has no network interface
//! but loopback (`--network none`), so the relay listens on the container's
//! `127.0.0.1:PORT`, carries each connection to the game's Unix socket
//! (bind-mounted from the host, where the match runner forwards it to the
//! game server and nowhere else), starts the player with the contest's
//! arguments, and ends with it.
//!
//! ```text
//! spielleiter-relay --port P --socket PATH --deadline-secs N -- PROGRAM ARGS…
//! ```
//!
//! The relay exits with the player's status (128 + the signal if a signal
//! ended it), or 124 when the deadline passed first: its exit ends the
//! container, and with it every process the player left behind. As PID 1 of
//! the container's PID namespace it cannot be signalled by the player, and
//! every process the player orphans becomes its child: it reaps them as they
//! end, so that a player that leaves processes behind does not fill the
//! container's process limit with zombies. It runs as the player's user but
//! is not dumpable (`prctl(PR_SET_DUMPABLE, 0)`), so the player cannot
//! trace it or open its memory (`/proc/1/mem`) either. Once the player has ended, the
//! relay lets its connections finish (at most 2 s) before it exits, so that
//! what the player wrote last (a join, and gone) still reaches the game. Its
//! one dependency is `nix` (for `waitpid` on any child, and `prctl`): it is
//! built as a static binary into every sandbox base image.

use nix::{
    errno::Errno,
    sys::{
        signal::{Signal, kill},
        wait::{WaitStatus, waitpid},
    },
    unistd::Pid,
};
use std::{
    io::{self, Write},
    net::{Shutdown, TcpListener, TcpStream},
    os::unix::net::UnixStream,
    path::PathBuf,
    process::{Command, ExitCode},
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicUsize, Ordering},
        mpsc::{self, RecvTimeoutError},
    },
    thread,
    time::{Duration, Instant},
};

/// Connections carried at the same time: a player needs one; a few more
/// allow a reconnect while the old one closes. Beyond it a connection is
/// closed at once (each costs two threads of the container's process limit).
const MAX_CONNECTIONS: usize = 4;

/// The exit status when the deadline ended the player (as `timeout(1)`).
const DEADLINE_STATUS: u8 = 124;

/// What the command line asks for.
#[derive(Debug)]
struct Request {
    port: u16,
    socket: PathBuf,
    deadline: Duration,
    program: Vec<String>,
}

fn main() -> ExitCode {
    // The player runs as the relay's user: were the relay dumpable, the
    // player could trace it (ptrace, /proc/1/mem) and so act as PID 1.
    // Not dumpable, only a process with CAP_SYS_PTRACE could, and the
    // sandbox has none. The player's own exec makes it dumpable again.
    if let Err(e) = nix::sys::prctl::set_dumpable(false) {
        say(&format!(
            "cannot make the relay non-dumpable, so the player is not started: {e}"
        ));
        return ExitCode::from(125);
    }
    let request = match parse(std::env::args().skip(1)) {
        Ok(request) => request,
        Err(message) => {
            say(&format!("bad arguments: {message}"));
            return ExitCode::from(2);
        }
    };
    match run(&request) {
        Ok(code) => ExitCode::from(code),
        Err(message) => {
            say(&message);
            ExitCode::from(125)
        }
    }
}

/// A line on standard error, which is the player's log.
fn say(message: &str) {
    let _ = writeln!(io::stderr(), "[spielleiter sandbox] {message}");
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Request, String> {
    let mut port = None;
    let mut socket = None;
    let mut deadline = None;
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--port" => port = Some(value()?.parse().map_err(|e| format!("--port: {e}"))?),
            "--socket" => socket = Some(PathBuf::from(value()?)),
            "--deadline-secs" => {
                deadline = Some(Duration::from_secs(
                    value()?
                        .parse()
                        .map_err(|e| format!("--deadline-secs: {e}"))?,
                ));
            }
            "--" => break,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    let program: Vec<String> = args.collect();
    if program.is_empty() {
        return Err("no program after --".to_owned());
    }
    Ok(Request {
        port: port.ok_or("--port is missing")?,
        socket: socket.ok_or("--socket is missing")?,
        deadline: deadline.ok_or("--deadline-secs is missing")?,
        program,
    })
}

fn run(request: &Request) -> Result<u8, String> {
    let started = Instant::now();
    // Listening before the player starts: its first connect finds the port.
    let listener = TcpListener::bind(("127.0.0.1", request.port))
        .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", request.port))?;
    let socket = request.socket.clone();
    let open = Arc::new(AtomicUsize::new(0));
    let carrying = Arc::clone(&open);
    thread::Builder::new()
        .name("accept".to_owned())
        .spawn(move || accept(&listener, &socket, &carrying))
        .map_err(|e| format!("cannot start the relay thread: {e}"))?;
    let player = Command::new(&request.program[0])
        .args(&request.program[1..])
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", request.program[0]))?;
    // From here on the player is waited for by its pid (`wait`), never
    // through `Child`: reaping every child reaps the player too.
    let player = i32::try_from(player.id())
        .map(Pid::from_raw)
        .map_err(|_| "the player's process id is out of range".to_owned())?;
    let code = wait(player, started + request.deadline)?;
    drain(&open, DRAIN);
    Ok(code)
}

/// How long the relay lets its connections finish after the player ended.
const DRAIN: Duration = Duration::from_secs(2);

/// Waits until no connection is carried any more, or `bound` has passed.
/// The relay's exit ends every thread at once: what a player wrote just
/// before it ended (a join, then gone) would be lost in the relay, and the
/// game would never hear of it.
fn drain(open: &AtomicUsize, bound: Duration) {
    let until = Instant::now() + bound;
    while open.load(Ordering::SeqCst) > 0 && Instant::now() < until {
        thread::sleep(Duration::from_millis(5));
    }
}

/// Waits for the player until `deadline`, reaping every other child as it
/// ends; past the deadline the player is killed.
///
/// The wait blocks in `waitpid` for any child, so an orphan of the player is
/// reaped the moment it ends (a player forking quickly could otherwise fill
/// the process limit with zombies between two looks); a thread of its own
/// kills the player at the deadline, which ends the wait.
fn wait(player: Pid, deadline: Instant) -> Result<u8, String> {
    let passed = Arc::new(AtomicBool::new(false));
    // Dropped when this returns: the deadline thread then ends without
    // killing anything.
    let (_waiting, until_deadline) = mpsc::channel::<()>();
    {
        let passed = Arc::clone(&passed);
        let remaining = deadline.saturating_duration_since(Instant::now());
        thread::Builder::new()
            .name("deadline".to_owned())
            .spawn(move || {
                if until_deadline.recv_timeout(remaining) == Err(RecvTimeoutError::Timeout) {
                    passed.store(true, Ordering::SeqCst);
                    say("the player's wall-clock limit has passed: killed");
                    let _ = kill(player, Signal::SIGKILL);
                }
            })
            .map_err(|e| format!("cannot start the deadline thread: {e}"))?;
    }
    let ended = |code: u8| {
        if passed.load(Ordering::SeqCst) {
            DEADLINE_STATUS
        } else {
            code
        }
    };
    loop {
        match waitpid(None, None) {
            Ok(WaitStatus::Exited(pid, code)) if pid == player => {
                return Ok(ended(u8::try_from(code).unwrap_or(1)));
            }
            Ok(WaitStatus::Signaled(pid, signal, _)) if pid == player => {
                return Ok(ended(u8::try_from(128 + signal as i32).unwrap_or(255)));
            }
            // Another process reaped (an orphan of the player), or a stop
            // or continue reported.
            Ok(_) | Err(Errno::EINTR) => {}
            Err(Errno::ECHILD) => return Err("the player is not the relay's child".to_owned()),
            Err(e) => return Err(format!("cannot wait for the player: {e}")),
        }
    }
}

/// Carries each connection to the game's socket on a thread of its own;
/// `open` counts those being carried.
fn accept(listener: &TcpListener, socket: &std::path::Path, open: &Arc<AtomicUsize>) {
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            open.fetch_sub(1, Ordering::SeqCst);
            say("too many connections at once: one closed");
            continue;
        }
        let socket = socket.to_owned();
        let open = Arc::clone(open);
        let spawned = thread::Builder::new().spawn(move || {
            if let Err(e) = carry(stream, &socket) {
                say(&format!("a game connection ended: {e}"));
            }
            open.fetch_sub(1, Ordering::SeqCst);
        });
        if spawned.is_err() {
            say("no thread for a connection (process limit?): closed");
        }
    }
}

/// Copies both ways between the player's TCP connection and the game's
/// Unix socket until both sides have ended.
fn carry(player: TcpStream, socket: &std::path::Path) -> io::Result<()> {
    // What the game sends reaches the relay in pieces (a state, then the
    // move request); with Nagle's algorithm a piece written while the one
    // before is unacknowledged waits for the player's delayed ACK (40 ms),
    // and the player waits for the request: about 40 ms a move, two
    // seconds a game. The server sends without delay too.
    player.set_nodelay(true)?;
    let game = UnixStream::connect(socket)?;
    let (mut player_read, mut game_write) = (player.try_clone()?, game.try_clone()?);
    let upstream = thread::Builder::new().spawn(move || {
        let _ = io::copy(&mut player_read, &mut game_write);
        let _ = game_write.shutdown(Shutdown::Write);
    })?;
    let (mut game_read, mut player_write) = (game, player);
    let _ = io::copy(&mut game_read, &mut player_write);
    let _ = player_write.shutdown(Shutdown::Write);
    let _ = upstream.join();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> impl Iterator<Item = String> {
        line.split(' ')
            .map(str::to_owned)
            .collect::<Vec<_>>()
            .into_iter()
    }

    #[test]
    fn the_command_line_names_port_socket_deadline_and_program() {
        let request = parse(args(
            "--port 13050 --socket /sandbox/run/game.sock --deadline-secs 60 -- /player/start --port 13050",
        ))
        .expect("a valid request");
        assert_eq!(request.port, 13050);
        assert_eq!(request.socket, PathBuf::from("/sandbox/run/game.sock"));
        assert_eq!(request.deadline, Duration::from_secs(60));
        assert_eq!(request.program, ["/player/start", "--port", "13050"]);
        assert!(parse(args("--port 1 --socket s --deadline-secs 1 --")).is_err());
        assert!(parse(args("--port x --socket s --deadline-secs 1 -- p")).is_err());
        assert!(parse(args("--socket s --deadline-secs 1 -- p")).is_err());
    }

    #[test]
    fn a_connection_reaches_the_socket_and_back() {
        let dir = std::env::temp_dir().join(format!("sl-relay-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("game.sock");
        let _ = std::fs::remove_file(&path);
        let game = std::os::unix::net::UnixListener::bind(&path).expect("bind");
        let echo = thread::spawn(move || {
            let (mut stream, _) = game.accept().expect("accept");
            let mut reader = stream.try_clone().expect("clone");
            io::copy(&mut reader, &mut stream).expect("echo");
        });
        let listener = TcpListener::bind("127.0.0.1:0").expect("listen");
        let addr = listener.local_addr().expect("addr");
        let socket = path.clone();
        let open = Arc::new(AtomicUsize::new(0));
        thread::spawn(move || accept(&listener, &socket, &open));
        let mut player = TcpStream::connect(addr).expect("connect");
        player.set_nodelay(true).expect("nodelay");
        player.write_all(b"<protocol>").expect("write");
        player.shutdown(Shutdown::Write).expect("shutdown");
        let mut back = String::new();
        io::Read::read_to_string(&mut player, &mut back).expect("read");
        assert_eq!(back, "<protocol>");
        echo.join().expect("echo thread");
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn what_the_player_wrote_before_it_ended_reaches_the_game_first() {
        let dir = std::env::temp_dir().join(format!("sl-relay-drain-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("game.sock");
        let _ = std::fs::remove_file(&path);
        let game = std::os::unix::net::UnixListener::bind(&path).expect("bind");
        // A slow game side: it reads only after a while.
        let received = thread::spawn(move || {
            let (mut stream, _) = game.accept().expect("accept");
            thread::sleep(Duration::from_millis(300));
            let mut got = Vec::new();
            io::Read::read_to_end(&mut stream, &mut got).expect("read");
            got
        });
        let listener = TcpListener::bind("127.0.0.1:0").expect("listen");
        let addr = listener.local_addr().expect("addr");
        let open = Arc::new(AtomicUsize::new(0));
        let carrying = Arc::clone(&open);
        let socket = path.clone();
        thread::spawn(move || accept(&listener, &socket, &carrying));
        let mut player = TcpStream::connect(addr).expect("connect");
        player.write_all(b"<joinPrepared/>").expect("write");
        while open.load(Ordering::SeqCst) == 0 {
            thread::sleep(Duration::from_millis(1));
        }
        // The player ends; the relay would exit once `drain` returns.
        drop(player);
        let started = Instant::now();
        drain(&open, Duration::from_secs(10));
        assert_eq!(
            open.load(Ordering::SeqCst),
            0,
            "drained before the carry ended"
        );
        assert!(started.elapsed() < Duration::from_secs(10));
        assert_eq!(received.join().expect("game"), b"<joinPrepared/>");
        std::fs::remove_dir_all(dir).ok();
    }

    /// Whether process `pid` is still a child of this one (a zombie, once
    /// ended and not reaped); a reused pid has another parent.
    fn is_our_child(pid: u32) -> bool {
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            return false;
        };
        // `PID (COMMAND) STATE PPID …`; the command may hold spaces.
        let after_command = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
        after_command.split_whitespace().nth(1) == Some(&std::process::id().to_string())
    }

    #[allow(
        clippy::zombie_processes,
        reason = "`wait` reaps it: the relay's way of waiting is under test"
    )]
    fn spawn(line: &str) -> Pid {
        let child = Command::new("sh").args(["-c", line]).spawn().expect("sh");
        Pid::from_raw(i32::try_from(child.id()).expect("pid"))
    }

    // One test for everything that waits for any child: a second test
    // waiting at the same time in this process would reap this one's.
    #[test]
    fn the_player_is_waited_for_its_deadline_kept_and_every_other_child_reaped() {
        // A player that ends by itself: its exit code.
        let player = spawn("sleep 0.2; exit 3");
        assert_eq!(
            wait(player, Instant::now() + Duration::from_secs(30)),
            Ok(3)
        );

        // Killed by a signal: 128 + the signal.
        let player = spawn("kill -TERM $$");
        assert_eq!(
            wait(player, Instant::now() + Duration::from_secs(30)),
            Ok(143)
        );

        // Past the deadline: killed, 124.
        let player = spawn("sleep 30");
        let started = Instant::now();
        assert_eq!(
            wait(player, started + Duration::from_millis(100)),
            Ok(DEADLINE_STATUS)
        );
        assert!(started.elapsed() < Duration::from_secs(10));

        // Children that end while the player runs are reaped: none is left
        // a zombie (std's `Child` would reap only when waited for).
        #[allow(
            clippy::zombie_processes,
            reason = "left unwaited on purpose: `wait` must reap them"
        )]
        let others: Vec<u32> = (0..5)
            .map(|_| Command::new("true").spawn().expect("true").id())
            .collect();
        thread::sleep(Duration::from_millis(300));
        for &pid in &others {
            assert!(
                is_our_child(pid),
                "process {pid} is not a zombie of ours yet"
            );
        }
        let player = spawn("sleep 0.5");
        assert_eq!(
            wait(player, Instant::now() + Duration::from_secs(30)),
            Ok(0)
        );
        for pid in others {
            assert!(!is_our_child(pid), "process {pid} was left a zombie");
        }
    }
}
