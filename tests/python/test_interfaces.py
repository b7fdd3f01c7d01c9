"""One answer, four interfaces: tbprobe --batch, the C API (libretrograde.so through ctypes), the Python
module and tbserve's HTTP batch give the same value and best move, or refuse the same positions with
the same reason, for a few thousand random KQvKR and KRPvK placements."""
import ctypes
import json
import os
import random
import subprocess
import sys
import unittest
import urllib.request

import retrograde
from tables import TempDir, app, tbgen

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "serve"))
from tbserve_process import TbServe  # noqa: E402

PER_MATERIAL = 2000
PIECE_LETTERS = {"K": "k", "Q": "q", "R": "r", "B": "b", "N": "n", "P": "p"}


def random_fen(rng, material):
    """A random placement of material ("KQvKR"), colours swapped half the time, either side to
    move. Men never share a square and pawns stand on ranks 2-7; the rest (kings side by side, the
    side not to move in check) is left to chance, so some positions are illegal."""
    white, black = material.split("v")
    if rng.random() < 0.5:
        white, black = black, white
    board = [None] * 64
    for men, upper in ((white, True), (black, False)):
        for man in men:
            while True:
                square = rng.randrange(64)
                if board[square] is None and not (man == "P" and square // 8 in (0, 7)):
                    break
            board[square] = man if upper else PIECE_LETTERS[man]
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            man = board[rank * 8 + file]
            if man is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + man
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" w" if rng.random() < 0.5 else " b") + " - - 0 1"


def value_text(dtm):
    """tbprobe's words for a distance in plies for the side to move."""
    if dtm == 0xFFFF:
        return "draw"
    return ("win " if dtm % 2 else "loss ") + str(dtm)


class RetroValue(ctypes.Structure):
    _fields_ = [("dtm", ctypes.c_uint), ("wdl", ctypes.c_int)]


class RetroMove(ctypes.Structure):
    _fields_ = [("from_", ctypes.c_int), ("to", ctypes.c_int), ("promotion", ctypes.c_char),
                ("uci", ctypes.c_char * 6), ("value", RetroValue)]


RETRO_ERR_BAD_FEN = 3
RETRO_ERR_NO_MOVE = 8


class CApi:
    def __init__(self, library, directory):
        self.lib = ctypes.CDLL(library)
        self.lib.retro_last_error.restype = ctypes.c_char_p
        self.handle = ctypes.c_void_p()
        status = self.lib.retro_open(directory.encode(), ctypes.c_size_t(0), ctypes.byref(self.handle))
        assert status == 0, self.lib.retro_last_error()

    def answer(self, fen):
        value, move = RetroValue(), RetroMove()
        status = self.lib.retro_probe_fen(self.handle, fen.encode(), ctypes.byref(value))
        if status != 0:
            return ("error", status == RETRO_ERR_BAD_FEN, self.lib.retro_last_error().decode())
        status = self.lib.retro_best_move_fen(self.handle, fen.encode(), ctypes.byref(move))
        assert status in (0, RETRO_ERR_NO_MOVE), self.lib.retro_last_error()
        return (value_text(value.dtm), move.uci.decode() if status == 0 else "-")

    def close(self):
        self.lib.retro_close(self.handle)


def batch_answers(directory, fens):
    """tbprobe --batch: {fen: answer}, an error as ("error", bad FEN?, reason)."""
    out = subprocess.run([app("tbprobe"), "--tables", directory, "--batch"], check=True, text=True,
                         input="\n".join(fens) + "\n", stdout=subprocess.PIPE).stdout
    answers = {}
    for line in out.splitlines():
        fields = line.split("\t")
        if fields[1].startswith("error: "):
            reason = fields[1][len("error: "):]
            answers[fields[0]] = ("error", reason.startswith("bad FEN"), reason)
        else:
            answers[fields[0]] = (fields[1], fields[2])
    return answers


def module_answer(tb, fen):
    try:
        value = tb.probe(fen)
    except retrograde.Error as e:
        return ("error", isinstance(e, retrograde.FenError), str(e))
    best = tb.best_move(fen)
    return (str(value), best or "-")


def http_answers(url, fens):
    """tbserve's POST /standard/batch, a thousand FENs a request."""
    answers = []
    for start in range(0, len(fens), 1000):
        body = json.dumps(fens[start:start + 1000]).encode()
        request = urllib.request.Request(url + "standard/batch", data=body, method="POST")
        with urllib.request.urlopen(request, timeout=120) as reply:
            answers += json.loads(reply.read())
    out = []
    for a in answers:
        if "error" in a:
            out.append(("error", a["status"] == 400, a["error"]))
            continue
        best = a["moves"][0]["uci"] if a["moves"] else "-"
        if a["category"] == "draw":
            out.append(("draw", best))
        else:
            out.append((("win " if a["dtm"] > 0 else "loss ") + str(abs(a["dtm"])), best))
    return out


class Interfaces(TempDir, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.make_dir()
        tbgen("KQvKR KRPvK", cls.dir)
        rng = random.Random(20261123)
        cls.fens = [random_fen(rng, m) for m in ("KQvKR", "KRPvK") for _ in range(PER_MATERIAL)]

    @classmethod
    def tearDownClass(cls):
        cls.remove_dir()

    def test_every_interface_gives_tbprobes_answers(self):
        expected = batch_answers(self.dir, self.fens)
        self.assertEqual(len(expected), len(set(self.fens)))
        legal = sum(1 for a in expected.values() if a[0] != "error")
        self.assertGreater(legal, len(self.fens) // 2, "most random placements are legal")
        self.assertGreater(len(self.fens) - legal, 100, "and some are refused")
        self.assertTrue(any(a[0].startswith("win") for a in expected.values()))
        self.assertTrue(any(a[0].startswith("loss") for a in expected.values()))
        self.assertTrue(any(a[0] == "draw" for a in expected.values()))

        capi = CApi(os.environ["RETRO_CAPI_LIBRARY"], self.dir)
        tb = retrograde.Tablebase(self.dir)
        with TbServe(os.environ["RETRO_BIN_DIR"], self.dir) as server:
            http = http_answers(server.url, self.fens)
        for fen, over_http in zip(self.fens, http):
            want = expected[fen]
            for name, got in (("C API", capi.answer(fen)), ("Python", module_answer(tb, fen)),
                              ("HTTP", over_http)):
                if want[0] == "error":
                    # The same kind of refusal; the words may carry an interface's prefix.
                    self.assertEqual(got[:2], want[:2], f"{name}: {fen}: {got[2]!r} for {want[2]!r}")
                    self.assertIn(want[2].removeprefix("bad FEN: "), got[2], f"{name}: {fen}")
                else:
                    self.assertEqual(got, want, f"{name}: {fen}")
        capi.close()


if __name__ == "__main__":
    unittest.main()
