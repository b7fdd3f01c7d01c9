"""The real tbserve for the end-to-end tests: started on a free loopback port (--port 0), its URL read
from its startup line, stopped with SIGTERM and checked to stop cleanly. Standard library only."""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

SKIP = 77  # ctest's SKIP_RETURN_CODE for these tests


def skip(reason):
    print(f"SKIPPED: {reason}")
    sys.exit(SKIP)


def require(tool, package):
    """The path of a tool the test needs, or a skip naming the Debian package (scripts/setup.sh
    installs it)."""
    path = shutil.which(tool)
    if not path:
        skip(f"{tool} not found (Debian package {package}; scripts/setup.sh installs it)")
    return path


class TbServe:
    def __init__(self, bin_dir, tables, threads=2, extra=()):
        self.args = [os.path.join(bin_dir, "tbserve"), "--tables", tables, "--port", "0",
                     "--threads", str(threads), *extra]

    def __enter__(self):
        self.result = None
        self.proc = subprocess.Popen(self.args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        match = re.search(r"listening on (http://127\.0\.0\.1:(\d+)/)", line)
        if not match:
            self.proc.kill()
            raise AssertionError(f"no startup line from tbserve: {line!r} {self.proc.stderr.read()!r}")
        self.startup_line = line.strip()
        self.url = match.group(1)
        self.port = int(match.group(2))
        return self

    def stop(self, sig=signal.SIGTERM):
        """Sends sig (once) and returns tbserve's (exit status, output, error output)."""
        if self.result is None:
            self.proc.send_signal(sig)
            out, err = self.proc.communicate(timeout=30)
            self.result = (self.proc.returncode, out, err)
        return self.result

    def __exit__(self, exc_type, *rest):
        status, out, err = self.stop()
        if exc_type is None:
            assert status == 0, f"tbserve exited with {status}: {err}"
            assert "tbserve: stopped by " in out, out
            assert err == "", err  # also: no sanitizer report
        return False

    def get(self, path, params=None, method="GET", body=None, headers=None):
        """(status, headers, parsed JSON or text) of one request."""
        url = self.url + path.lstrip("/")
        if params:
            url += "?" + urllib.parse.urlencode(params)
        data = body.encode() if isinstance(body, str) else body
        request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.headers, decode(response)
        except urllib.error.HTTPError as error:
            return error.code, error.headers, decode(error)


def decode(response):
    text = response.read().decode("utf-8")
    if response.headers.get("Content-Type", "").startswith("application/json") and text:
        return json.loads(text)
    return text
