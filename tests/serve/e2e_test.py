"""tbserve end to end: the real server on a free loopback port over tables written by tbgen, checked
with real HTTP clients (Python's urllib and http.client, raw sockets, curl): answers with known
values, the same values as `tbprobe --batch`, errors, batch limits, malformed and vanishing clients,
many clients at once, and a clean stop on SIGTERM.

Usage: e2e_test.py --bin BUILD/bin --tables DIR   (DIR holds KQvK, KRvK and KQvKR)"""

import argparse
import concurrent.futures
import http.client
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.parse

from tbserve_process import TbServe

KQK = "8/8/8/4k3/8/8/8/4K2Q w - - 0 1"
ARGS = None


def preference(move):
    """How good a move is for its mover, from the answer's fields for the opponent after it."""
    if move["category"] == "loss":
        return 1000 - (1 - move["dtm"])
    if move["category"] == "win":
        return -1000 + (move["dtm"] + 1)
    return 0


def raw_exchange(port, data, read=True):
    """Sends bytes on a new connection and returns all the server sends back until it closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(data)
        if not read:
            return b""
        chunks = []
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)


def random_kqkr_fens(count, seed=14):
    rng = random.Random(seed)
    fens = []
    while len(fens) < count:
        squares = rng.sample(range(64), 4)
        board = [""] * 64
        for sq, piece in zip(squares, "KQkr"):
            board[sq] = piece
        rows = []
        for rank in range(7, -1, -1):
            row, empty = "", 0
            for file in range(8):
                c = board[rank * 8 + file]
                if not c:
                    empty += 1
                    continue
                row += (str(empty) if empty else "") + c
                empty = 0
            rows.append(row + (str(empty) if empty else ""))
        fens.append("/".join(rows) + " " + rng.choice("wb") + " - - 0 1")
    return fens


class EndToEnd(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = TbServe(ARGS.bin, ARGS.tables, threads=3).__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.server.__exit__(None, None, None)

    def test_startup_line_names_the_tables(self):
        self.assertIn(f"3 tables in {ARGS.tables}: KQvK KQvKR KRvK", self.server.startup_line)

    def test_standard_known_values_best_first(self):
        status, headers, body = self.server.get("/standard", {"fen": KQK})
        self.assertEqual(status, 200)
        self.assertEqual(headers["Access-Control-Allow-Origin"], "*")
        self.assertEqual((body["category"], body["dtm"], body["checkmate"], body["stalemate"],
                          body["insufficient_material"], body["dtz"]), ("win", 13, False, False, False, None))
        first = body["moves"][0]
        self.assertEqual((first["uci"], first["san"], first["category"], first["dtm"], first["zeroing"]),
                         ("h1c6", "Qc6", "loss", -12, False))
        prefs = [preference(m) for m in body["moves"]]
        self.assertEqual(prefs, sorted(prefs, reverse=True))
        self.assertEqual(len(body["moves"]), 21)  # 16 queen moves, 5 king moves
        _, _, same = self.server.get("/standard", {"fen": KQK.replace(" ", "_")})
        self.assertEqual(same, body)

    def test_mainline(self):
        status, _, body = self.server.get("/standard/mainline", {"fen": KQK})
        self.assertEqual(status, 200)
        line = body["mainline"]
        self.assertEqual(len(line), 13)
        self.assertEqual([s["dtm"] for s in line], [(-1) ** (i + 1) * (12 - i) for i in range(13)])
        self.assertEqual((line[0]["san"], line[-1]["san"], body["winner"], body["dtm"]), ("Qc6", "Qa4#", "w", 13))
        _, _, draw = self.server.get("/standard/mainline", {"fen": "8/8/8/8/8/8/1q6/K6k w - - 0 1"})
        self.assertEqual((draw["mainline"], draw["winner"], draw["dtm"]), ([], None, 0))

    def test_errors(self):
        status, _, body = self.server.get("/standard", {"fen": "8/8/8 w"})
        self.assertEqual(status, 400)
        self.assertTrue(body["error"].startswith("bad FEN: "), body)
        status, _, body = self.server.get("/standard", {"fen": "8/8/8/4k3/8/8/8/2BNK3 w - - 0 1"})
        self.assertEqual((status, body["error"]), (404, f"no table for KBNvK in {ARGS.tables}"))
        self.assertEqual(self.server.get("/standard")[0], 400)
        self.assertEqual(self.server.get("/syzygy")[0], 404)
        status, headers, _ = self.server.get("/standard", method="DELETE")
        self.assertEqual((status, headers["Allow"]), (405, "GET, HEAD, OPTIONS"))
        status, headers, _ = self.server.get("/standard/batch", method="OPTIONS")
        self.assertEqual((status, headers["Access-Control-Allow-Methods"]), (204, "POST, OPTIONS"))

    def test_batch(self):
        fens = [KQK, "nonsense", "8/8/8/4k3/8/8/8/2BNK3 w - - 0 1", "8/8/8/8/2r5/8/2k5/K6Q w - - 0 1"]
        status, _, body = self.server.get("/standard/batch", method="POST", body=json.dumps({"fens": fens}),
                                          headers={"Content-Type": "application/json"})
        self.assertEqual(status, 200)
        self.assertEqual(len(body), 4)
        self.assertEqual((body[0]["dtm"], body[0]["moves"][0]["uci"]), (13, "h1c6"))
        self.assertEqual(body[1]["status"], 400)
        self.assertEqual(body[2]["status"], 404)
        self.assertEqual((body[3]["category"], body[3]["dtm"]), ("win", 69))  # KQvKR's longest win
        _, _, as_array = self.server.get("/standard/batch", method="POST", body=json.dumps(fens))
        self.assertEqual(as_array, body)
        status, _, body = self.server.get("/standard/batch", method="POST", body=json.dumps([KQK] * 1001))
        self.assertEqual((status, body["error"]), (413, "too many FENs in one batch: at most 1000"))
        status, _, body = self.server.get("/standard/batch", method="POST", body="{\"fens\": 3}")
        self.assertEqual(status, 400)
        # Over the body limit: refused on the header, before the body is sent.
        reply = raw_exchange(self.server.port, b"POST /standard/batch HTTP/1.1\r\nHost: t\r\n"
                                               b"Content-Length: 5000000\r\n\r\n")
        self.assertTrue(reply.startswith(b"HTTP/1.1 413 "), reply)

    def test_same_values_as_tbprobe_batch(self):
        fens = random_kqkr_fens(400)
        probe = subprocess.run([os.path.join(ARGS.bin, "tbprobe"), "--tables", ARGS.tables, "--batch"],
                               input="\n".join(fens) + "\n", capture_output=True, text=True, check=True)
        expected = [line.split("\t") for line in probe.stdout.splitlines()]
        _, _, answers = self.server.get("/standard/batch", method="POST", body=json.dumps(fens))
        self.assertEqual(len(expected), len(fens))
        legal = 0
        for fen, fields, answer in zip(fens, expected, answers):
            self.assertEqual(fields[0], fen)
            if fields[1].startswith("error: "):
                self.assertIn("error", answer, fen)
                self.assertEqual(fields[1], "error: " + answer["error"], fen)
                continue
            legal += 1
            value = {"win": f"win {answer['dtm']}", "loss": f"loss {-answer['dtm']}",
                     "draw": "draw"}[answer["category"]]
            best = answer["moves"][0]["uci"] if answer["moves"] else "-"
            self.assertEqual(fields[1:], [value, best], fen)
        self.assertGreater(legal, 250)

    def test_many_clients_at_once(self):
        requests = [("/standard", {"fen": KQK}), ("/standard/mainline", {"fen": KQK}),
                    ("/standard", {"fen": "8/8/8/8/2r5/8/2k5/K6Q b - - 0 1"}), ("/standard", {"fen": "bad"})]
        expected = [self.server.get(path, params)[2] for path, params in requests]

        def client(seed):
            conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
            wrong = 0
            for i in range(25):  # keep-alive: every request on one connection
                k = (seed + i) % len(requests)
                path, params = requests[k]
                conn.request("GET", path + "?" + urllib.parse.urlencode(params))
                response = conn.getresponse()
                wrong += json.loads(response.read()) != expected[k]
            conn.close()
            return wrong

        with concurrent.futures.ThreadPoolExecutor(16) as pool:
            self.assertEqual(sum(pool.map(client, range(16))), 0)

    def test_malformed_vanished_and_slow_clients(self):
        port = self.server.port
        self.assertTrue(raw_exchange(port, b"BLAH\r\n\r\n").startswith(b"HTTP/1.1 400 "))
        self.assertTrue(raw_exchange(port, b"GET / HTTP/1.1\r\nX: " + b"a" * 100000 + b"\r\n\r\n")
                        .startswith(b"HTTP/1.1 431 "))
        self.assertTrue(raw_exchange(port, b"GET /standard?fen=8/8%ZZ HTTP/1.1\r\nHost: t\r\n"
                                           b"Connection: close\r\n\r\n").startswith(b"HTTP/1.1 400 "))
        raw_exchange(port, b"GET /standard?fen=8/8/8/4k3/8/8/8/4K2Q_w_-_-_0_1 HTTP/1.1\r\nHo", read=False)
        big = json.dumps([KQK] * 1000).encode()
        raw_exchange(port, b"POST /standard/batch HTTP/1.1\r\nHost: t\r\nContent-Length: %d\r\n\r\n" % len(big)
                     + big, read=False)  # gone before a 3.6 MB answer
        slow = [socket.create_connection(("127.0.0.1", port)) for _ in range(20)]
        for s in slow:
            s.sendall(b"GET / HTTP/1.1\r\n")  # and nothing more, for now
        started = time.monotonic()
        status, _, body = self.server.get("/standard", {"fen": KQK})
        self.assertEqual((status, body["dtm"]), (200, 13))
        self.assertLess(time.monotonic() - started, 5)
        for s in slow:
            s.close()

    def test_curl(self):
        curl = shutil.which("curl")
        if not curl:
            self.skipTest("curl not found (Debian package curl; scripts/setup.sh installs it)")
        out = subprocess.run([curl, "-sS", "-f", self.server.url + "standard?fen=" + KQK.replace(" ", "_")],
                             capture_output=True, text=True, check=True).stdout
        self.assertEqual(json.loads(out)["moves"][0]["uci"], "h1c6")
        # A body over 1 KiB makes curl ask "Expect: 100-continue"; the server answers at once.
        body = json.dumps({"fens": [KQK] * 40})
        started = time.monotonic()
        out = subprocess.run([curl, "-sS", "-f", "-H", "Content-Type: application/json", "--data-binary", body,
                              self.server.url + "standard/batch"], capture_output=True, text=True, check=True).stdout
        self.assertLess(time.monotonic() - started, 0.9)
        self.assertEqual(len(json.loads(out)), 40)


class CorruptedTable(unittest.TestCase):
    def test_a_corrupted_file_is_a_500_and_the_server_goes_on(self):
        with tempfile.TemporaryDirectory(prefix="retro-serve-") as tables:
            data = bytearray(open(os.path.join(ARGS.tables, "KQvK.rtb"), "rb").read())
            for i in range(len(data) - 64, len(data)):  # inside the last compressed block
                data[i] ^= 0x5A
            open(os.path.join(tables, "KQvK.rtb"), "wb").write(data)
            with TbServe(ARGS.bin, tables, threads=2) as server:
                status, _, body = server.get("/standard", {"fen": KQK})
                self.assertEqual(status, 500)
                self.assertIn("KQvK.rtb", body["error"])
                status, _, body = server.get("/standard", {"fen": "8/8/8/4k3/8/8/8/4K3 w - - 0 1"})
                self.assertEqual((status, body["category"]), (200, "draw"))


class CommandLine(unittest.TestCase):
    def test_bad_options_and_directories(self):
        tbserve = os.path.join(ARGS.bin, "tbserve")
        for args, message in [(["--tables", "/nonexistent/tables"], "cannot read the table directory"),
                              (["--tables", ARGS.tables, "--bind", "nowhere"], "not an IP address"),
                              (["--tables", ARGS.tables, "--threads", "-1"], "--threads")]:
            run = subprocess.run([tbserve, *args, "--port", "0"], capture_output=True, text=True, timeout=30)
            self.assertEqual(run.returncode, 2, args)
            self.assertIn(message, run.stderr)

    def test_sigint_stops_cleanly(self):
        with TbServe(ARGS.bin, ARGS.tables, threads=1) as server:
            self.assertEqual(server.get("/standard", {"fen": KQK})[0], 200)
            status, out, err = server.stop(signal.SIGINT)
            self.assertEqual(status, 0, err)
            self.assertIn("tbserve: stopped by Interrupt", out)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--tables", required=True)
    parser.add_argument("--out", help="unused here")
    ARGS, rest = parser.parse_known_args()
    ARGS.tables = os.path.abspath(ARGS.tables)
    unittest.main(argv=[sys.argv[0], "-v", *rest])
