#!/usr/bin/env python3
"""Crash-safe files: SIGKILL the real `sophon` at random points while it writes its files.

Usage: scripts/crash-safety.py [BINARY] [--kills N] [--seed S]
       (BINARY default: $SOPHON_BINARY, else .build/debug/sophon; N default 100, split evenly
       over the four scenarios; the seed is printed so a failing run can be repeated)

Scenarios (each starts from a known old file, runs the shell, kills it with SIGKILL):
  save     a 2 MB session of `echo` commands, then `save out.sophon` (AtomicFile: temp + rename)
  key      `key set` over a keys.json holding ~900 KB of other accounts (the store's read limit
           is 1 MB), so the atomic rewrite takes a while
  history  the REPL in a pseudo-terminal over a history file of 1,200 entries of 4 KB: the first
           entered line is appended and pushes it over the compaction threshold (1,200), so the
           append is followed by an atomic rewrite of ~4 MB
  record   `--record TAPE` of three asks whose streamed answers are 1 MB each (fake_gemini.py)

Half the kills wait for the write to start (the temp file appears, or the tape grows) and then
kill after a random short delay; the others land at a uniformly random time over the whole run.
After every kill: the file is exactly the old or the new version (the tape: its header, then
complete lines that are each a valid exchange, then at most one partial line), and the shell
starts cleanly on what is left (a trivial command; the REPL loads history; a tape's complete
lines replay). Prints how many kills landed mid-write (temp files left behind, partial tape
lines) and exits 1 on any violation.
"""

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import pexpect

from fake_gemini_client import FakeGemini
from pty_harness import PROMPT, end_with_ctrl_d, spawn

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
HISTORY_HEADER = b"_HiStOrY_V2_"
TIMEOUT = 60


def arguments():
    binary = os.environ.get("SOPHON_BINARY", os.path.join(ROOT, ".build", "debug", "sophon"))
    kills, seed = 100, random.randrange(1 << 30)
    args = sys.argv[1:]
    while args:
        arg = args.pop(0)
        if arg == "--kills":
            kills = int(args.pop(0))
        elif arg == "--seed":
            seed = int(args.pop(0))
        else:
            binary = os.path.abspath(arg)
    return binary, kills, seed


BINARY, KILLS, SEED = arguments()
RNG = random.Random(SEED)
FAILURES = []


def fail(scenario, message):
    FAILURES.append(f"{scenario}: {message}")
    print(f"  FAIL {scenario}: {message}", flush=True)


def base_env(home, **extra):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "SOPHON_HOME": home,
           "LANG": "C.UTF-8", "TERM": "dumb"}
    env.update(extra)
    return env


def run(args, home, cwd=None, stdin=None, **extra):
    return subprocess.run([BINARY] + args, env=base_env(home, **extra), cwd=cwd or home,
                          input=stdin, capture_output=True, timeout=TIMEOUT)


def wait_and_kill(process, started, horizon, write_started, delay=0.005):
    """Kills `process` after the write began (plus a short random delay) or at a random time."""
    triggered = RNG.random() < 0.5
    if triggered:
        while process.poll() is None and not write_started():
            pass
        if delay and RNG.random() < 0.5:
            time.sleep(RNG.uniform(0, delay))
    else:
        deadline = started + RNG.uniform(0, horizon)
        while process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.0005)
    alive = process.poll() is None
    if alive:
        os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=TIMEOUT)
    return alive


def temporaries(folder, prefix):
    return sorted(n for n in os.listdir(folder) if n.startswith(prefix))


def starts_cleanly(scenario, home, cwd=None):
    result = run(["-X", "-c", "echo started"], home, cwd=cwd)
    if result.returncode != 0 or result.stdout != b"started\n" or result.stderr:
        fail(scenario, f"the shell did not start cleanly: {result.returncode} {result.stdout!r} "
                       f"{result.stderr[:300]!r}")


def timed_reference(args, home, cwd, stdin=None, **extra):
    started = time.monotonic()
    result = run(args, home, cwd=cwd, stdin=stdin, **extra)
    return result, time.monotonic() - started


# ---------------------------------------------------------------- save


