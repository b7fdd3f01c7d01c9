"""Helpers of the Python tests: tables written by the tbgen of the build tree, temporary directories."""
import os
import shutil
import subprocess
import tempfile

BIN = os.environ.get("RETRO_BIN_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "build", "bin"))


def app(name):
    return os.path.join(BIN, name)


def tbgen(materials, directory):
    """Builds `materials` (and what they need) into `directory` with tbgen."""
    subprocess.run([app("tbgen"), *materials.split(), "-q", "-o", directory], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def tbprobe_batch(directory, fens):
    """tbprobe --batch over `fens`: {fen: (value, best move)}."""
    out = subprocess.run([app("tbprobe"), "--tables", directory, "--batch"], check=True, text=True,
                         input="\n".join(fens) + "\n", stdout=subprocess.PIPE).stdout
    answers = {}
    for line in out.splitlines():
        fen, value, best = line.split("\t")
        answers[fen] = (value, None if best == "-" else best)
    return answers


class TempDir:
    """A temporary directory for one test class: setUpClass creates it, tearDownClass removes it."""

    @classmethod
    def make_dir(cls):
        cls.dir = tempfile.mkdtemp(prefix="retro_python_")
        return cls.dir

    @classmethod
    def remove_dir(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)
