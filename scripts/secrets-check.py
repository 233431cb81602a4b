#!/usr/bin/env python3
"""Secrets never leak: run the real `sophon` with a sentinel key and search everything it wrote.

Usage: scripts/secrets-check.py [BINARY]   (default: $SOPHON_BINARY, else .build/debug/sophon)

Runs, each with `--verbose` and a fresh SOPHON_HOME:
  - the examples offline (`--replay examples/tour.tape examples/tour.sophon`, and regression);
  - live against scripts/fake_gemini.py with the sentinel key: `key set` from stdin, then a
    script that asks through every fault of the server's catalogue (streamed and not), counts
    tokens, lists models, saves the session, with `--record` (also `--json`);
  - a wrong sentinel key, which the server echoes back in its error (as Google's does);
  - the sentinel key with a copied `”` at its end: refused, no request sent;
  - the REPL in a pseudo-terminal: `key set` typed at its no-echo prompt, then commands (history);
  - Vertex AI with a service-account key and with an authorized_user file (sentinel refresh token
    and client secret), recording a tape, through faults and a token revoked mid-run: the
    private key, the refresh token, the client secret and every access token the server issued
    (read from its request log afterwards) are sentinels too.
Then searches every file under the run folders (SOPHON_HOME, tapes, saved scripts, history;
keys.json, the store itself, excepted), every stdout and stderr and the terminal transcript for
the sentinels: zero hits allowed (logs.db too, raw and as rows). Also: keys.json is 0600; a 0644
one is refused with a message naming the mode and the fix; the key typed at `key set` is not echoed.
Exits 0 when every check passed, 1 otherwise.
"""

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

import pexpect

from fake_gemini_client import FakeGemini, rsa_key_pair
from pty_harness import end_with_ctrl_d, spawn

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
BINARY = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.environ.get(
    "SOPHON_BINARY", os.path.join(ROOT, ".build", "debug", "sophon"))
SENTINEL = "AIzaSySENTINEL0123456789abcdef"
WRONG = "AIzaSyWRONGSENTINEL9876543210zyx"
# A leak of any long part of either key counts (the masked form shows the last 4 only).
NEEDLES = [SENTINEL, WRONG, "SENTINEL0123456789", "WRONGSENTINEL98765"]
TIMEOUT = 60
FAILURES = []
OUTPUTS = []  # (label, bytes) of every stdout, stderr and transcript


def fail(message):
    FAILURES.append(message)
    print(f"  FAIL {message}", flush=True)


def env_for(home, **extra):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "SOPHON_HOME": home,
           "LANG": "C.UTF-8", "TERM": "dumb"}
    env.update(extra)
    return {k: v for k, v in env.items() if v is not None}


def run(label, args, home, cwd=None, stdin=None, **extra):
    result = subprocess.run([BINARY] + args, env=env_for(home, **extra), cwd=cwd or home,
                            input=stdin, capture_output=True, timeout=TIMEOUT)
    OUTPUTS.append((f"{label} stdout", result.stdout))
    OUTPUTS.append((f"{label} stderr", result.stderr))
    return result


FAULTS = [
    {"kind": "generate", "text": "plain answer"},
    {"fault": "rate_limit", "retryDelay": "0.01s"}, {"fault": "quota_per_day"},
    {"fault": "retry_after", "retryAfter": "0"}, {"fault": "internal"}, {"fault": "overloaded"},
    {"fault": "gateway_timeout"}, {"fault": "not_found"},
    {"fault": "bad_request", "violations": [{"field": "contents", "description": "bad"}]},
    {"fault": "reset"}, {"fault": "stall", "seconds": 0.05}, {"fault": "truncated"},
    {"fault": "html_502"}, {"fault": "wrapped_error", "status": 503},
    {"fault": "stream_error_after", "text": "part"}, {"fault": "stream_cut", "text": "part"},
    {"kind": "raw", "status": 200, "contentType": "application/json", "text": "{not json"},
    {"kind": "json", "status": 500, "body": {"odd": True}},
    {"kind": "sse", "events": [{"raw": "not json"}]},
]


