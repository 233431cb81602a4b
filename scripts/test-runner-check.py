#!/usr/bin/env python3
"""End-to-end checks of `sophon test`, piped stdin and the dry run (docs/commands.md, "test").

Runs the real binary against scripts/fake_gemini.py over loopback, in a fresh SOPHON_HOME:
a folder of 12 scripts (passing, failing, erroring; with tapes, without tapes against the fake
server) run with --jobs 4 and --jobs 1 (the same report, timings masked), the JUnit XML
validated with `xmlschema` against an XSD written here from the JUnit schema Jenkins' xUnit
plugin publishes (testsuites > testsuite > testcase > failure/error/skipped/system-out/system-err,
with its attribute names), the TAP stream, exit statuses, `sophonrc` not run, --record-missing;
then `echo text | sophon ask summarize` (two parts) and `ask --dry-run` (no request seen).

Usage: .build/venv/bin/python scripts/test-runner-check.py .build/debug/sophon
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import xmlschema

from fake_gemini_client import FakeGemini

HERE = os.path.dirname(os.path.abspath(__file__))

# Written for this test from the facts of the JUnit XSD of Jenkins' xUnit plugin (junit-10.xsd):
# the element names, their nesting and the attributes readers take.
JUNIT_XSD = """<?xml version="1.0" encoding="UTF-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" elementFormDefault="qualified">
  <xs:simpleType name="seconds">
    <xs:restriction base="xs:decimal"><xs:minInclusive value="0"/></xs:restriction>
  </xs:simpleType>
  <xs:complexType name="problem" mixed="true">
    <xs:attribute name="type" type="xs:string"/>
    <xs:attribute name="message" type="xs:string"/>
  </xs:complexType>
  <xs:element name="testcase">
    <xs:complexType>
      <xs:choice minOccurs="0" maxOccurs="unbounded">
        <xs:element name="skipped" type="problem"/>
        <xs:element name="error" type="problem"/>
        <xs:element name="failure" type="problem"/>
        <xs:element name="system-out" type="xs:string"/>
        <xs:element name="system-err" type="xs:string"/>
      </xs:choice>
      <xs:attribute name="name" type="xs:string" use="required"/>
      <xs:attribute name="classname" type="xs:string"/>
      <xs:attribute name="assertions" type="xs:nonNegativeInteger"/>
      <xs:attribute name="time" type="seconds"/>
      <xs:attribute name="status" type="xs:string"/>
      <xs:attribute name="file" type="xs:string"/>
      <xs:attribute name="line" type="xs:string"/>
    </xs:complexType>
  </xs:element>
  <xs:element name="testsuite">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="properties" minOccurs="0">
          <xs:complexType>
            <xs:sequence>
              <xs:element name="property" maxOccurs="unbounded">
                <xs:complexType>
                  <xs:attribute name="name" type="xs:string" use="required"/>
                  <xs:attribute name="value" type="xs:string" use="required"/>
                </xs:complexType>
              </xs:element>
            </xs:sequence>
          </xs:complexType>
        </xs:element>
        <xs:element ref="testcase" minOccurs="0" maxOccurs="unbounded"/>
        <xs:element name="system-out" type="xs:string" minOccurs="0"/>
        <xs:element name="system-err" type="xs:string" minOccurs="0"/>
      </xs:sequence>
      <xs:attribute name="name" type="xs:string" use="required"/>
      <xs:attribute name="tests" type="xs:nonNegativeInteger" use="required"/>
      <xs:attribute name="failures" type="xs:nonNegativeInteger"/>
      <xs:attribute name="errors" type="xs:nonNegativeInteger"/>
      <xs:attribute name="skipped" type="xs:nonNegativeInteger"/>
      <xs:attribute name="disabled" type="xs:nonNegativeInteger"/>
      <xs:attribute name="time" type="seconds"/>
      <xs:attribute name="timestamp" type="xs:dateTime"/>
      <xs:attribute name="hostname" type="xs:string"/>
      <xs:attribute name="id" type="xs:string"/>
      <xs:attribute name="package" type="xs:string"/>
    </xs:complexType>
  </xs:element>
  <xs:element name="testsuites">
    <xs:complexType>
      <xs:sequence>
        <xs:element ref="testsuite" minOccurs="0" maxOccurs="unbounded"/>
      </xs:sequence>
      <xs:attribute name="name" type="xs:string"/>
      <xs:attribute name="time" type="seconds"/>
      <xs:attribute name="tests" type="xs:nonNegativeInteger"/>
      <xs:attribute name="failures" type="xs:nonNegativeInteger"/>
      <xs:attribute name="errors" type="xs:nonNegativeInteger"/>
      <xs:attribute name="disabled" type="xs:nonNegativeInteger"/>
    </xs:complexType>
  </xs:element>
