#!/usr/bin/env python3
"""The exchange log (docs/logs.md) with the real `sophon` against scripts/fake_gemini.py.

Usage: scripts/logs-check.py [BINARY]   (default: $SOPHON_BINARY, else .build/debug/sophon)

Checks, each in a fresh SOPHON_HOME:
  - 100 asks from two processes at once: all 100 logged, each once (WAL, busy timeout);
  - `logs search WORD` finds the one exchange whose answer holds the word;
  - `sophon --continue chat` and `chat --continue` send the logged conversation again, the
    model's thought signature included, exactly as the server first sent it; also a chat with a
    function call (its signature) answered by `tool-reply`;
  - each call of `run` is logged;
  - `--no-log` and `set log off` log nothing;
  - kill -9 of a shell while it logs leaves a database SQLite reads with integrity "ok";
  - a corrupt logs.db is moved aside byte for byte with a warning, and a new log started;
  - the key is in no file of the folder.
Exits 0 when every check passed, 1 otherwise.
"""

import glob
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

from fake_gemini_client import FakeGemini

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
BINARY = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.environ.get(
    "SOPHON_BINARY", os.path.join(ROOT, ".build", "debug", "sophon"))
KEY = "AIzaSyLOGSENTINEL0123456789abcdefgh"
TIMEOUT = 120
FAILURES = []


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print(f"  FAIL {message}", flush=True)


def env_for(home, server):
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "SOPHON_HOME": home,
            "LANG": "C.UTF-8", "TERM": "dumb", "GEMINI_API_KEY": KEY,
            "SOPHON_GEMINI_BASE_URL": server.url}


def run(home, server, args, stdin=b""):
    return subprocess.run([BINARY, "-X", "--no-history"] + args, env=env_for(home, server),
                          cwd=home, input=stdin, capture_output=True, timeout=TIMEOUT)


def rows(home, sql="SELECT prompt, answer, error FROM exchanges ORDER BY id"):
    connection = sqlite3.connect(os.path.join(home, "logs.db"))
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()


def fresh(root, name):
    home = os.path.join(root, name)
    os.makedirs(home)
    return home


