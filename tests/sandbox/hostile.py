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
                   writes outside /tmp (to /var/tmp too, root's but open to
                   all: only the read-only root refuses it); reads its
                   capabilities, no-new-privileges and seccomp mode from
                   /proc/self/status; tries an AF_VSOCK socket (also through
                   the 32-bit system call entry), io_uring, ptrace and the
                   memory of the relay (PID 1), mount, unshare and raw
                   sockets; then idles (and loses on time)
  forkbomb         forks without end
  membomb          allocates memory without end
  filltmp          writes to /tmp, then to /dev/shm, until each is full;
                   then idles
  cpu SECONDS      burns CPU in two processes for SECONDS and tells how many
                   cores it got (its children's CPU time over the wall
                   time); then leaves its game
  sleep            sleeps until the wall-clock limit kills it
  zombies N        leaves N processes to the relay (each the child of a
                   process that has ended), more than the process limit,
                   and counts the zombies left; then idles
  authenticate S   guesses the administrator's passphrase on fresh
                   connections to its game's address, three at a time, for
                   S seconds (as a player did to slow every other game
                   down); then idles
  linger           plays no move and keeps running after its game has ended
  quit             leaves its game at once (so that the other player's game
                   ends without its fault)

The contest's arguments (--host H --port P --reservation CODE) follow.
Uses nothing but Python's standard library.
"""

import ctypes
import errno
import mmap
import os
import platform
import select
import socket
import sys
import threading
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


def error_name(number):
    return errno.errorcode.get(number, str(number))


def attempt_write(path):
    """Creates `path`; says who owns its directory and its mode, so that
    the error reads against them (EACCES: the user; EROFS: the read-only
    root)."""
    directory = os.path.dirname(path)
    try:
        info = os.stat(directory)
        owner = "%s's, mode %o" % ("root" if info.st_uid == 0 else info.st_uid, info.st_mode & 0o7777)
    except OSError as error:
        owner = "unreadable: %s" % error_name(error.errno)
    what = "write %s (%s %s)" % (path, directory, owner)
    try:
        with open(path, "w") as f:
            f.write("x")
        say("ATTEMPT %s -> ESCAPED written" % what)
    except OSError as error:
        say("ATTEMPT %s -> BLOCKED %s" % (what, error_name(error.errno)))


def attempt_status():
    """What the kernel says of this process: capabilities, no-new-privileges
    and the seccomp mode (2: a filter)."""
    fields = {}
    with open("/proc/self/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    sets = ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"]
    held = ["%s %s" % (name, fields[name]) for name in sets if int(fields[name], 16) != 0]
    if held:
        say("ATTEMPT hold a capability -> ESCAPED %s" % " ".join(held))
    else:
        say("ATTEMPT hold a capability -> BLOCKED %s all 0" % " ".join(sets))
    verdict = "BLOCKED" if fields["NoNewPrivs"] == "1" else "ESCAPED"
    say("ATTEMPT gain privileges through exec -> %s NoNewPrivs %s" % (verdict, fields["NoNewPrivs"]))
    verdict = "BLOCKED" if fields["Seccomp"] == "2" else "ESCAPED"
    say("ATTEMPT run without a seccomp filter -> %s Seccomp %s" % (verdict, fields["Seccomp"]))


LIBC = ctypes.CDLL(None, use_errno=True)
LIBC.syscall.restype = ctypes.c_long
LIBC.ptrace.restype = ctypes.c_long
LIBC.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]


def attempt_call(what, result):
    """`result` of a C call: -1 and errno when refused."""
    if result == -1:
        say("ATTEMPT %s -> BLOCKED %s" % (what, error_name(ctypes.get_errno())))
    else:
        say("ATTEMPT %s -> ESCAPED returned %d" % (what, result))


def attempt_socket(what, family, kind, protocol=0, connect_to=None):
    try:
        s = socket.socket(family, kind, protocol)
    except OSError as error:
        say("ATTEMPT %s -> BLOCKED %s" % (what, error_name(error.errno)))
        return
    answer = ""
    if connect_to is not None:
        try:
            s.settimeout(3)
            s.connect(connect_to)
            answer = ", connected to %s" % (connect_to,)
        except OSError as error:
            answer = ", connect to %s: %s" % (connect_to, error_name(error.errno))
    s.close()
    say("ATTEMPT %s -> ESCAPED created%s" % (what, answer))


def in_child(act):
    """Runs `act` (which returns an exit code) in a child process, and
    describes how the child ended: `exit N` or `killed by signal N`."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            code = act()
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return "killed by signal %d" % os.WTERMSIG(status)
    return "exit %d" % os.WEXITSTATUS(status)


