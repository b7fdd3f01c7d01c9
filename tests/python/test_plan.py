"""retrograde.plan and generate's settings: the same plan as tbgen's for the same arguments."""
import os
import re
import subprocess
import unittest

import retrograde
from tables import TempDir, app, tbgen

# The free disk is read by each call: another process writing meanwhile may change its last digit.
FREE = re.compile(r"; [0-9.]+ [KMGT]?i?B free$")


# The projected time scales by a calibration each process measures again: its figures differ by a little.
PROJECTED = re.compile(r"^(projected time[^:]*:).*$")


def same_free(lines):
    return [PROJECTED.sub(r"\1 ...", FREE.sub("; ... free", line)) for line in lines]


def dry_run(arguments):
    """The lines `tbgen --dry-run` prints, and its exit status."""
    done = subprocess.run([app("tbgen"), "--dry-run", *arguments], text=True, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)
    return done.stderr.splitlines(), done.returncode


class Plan(TempDir, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.make_dir()
        cls.built = os.path.join(cls.dir, "built")
        tbgen("KQvK KRvK", cls.built)

    @classmethod
    def tearDownClass(cls):
        cls.remove_dir()

    def assert_same_plan(self, materials, directory, threads, memory_limit=None, cache=None):
        arguments = [*materials, "-o", directory, "-t", str(threads)]
        if memory_limit is not None:
            arguments += ["--memory-limit", str(memory_limit)]
        if cache is not None:
            arguments += ["--cache", str(cache)]
        lines, status = dry_run(arguments)
        plan = retrograde.plan(materials, directory, threads, memory_limit=memory_limit, cache=cache)
        expected = plan.lines + (["tbgen: refused: " + plan.refusal] if plan.refusal else [])
        self.assertEqual(same_free(lines), same_free(expected))
        self.assertEqual(status, 3 if plan.refusal else 0)
        return plan

    def test_a_lean_pawn_table(self):
        plan = self.assert_same_plan(["KRPvKR"], os.path.join(self.dir, "none"), 2, "8G", "20M")
        self.assertTrue(any(" in part to stay within the cache" in line for line in plan.lines), plan.lines)
        self.assertIsNone(plan.refusal)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "none")))  # planning creates nothing

    def test_complete_tables_and_no_limit(self):
        plan = self.assert_same_plan(["KQvKR"], self.built, 1, 0)
        self.assertTrue(plan.lines[0].endswith(": 2 complete (skipped), 1 to build"), plan.lines[0])
        self.assertIn("; no limit; no cache limit", plan.lines[2])

    def test_a_refusal(self):
        plan = self.assert_same_plan(["KQvKR"], self.built, 2, "1M")
        self.assertIn("more than the limit of 1.00 MiB", plan.refusal)
        self.assertIn("refused: ", str(plan))
        with self.assertRaisesRegex(retrograde.GenerationError, "refused: .* more than the limit"):
            retrograde.generate("KQvKR", self.built, memory_limit="1M")

    def test_sizes_as_numbers(self):
        by_text = retrograde.plan("KRPvKR", os.path.join(self.dir, "none"), memory_limit="8G", cache="20M")
        by_number = retrograde.plan("KRPvKR", os.path.join(self.dir, "none"), memory_limit=8 << 30,
                                    cache=20 << 20)
        self.assertEqual(same_free(by_text.lines), same_free(by_number.lines))
        with self.assertRaises(ValueError):
            retrograde.plan("KQvK", memory_limit=-1)
        with self.assertRaises(ValueError):
            retrograde.plan("KQvK", cache="lots")
        with self.assertRaises(TypeError):
            retrograde.plan("KQvK", cache=1.5)


if __name__ == "__main__":
    unittest.main()
