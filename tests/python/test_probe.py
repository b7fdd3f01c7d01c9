"""retrograde.Tablebase against tables written by tbgen: values, best moves, moves, lines, and the same
answers as tbprobe --batch."""
import concurrent.futures
import unittest

import retrograde
from tables import TempDir, tbgen, tbprobe_batch

KQK = "8/8/8/4k3/8/8/8/4K2Q w - - 0 1"          # win 13, h1c6
KQK_BLACK = "8/8/8/4k3/8/8/8/4K2Q b - - 0 1"    # loss 18, e5d6
MATED = "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1"        # loss 0
STALEMATE = "k7/8/1QK5/8/8/8/8/8 b - - 0 1"     # draw, no legal move
TAKES_QUEEN = "8/8/8/8/8/8/1q6/K6k w - - 0 1"   # KvKQ, Kxb2 draws
KQKR = "8/8/8/8/3k4/8/1r6/K1Q5 w - - 0 1"
KQKR_DRAW = "k7/8/8/8/8/8/8/KQ5r b - - 0 1"     # Rxb1+ Kxb1 leaves bare kings

# The line of README.md's example.
KQK_LINE = "h1c6 e5d4 c6d6 d4c3 e1d1 c3b3 d6d4 b3a2 d1c2 a2a3 d4e4 a3a2 e4a4".split()


class Board:
    """Stands for a python-chess Board: the module only calls fen()."""

    def __init__(self, fen):
        self._fen = fen

    def fen(self):
        return self._fen


def rank(value):
    """Orders values for the side to move: quick wins first, then draws, then slow losses."""
    if value.category == "win":
        return (2, -value.dtm)
    if value.category == "draw":
        return (1, 0)
    return (0, -value.dtm)