</xs:schema>
"""

FAILURES = []


def check(condition, what, detail=""):
    if not condition:
        FAILURES.append(what)
        print(f"FAIL: {what}\n{detail}", file=sys.stderr)


def equal(actual, expected, what, context=""):
    check(actual == expected, what, f"--- expected\n{expected}\n--- actual\n{actual}\n{context}")


def tape(*exchanges):
    lines = [json.dumps({"sophonTape": 1})]
    for prompt, answer in exchanges:
        lines.append(json.dumps({
            "request": {"method": "POST", "path": "/v1beta/models/gemini-3.8-flash:generateContent",
                        "body": {"contents": [{"role": "user", "parts": [{"text": prompt}]}]}},
            "response": {"status": 200, "headers": {"content-type": "application/json; charset=UTF-8"},
                         "body": {"candidates": [{"content": {"parts": [{"text": answer}], "role": "model"},
                                                  "finishReason": "STOP", "index": 0}],
                                  "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 2,
                                                    "totalTokenCount": 5}}}}))
    return "\n".join(lines) + "\n"


SCRIPTS = {
    "01-pass.sophon": "let x = 3\nexpect $x == 3\nexpect $x > 1\nexpect abc contains b\n",
    "02-fail-expect.sophon": "let year = 2015\nexpect $year == 2016\nexpect $year < 2020\n",
    "03-unknown-command.sophon": "echo fine\nehco typo\n",
    "04-parse-error.sophon": "let a = 1\necho \"unterminated\nexpect $a == 1\n",
    "05-tape-pass.sophon": "set stream off\nask Say hello\nexpect $last contains Hello\n",
    "06-tape-fail.sophon": "set stream off\nask Name a colour\nexpect $last == red\n",
    "07-tape-mismatch.sophon": "set stream off\nask Something else\nexpect $last == ok\n",
    "08-live-pass.sophon": "set stream off\nask hi\nexpect $last == \"Hello from the fake Gemini server.\"\n",
    "09-exit-status.sophon": "expect 1 == 1\nexit 3\n",
    "10-bail.sophon": "set bail on\nexpect 1 == 2\nexpect 2 == 2\n",
    "sub/11-source.sophon": "source helper.inc\nexpect $from_helper == yes\n",
    "sub/12-no-expects.sophon": "echo nothing to check\n",
}
TAPES = {
    "05-tape-pass.tape": tape(("Say hello", "Hello, tape!")),
    "06-tape-fail.tape": tape(("Name a colour", "blue")),
    "07-tape-mismatch.tape": tape(("The recorded prompt", "ok")),
}

EXPECTED_LINES = """PASS suite/01-pass.sophon (3 expects, X s)
FAIL suite/02-fail-expect.sophon
FAIL suite/03-unknown-command.sophon
FAIL suite/04-parse-error.sophon
PASS suite/05-tape-pass.sophon (1 expects, X s)
FAIL suite/06-tape-fail.sophon
FAIL suite/07-tape-mismatch.sophon
PASS suite/08-live-pass.sophon (1 expects, X s)
FAIL suite/09-exit-status.sophon
FAIL suite/10-bail.sophon
PASS suite/sub/11-source.sophon (1 expects, X s)
PASS suite/sub/12-no-expects.sophon (0 expects, X s)
"""


def mask(text):
    return re.sub(r"expects, \d+\.\d s\)", "expects, X s)", text)


def main():
    binary = os.path.abspath(sys.argv[1])
    root = tempfile.mkdtemp(prefix="sophon-test-check-")
    server = FakeGemini()
    try:
        run_checks(binary, root, server)
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed", file=sys.stderr)
        sys.exit(1)
    print("test-runner-check: all checks passed")


def run_checks(binary, root, server):
    home = os.path.join(root, "home")
    os.makedirs(home)
    with open(os.path.join(home, "sophonrc"), "w") as rc:
        rc.write("echo FROM-RC\nexpect 1 == 2\n")
    env = dict(os.environ, SOPHON_HOME=home, SOPHON_GEMINI_BASE_URL=server.url, GEMINI_API_KEY="test-key",
               LANG="C.UTF-8")
    for name in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "GOOGLE_API_KEY"):
        env.pop(name, None)
    suite = os.path.join(root, "suite")
    for name, text in {**SCRIPTS, **TAPES}.items():
        os.makedirs(os.path.dirname(os.path.join(suite, name)), exist_ok=True)
        with open(os.path.join(suite, name), "w") as handle:
            handle.write(text)
    with open(os.path.join(suite, "sub", "helper.inc"), "w") as handle:
        handle.write("let from_helper = yes\n")
    os.makedirs(os.path.join(suite, ".hidden"))
    with open(os.path.join(suite, ".hidden", "skipped.sophon"), "w") as handle:
        handle.write("expect 1 == 2\n")
    with open(os.path.join(suite, "notes.txt"), "w") as handle:
        handle.write("not a script\n")

    def sophon(*arguments, stdin=subprocess.DEVNULL, input=None):
        return subprocess.run([binary, *arguments], cwd=root, env=env, capture_output=True, text=True,
                              stdin=None if input is not None else stdin, input=input, timeout=300)

    details = """
