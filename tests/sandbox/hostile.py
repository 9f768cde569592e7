"""A hostile player for the sandbox test (tests/sandbox/run.sh): it joins its
game like any player, then misbehaves in the way its first argument names,
and prints one line per attempt for the test to assert:

    ATTEMPT <what> -> BLOCKED <why>
    ATTEMPT <what> -> ESCAPED <what it got>

Behaviours (the first argument):

  escape TARGET…   connects to each HOST:PORT target (outside addresses,
                   the host's web and game ports, another container), to the
                   host's loopback, resolves a name, looks for the host's
                   files, the Docker socket and the other team's files,
                   writes outside /tmp; then idles (and loses on time)
  forkbomb         forks without end
  membomb          allocates memory without end
  filltmp          writes to /tmp until it is full; then idles
  zombies N        leaves N processes to the relay (each the child of a
                   process that has ended), more than the process limit,
                   and counts the zombies left; then idles
  linger           plays no move and keeps running after its game has ended
  quit             leaves its game at once (so that the other player's game
                   ends without its fault)

The contest's arguments (--host H --port P --reservation CODE) follow.
Uses nothing but Python's standard library.
"""

import errno
import os
import socket
import sys
import time


def say(line):
    print(line, flush=True)


def contest_arguments(args):
    options = dict(zip(args[::2], args[1::2]))
    return options["--host"], int(options["--port"]), options["--reservation"]


def join(host, port, reservation):
    game = socket.create_connection((host, port), timeout=10)
    game.sendall(
        ('<protocol><joinPrepared reservationCode="%s" />' % reservation).encode()
    )
    game.settimeout(None)
    return game


def read_to_end(game):
    """Reads until the server ends the game (</protocol>) or closes."""
    seen = b""
    while True:
        chunk = game.recv(65536)
        if not chunk:
            return
        seen = (seen + chunk)[-64:]
        if b"</protocol>" in seen:
            return


def attempt_connect(target):
    host, port = target.rsplit(":", 1)
    what = "connect %s" % target
    try:
        with socket.create_connection((host, int(port)), timeout=3) as s:
            s.sendall(b"GET / HTTP/1.0\r\n\r\n")
            got = s.recv(64)
            say("ATTEMPT %s -> ESCAPED %r" % (what, got[:32]))
    except OSError as error:
        say("ATTEMPT %s -> BLOCKED %s" % (what, errno.errorcode.get(error.errno, error)))


def attempt_resolve(name):
    try:
        address = socket.getaddrinfo(name, 443)[0][4]
        say("ATTEMPT resolve %s -> ESCAPED %s" % (name, address))
    except OSError as error:
        say("ATTEMPT resolve %s -> BLOCKED %s" % (name, type(error).__name__))


def attempt_absent(path, what):
    if os.path.exists(path):
        say("ATTEMPT %s (%s) -> ESCAPED it exists" % (what, path))
    else:
        say("ATTEMPT %s (%s) -> BLOCKED absent" % (what, path))


def attempt_write(path):
    try:
        with open(path, "w") as f:
            f.write("x")
        say("ATTEMPT write %s -> ESCAPED written" % path)
    except OSError as error:
        say("ATTEMPT write %s -> BLOCKED %s" % (path, errno.errorcode.get(error.errno, error)))


def find_named(name):
    """Whether a file called `name` is anywhere in this container."""
    for root, dirs, files in os.walk("/"):
        if root == "/":
            dirs[:] = [d for d in dirs if d not in ("proc", "sys", "dev")]
        if name in files:
            return os.path.join(root, name)
    return None


def escape(targets):
    for target in targets:
        attempt_connect(target)
    attempt_resolve("deb.debian.org")
    attempt_absent("/var/run/docker.sock", "the Docker socket")
    attempt_absent("/run/docker.sock", "the Docker socket")
    attempt_absent("/work", "the host's files")
    attempt_absent("/root", "the host's files")
    attempt_absent("/etc/shadow", "the host's files")
    found = find_named("team-native-secret.txt")
    if found:
        say("ATTEMPT the other team's files -> ESCAPED %s" % found)
    else:
        say("ATTEMPT the other team's files -> BLOCKED absent")
    attempt_write("/escape")
    attempt_write("/player/escape")
    say("uid %d gid %d" % (os.getuid(), os.getgid()))


def fork_bomb():
    say("forkbomb: forking")
    failures = 0
    while True:
        try:
            os.fork()
        except OSError as error:
            failures += 1
            if failures == 1:
                say("ATTEMPT fork without end -> BLOCKED %s" % errno.errorcode.get(error.errno, error))
            time.sleep(0.01)


def memory_bomb():
    say("membomb: allocating")
    hoard = []
    while True:
        # Filled, not zeroed: untouched pages would not count.
        hoard.append(b"\x01" * (64 * 1024 * 1024))
        say("membomb: %d MiB" % (64 * len(hoard)))


def fill_tmp():
    written = 0
    block = b"\0" * (1024 * 1024)
    try:
        with open("/tmp/fill", "wb") as f:
            while written < 1024 * 1024 * 1024:
                f.write(block)
                f.flush()
                written += len(block)
        say("ATTEMPT fill /tmp -> ESCAPED %d MiB written" % (written >> 20))
    except OSError as error:
        say(
            "ATTEMPT fill /tmp -> BLOCKED %s after %d MiB"
            % (errno.errorcode.get(error.errno, error), written >> 20)
        )


def zombie_count():
    """The processes of this container that have ended but are not reaped."""
    count = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/stat" % entry) as f:
                    # `PID (COMMAND) STATE …`
                    if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                        count += 1
            except (OSError, IndexError):
                pass
    return count


def leave_zombies(count):
    """Each of `count` children starts a grandchild and ends at once; the
    grandchild, orphaned, becomes the relay's (PID 1) and ends too."""
    failed = 0
    for _ in range(count):
        try:
            pid = os.fork()
        except OSError:
            failed += 1
            time.sleep(0.01)
            continue
        if pid == 0:
            try:
                if os.fork() == 0:
                    os._exit(0)
            except OSError:
                os._exit(1)
            os._exit(0)
        _, status = os.waitpid(pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            failed += 1
    time.sleep(1)
    left = zombie_count()
    what = "leave %d zombies to the relay" % count
    if left == 0 and failed == 0:
        say("ATTEMPT %s -> BLOCKED reaped (0 zombies left, no fork failed)" % what)
    else:
        say("ATTEMPT %s -> ESCAPED %d zombies left, %d forks failed" % (what, left, failed))


def main():
    mode, rest = sys.argv[1], sys.argv[2:]
    split = rest.index("--host")
    extra, (host, port, reservation) = rest[:split], contest_arguments(rest[split:])
    game = join(host, port, reservation)
    say("joined, now: %s" % mode)
    if mode == "escape":
        escape(extra)
    elif mode == "forkbomb":
        fork_bomb()
    elif mode == "membomb":
        memory_bomb()
    elif mode == "filltmp":
        fill_tmp()
    elif mode == "zombies":
        leave_zombies(int(extra[0]))
    elif mode == "linger":
        pass
    elif mode == "quit":
        say("quitting")
        return
    else:
        say("unknown mode %s" % mode)
        sys.exit(2)
    read_to_end(game)
    say("the game has ended")
    if mode == "linger":
        say("linger: staying on")
        while True:
            time.sleep(1)


if __name__ == "__main__":
    main()
