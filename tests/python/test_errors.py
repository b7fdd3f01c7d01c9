"""Errors through the Python module: each a retrograde.Error subclass carrying the library's message."""
import os
import shutil
import unittest

import retrograde
from tables import TempDir, tbgen

KQK = "8/8/8/4k3/8/8/8/4K2Q w - - 0 1"


class Errors(TempDir, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        tbgen("KPvK", cls.make_dir())  # with KQvK, KRvK, KBvK and KNvK for its promotions
        cls.tb = retrograde.Tablebase(cls.dir)

    @classmethod
    def tearDownClass(cls):
        cls.remove_dir()

    def subdir(self, name):
        path = os.path.join(self.dir, name)
        os.makedirs(path, exist_ok=True)
        return path

    def test_bad_fen(self):
        with self.assertRaises(retrograde.FenError) as raised:
            self.tb.probe("garbage")
        self.assertEqual(str(raised.exception), "bad FEN: a FEN has 4 or 6 fields, this one has 1")
        self.assertIsInstance(raised.exception, ValueError)
        self.assertIsInstance(raised.exception, retrograde.Error)
        for method in [self.tb.best_move, self.tb.moves, self.tb.line, self.tb.report]:
            with self.subTest(method=method.__name__):
                self.assertRaisesRegex(ValueError, "^bad FEN: castling rights",
                                       method, "8/8/8/4k3/8/8/8/4K2Q w KQ - 0 1")

    def test_not_a_position(self):
        class NoFen:
            pass

        class IntFen:
            def fen(self):
                return 42

        self.assertRaisesRegex(TypeError, "FEN string or an object with a fen\\(\\) method, not a NoFen",
                               self.tb.probe, NoFen())
        self.assertRaisesRegex(TypeError, "IntFen.fen\\(\\) returned a int", self.tb.probe, IntFen())
        self.assertRaises(TypeError, self.tb.probe, None)

    def test_missing_table(self):
        empty = self.subdir("empty")
        with self.assertRaises(retrograde.TableMissing) as raised:
            retrograde.Tablebase(empty).best_move(KQK)
        self.assertEqual(str(raised.exception), "no table for KQvK in " + empty)
        self.assertIsInstance(raised.exception, LookupError)
        self.assertIsInstance(raised.exception, retrograde.Error)

    def test_too_many_men(self):
        start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
        self.assertRaisesRegex(retrograde.TableMissing, "^the position has 32 men", self.tb.probe, start)

    def test_corrupted_file(self):
        damaged = self.subdir("damaged")
        with open(os.path.join(self.dir, "KQvK.rtb"), "rb") as f:
            head = f.read(24)
        with open(os.path.join(damaged, "KQvK.rtb"), "wb") as f:
            f.write(head)  # cut short in its header
        with self.assertRaises(retrograde.TableFileError) as raised:
            retrograde.Tablebase(damaged).probe(KQK)
        self.assertIn(os.path.join(damaged, "KQvK.rtb"), str(raised.exception))
        self.assertNotIsInstance(raised.exception, retrograde.TableMissing)

    def test_missing_subtables(self):
        alone = self.subdir("alone")
        shutil.copy(os.path.join(self.dir, "KPvK.rtb"), alone)
        tb = retrograde.Tablebase(alone)
        fen = "8/P7/8/8/8/8/8/K1k5 w - - 0 1"  # a8=Q wins, into KQvK
        # The file's values are settled by exits (format version 6): it reads through the tables of its
        # promotions, and without them it cannot be read, which is not a missing table.
        message = ("KPvK.rtb reads its values through the tables one capture or promotion away, and "
                   "KBvK, KNvK, KQvK and KRvK are missing from " + alone)
        for method in [tb.probe, tb.moves]:
            with self.subTest(method=method.__name__):
                with self.assertRaises(retrograde.TableFileError) as raised:
                    method(fen)
                self.assertIn(message, str(raised.exception))
                self.assertNotIsInstance(raised.exception, retrograde.TableMissing)
        self.assertRaisesRegex(retrograde.Error, message, tb.line, fen)

    def test_bad_generate_arguments(self):
        out = self.subdir("generated")
        self.assertRaisesRegex(retrograde.MaterialError, "^material 'KQvKX'", retrograde.generate, "KQvKX", out)
        self.assertRaises(ValueError, retrograde.generate, ["KQvK", "KQQQQQQvK"], out)
        self.assertRaisesRegex(ValueError, "threads", retrograde.generate, "KQvK", out, threads=-1)
        self.assertRaisesRegex(TypeError, "progress must be callable", retrograde.generate, "KQvK", out,
                               progress=3)
        blocked = os.path.join(self.dir, "KQvK.rtb", "below a file")
        self.assertRaisesRegex(retrograde.GenerationError, "below a file", retrograde.generate, "KQvK", blocked)
        self.assertEqual(os.listdir(out), [])


if __name__ == "__main__":
    unittest.main()
