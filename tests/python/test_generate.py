"""retrograde.generate: the job runner from Python, its progress callback, and clean stops."""
import filecmp
import os
import pathlib
import shutil
import signal
import threading
import unittest

import retrograde
from tables import TempDir, tbgen

KQK = "8/8/8/4k3/8/8/8/4K2Q w - - 0 1"
KPK = "8/8/8/8/8/8/P7/K1k5 w - - 0 1"  # win 27
SET = ["KBvK", "KNvK", "KQvK", "KRvK", "KPvK"]  # KPvK and the tables of its promotions


class Generate(TempDir, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.make_dir()
        cls.reference = os.path.join(cls.dir, "tbgen")
        tbgen("KPvK", cls.reference)

    @classmethod
    def tearDownClass(cls):
        cls.remove_dir()

    def out(self, name):
        return os.path.join(self.dir, name)

    def with_subtables(self, name):
        """A directory with the sub-tables of KQvKR: a job of one table, a few seconds long."""
        out = self.out(name)
        os.makedirs(out)
        for sub in ["KQvK", "KRvK"]:
            shutil.copy(os.path.join(self.reference, sub + ".rtb"), out)
        return out

    def assert_free_and_without_kqkr(self, out):
        self.assertFalse(os.path.exists(os.path.join(out, "KQvKR.rtb")))
        again = retrograde.generate("KQvK", out)  # the job let go of the directory
        self.assertEqual((again.built, again.skipped), ([], 1))

    def test_progress_and_the_files_tbgen_writes(self):
        out = self.out("generated")
        seen = []
        result = retrograde.generate("KPvK", out, threads=2, progress=seen.append)
        self.assertEqual(sorted(result.built), sorted(SET))
        self.assertEqual(result.built[-1], "KPvK")
        self.assertEqual(result.skipped, 0)
        self.assertGreater(len(seen), 10)  # a start and a done per table, and the solver's plies
        self.assertTrue(all(isinstance(p, retrograde.Progress) for p in seen))
        self.assertTrue(seen[0].message.startswith("[1/5] "), seen[0].message)
        self.assertEqual(str(seen[0]), seen[0].message)
        self.assertEqual({p.tables for p in seen}, {5})
        self.assertEqual([p.material for p in seen if p.message.startswith(p.material + ": done")],
                         result.built)
        fractions = [p.fraction for p in seen]
        self.assertEqual(fractions, sorted(fractions))
        self.assertEqual((fractions[0], fractions[-1]), (0, 1))
        self.assertEqual((seen[-1].material, seen[-1].table), ("KPvK", 5))
        for name in SET:  # the same bytes as tbgen's
            self.assertTrue(filecmp.cmp(os.path.join(out, name + ".rtb"),
                                        os.path.join(self.reference, name + ".rtb"), shallow=False), name)
        tb = retrograde.Tablebase(out)
        self.assertEqual(str(tb.probe(KQK)), "win 13")
        self.assertEqual(str(tb.probe(KPK)), "win 27")
        self.assertEqual(tb.best_move(KPK), "a2a4")

        seen.clear()
        again = retrograde.generate("KPvK", out, progress=seen.append)
        self.assertEqual((again.built, again.skipped, seen), ([], 5, []))

    def test_list_of_materials_and_a_path(self):
        out = pathlib.Path(self.out("list"))
        result = retrograde.generate(["KQvK", "krvk"], out)
        self.assertEqual(sorted(result.built), ["KQvK", "KRvK"])
        self.assertEqual(str(retrograde.Tablebase(out).probe(KQK)), "win 13")

    def test_exception_in_the_callback_stops_the_job(self):
        out = self.with_subtables("stopped")

        class Enough(Exception):
            pass

        def progress(p):
            raise Enough(p)

        with self.assertRaises(Enough) as raised:
            retrograde.generate("KQvKR", out, threads=1, progress=progress)
        self.assertEqual((raised.exception.args[0].material, raised.exception.args[0].table), ("KQvKR", 1))
        self.assert_free_and_without_kqkr(out)

    def test_ctrl_c_stops_the_job(self):
        out = self.with_subtables("interrupted")
        started = threading.Event()
        # SIGINT from another thread once the job runs: Python's handler raises KeyboardInterrupt in
        # this thread, which waits in generate without the GIL.
        sender = threading.Thread(target=lambda: started.wait() and os.kill(os.getpid(), signal.SIGINT))
        sender.start()
        with self.assertRaises(KeyboardInterrupt):
            retrograde.generate("KQvKR", out, threads=1, progress=lambda p: started.set())
        sender.join()
        self.assert_free_and_without_kqkr(out)


if __name__ == "__main__":
    unittest.main()