def live_script():
    lines = ["retry-policy attempts=1", "set timeout 5s"]
    for index, _ in enumerate(FAULTS):
        lines.append(f"set stream {'on' if index % 2 else 'off'}")
        lines.append(f"ask fault number {index}")
    lines += ["tokens how many tokens", "models --live", "key show",
              "schema { name: string }", "ask a structured one", "save saved.sophon"]
    return "\n".join(lines) + "\n"


def check_examples(root):
    for name in ["tour", "regression"]:
        home = os.path.join(root, f"example-{name}")
        os.makedirs(home)
        result = run(f"replay {name}", ["-X", "--verbose", "--replay",
                                        os.path.join(ROOT, "examples", f"{name}.tape"),
                                        os.path.join(ROOT, "examples", f"{name}.sophon")],
                     home, GEMINI_API_KEY=SENTINEL)
        if result.returncode != 0:
            fail(f"the {name} example does not replay: {result.stderr[-300:]!r}")


def check_live(root, server):
    home = os.path.join(root, "live")
    os.makedirs(home)
    key_set = run("key set", ["-X", "--verbose"], home, stdin=f"key set\n{SENTINEL}\n".encode())
    if key_set.returncode != 0:
        fail(f"key set failed: {key_set.stderr!r}")
    keys = os.path.join(home, "keys.json")
    mode = stat.S_IMODE(os.stat(keys).st_mode)
    if mode != 0o600:
        fail(f"keys.json has mode {mode:o}, not 600")
    with open(os.path.join(home, "faults.sophon"), "w") as f:
        f.write(live_script())
    url = {"SOPHON_GEMINI_BASE_URL": server.url}
    for flags in (["--verbose"], ["--verbose", "--json"]):
        server.post("/_sophon/script", {"replies": FAULTS, "reset": True})
        tape = os.path.join(home, f"faults{len(flags)}.tape")
        result = run(f"faults {flags}", ["-X", *flags, "--record", tape, "faults.sophon"], home,
                     **url)
        if result.returncode == 0:
            fail("the fault script passed, so the faults did not happen")
        if b"fault number" not in open(tape, "rb").read():
            fail(f"the tape {tape} recorded no asks")
    if not os.path.exists(os.path.join(home, "saved.sophon")):
        fail("save wrote no file")
    check_log(home)
    # The key from the environment as well (it outranks the store).
    server.post("/_sophon/script", {"replies": FAULTS[:4], "reset": True})
    run("env key", ["-X", "--verbose", "-c", "retry-policy attempts=2 base=10ms",
                    "-c", "ask from the environment"], home, GEMINI_API_KEY=SENTINEL, **url)
    # A wrong key: the server echoes it in its error details.
    wrong = os.path.join(root, "wrong")
    os.makedirs(wrong)
    result = run("wrong key", ["-X", "--verbose", "--record", os.path.join(wrong, "w.tape"),
                               "-c", "ask hello", "-c", "save w.sophon"], wrong,
                 GEMINI_API_KEY=WRONG, **url)
    if result.returncode == 0 or not result.stderr:
        fail("a wrong key was not reported")
    # The check means something only if the server really echoes the wrong key.
    request = urllib.request.Request(
        server.url + "/v1beta/models/gemini-3.8-flash:generateContent", method="POST",
        data=b'{"contents": []}', headers={"x-goog-api-key": WRONG})
    try:
        urllib.request.urlopen(request, timeout=30)
        fail("the server accepted the wrong key")
    except urllib.error.HTTPError as error:
        if WRONG.encode() not in error.read():
            fail("the server does not echo a wrong key, so that check proves nothing")


def check_log(home):
    """logs.db (searched with the rest, WAL and all) must hold the asks, or its check proves
    nothing; its rows are also searched as SQLite reads them."""
    import sqlite3
    path = os.path.join(home, "logs.db")
    if not os.path.exists(path):
        fail("the live run wrote no logs.db")
        return
    connection = sqlite3.connect(path)
    rows = connection.execute("SELECT * FROM exchanges").fetchall()
    connection.close()
    if not any("fault number" in str(row) for row in rows):
        fail("logs.db holds no ask of the fault script")
    text = repr(rows).encode()
    OUTPUTS.append(("logs.db rows", text))


