#!/usr/bin/env python3
"""Opens a page in headless Chromium and reads it through the DevTools
protocol, with nothing but Python's standard library (a minimal WebSocket
client): waits until the live room page shows a running game, prints what
its board shows as JSON, and saves a screenshot.

    page.py CHROMIUM URL SCREENSHOT PROFILE_DIR

Prints {"turn": N, "phase": "...", "status": "...", "fields": [[C, X, Y], ...]}.
"""

import base64
import json
import os
import re
import socket
import struct
import subprocess
import sys
import time

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--window-size=1200,860", "--remote-debugging-port=0",
]

# What the page shows: the turn and phase of its board, the status line,
# and every field of every colour (the SVG's paths list their fields as
# "M x y h1v1h-1z" in field units).
READ_BOARD = r"""
(() => {
  const board = document.getElementById("board");
  if (!board || !board.dataset.turn) return null;
  const fields = [];
  for (const path of board.querySelectorAll("path[data-color]")) {
    const color = path.getAttribute("data-color")[0];
    for (const m of path.getAttribute("d").matchAll(/M(\d+) (\d+)h1v1h-1z/g)) {
      fields.push([color, Number(m[1]), Number(m[2])]);
    }
  }
  return JSON.stringify({
    turn: Number(board.dataset.turn),
    phase: board.dataset.phase,
    status: document.getElementById("status").textContent,
    fields,
  });
})()
"""


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


def main():
    chromium, url, screenshot, profile = sys.argv[1:5]
    browser = subprocess.Popen(
        [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        socket_url = None
        for line in browser.stderr:
            match = re.search(r"DevTools listening on (ws://\S+)", line)
            if match:
                socket_url = match.group(1)
                break
        if not socket_url:
            sys.exit("chromium did not open its DevTools socket")
        page = DevTools(socket_url)
        page.open(url)
        # The live page: wait for a board of a running game with some moves.
        shown = None
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            value = page.evaluate(READ_BOARD)
            if value:
                shown = json.loads(value)
                if shown["phase"] == "running" and shown["turn"] >= 4:
                    break
            time.sleep(0.1)
        if not shown:
            sys.exit("the page showed no board within 20 s")
        # The screenshot first, then the board read again: the memento
        # compared is the one on the page when it is read.
        data = page.call("Page.captureScreenshot", format="png")["data"]
        with open(screenshot, "wb") as out:
            out.write(base64.b64decode(data))
        shown = json.loads(page.evaluate(READ_BOARD))
        print(json.dumps(shown))
    finally:
        browser.terminate()
        try:
            browser.wait(timeout=10)
        except subprocess.TimeoutExpired:
            browser.kill()


if __name__ == "__main__":
    main()