def call_32bit(number, *args):
    """The 32-bit system call `number` through `int 0x80`, from this 64-bit
    process (x86-64 only): the kernel takes it as an i386 call, which a
    seccomp filter sees under the i386 architecture."""
    ebx, ecx, edx = (list(args) + [0, 0, 0])[:3]
    word = lambda value: (value & 0xFFFFFFFF).to_bytes(4, "little")
    code = (
        b"\x53"  # push rbx (callee-saved)
        + b"\xb8" + word(number)  # mov eax, number
        + b"\xbb" + word(ebx)  # mov ebx, first argument
        + b"\xb9" + word(ecx)  # mov ecx, second
        + b"\xba" + word(edx)  # mov edx, third
        + b"\xcd\x80"  # int 0x80
        + b"\x5b"  # pop rbx
        + b"\xc3"  # ret
    )
    page = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    page.write(code)
    function = ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.addressof(ctypes.c_char.from_buffer(page)))
    return function()


def attempt_vsock_32bit():
    """socket(AF_VSOCK, SOCK_STREAM) as an i386 call (359), which an
    argument filter of the 64-bit socket call does not see."""
    what = "socket(AF_VSOCK) through the 32-bit entry"
    if platform.machine() != "x86_64":
        say("ATTEMPT %s -> BLOCKED not x86-64" % what)
        return

    def act():
        result = call_32bit(359, socket.AF_VSOCK, socket.SOCK_STREAM, 0)
        return 0 if result >= 0 else min(-result, 255)

    ended = in_child(act)
    if ended == "exit 0":
        say("ATTEMPT %s -> ESCAPED created" % what)
    elif ended.startswith("exit "):
        say("ATTEMPT %s -> BLOCKED %s" % (what, error_name(int(ended.split()[1]))))
    else:
        say("ATTEMPT %s -> BLOCKED %s" % (what, ended))


def attempt_ptrace_relay():
    """PTRACE_SEIZE of PID 1 (the relay), in a child, whose exit would
    detach it again."""

    def act():
        return 0 if LIBC.ptrace(0x4206, 1, None, None) == 0 else ctypes.get_errno()

    ended = in_child(act)
    what = "ptrace the relay (PID 1)"
    if ended == "exit 0":
        say("ATTEMPT %s -> ESCAPED seized" % what)
    elif ended.startswith("exit "):
        say("ATTEMPT %s -> BLOCKED %s" % (what, error_name(int(ended.split()[1]))))
    else:
        say("ATTEMPT %s -> BLOCKED %s" % (what, ended))
    try:
        fd = os.open("/proc/1/mem", os.O_RDWR)
        os.close(fd)
        say("ATTEMPT open the relay's memory /proc/1/mem -> ESCAPED opened for writing")
    except OSError as error:
        say("ATTEMPT open the relay's memory /proc/1/mem -> BLOCKED %s" % error_name(error.errno))


IO_URING_SETUP = 425  # the same number on x86-64 and ARM64
CLONE_NEWUSER = 0x10000000
ETH_P_ALL = 0x0003


def attempt_kernel():
    """What Docker's default profile, the capabilities or the relay's user
    would let through: each call once."""
    attempt_socket("socket(AF_VSOCK) to the hypervisor", socket.AF_VSOCK, socket.SOCK_STREAM, connect_to=(2, 22))
    attempt_vsock_32bit()
    params = ctypes.create_string_buffer(120)
    attempt_call("io_uring_setup", LIBC.syscall(IO_URING_SETUP, 1, params))
    attempt_ptrace_relay()
    os.makedirs("/tmp/mnt", exist_ok=True)
    attempt_call("mount a tmpfs", LIBC.mount(b"none", b"/tmp/mnt", b"tmpfs", 0, None))
    attempt_call("unshare a user namespace", LIBC.unshare(CLONE_NEWUSER))
    attempt_socket("raw IP socket", socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
    attempt_socket("raw packet socket", socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))


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
    attempt_write("/var/tmp/escape")
    attempt_status()
    attempt_kernel()
    say("uid %d gid %d" % (os.getuid(), os.getgid()))