def check_non_ascii_key(root, server):
    """A key with a copied typographic quote is refused before sending: no request, no echo."""
    home = os.path.join(root, "quote")
    os.makedirs(home)
    server.post("/_sophon/reset", {})
    result = run("quoted key", ["-X", "--verbose", "--record", os.path.join(home, "q.tape"), "-c", "ask hello"],
                 home, GEMINI_API_KEY=SENTINEL + "\u201d", SOPHON_GEMINI_BASE_URL=server.url)
    if result.returncode != 1 or b"not printable ASCII at position 31 (U+201D)" not in result.stderr:
        fail(f"a key with a non-ASCII character was not refused: {result.stderr!r}")
    seen = server.requests()
    if seen:
        fail(f"a key with a non-ASCII character was sent: {len(seen)} requests")


def check_permissions(root):
    home = os.path.join(root, "perms")
    os.makedirs(home)
    keys = os.path.join(home, "keys.json")
    with open(keys, "w") as f:
        json.dump({"gemini": SENTINEL}, f)
    os.chmod(keys, 0o644)
    for label, args in [("key show 0644", ["-c", "key show"]), ("ask 0644", ["-c", "ask hi"])]:
        result = run(label, ["-X", *args], home)
        message = result.stderr.decode("utf-8", "replace")
        if result.returncode == 0 or "0644" not in message or "chmod 600" not in message:
            fail(f"{label}: a 0644 keys.json was not refused clearly: {message!r}")
    os.chmod(keys, 0o600)
    result = run("key show 0600", ["-X", "-c", "key show"], home)
    if result.returncode != 0:
        fail(f"a 0600 keys.json is refused: {result.stderr!r}")


def check_repl(root, server):
    home = os.path.join(root, "repl")
    os.makedirs(home)
    server.post("/_sophon/script", {"replies": FAULTS, "reset": True})
    child = spawn(BINARY, home, ["-X", "--verbose"], cwd=home, timeout=TIMEOUT, encoding=None,
                  SOPHON_GEMINI_BASE_URL=server.url)
    transcript = []
    child.logfile_read = _Collect(transcript)
    try:
        child.expect_exact("sophon> ")
        child.send("key set\r")
        child.expect(r"(?i)key")  # the no-echo prompt
        child.waitnoecho()  # a key typed before echo is off would be echoed by the terminal
        child.send(SENTINEL + "\r")
        child.expect_exact("sophon> ")
        for line in ["retry-policy attempts=1", "ask first", "ask second", "key show",
                     "echo done"]:
            child.send(line + "\r")
            child.expect_exact("sophon> ")
        end_with_ctrl_d(child)
    except pexpect.ExceptionPexpect as error:
        fail(f"the REPL session failed: {type(error).__name__}")
    child.close(force=True)
    output = b"".join(transcript)
    OUTPUTS.append(("REPL transcript", output))
    if SENTINEL.encode() in output:
        fail("the key typed at `key set` was echoed")
    if not os.path.exists(os.path.join(home, "history")):
        fail("the REPL wrote no history")
    elif b"key\\040set" not in open(os.path.join(home, "history"), "rb").read():
        fail("history lacks `key set` (so the check of it proves little)")


class _Collect:
    def __init__(self, parts):
        self.parts = parts

    def write(self, data):
        self.parts.append(data if isinstance(data, bytes) else data.encode())

    def flush(self):
        pass


REFRESH_SENTINEL = "1//REFRESHSENTINEL0123456789abcdef"
CLIENT_SECRET_SENTINEL = "GOCSPX-CLIENTSECRETSENTINEL0123"


