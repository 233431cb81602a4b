#!/usr/bin/env python3
"""`compare` over N models, and `run` before and after cost bookkeeping, measured (issue 28).

    bench-compare.py --bin .build/debug/sophon [--before OTHER-SOPHON] [--repeats 5]
                     [--lines 2000] [--jobs 16]

1. compare: scripts/fake_gemini.py answers each model after its own delay (/_sophon/limits
   "modelLatency": 0.2, 0.5, 1.0 and 1.5 s); `sophon compare --models` over the four runs
   REPEATS times. Reported: the median wall time, the slowest model's delay and the sum of the
   delays (compare asks them at once, so it should take about the slowest, not the sum), and a
   one-model `ask` on the slowest for the process's own overhead.
2. run: LINES prompt lines through `sophon run --jobs JOBS` with no server delay, REPEATS times,
   with --bin (cost bookkeeping: each answer priced, the session ledger, the summary's cost) and
   with --before (a binary without it, e.g. main before issue 28). Reported: median lines/s.
Prints one JSON object.
"""

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

from fake_gemini_client import FakeGemini

DELAYS = {"gemini-2.5-flash-lite": 0.2, "gemini-2.5-flash": 0.5, "gemini-3.1-flash-lite": 1.0, "gemini-3.8-flash": 1.5}


def timed(command, env, cwd):
    started = time.monotonic()
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit("failed: %s\n%s" % (" ".join(command), done.stderr))
    return time.monotonic() - started


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--before")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=16)
    args = parser.parse_args()
    result = {}
    with FakeGemini() as server, tempfile.TemporaryDirectory() as home:
        env = {"PATH": "/usr/bin:/bin", "SOPHON_HOME": home, "HOME": home, "LANG": "C.UTF-8",
               **server.environment()}
        server.post("/_sophon/limits", {"modelLatency": DELAYS})
        models = ",".join(DELAYS)
        compare = [timed([os.path.abspath(args.bin), "--no-log", "compare", "--models", models, "hi"], env, home)
                   for _ in range(args.repeats)]
        single = [timed([os.path.abspath(args.bin), "--no-log", "ask", "--model", "gemini-3.8-flash", "hi"], env, home)
                  for _ in range(args.repeats)]
        result["compare"] = {
            "models": len(DELAYS), "medianSeconds": round(statistics.median(compare), 3),
            "slowestModelSeconds": max(DELAYS.values()), "sumOfModelsSeconds": round(sum(DELAYS.values()), 3),
            "askOnSlowestMedianSeconds": round(statistics.median(single), 3),
        }
        server.post("/_sophon/limits", {"modelLatency": {}})
        with open(os.path.join(home, "in.jsonl"), "w") as source:
            for number in range(args.lines):
                source.write(json.dumps({"key": "k%d" % number, "prompt": "line %d" % number}) + "\n")
        binaries = {"after": args.bin}
        if args.before:
            binaries["before"] = args.before
        # Interleaved (before, after, before, ...), so a loaded machine slows both alike.
        rates = {name: [] for name in binaries}
        for repeat in range(args.repeats):
            for name, binary in binaries.items():
                output = "out-%s-%d.jsonl" % (name, repeat)
                seconds = timed([os.path.abspath(binary), "--no-log", "run", "in.jsonl", "-o", output,
                                 "--jobs", str(args.jobs)], env, home)
                rates[name].append(args.lines / seconds)
        runs = {name: {"medianLinesPerSecond": round(statistics.median(values), 1),
                       "rates": [round(rate, 1) for rate in values]} for name, values in rates.items()}
        result["run"] = {"lines": args.lines, "jobs": args.jobs, **runs}
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