class Probe(TempDir, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        tbgen("KQvKR", cls.make_dir())  # with its sub-tables KQvK and KRvK
        cls.tb = retrograde.Tablebase(cls.dir)

    @classmethod
    def tearDownClass(cls):
        cls.remove_dir()

    def test_win(self):
        v = self.tb.probe(KQK)
        self.assertEqual(str(v), "win 13")
        self.assertEqual(repr(v), "<retrograde.Value win 13>")
        self.assertEqual((v.category, v.dtm), ("win", 13))
        self.assertEqual(self.tb.best_move(KQK), "h1c6")

    def test_loss_has_negative_dtm(self):
        v = self.tb.probe(KQK_BLACK)
        self.assertEqual(str(v), "loss 18")
        self.assertEqual((v.category, v.dtm), ("loss", -18))
        self.assertEqual(self.tb.best_move(KQK_BLACK), "e5d6")

    def test_checkmated(self):
        v = self.tb.probe(MATED)
        self.assertEqual(str(v), "loss 0")
        self.assertEqual((v.category, v.dtm), ("loss", 0))
        self.assertIsNone(self.tb.best_move(MATED))
        self.assertEqual(self.tb.moves(MATED), [])
        self.assertEqual(self.tb.line(MATED), [])

    def test_draws(self):
        for fen, best in [(STALEMATE, None), (TAKES_QUEEN, "a1b2"), (KQKR_DRAW, "h1b1")]:
            with self.subTest(fen=fen):
                v = self.tb.probe(fen)
                self.assertEqual((str(v), v.category, v.dtm), ("draw", "draw", 0))
                self.assertEqual(self.tb.best_move(fen), best)
                self.assertEqual(self.tb.line(fen), [])
        self.assertEqual(str(self.tb.probe("8/8/8/4k3/8/8/8/4K3 w - -")), "draw")  # bare kings

    def test_values_compare(self):
        self.assertEqual(self.tb.probe(KQK), self.tb.probe(Board(KQK)))
        self.assertNotEqual(self.tb.probe(KQK), self.tb.probe(KQK_BLACK))
        self.assertEqual(len({self.tb.probe(KQK), self.tb.probe(KQK), self.tb.probe(MATED)}), 2)

    def test_same_answers_as_tbprobe_batch(self):
        fens = [KQK, KQK_BLACK, MATED, STALEMATE, TAKES_QUEEN, KQKR, KQKR_DRAW,
                "8/8/8/3k4/8/8/8/Q2K4 w - - 0 1", "4k3/8/8/8/8/8/r7/4K3 w - - 0 1",
                "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", "8/2r5/8/3k4/8/8/1Q6/1K6 b - - 0 1"]
        batch = tbprobe_batch(self.dir, fens)
        for fen in fens:
            with self.subTest(fen=fen):
                self.assertEqual((str(self.tb.probe(fen)), self.tb.best_move(fen)), batch[fen])

    def test_moves_best_first_and_complete(self):
        moves = self.tb.moves(KQK)
        # King e1: d1 d2 e2 f1 f2; queen h1: g1 f1, h2-h8, g2 f3 e4 d5 c6 b7 a8.
        self.assertEqual(len(moves), 21)
        self.assertEqual(len({m.uci for m in moves}), 21)
        self.assertIn("h1c6", {m.uci for m in moves})
        self.assertEqual(moves[0].value, self.tb.probe(KQK))
        self.assertEqual([rank(m.value) for m in moves], sorted((rank(m.value) for m in moves), reverse=True))
        by_uci = {m.uci: m for m in moves}
        self.assertEqual(by_uci["h1c6"].san, "Qc6")
        self.assertEqual(str(by_uci["h1c6"].value), "win 13")
        self.assertEqual(str(by_uci["h1c6"]), "h1c6")
        self.assertEqual(repr(by_uci["h1c6"]), "<retrograde.Move h1c6 Qc6 win 13>")
        # Queen moves next to the black king hang the queen: a draw.
        self.assertEqual(str(by_uci["h1e4"].value), "draw")
        self.assertEqual(rank(moves[-1].value), (1, 0))

    def test_moves_of_a_loss_are_all_losses(self):
        moves = self.tb.moves(KQK_BLACK)
        self.assertEqual(str(moves[0].value), "loss 18")
        self.assertTrue(all(m.value.category == "loss" for m in moves))

    def test_line_to_mate(self):
        line = self.tb.line(KQK)
        self.assertEqual([m.uci for m in line], KQK_LINE)
        self.assertEqual([str(m.value) for m in line],
                         ["%s %d" % ("win" if n % 2 else "loss", n) for n in range(13, 0, -1)])
        self.assertEqual(line[0].san, "Qc6")
        self.assertEqual(line[-1].san, "Qa4#")
        for fen in [KQK_BLACK, KQKR, "8/2r5/8/3k4/8/8/1Q6/1K6 b - - 0 1"]:
            with self.subTest(fen=fen):
                value = self.tb.probe(fen)
                line = self.tb.line(fen)
                self.assertEqual(len(line), abs(value.dtm))
                self.assertEqual(line[0].value, value)
                self.assertTrue(line[-1].san.endswith("#"), line[-1].san)
                self.assertEqual(str(line[-1].value), "win 1")

    def test_object_with_fen_method(self):
        board = Board(KQK)
        self.assertEqual(str(self.tb.probe(board)), "win 13")
        self.assertEqual(self.tb.best_move(board), "h1c6")
        self.assertEqual(len(self.tb.moves(board)), 21)
        self.assertEqual(len(self.tb.line(board)), 13)
        self.assertEqual(str(self.tb.probe(" " + KQK + "\n")), "win 13")  # as read from a file

    def test_report_as_tbprobe_prints_it(self):
        report = self.tb.report(KQK)
        self.assertIn("value:    win 13 (White mates in 7)\n", report)
        self.assertIn("best:     h1c6 (Qc6)\n", report)
        self.assertIn("  UCI:    " + " ".join(KQK_LINE) + "\n", report)
        self.assertNotIn("line:", self.tb.report(KQK, line=False))

    def test_threads_probe_the_same_values(self):
        fens = [KQK, KQK_BLACK, MATED, STALEMATE, TAKES_QUEEN, KQKR, KQKR_DRAW] * 50
        expected = [str(self.tb.probe(f)) for f in fens]
        fresh = retrograde.Tablebase(self.dir, cache_bytes=1 << 20)  # files opened by the threads
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            got = list(pool.map(lambda f: str(fresh.probe(f)), fens))
            moves = list(pool.map(lambda f: fresh.best_move(f), fens))
        self.assertEqual(got, expected)
        self.assertEqual(moves, [self.tb.best_move(f) for f in fens])


if __name__ == "__main__":
    unittest.main()