def scenario_save(kills, root):
    name = "save"
    home, work = os.path.join(root, "save-home"), os.path.join(root, "save-work")
    os.makedirs(home)
    os.makedirs(work)
    lines = [f"echo {('w%d-' % i) * 400}" for i in range(1000)]
    with open(os.path.join(work, "session.sophon"), "w") as f:
        f.write("\n".join(lines) + "\nsave out.sophon\necho saved\n")
    new = ("\n".join(lines) + "\n").encode()
    old = b"echo the old version\n"
    target = os.path.join(work, "out.sophon")
    result, seconds = timed_reference(["-X", "session.sophon"], home, work)
    with open(target, "rb") as f:
        saved = f.read()
    if result.returncode != 0 or saved != new:
        fail(name, f"the reference run did not save the session ({result.returncode}, "
                   f"{len(saved)} bytes, {result.stderr[:200]!r})")
        return
    prefix = ".out.sophon.tmp-"
    counts = {"old": 0, "new": 0, "killed": 0, "temp left": 0}
    for _ in range(kills):
        with open(target, "wb") as f:
            f.write(old)
        before = set(temporaries(work, prefix))
        process = subprocess.Popen([BINARY, "-X", "session.sophon"], env=base_env(home), cwd=work,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        killed = wait_and_kill(process, time.monotonic(), seconds * 1.1,
                               lambda: len(temporaries(work, prefix)) > len(before))
        counts["killed"] += killed
        counts["temp left"] += len(set(temporaries(work, prefix)) - before) > 0
        with open(target, "rb") as f:
            content = f.read()
        if content == old:
            counts["old"] += 1
        elif content == new:
            counts["new"] += 1
        else:
            fail(name, f"out.sophon is neither old nor new ({len(content)} bytes)")
    starts_cleanly(name, home, work)
    # The next write that completes removes what killed writers left behind.
    run(["-X", "session.sophon"], home, cwd=work)
    if temporaries(work, prefix):
        fail(name, f"temporaries of killed runs stay after a completed save: "
                   f"{len(temporaries(work, prefix))}")
    replay = run(["-X", "out.sophon"], home, cwd=work)
    if replay.returncode != 0:
        fail(name, f"the saved script does not run: {replay.stderr[:200]!r}")
    return counts


# ---------------------------------------------------------------- key set


def scenario_key(kills, root):
    name = "key"
    home = os.path.join(root, "key-home")
    os.makedirs(home, mode=0o700)
    others = {f"account-{i:04d}": ("k%04d" % i) * 180 for i in range(1000)}
    key = "AIzaSyCRASHSAFETY000000000000000000000"

    def pretty(accounts):
        return (json.dumps(dict(sorted(accounts.items())), indent=2) + "\n").encode()

    old = pretty(others)
    new = pretty(dict(others, gemini=key))
    target = os.path.join(home, "keys.json")

    def reset():
        with open(target, "wb") as f:
            f.write(old)
        os.chmod(target, 0o600)

    reset()
    stdin = f"key set\n{key}\n".encode()
    result, seconds = timed_reference(["-X"], home, home, stdin=stdin)
    with open(target, "rb") as f:
        written = f.read()
    if result.returncode != 0 or written != new:
        fail(name, f"the reference `key set` did not write the key ({result.returncode}, "
                   f"{len(written)} bytes, {result.stderr[:200]!r})")
        return
    prefix = ".keys.json.tmp-"
    counts = {"old": 0, "new": 0, "killed": 0, "temp left": 0}
    for _ in range(kills):
        reset()
        before = set(temporaries(home, prefix))
        process = subprocess.Popen([BINARY, "-X"], env=base_env(home), cwd=home,
                                   stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        process.stdin.write(stdin)
        process.stdin.close()
        killed = wait_and_kill(process, time.monotonic(), seconds * 1.1,
                               lambda: len(temporaries(home, prefix)) > len(before))
        counts["killed"] += killed
        counts["temp left"] += len(set(temporaries(home, prefix)) - before) > 0
        with open(target, "rb") as f:
            content = f.read()
        mode = os.stat(target).st_mode & 0o777
        if content == old:
            counts["old"] += 1
        elif content == new:
            counts["new"] += 1
        else:
            fail(name, f"keys.json is neither old nor new ({len(content)} bytes)")
        if mode != 0o600:
            fail(name, f"keys.json has mode {mode:o}")
        for temporary in set(temporaries(home, prefix)) - before:
            mode = os.stat(os.path.join(home, temporary)).st_mode & 0o777
            if mode & 0o077:
                fail(name, f"the temporary {temporary} has mode {mode:o}")
    starts_cleanly(name, home)
    reset()
    run(["-X"], home, stdin=stdin)
    if temporaries(home, prefix):
        fail(name, f"temporaries of killed runs (copies of keys.json) stay after a completed "
                   f"`key set`: {len(temporaries(home, prefix))}")
    show = run(["-X", "-c", "key show"], home)
    if show.returncode != 0:
        fail(name, f"`key show` fails after the kills: {show.stderr[:200]!r}")
    return counts


# ---------------------------------------------------------------- history


def history_entries(path):
    with open(path, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    partial = lines.pop() if lines else b""  # after the last newline: a cut-off line, or b""
    return lines, partial


def kill_and_reap(child):
    """SIGKILL, then wait for the exit: on a loaded machine a killed process can outlive
    pexpect's short wait in close(force=True), which then raises "Could not terminate"."""
    child.kill(signal.SIGKILL)
    try:
        child.wait()
    except pexpect.ExceptionPexpect:
        pass  # Already reaped.
    child.close(force=True)


def scenario_history(kills, root):
    name = "history"
    home = os.path.join(root, "history-home")
    os.makedirs(home)
    target = os.path.join(home, "history")
    old_entries = [(b"old%04d-" % i) * 500 for i in range(1200)]
    old = HISTORY_HEADER + b"\n" + b"".join(e + b"\n" for e in old_entries)
    typed = [f"echo typed-{n}-{'t' * 60}" for n in range(6)]
    encoded = [t.replace(" ", "\\040").encode() for t in typed]
    counts = {"killed": 0, "compacted": 0, "appended only": 0, "old": 0, "temp left": 0,
              "cut line": 0}
    for _ in range(kills):
        with open(target, "wb") as f:
            f.write(old)
        before = set(temporaries(home, "history.tmp-"))
        child = spawn(BINARY, home, ["-X"], cwd=home, timeout=TIMEOUT, encoding=None)
        child.expect_exact(PROMPT)
        if RNG.random() < 0.5:
            # Kill as the compaction's temp file appears (or soon after).
            child.send(typed[0] + "\r")
            started = time.monotonic()
            while time.monotonic() - started < 1 and \
                    len(temporaries(home, "history.tmp-")) == len(before):
                pass
            if RNG.random() < 0.5:
                time.sleep(RNG.uniform(0, 0.005))
        else:
            count = RNG.randint(1, len(typed))
            for n in range(count):
                child.send(typed[n] + "\r")
                if n + 1 < count:
                    child.expect_exact(PROMPT)
            time.sleep(RNG.uniform(0, 0.05))
        counts["killed"] += child.isalive()
        kill_and_reap(child)
        counts["temp left"] += len(set(temporaries(home, "history.tmp-")) - before) > 0
        lines, partial = history_entries(target)
        if not lines or lines[0] != HISTORY_HEADER:
            fail(name, "the history file lost its header")
            continue
        entries = lines[1:]
        # Old entries (the newest 1,000 when compacted), then the typed lines in order; at most
        # the last line cut short (an append killed mid-write).
        typed_part = [e for e in entries if e.startswith(b"echo\\040typed-")]
        kept = entries[:len(entries) - len(typed_part)]
        if typed_part != encoded[:len(typed_part)]:
            fail(name, f"the typed entries are not a prefix of what was typed: {typed_part[:3]}")
            continue
        if kept == old_entries:
            state = "appended only" if typed_part or partial else "old"
        elif len(kept) == 999 and kept == old_entries[-999:]:
            state = "compacted"  # the newest 1,000: 999 old entries and the first typed line
        else:
            fail(name, f"the old entries changed ({len(kept)} kept)")
            continue
        if partial:
            counts["cut line"] += 1
            following = encoded[len(typed_part)] if len(typed_part) < len(encoded) else b""
            if not following.startswith(partial):
                fail(name, f"a cut line that is not part of a typed line: {partial[:80]!r}")
        counts[state] += 1
    # The REPL starts on what is left and loads the history: Up recalls the newest entry.
    child = spawn(BINARY, home, ["-X"], cwd=home, timeout=TIMEOUT, encoding=None)
    try:
        child.expect_exact(PROMPT)
        child.send("\x1b[A\r")
        child.expect(r"typed-\d+-t+\r\n")
        child.expect_exact(PROMPT)
        end_with_ctrl_d(child)
    except pexpect.ExceptionPexpect as error:
        fail(name, f"the REPL did not recall history after the kills: {type(error).__name__} "
                   f"{child.before!r:.300}")
    child.close(force=True)
    starts_cleanly(name, home)
    return counts


# ---------------------------------------------------------------- --record


def tape_lines(path):
    with open(path, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    return lines[:-1], lines[-1]


def scenario_record(kills, root):
    name = "record"
    home = os.path.join(root, "record-home")
    os.makedirs(home)
    key = "AIzaSyCRASHSAFETY000000000000000000000"
    server = FakeGemini(key)
    asks = ["one", "two", "three"]
    with open(os.path.join(home, "asks.sophon"), "w") as f:
        f.write("".join(f"ask {a}\n" for a in asks))

    def replies():
        return [{"kind": "generate", "chunks": [f"{a}-{n:03d}-" + "r" * 10000 for n in range(100)]}
                for a in asks]

    env = {"SOPHON_GEMINI_BASE_URL": server.url, "GEMINI_API_KEY": key}
    tape = os.path.join(home, "run.tape")
    try:
        server.script(*replies())
        result, seconds = timed_reference(["-X", "--record", tape, "asks.sophon"], home, home, **env)
        reference, rest = tape_lines(tape)
        if result.returncode != 0 or rest or len(reference) != 1 + len(asks):
            fail(name, f"the reference recording failed ({result.returncode}, "
                       f"{len(reference)} lines, {result.stderr[:300]!r})")
            return
        print(f"  reference recording: {seconds:.2f} s, {os.stat(tape).st_size} bytes", flush=True)
        counts = {"killed": 0, "partial line": 0, "complete exchanges": 0, "empty": 0}
        for _ in range(kills):
            server.script(*replies())
            # The run records into TAPE.partial and renames it to TAPE when it ends (docs/tapes.md).
            partial_tape = tape + ".partial"
            for stale in (tape, partial_tape):
                if os.path.exists(stale):
                    os.unlink(stale)
            process = subprocess.Popen(
                [BINARY, "-X", "--record", tape, "asks.sophon"], env=base_env(home, **env), cwd=home,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            growths = RNG.randint(1, 1 + len(asks))
            seen = [0, -1]

            def grown():
                size = os.stat(partial_tape).st_size if os.path.exists(partial_tape) else -1
                if size != seen[1]:
                    seen[0] += size != seen[1]
                    seen[1] = size
                return seen[0] >= growths

            killed = wait_and_kill(process, time.monotonic(), seconds * 1.1, grown, delay=0)
            if killed and os.path.exists(tape):
                # The kill can land after the run renamed its finished tape, before it exited (on a
                # busy machine that gap is long): then TAPE is whole and TAPE.partial is gone.
                lines, rest = tape_lines(tape)
                if os.path.exists(partial_tape) or rest or len(lines) != 1 + len(asks):
                    fail(name, "a killed run left TAPE, not only TAPE.partial")
                killed = False
            counts["killed"] += killed
            written = partial_tape if killed else tape
            if not os.path.exists(written):
                counts["empty"] += 1
                continue
            lines, partial = tape_lines(written)
            counts["partial line"] += bool(partial)
            counts["complete exchanges"] += max(0, len(lines) - 1)
            for number, line in enumerate(lines):
                try:
                    value = json.loads(line)
                except ValueError:
                    fail(name, f"tape line {number + 1} is not valid JSON")
                    break
                if number == 0 and value != {"sophonTape": 1}:
                    fail(name, f"the tape header is {line[:80]!r}")
                elif number > 0 and set(value) != {"request", "response"}:
                    fail(name, f"tape line {number + 1} is not an exchange: {sorted(value)}")
            if lines and partial:
                # The complete lines are a readable prefix: they replay the first asks offline.
                prefix = os.path.join(home, "prefix.tape")
                with open(prefix, "wb") as f:
                    f.write(b"".join(line + b"\n" for line in lines))
                with open(os.path.join(home, "prefix.sophon"), "w") as f:
                    f.write("".join(f"ask {a}\n" for a in asks[:len(lines) - 1]))
                replay = run(["-X", "--replay", prefix, "prefix.sophon"], home)
                if replay.returncode != 0:
                    fail(name, f"the complete lines of a killed tape do not replay: "
                               f"{replay.stderr[:300]!r}")
        starts_cleanly(name, home)
        return counts
    finally:
        server.stop()


def main():
    print(f"crash-safety: {BINARY}, {KILLS} kills, seed {SEED}", flush=True)
    scenarios = [("save", scenario_save), ("key set", scenario_key),
                 ("history", scenario_history), ("record", scenario_record)]
    only = os.environ.get("CRASH_SAFETY_ONLY")
    root = tempfile.mkdtemp(prefix="sophon-crash-")
    try:
        for index, (label, scenario) in enumerate(scenarios):
            kills = KILLS // len(scenarios) + (index < KILLS % len(scenarios))
            if only and only not in label:
                continue
            started = time.monotonic()
            counts = scenario(kills, root)
            took = time.monotonic() - started
            print(f"{label}: {kills} runs in {took:.1f} s: {counts}", flush=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if FAILURES:
        print(f"crash-safety: FAILED ({len(FAILURES)} violations)")
        return 1
    print("crash-safety: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