def guess_passphrase(host, port, seconds, connections=3):
    """Sends wrong `authenticate`s for `seconds` on `connections` fresh
    connections at a time (with the game's, as many as the sandbox carries
    at once), each after the one before it ended; the attempt is blocked if no guess was
    answered (the server answers a wrong one with "Failed to authenticate"
    and a closed connection; it never saw one that is closed unanswered)."""
    deadline = time.monotonic() + seconds
    counts = {"tried": 0, "answered": 0}
    lock = threading.Lock()

    def guesser():
        while time.monotonic() < deadline:
            try:
                with socket.create_connection((host, port), timeout=3) as guess:
                    guess.sendall(b'<protocol><authenticate password="guess" />')
                    with lock:
                        counts["tried"] += 1
                    seen = b""
                    while True:
                        chunk = guess.recv(4096)
                        if not chunk:
                            break
                        seen += chunk
                    if b"authenticate" in seen:
                        with lock:
                            counts["answered"] += 1
            except OSError:
                time.sleep(0.01)

    threads = [threading.Thread(target=guesser) for _ in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    what = "guess the passphrase %d times" % counts["tried"]
    if counts["answered"]:
        say("ATTEMPT %s -> ESCAPED the server answered %d" % (what, counts["answered"]))
    else:
        say("ATTEMPT %s -> BLOCKED no guess reached the server" % what)


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


def fill(directory):
    written = 0
    block = b"\0" * (1024 * 1024)
    try:
        with open(os.path.join(directory, "fill"), "wb") as f:
            while written < 1024 * 1024 * 1024:
                f.write(block)
                f.flush()
                written += len(block)
        say("ATTEMPT fill %s -> ESCAPED %d MiB written" % (directory, written >> 20))
    except OSError as error:
        say(
            "ATTEMPT fill %s -> BLOCKED %s after %d MiB"
            % (directory, errno.errorcode.get(error.errno, error), written >> 20)
        )


def burn_cpu(seconds):
    """Two processes spin for `seconds` of wall time; their CPU time over the
    wall time is the cores the container's CPU limit gave them."""
    started = time.monotonic()
    children = []
    for _ in range(2):
        pid = os.fork()
        if pid == 0:
            while time.monotonic() < started + seconds:
                pass
            os._exit(0)
        children.append(pid)
    for pid in children:
        os.waitpid(pid, 0)
    wall = time.monotonic() - started
    times = os.times()
    used = times.children_user + times.children_system
    say("cpu: 2 processes got %.3f cores (%.2f s of CPU in %.2f s)" % (used / wall, used, wall))


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
    grandchild, orphaned, becomes the relay's (PID 1) and ends too.

    Each round waits until its grandchild has ended (once the child has
    ended and been waited for, only the grandchild holds a pipe's write
    end, so the read end sees the end of the file when it ends) before the
    next round forks: so the only processes that can fill the limit are
    ended ones left unreaped, not live grandchildren still waiting for CPU
    time on a busy machine."""
    failed = 0
    for _ in range(count):
        ended, holds = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(ended)
            os.close(holds)
            failed += 1
            time.sleep(0.01)
            continue
        if pid == 0:
            os.close(ended)
            try:
                if os.fork() == 0:
                    os._exit(0)
            except OSError:
                os._exit(1)
            os._exit(0)
        os.close(holds)
        _, status = os.waitpid(pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            failed += 1
        # Bounded: a grandchild that never ends would be a fault of this
        # player, not the relay's; the zombie count below still tells.
        select.select([ended], [], [], 10)
        os.close(ended)
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
        fill("/tmp")
        fill("/dev/shm")
    elif mode == "cpu":
        burn_cpu(float(extra[0]))
        return
    elif mode == "sleep":
        while True:
            time.sleep(60)
    elif mode == "zombies":
        leave_zombies(int(extra[0]))
    elif mode == "authenticate":
        guess_passphrase(host, port, float(extra[0]))
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