def check_two_processes(root, server):
    home = fresh(root, "two")
    server.post("/_sophon/reset", {})
    processes = []
    for name in ("a", "b"):
        script = os.path.join(home, f"{name}.sophon")
        with open(script, "w") as f:
            f.write("".join(f"ask prompt {name}{i}\n" for i in range(50)))
        processes.append(subprocess.Popen(
            [BINARY, "-X", "--no-history", script], env=env_for(home, server), cwd=home,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
    for process in processes:
        _, err = process.communicate(timeout=TIMEOUT)
        check(process.returncode == 0, f"two processes: exit {process.returncode}: {err[:300]!r}")
        check(b"not logged" not in err, f"two processes: a write failed: {err[:300]!r}")
    prompts = sorted(prompt for prompt, _, _ in rows(home))
    expected = sorted(f"prompt {name}{i}" for name in "ab" for i in range(50))
    check(prompts == expected, f"two processes: {len(prompts)} entries, not the 100 prompts")
    check(rows(home, "PRAGMA journal_mode") == [("wal",)], "journal mode is not WAL")
    check(rows(home, "PRAGMA user_version") == [(2,)], "schema version is not 2")
    listed = run(home, server, ["logs", "-n", "200", "--json"])
    check(listed.returncode == 0, f"logs --json: exit {listed.returncode}")
    entries = json.loads(listed.stdout)
    check(len(entries) == 100 and [e["id"] for e in entries] == list(range(1, 101)),
          "logs -n 200 --json: not ids 1...100 in order")
    last = run(home, server, ["logs", "-n", "3"])
    check(len(last.stdout.decode().splitlines()) == 3, "logs -n 3: not 3 lines")


def check_search(root, server):
    home = fresh(root, "search")
    server.post("/_sophon/script", {"reset": True, "replies": [
        {"kind": "generate", "text": "plain words"},
        {"kind": "generate", "text": "a zebra crossing"},
        {"kind": "generate", "text": "more words"}]})
    for prompt in ("one", "two", "three"):
        check(run(home, server, ["ask", prompt]).returncode == 0, f"search: ask {prompt} failed")
    found = run(home, server, ["logs", "search", "zebra"])
    lines = found.stdout.decode().splitlines()
    check(found.returncode == 0 and len(lines) == 1 and lines[0].startswith("2  ")
          and lines[0].endswith("two -> a zebra crossing"), f"logs search zebra: {lines!r}")
    shown = run(home, server, ["logs", "show", "2"]).stdout.decode().splitlines()
    check(shown[:1] == ["id: 2"] and shown[-4:] == ["prompt:", "two", "answer:", "a zebra crossing"],
          f"logs show 2: {shown!r}")
    none = run(home, server, ["logs", "search", "giraffe"])
    check(none.stdout == b"(no log entry matches)\n", f"logs search giraffe: {none.stdout!r}")
    missing = run(home, server, ["logs", "show", "9"])
    check(missing.returncode != 0 and b"no log entry 9" in missing.stderr,
          f"logs show 9: {missing.returncode} {missing.stderr!r}")


def check_continue(root, server):
    home = fresh(root, "continue")
    server.post("/_sophon/script", {"reset": True, "replies": [
        {"kind": "generate", "text": "noted: 42", "thoughtSignature": "c2lnLTQy"},
        {"kind": "generate", "text": "it was 42"},
        {"kind": "generate", "text": "still 42"}]})
    first = run(home, server, ["chat", "remember 42"])
    check(first.stdout == b"noted: 42\n", f"continue: first chat: {first.stdout!r}")
    second = run(home, server, ["--continue", "chat", "which number?"])
    check(second.stdout == b"it was 42\n", f"continue: --continue chat: {second.stdout!r}")
    sent = json.loads(server.requests()[-1]["body"])["contents"]
    expected = [
        {"role": "user", "parts": [{"text": "remember 42"}]},
        {"role": "model", "parts": [{"text": "noted: 42"}, {"text": "", "thoughtSignature": "c2lnLTQy"}]},
        {"role": "user", "parts": [{"text": "which number?"}]},
    ]
    check(sent == expected, f"--continue sent {sent!r}")
    third = run(home, server, [], stdin=b"chat --continue\nchat and now?\nhistory\n")
    sent = json.loads(server.requests()[-1]["body"])["contents"]
    check(len(sent) == 5 and sent[:3] == expected and sent[4] == {
        "role": "user", "parts": [{"text": "and now?"}]}, f"chat --continue sent {sent!r}")
    check(third.stdout.decode().endswith("model: still 42\n"), f"history: {third.stdout!r}")
    ids = {row[0] for row in rows(home, "SELECT conversation FROM exchanges")}
    check(len(ids) == 1, f"continue: {len(ids)} conversation ids, not 1")


def check_continue_tools(root, server):
    home = fresh(root, "continue-tools")
    server.post("/_sophon/script", {"reset": True, "replies": [
        {"kind": "generate", "functionCalls": [{"id": "fc-1", "name": "get_weather",
                                                "args": {"city": "Paris"}}],
         "thoughtSignature": "U0lHLWZj"},
        {"kind": "generate", "text": "18 degrees in Paris"},
        {"kind": "generate", "text": "yes, Paris"}]})
    first = run(home, server, [], stdin=b'tool get_weather { city: string }\nchat Weather in Paris?\n'
                b'tool-reply get_weather {"temp_c": 18}\n')
    check(first.returncode == 0 and first.stdout.endswith(b"18 degrees in Paris\n"),
          f"tools: first run: {first.returncode} {first.stdout!r} {first.stderr!r}")
    second = run(home, server, ["--continue"], stdin=b"tool get_weather { city: string }\nchat was it Paris?\n")
    check(second.returncode == 0 and second.stdout == b"yes, Paris\n",
          f"tools: --continue: {second.returncode} {second.stdout!r} {second.stderr!r}")
    sent = json.loads(server.requests()[-1]["body"])["contents"]
    expected = [
        {"role": "user", "parts": [{"text": "Weather in Paris?"}]},
        {"role": "model", "parts": [{"functionCall": {"id": "fc-1", "name": "get_weather",
                                                      "args": {"city": "Paris"}},
                                     "thoughtSignature": "U0lHLWZj"}]},
        {"role": "user", "parts": [{"functionResponse": {"id": "fc-1", "name": "get_weather",
                                                         "response": {"temp_c": 18}}}]},
        {"role": "model", "parts": [{"text": "18 degrees in Paris"}]},
        {"role": "user", "parts": [{"text": "was it Paris?"}]},
    ]
    check(sent == expected, f"tools: --continue sent {sent!r}")
    commands = [row[0] for row in rows(home, "SELECT command FROM exchanges ORDER BY id")]
    check(commands == ["chat", "tool-reply", "chat"], f"tools: logged {commands!r}")


def check_run(root, server):
    home = fresh(root, "run")
    server.post("/_sophon/script", {"reset": True, "replies": [
        {"kind": "generate", "text": "same answer"}, {"kind": "generate", "text": "same answer"}]})
    with open(os.path.join(home, "in.jsonl"), "w") as f:
        f.write('{"key": "a", "prompt": "first prompt"}\n{"key": "b", "prompt": "second prompt"}\n')
    result = run(home, server, ["run", "in.jsonl", "-o", "out.jsonl"])
    check(result.returncode == 0, f"run: exit {result.returncode}: {result.stderr!r}")
    logged = sorted(rows(home, "SELECT command, prompt, answer FROM exchanges"))
    check(logged == [("run", "first prompt", "same answer"), ("run", "second prompt", "same answer")],
          f"run: logged {logged!r}")
    run(home, server, ["--no-log", "run", "in.jsonl", "-o", "out2.jsonl"])
    check(len(rows(home)) == 2, "run --no-log: logged")


def check_no_log(root, server):
    home = fresh(root, "nolog")
    server.post("/_sophon/reset", {})
    run(home, server, ["ask", "logged"])
    run(home, server, ["--no-log", "ask", "not logged"])
    shown = run(home, server, [], stdin=b"set log off\nshow log\nask quiet\nset log on\nask loud\n")
    check(shown.stdout.decode().splitlines()[0] == "off", f"show log: {shown.stdout!r}")
    prompts = [prompt for prompt, _, _ in rows(home)]
    check(prompts == ["logged", "loud"], f"--no-log / set log off: logged {prompts!r}")


def check_kill(root, server):
    home = fresh(root, "kill")
    server.post("/_sophon/reset", {})
    script = os.path.join(home, "many.sophon")
    with open(script, "w") as f:
        f.write("".join(f"ask many {i}\n" for i in range(2000)))
    process = subprocess.Popen([BINARY, "-X", "--no-history", script], env=env_for(home, server),
                               cwd=home, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    database = os.path.join(home, "logs.db")
    deadline = time.monotonic() + TIMEOUT
    count = 0
    while time.monotonic() < deadline and count < 20:
        if os.path.exists(database):
            try:
                count = rows(home, "SELECT count(*) FROM exchanges")[0][0]
            except sqlite3.Error:
                count = 0
        time.sleep(0.01)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    check(count >= 20, "kill: the shell logged fewer than 20 exchanges before the deadline")
    check(rows(home, "PRAGMA integrity_check") == [("ok",)], "kill: integrity_check is not ok")
    listed = run(home, server, ["logs", "-n", "1"])
    check(listed.returncode == 0 and b"many " in listed.stdout, f"kill: logs: {listed.stdout!r}")
    check(not glob.glob(database + ".corrupt-*"), "kill: the database was moved aside")


def check_migration(root, server):
    """A version-1 log (before costs) is migrated in place: its entries stay, with cost NULL
    (unknown), and new exchanges are logged with their cost."""
    home = fresh(root, "migration")
    connection = sqlite3.connect(os.path.join(home, "logs.db"))
    connection.executescript("""
        CREATE TABLE exchanges(id INTEGER PRIMARY KEY, time_ms INTEGER NOT NULL, command TEXT NOT NULL,
            conversation TEXT, model TEXT NOT NULL, prompt TEXT NOT NULL, system TEXT, schema TEXT,
            settings TEXT, answer TEXT, prompt_tokens INTEGER NOT NULL DEFAULT 0,
            output_tokens INTEGER NOT NULL DEFAULT 0, thoughts_tokens INTEGER NOT NULL DEFAULT 0,
            total_tokens INTEGER NOT NULL DEFAULT 0, duration_ms INTEGER NOT NULL DEFAULT 0, error TEXT,
            media TEXT, turns TEXT);
        INSERT INTO exchanges(time_ms, command, model, prompt, answer) VALUES (0, 'ask', 'gemini-3.8-flash', 'old', 'kept');
        PRAGMA user_version = 1;
        """)
    connection.close()
    asked = run(home, server, ["ask", "new"])
    check(asked.returncode == 0, f"migration: ask: exit {asked.returncode}: {asked.stderr[:300]!r}")
    check(rows(home, "PRAGMA user_version") == [(2,)], "migration: schema version is not 2")
    costs = rows(home, "SELECT prompt, cost FROM exchanges ORDER BY id")
    check(len(costs) == 2 and costs[0] == ("old", None) and costs[1][0] == "new" and costs[1][1] > 0,
          f"migration: entries and costs {costs}")
    listed = json.loads(run(home, server, ["logs", "--json"]).stdout)
    check([entry.get("cost") for entry in listed][:1] == ["unknown"], "migration: the old entry's cost is not unknown")


def check_corrupt(root, server):
    home = fresh(root, "corrupt")
    garbage = b"this is not a SQLite database\n" * 10
    with open(os.path.join(home, "logs.db"), "wb") as f:
        f.write(garbage)
    result = run(home, server, ["ask", "after"])
    check(result.returncode == 0, f"corrupt: ask failed: {result.stderr!r}")
    moved = glob.glob(os.path.join(home, "logs.db.corrupt-*"))
    check(len(moved) == 1 and open(moved[0], "rb").read() == garbage,
          "corrupt: the old file was not moved aside unchanged")
    check(result.stderr.decode().startswith("warning: ") and "was corrupt: moved it to" in
          result.stderr.decode(), f"corrupt: warning: {result.stderr!r}")
    check([prompt for prompt, _, _ in rows(home)] == ["after"], "corrupt: new log lacks the ask")


def check_no_key(root):
    for folder, _, names in os.walk(root):
        for name in names:
            with open(os.path.join(folder, name), "rb") as f:
                data = f.read()
            for needle in (KEY, KEY[6:24]):
                check(needle.encode() not in data, f"{os.path.join(folder, name)} holds the key")


def main():
    root = tempfile.mkdtemp(prefix="sophon-logs-")
    server = FakeGemini(KEY)
    try:
        for step in (check_two_processes, check_search, check_continue, check_continue_tools,
                     check_run, check_no_log, check_kill, check_migration,
                     check_corrupt):
            print(f"logs: {step.__name__}", flush=True)
            step(root, server)
        check_no_key(root)
    finally:
        server.stop()
    if FAILURES:
        print(f"logs: FAILED ({len(FAILURES)}), files kept in {root}")
        return 1
    subprocess.run(["rm", "-rf", root])
    print("logs: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
