"""A minimal client of Chromium's DevTools protocol with nothing but Python's
standard library: a WebSocket over a plain socket, one page driven through
it, and a headless browser started and stopped around a test.

The browser tests (page.py and the others in this folder) import it.
"""

import base64
import contextlib
import json
import os
import re
import socket
import struct
import subprocess

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--window-size=1280,860", "--remote-debugging-port=0",
]


class WebSocket:
    """A client WebSocket over a plain socket: text frames only."""

    def __init__(self, url):
        match = re.match(r"ws://([^/:]+):(\d+)(/.*)", url)
        host, port, path = match.group(1), int(match.group(2)), match.group(3)
        self.sock = socket.create_connection((host, port), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise RuntimeError("the DevTools socket closed during the handshake")
            answer += chunk
        head, self.buffer = answer.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError(f"no WebSocket: {head!r}")

    def send(self, text):
        payload = text.encode()
        header = bytes([0x81])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        elif len(payload) < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(payload))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(payload))
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def _read(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise RuntimeError("the DevTools socket closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def receive(self):
        message = b""
        while True:
            first, second = self._read(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(length)
            message += payload
            if first & 0x80:
                return message.decode()


class DevTools:
    """One page of a browser, driven through the DevTools protocol."""

    def __init__(self, socket_url):
        self.ws = WebSocket(socket_url)
        self.next_id = 0
        self.session = None

    def call(self, method, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if self.session:
            message["sessionId"] = self.session
        self.ws.send(json.dumps(message))
        while True:
            answer = json.loads(self.ws.receive())
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer["result"]

    def open(self, url):
        target = self.call("Target.createTarget", url=url)["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    def fetch_json(self, path):
        """The JSON answer to `GET path` as the page's own request gets it
        (its cookies, its origin); fails on a status other than 200."""
        result = self.call(
            "Runtime.evaluate",
            expression=f"""fetch({json.dumps(path)}).then(async (r) => {{
                const text = await r.text();
                if (r.status !== 200) throw new Error(`${{r.status}}: ${{text}}`);
                return text; }})""",
            awaitPromise=True, returnByValue=True,
        )
        if "exceptionDetails" in result:
            raise RuntimeError(f"GET {path}: {result['exceptionDetails']}")
        return json.loads(result["result"]["value"])

    def center(self, selector):
        """The middle of the first element `selector` matches, in page
        coordinates, or None if nothing matches."""
        found = self.evaluate(
            f"(() => {{ const n = document.querySelector({json.dumps(selector)});"
            " if (!n) return null; n.scrollIntoView({block: 'nearest'});"
            " const r = n.getBoundingClientRect();"
            " return [r.left + r.width / 2, r.top + r.height / 2]; })()"
        )
        return tuple(found) if found else None

    def move_mouse(self, x, y):
        """Moves the mouse to (x, y), as a person's hand would."""
        self.call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)

    def click_at(self, x, y):
        """A left click at (x, y): the mouse moves there, presses, releases."""
        self.move_mouse(x, y)
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def click(self, selector):
        """A left click in the middle of the first element `selector` matches."""
        at = self.center(selector)
        if at is None:
            raise RuntimeError(f"nothing to click: {selector}")
        self.click_at(*at)

    def press(self, key):
        """Presses and releases a letter key (`r`)."""
        code = f"Key{key.upper()}"
        virtual = ord(key.upper())
        self.call("Input.dispatchKeyEvent", type="keyDown", key=key, code=code, text=key,
                  windowsVirtualKeyCode=virtual)
        self.call("Input.dispatchKeyEvent", type="keyUp", key=key, code=code,
                  windowsVirtualKeyCode=virtual)

    def screenshot(self, path):
        """Saves what the page shows as a PNG file."""
        data = self.call("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as out:
            out.write(base64.b64decode(data))


@contextlib.contextmanager
def browser(chromium, profile):
    """A headless Chromium with its own profile folder, yielding the
    DevTools socket's URL; stopped when the block ends."""
    process = subprocess.Popen(
        [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        socket_url = None
        for line in process.stderr:
            match = re.search(r"DevTools listening on (ws://\S+)", line)
            if match:
                socket_url = match.group(1)
                break
        if not socket_url:
            raise RuntimeError("chromium did not open its DevTools socket")
        yield socket_url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
