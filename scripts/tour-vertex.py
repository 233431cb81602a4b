#!/usr/bin/env python3
"""The guided tour against Vertex AI, offline: the same examples/tour.sophon, answered by
scripts/fake_gemini.py on Vertex AI's paths with a service account (docs/vertex.md, "The tour
against Vertex AI").

Usage: scripts/tour-vertex.py [BINARY]   (default: $SOPHON_BINARY, else .build/debug/sophon)
       scripts/tour --vertex             (the same with the release build)

The fake server gets the tour's recorded answers (examples/tour.tape: the same replies, the same
429 with its 2 s RetryInfo, the same stream), a public key to check the service account's JWT
with, and nothing else; `sophon` gets only the Vertex AI environment (no API key). Checks:
  - the run exits 0 and prints exactly what the offline tour (`--replay examples/tour.tape`) prints,
    every `expect` line passing;
  - the server saw one JWT-bearer token grant, then every call on
    /v1beta1/projects/demo/locations/global/publishers/google/models/gemini-3.8-flash with that
    bearer token and no API key, each body the one the tape recorded for the Developer API
    (the same requests, every content with its role);
  - no access token in anything the run printed.
Exits 0 when every check passed, 1 otherwise (a few seconds: the 429's wait is real).
"""

import json
import os
import re
import subprocess
import sys
import tempfile

from fake_gemini_client import FakeGemini, rsa_key_pair

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
BINARY = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.environ.get(
    "SOPHON_BINARY", os.path.join(ROOT, ".build", "debug", "sophon"))
TAPE = os.path.join(ROOT, "examples", "tour.tape")
SCRIPT = os.path.join("examples", "tour.sophon")
AUDIENCE = "https://oauth2.googleapis.com/token"
MODEL_PATH = "/v1beta1/projects/demo/locations/global/publishers/google/models/gemini-3.8-flash"
TIMEOUT = 120
FAILURES = []


def fail(message):
    FAILURES.append(message)
    print("FAIL: " + message, file=sys.stderr)


def tape_exchanges():
    """The tape's exchanges, in order (its first line is the header)."""
    with open(TAPE, encoding="utf-8") as handle:
        lines = [line for line in handle.read().splitlines() if line.strip()]
    return [json.loads(line) for line in lines[1:]]


def reply_for(response):
    """The fake server's reply object that answers as the tape's response did."""
    if "events" in response:
        return {"kind": "sse", "events": response["events"]}
    headers = {name: value for name, value in (response.get("headers") or {}).items()
               if name.lower() not in ("content-type", "content-length")}
    return {"kind": "json", "status": response.get("status", 200), "body": response.get("body", {}),
            "headers": headers}


def service_account(folder):
    """A service-account file with a new RSA key; returns (its path, the public key PEM)."""
    private, public = rsa_key_pair(folder)
    path = os.path.join(folder, "sa.json")
    with open(path, "w", encoding="utf-8") as handle:
        json.dump({"type": "service_account", "project_id": "demo", "private_key_id": "k1", "private_key": private,
                   "client_email": "sa@demo.iam.gserviceaccount.com", "token_uri": AUDIENCE}, handle)
    os.chmod(path, 0o600)
    return path, public


def run(arguments, home, **extra):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "SOPHON_HOME": home, "LANG": "C.UTF-8"}
    env.update(extra)
    return subprocess.run([BINARY, "--no-rc", *arguments], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT, check=False)


def main():
    if not os.access(BINARY, os.X_OK):
        print("tour-vertex: no sophon binary at %s (swift build first)" % BINARY, file=sys.stderr)
        return 1
    exchanges = tape_exchanges()
    with tempfile.TemporaryDirectory(prefix="sophon-tour-vertex-") as folder, FakeGemini() as server:
        replay_home, vertex_home = os.path.join(folder, "replay"), os.path.join(folder, "vertex")
        os.makedirs(replay_home)
        os.makedirs(vertex_home)
        replay = run(["--replay", TAPE, SCRIPT], replay_home)
        if replay.returncode != 0:
            fail("the offline tour itself failed (exit %d): %s" % (replay.returncode, replay.stderr[-2000:]))
        credentials, public = service_account(folder)
        server.post("/_sophon/vertex", {"publicKey": public, "audience": AUDIENCE})
        server.script(*[reply_for(exchange["response"]) for exchange in exchanges])
        vertex = run(["--verbose", SCRIPT], vertex_home, SOPHON_GEMINI_BASE_URL=server.url,
                     GOOGLE_GENAI_USE_VERTEXAI="true", GOOGLE_APPLICATION_CREDENTIALS=credentials)
        if vertex.returncode != 0:
            fail("the tour on Vertex AI exited %d; stderr ends:\n%s" % (vertex.returncode, vertex.stderr[-3000:]))
        if vertex.stdout != replay.stdout:
            fail("the tour on Vertex AI printed something else than the offline tour:\n--- offline\n%s\n--- vertex\n%s"
                 % (replay.stdout, vertex.stdout))
        seen = server.requests()
        paths = [request["path"] for request in seen]
        expected = ["/token"] + [exchange["request"]["path"].replace("/v1beta/models/gemini-3.8-flash", MODEL_PATH)
                                 for exchange in exchanges]
        if paths != expected:
            fail("the server saw %r, expected %r" % (paths, expected))
        grants = server.get("/_sophon/vertex").get("grants")
        if grants != ["urn:ietf:params:oauth:grant-type:jwt-bearer"]:
            fail("token grants %r, expected one JWT-bearer grant" % grants)
        calls = seen[1:]
        bearers = {request["headers"].get("authorization", "") for request in calls}
        if len(bearers) != 1 or not next(iter(bearers)).startswith("Bearer ya29.fake-"):
            fail("the calls did not all carry the one access token: %r" % sorted(b[:20] for b in bearers))
        if any("x-goog-api-key" in request["headers"] for request in seen):
            fail("a request carried an API key")
        for number, (request, exchange) in enumerate(zip(calls, exchanges), start=1):
            body = json.loads(request["body"] or "{}")
            if body != exchange["request"]["body"]:
                fail("call %d sent %s, the tape recorded %s" % (number, request["body"],
                                                                  json.dumps(exchange["request"]["body"])))
        for label, text in (("stdout", vertex.stdout), ("stderr", vertex.stderr)):
            if "ya29." in text:
                fail("an access token in the run's " + label)
        tally = [line for line in vertex.stdout.splitlines() if re.fullmatch(r"\d+ passed, \d+ failed", line)]
        if not tally or not tally[-1].endswith(" 0 failed"):
            fail("the tour's expect tally: %r" % tally)
    if FAILURES:
        print("tour-vertex: %d check(s) failed" % len(FAILURES), file=sys.stderr)
        return 1
    print("tour-vertex: OK (%d calls on Vertex AI paths after one token grant; %s, as offline)"
          % (len(exchanges), tally[-1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
