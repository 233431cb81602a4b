#!/usr/bin/env python3
"""Files per second of `sophon test` on 200 replayed scripts, at --jobs 1 and --jobs 2.

Each script is a copy of examples/regression.sophon beside a copy of its tape (4 structured
asks and 13 expects each, answered from the tape: no network, no key). Prints one line per
jobs setting: the median wall-clock time of N runs and the files per second it gives.

Usage: python3 scripts/bench-test-runner.py [SOPHON] [--files 200] [--runs 3] [--jobs 1,2]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("sophon", nargs="?", default=os.path.join(HERE, "..", ".build", "release", "sophon"))
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", default="1,2")
    options = parser.parse_args()
    options.sophon = os.path.abspath(options.sophon)
    examples = os.path.join(HERE, "..", "examples")
    folder = tempfile.mkdtemp(prefix="sophon-bench-test-")
    home = os.path.join(folder, "home")
    suite = os.path.join(folder, "suite")
    os.makedirs(home)
    os.makedirs(suite)
    for index in range(options.files):
        shutil.copy(os.path.join(examples, "regression.sophon"), os.path.join(suite, f"t{index:04d}.sophon"))
        shutil.copy(os.path.join(examples, "regression.tape"), os.path.join(suite, f"t{index:04d}.tape"))
    env = dict(os.environ, SOPHON_HOME=home)
    env.pop("GEMINI_API_KEY", None)
    try:
        print(f"sophon test on {options.files} replayed scripts ({os.cpu_count()} cores), median of {options.runs}:")
        for jobs in options.jobs.split(","):
            times = []
            for _ in range(options.runs):
                start = time.perf_counter()
                result = subprocess.run([options.sophon, "test", "--jobs", jobs, "suite"], cwd=folder, env=env,
                                        capture_output=True, text=True, stdin=subprocess.DEVNULL)
                times.append(time.perf_counter() - start)
                tally = result.stdout.splitlines()[-1] if result.stdout else result.stderr
                if result.returncode != 0 or tally != f"{options.files} passed, 0 failed":
                    raise SystemExit(f"bench: the run failed: {tally}")
            median = statistics.median(times)
            print(f"  --jobs {jobs}: {median:.2f} s, {options.files / median:.1f} files/s")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