def check_vertex(root, server):
    """Vertex AI runs; adds the private key's lines and the access tokens issued to NEEDLES."""
    home = os.path.join(root, "vertex")
    os.makedirs(home)
    # Only the credentials file holds the key from here on (excepted from the search).
    private, public = rsa_key_pair(root, "vertex-key")
    NEEDLES.extend(line for line in private.splitlines() if len(line) > 40)
    NEEDLES.extend([REFRESH_SENTINEL, CLIENT_SECRET_SENTINEL])
    credentials = os.path.join(root, "vertex-sa.json")
    with open(credentials, "w", encoding="utf-8") as handle:
        json.dump({"type": "service_account", "project_id": "proj-s", "private_key_id": "k1", "private_key": private,
                   "client_email": "sa@proj-s.iam.gserviceaccount.com",
                   "token_uri": "https://oauth2.googleapis.com/token"}, handle)
    user = os.path.join(root, "vertex-user.json")
    with open(user, "w", encoding="utf-8") as handle:
        json.dump({"type": "authorized_user", "client_id": "c1", "client_secret": CLIENT_SECRET_SENTINEL,
                   "refresh_token": REFRESH_SENTINEL}, handle)
    server.post("/_sophon/vertex", {"publicKey": public, "audience": "https://oauth2.googleapis.com/token",
                                    "clientId": "c1", "clientSecret": CLIENT_SECRET_SENTINEL,
                                    "refreshToken": REFRESH_SENTINEL})
    vertex = {"GOOGLE_GENAI_USE_VERTEXAI": "true", "GOOGLE_CLOUD_PROJECT": "proj-s"}
    script = "ask hello\nset stream off\nask again\nset service-tier flex\nask --model gemini-2.5-flash flex\n"
    for label, path in (("vertex service account", credentials), ("vertex authorized user", user)):
        server.script({"fault": "overloaded"}, {"kind": "generate", "text": "ok"},
                      {"fault": "bad_request", "violations": [{"field": "contents", "description": "bad"}]})
        run(label, ["--verbose", "--record", "vertex.tape", "-c", script], home,
            GOOGLE_APPLICATION_CREDENTIALS=path, **vertex, **server.environment(SENTINEL))
        # A token revoked between two calls of one run: refreshed once, still never shown.
        server.post("/_sophon/vertex", {"revokeAfter": 1})
        run(label + " revoked", ["--verbose", "-c", "ask one\nask two"], home, GOOGLE_APPLICATION_CREDENTIALS=path,
            **vertex, **server.environment(SENTINEL))
        for request in server.get("/_sophon/requests"):
            bearer = request.get("headers", {}).get("authorization", "")
            if bearer.startswith("Bearer ") and bearer[7:] not in NEEDLES:
                NEEDLES.append(bearer[7:])
    if not any(needle.startswith("ya29.") for needle in NEEDLES):
        fail("vertex: the server issued no access token (the runs did not reach Vertex AI)")


def search(root):
    files = 0
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            if name == "keys.json" or name.startswith("vertex-") and name.endswith(".json"):
                continue  # the key store itself (0600, checked above); the Vertex credentials files
            files += 1
            with open(path, "rb") as f:
                data = f.read()
            for needle in NEEDLES:
                if needle.encode() in data:
                    fail(f"{os.path.relpath(path, root)} holds {needle!r}")
    for label, data in OUTPUTS:
        for needle in NEEDLES:
            if needle.encode() in data:
                fail(f"{label} holds {needle!r}")
    return files


def main():
    root = tempfile.mkdtemp(prefix="sophon-secrets-")
    server = FakeGemini(SENTINEL)
    try:
        check_examples(root)
        check_live(root, server)
        check_permissions(root)
        check_non_ascii_key(root, server)
        check_repl(root, server)
        check_vertex(root, server)
        files = search(root)
        size = sum(len(d) for _, d in OUTPUTS)
        print(f"secrets: searched {files} files and {len(OUTPUTS)} outputs ({size} bytes) "
              f"for {len(NEEDLES)} sentinels")
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
    if FAILURES:
        print(f"secrets: FAILED ({len(FAILURES)})")
        return 1
    print("secrets: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
