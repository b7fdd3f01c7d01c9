"""The page at "/" in a real browser: headless Chromium, driven through chromedriver's WebDriver
protocol with Python's standard library (urllib + json), loads the page from a running tbserve,
types a FEN, checks that the moves and their distances appear best first, plays a move by clicking
it in the list and another by clicking the board, and keeps a screenshot (serve_page.png in --out).

Usage: browser_test.py --bin BUILD/bin --tables DIR [--out DIR]"""

import argparse
import base64
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from tbserve_process import TbServe, require

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # the W3C WebDriver key of an element reference
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1100,800"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriver:
    """Just enough of the WebDriver protocol: a session, navigation, elements, scripts, screenshots."""

    def __init__(self, chromedriver, chromium, profile):
        self.port = free_port()
        self.proc = subprocess.Popen([chromedriver, f"--port={self.port}"], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 20
        while True:
            try:
                if self.call("GET", "/status")["ready"]:
                    break
            except (urllib.error.URLError, ConnectionError):
                pass
            if time.monotonic() > deadline:
                raise AssertionError("chromedriver did not start")
            time.sleep(0.1)
        options = {"binary": chromium, "args": CHROMIUM_ARGS + [f"--user-data-dir={profile}"]}
        session = self.call("POST", "/session",
                            {"capabilities": {"alwaysMatch": {"goog:chromeOptions": options}}})
        self.session = f"/session/{session['sessionId']}"

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return json.loads(response.read())["value"]
        except urllib.error.HTTPError as error:
            raise AssertionError(f"WebDriver {method} {path}: {error.read().decode()}") from None

    def command(self, method, path, body=None):
        return self.call(method, self.session + path, body)

    def element(self, css):
        return self.command("POST", "/element", {"using": "css selector", "value": css})[ELEMENT]

    def click(self, css):
        self.command("POST", f"/element/{self.element(css)}/click", {})

    def type_into(self, css, text):
        element = self.element(css)
        self.command("POST", f"/element/{element}/clear", {})
        self.command("POST", f"/element/{element}/value", {"text": text})

    def script(self, source):
        return self.command("POST", "/execute/sync", {"script": source, "args": []})

    def wait_for(self, source, what, timeout=20):
        """Polls a script until it returns something true; fails naming what it waited for."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            result = self.script(source)
            if result:
                return result
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {what}; page says: "
                             + str(self.script("return document.body.innerText")))

    def close(self):
        try:
            self.call("DELETE", self.session)
        finally:
            self.proc.terminate()
            self.proc.wait(timeout=30)


ROWS = """return Array.from(document.querySelectorAll('#moves tbody tr')).map(r => ({
  uci: r.dataset.uci, dtm: Number(r.dataset.dtm), category: r.dataset.category,
  san: r.cells[0].textContent, result: r.cells[1].textContent, plies: r.cells[2].textContent}));"""
BOARD = """return Object.fromEntries(Array.from(document.querySelectorAll('#board .sq'))
  .map(s => [s.dataset.square, s.dataset.piece]));"""


def rows_after(driver, fen, first_uci):
    """The move rows once the page shows fen and its answer (whose first move is first_uci)."""
    driver.wait_for(f"""const r = document.querySelector('#moves tbody tr');
        return document.getElementById('fen').value === {json.dumps(fen)} && r && r.dataset.uci === {json.dumps(first_uci)};""",
                    f"the moves of {fen}")
    return driver.script(ROWS)


def mover_preference(row):
    if row["category"] == "loss":
        return 1000 + row["dtm"]  # a quicker mate (dtm closer to 0) is better
    if row["category"] == "win":
        return -1000 + row["dtm"]  # a longer resistance is better
    return 0


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--tables", required=True)
    parser.add_argument("--out", default=".")
    args = parser.parse_args()
    chromium = require("chromium", "chromium")
    chromedriver = require("chromedriver", "chromium-driver")
    with TbServe(args.bin, os.path.abspath(args.tables)) as server, \
            tempfile.TemporaryDirectory(prefix="retro-chromium-") as profile:
        driver = WebDriver(chromedriver, chromium, profile)
        try:
            driver.command("POST", "/url", {"url": server.url})
            check(driver.script("return document.title").startswith("retrograde"), "not the page")

            # A FEN typed in: KQvKR's longest win.
            long_win = "8/8/8/8/2r5/8/2k5/K6Q w - - 0 1"
            driver.type_into("#fen", long_win)
            driver.click("#probe")
            rows = rows_after(driver, long_win, "h1a8")
            value = driver.script("return document.getElementById('value').textContent")
            check(value == "White to move wins: mate in 35 (69 plies)", value)
            check(rows[0]["dtm"] == -68 and rows[0]["plies"] == "69", rows[0])

            # KQvK: every move with its distance, best first.
            kqk = "8/8/8/4k3/8/8/8/4K2Q w - - 0 1"
            driver.type_into("#fen", kqk)
            driver.click("#probe")
            rows = rows_after(driver, kqk, "h1c6")
            check(len(rows) == 21, f"{len(rows)} moves")
            check(rows[0] == {"uci": "h1c6", "dtm": -12, "category": "loss", "san": "Qc6", "result": "Win",
                              "plies": "13"}, rows[0])
            preferences = [mover_preference(r) for r in rows]
            check(preferences == sorted(preferences, reverse=True), f"not best first: {rows}")
            check(any(r["result"] == "Draw" for r in rows), "no draw (a queen move that hangs her)")

            # Click the best move in the list: the board and the list follow.
            driver.click("#moves tbody tr:first-child")
            after_qc6 = "8/8/2Q5/4k3/8/8/8/4K3 b - - 1 1"
            rows = rows_after(driver, after_qc6, "e5d4")
            board = driver.script(BOARD)
            check(board["c6"] == "Q" and board["h1"] == "" and board["e5"] == "k", board)
            check(rows[0]["category"] == "win" and rows[0]["dtm"] == 11 and rows[0]["result"] == "Loss", rows[0])
            value = driver.script("return document.getElementById('value').textContent")
            check(value == "Black to move loses: mated in 6 (12 plies)", value)

            # Click the black king, then d4 on the board.
            driver.click('#board [data-square="e5"]')
            targets = driver.script("return Array.from(document.querySelectorAll('#board .target'))"
                                    ".map(s => s.dataset.square).sort()")
            check(targets == sorted(r["uci"][2:4] for r in rows), targets)
            driver.click('#board [data-square="d4"]')
            rows = rows_after(driver, "8/8/2Q5/8/3k4/8/8/4K3 w - - 2 2", "c6d6")
            check(rows[0]["dtm"] == -10, rows[0])
            check(driver.script(BOARD)["d4"] == "k", "the king did not move")

            # Back, twice: the position before the clicks.
            driver.click("#back")
            rows_after(driver, after_qc6, "e5d4")
            driver.click("#back")
            rows_after(driver, kqk, "h1c6")
            driver.click("#show-line")
            line = driver.wait_for("return document.getElementById('line').textContent.includes('#') && "
                                   "document.getElementById('line').textContent", "the line")
            check(line.startswith("Qc6 Kd4 Qd6+") and line.endswith("Qa4#  (White wins)"), line)

            png = base64.b64decode(driver.command("GET", "/screenshot"))
            path = os.path.join(args.out, "serve_page.png")
            with open(path, "wb") as f:
                f.write(png)
            print(f"browser test passed; screenshot in {path}")
        finally:
            driver.close()


if __name__ == "__main__":
    sys.exit(main())
