"""The one client of scripts/fake_gemini.py for the Python checks and benchmarks.

    from fake_gemini_client import FakeGemini

    with FakeGemini(key="test-key") as server:          # or server = FakeGemini(); server.stop()
        server.script({"kind": "generate", "text": "hi"})  # queue replies (reset first)
        env = dict(os.environ, **server.environment())  # SOPHON_GEMINI_BASE_URL, GEMINI_API_KEY
        ...
        server.requests()                               # the request log, oldest first

`FakeGemini` starts the server in a child process on a free port (it prints the port as its
first line) with `--exit-on-stdin-eof`, so the server also ends when the script dies; `stop()`
kills it. Every control endpoint the scripts use (`/_sophon/...`, documented at the top of
scripts/fake_gemini.py) has a method here. Standard library only.
"""

import json
import os
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
CONTROL_TIMEOUT = 30  # seconds: a control call answers at once; this only catches a hang


class FakeGemini:
    """scripts/fake_gemini.py on a free port of 127.0.0.1, in a child process."""

    def __init__(self, key="test-key", options=(), stderr=subprocess.DEVNULL):
        """Starts the server and waits for its port. `key`: the API key it accepts; `options`:
        more command-line flags (e.g. `("--rpm", "600")`); `stderr`: where its stderr goes."""
        self.key = key
        self.process = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "fake_gemini.py"), "--port", "0", "--key", key,
             "--exit-on-stdin-eof", *options],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, text=True)
        line = self.process.stdout.readline()
        if not line.strip().isdigit():
            self.process.kill()
            raise RuntimeError("fake_gemini.py did not start: first line %r" % line)
        self.port = int(line)
        self.url = "http://127.0.0.1:%d" % self.port

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.stop()

    def environment(self, key=None):
        """The variables that point `sophon` at this server: SOPHON_GEMINI_BASE_URL and
        GEMINI_API_KEY (`key`, default the key the server accepts)."""
        return {"SOPHON_GEMINI_BASE_URL": self.url, "GEMINI_API_KEY": key or self.key}

    def control(self, method, path, body=None):
        """One call of a control endpoint (`path` such as "/_sophon/requests"); `body` is sent
        as JSON. Returns the parsed JSON answer (None for an empty one)."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method)
        with urllib.request.urlopen(request, timeout=CONTROL_TIMEOUT) as response:
            return json.loads(response.read() or b"null")

    def post(self, path, body):
        """POST `body` as JSON to the control endpoint `path`; returns the parsed answer."""
        return self.control("POST", path, body)

    def get(self, path):
        """GET the control endpoint `path`; returns the parsed answer."""
        return self.control("GET", path)

    def script(self, *replies, reset=True):
        """Queues `replies` (fake_gemini.py's reply objects), after clearing the queue and the
        request log when `reset`."""
        self.post("/_sophon/script", {"reset": reset, "replies": list(replies)})

    def reset(self):
        """Clears the queue, the request log, rules, limits, files and batches."""
        self.post("/_sophon/reset", {})

    def requests(self):
        """The request log: a list of {method, path, headers, body}, oldest first."""
        return self.get("/_sophon/requests")

    def stats(self):
        """{"admitted": N, "rateLimited": N} of generateContent calls under --rpm/--tpm."""
        return self.get("/_sophon/stats")

    def uploads(self):
        """The upload sessions: [{uploadId, size, received, bytesSeen, sha256, file}]."""
        return self.get("/_sophon/uploads")

    def wait_for(self, condition, what, timeout=CONTROL_TIMEOUT):
        """Waits until `condition(self.requests())` holds; raises AssertionError naming `what`
        and the request log after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            seen = self.requests()
            if condition(seen):
                return seen
            if time.monotonic() > deadline:
                raise AssertionError("the server never saw %s: %r" % (what, seen))
            time.sleep(0.05)

    def stop(self):
        """Ends the server (idempotent)."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream:
                stream.close()


def rsa_key_pair(folder, name="key"):
    """A new 2048-bit RSA key made by the system `openssl` in FOLDER: returns (the private key
    PEM, the public key PEM). The service-account files of the Vertex AI checks hold it; the
    fake server checks their JWTs with the public half. The PEM files are removed."""
    key, pub = os.path.join(folder, name + ".pem"), os.path.join(folder, name + "-pub.pem")
    subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key],
                   check=True, capture_output=True)
    subprocess.run(["openssl", "pkey", "-in", key, "-pubout", "-out", pub], check=True, capture_output=True)
    with open(key, encoding="utf-8") as handle:
        private = handle.read()
    with open(pub, encoding="utf-8") as handle:
        public = handle.read()
    os.remove(key)
    os.remove(pub)
    return private, public