suite/02-fail-expect.sophon:2: failed: expect $year == 2016
    expected 2015 == 2016
suite/03-unknown-command.sophon:2: error: {unknown}
suite/04-parse-error.sophon:2:6: error: unterminated double quote
suite/06-tape-fail.sophon:3: failed: expect $last == red
    expected "blue" == "red"
suite/07-tape-mismatch.sophon:2: error: {mismatch}
suite/07-tape-mismatch.sophon:3: failed: expect $last == ok
    undefined variable 'last'
suite/09-exit-status.sophon: error: exited with status 3
suite/10-bail.sophon:2: failed: expect 1 == 2
    expected 1 == 2
cost: $0.00004875
5 passed, 7 failed
"""
    four = sophon("test", "--jobs", "4", "suite")
    equal(four.returncode, 1, "--jobs 4 exits 1 when a file failed")
    mismatch = re.search(r"07-tape-mismatch\.sophon:2: error: (.*)", four.stdout)
    check(mismatch is not None and "differs" in mismatch.group(1), "a tape mismatch is reported", four.stdout)
    unknown = re.search(r"03-unknown-command\.sophon:2: error: (unknown command 'ehco'.*)", four.stdout)
    check(unknown is not None, "an unknown command is reported", four.stdout)
    expected = EXPECTED_LINES + details.replace("{mismatch}", mismatch.group(1) if mismatch else "?").replace(
        "{unknown}", unknown.group(1) if unknown else "?")
    equal(mask(four.stdout), expected, "--jobs 4 report (times masked)")
    check("FROM-RC" not in four.stdout + four.stderr, "sophonrc is not run", four.stdout)
    one = sophon("test", "--jobs", "1", "suite")
    equal(one.returncode, 1, "--jobs 1 exits 1")
    equal(mask(one.stdout), mask(four.stdout), "--jobs 1 and --jobs 4 print the same report")
    live = [r for r in server.requests() if ":generateContent" in r["path"]]
    equal(len(live), 2, "only the file without a tape reached the server (once per run)")

    junit = os.path.join(root, "report.xml")
    tap = sophon("test", "--tap", "--junit", junit, "--jobs=3", "suite")
    equal(tap.returncode, 1, "--tap exits 1")
    schema = xmlschema.XMLSchema(JUNIT_XSD)
    schema.validate(junit)
    document = schema.to_dict(junit)
    suites = document["testsuite"]
    equal(len(suites), 1, "one testsuite")
    cases = suites[0]["testcase"]
    equal([case["@name"] for case in cases], [f"suite/{name}" for name in sorted(SCRIPTS)],
          "a testcase per file, in order")
    equal((suites[0]["@tests"], suites[0]["@failures"]), (12, 7), "testsuite counts")
    failures = {case["@name"]: [f["@type"] for f in case.get("failure", [])] for case in cases}
    equal(failures["suite/02-fail-expect.sophon"], ["expect"], "a failure per failed expect")
    equal(failures["suite/03-unknown-command.sophon"], ["error"], "a failure per error")
    equal(failures["suite/01-pass.sophon"], [], "a passing file has no failure")
    equal(suites[0]["properties"]["property"], [{"@name": "sophon.jobs", "@value": "3"}], "the jobs property")

    tap_lines = tap.stdout.splitlines()
    equal(tap_lines[:3], ["TAP version 14", "1..12", "ok 1 - suite/01-pass.sophon"], "TAP header")
    points = [line for line in tap_lines if re.match(r"(not )?ok \d+ - ", line)]
    equal(len(points), 12, "a TAP test point per file")
    equal(points[1], "not ok 2 - suite/02-fail-expect.sophon", "a failed file is not ok")
    block = tap_lines[tap_lines.index("not ok 2 - suite/02-fail-expect.sophon") + 1:][:6]
    equal(block, ["  ---", "  failures:", '    - location: "suite/02-fail-expect.sophon:2"',
                  '      expect: "expect $year == 2016"', '      message: "expected 2015 == 2016"', "  ..."],
          "TAP YAML block")
    equal(tap_lines[-1], "# 5 passed, 7 failed", "TAP ends with the tally")

    only = sophon("test", "suite/01-pass.sophon", "suite/sub")
    equal((only.returncode, mask(only.stdout)),
          (0, "PASS suite/01-pass.sophon (3 expects, X s)\nPASS suite/sub/11-source.sophon (1 expects, X s)\n"
              "PASS suite/sub/12-no-expects.sophon (0 expects, X s)\n3 passed, 0 failed\n"),
          "files and folders named, all passing: exit 0")
    for bad, message in [(["--jobs", "0"], "sophon: test: --jobs: expected a whole number of at least 1, got '0'\n"),
                         (["--frobnicate"], "sophon: test: unknown option '--frobnicate'\n"),
                         (["missing-folder"], "sophon: test: no such file or folder: missing-folder\n")]:
        result = sophon("test", *bad)
        equal((result.returncode, result.stdout, result.stderr), (2, "", message), f"usage error {bad}")

    # --record-missing: the file without a tape is recorded, then replayed.
    record = os.path.join(root, "record")
    os.makedirs(record)
    shutil.copy(os.path.join(suite, "08-live-pass.sophon"), record)
    server.reset()
    # Without a key the recording fails before any exchange: the file fails and no tape is kept
    # (an empty one would be replayed next time instead of recorded).
    keyless = subprocess.run([binary, "test", "--record-missing", "record"], cwd=root,
                             env={k: v for k, v in env.items() if k != "GEMINI_API_KEY"},
                             capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300)
    equal(keyless.returncode, 1, "--record-missing without a key fails the file", keyless.stdout + keyless.stderr)
    check("no API key" in keyless.stdout, "the failure says there is no API key", keyless.stdout)
    equal(sorted(os.listdir(record)), ["08-live-pass.sophon"], "a recording that failed before any exchange keeps no tape")
    equal(len(server.requests()), 0, "nothing was sent without a key")
    recorded = sophon("test", "--record-missing", "record")
    equal(recorded.returncode, 0, "--record-missing passes", recorded.stdout + recorded.stderr)
    check(os.path.exists(os.path.join(record, "08-live-pass.tape")), "--record-missing writes NAME.tape")
    replayed = sophon("test", "record")
    equal(len(server.requests()), 1, "the recorded tape is replayed: no new request")
    equal(replayed.returncode, 0, "the replay passes")
    sophon("test", "--live", "record")
    equal(len(server.requests()), 2, "--live ignores the tape")

    examples = subprocess.run([binary, "test", "examples"], cwd=os.path.dirname(HERE), env=env,
                              capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300)
    equal(examples.returncode, 0, "sophon test examples passes", examples.stdout + examples.stderr)

    # Piped stdin and the dry run, without the sophonrc of the checks above.
    os.remove(os.path.join(home, "sophonrc"))
    server.reset()
    piped = sophon("ask", "summarize", input="text\n")
    equal(piped.returncode, 0, "piped ask succeeds", piped.stderr)
    bodies = [r["body"] for r in server.requests()]
    equal(len(bodies), 1, "one request")
    parts = json.loads(bodies[0])["contents"][0]["parts"] if bodies else None
    equal(parts, [{"text": "text\n"}, {"text": "summarize"}], "stdin first, then the prompt, as two parts")
    server.reset()
    sophon("ask", input="just stdin")
    bodies = [json.loads(r["body"]) for r in server.requests()]
    equal([b["contents"][0]["parts"] for b in bodies], [[{"text": "just stdin"}]], "stdin alone is the prompt")
    server.reset()
    counted = sophon("tokens", "count", input="these")
    bodies = [json.loads(r["body"]) for r in server.requests()]
    # countTokens sends the whole request the call would make (its generateContentRequest form).
    equal((counted.returncode, [b["generateContentRequest"]["contents"][0]["parts"] for b in bodies]),
          (0, [[{"text": "these"}, {"text": "count"}]]), "tokens reads piped stdin")

    server.reset()
    dry = sophon("ask", "--dry-run", "hello")
    expected_dry = """POST /v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse
{
  "contents": [
    {
      "role": "user",
      "parts": [
        {
          "text": "hello"
        }
      ]
    }
  ]
}
"""
    equal((dry.returncode, dry.stdout), (0, expected_dry), "ask --dry-run prints the request")
    check("test-key" not in dry.stdout + dry.stderr, "the dry run never shows the key")
    setting = sophon("-c", "set dry-run on", "-c", "set stream off", "-c", "ask hello")
    equal(setting.stdout.splitlines()[0], "POST /v1beta/models/gemini-3.8-flash:generateContent",
          "set dry-run on prints the request")
    equal(server.requests(), [], "a dry run sends nothing")


if __name__ == "__main__":
    main()
