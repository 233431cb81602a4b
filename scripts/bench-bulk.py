#!/usr/bin/env python3
"""`run` under a server rate limit, measured (docs/running-many-prompts.md).

    bench-bulk.py --bin .build/debug/sophon [--prompts 2000] [--rpm 600] [--latency 0.2]
                  [--jobs 8] [--kills 0]

Starts scripts/fake_gemini.py with --rpm/--latency, writes PROMPTS prompt lines, and runs
`sophon run IN -o OUT --rpm RPM --jobs JOBS` against it. With --kills K the run is SIGKILLed K
times at random points (a random delay) and started again with the same command. Prints one
JSON object: wall seconds, achieved rate (calls admitted per minute over the run), calls answered
429, keys lost (missing in OUT) and keys asked more than once (beyond the re-asks a kill allows:
at most JOBS per kill).
"""

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--prompts", type=int, default=2000)
    parser.add_argument("--rpm", type=int, default=600)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--jobs", type=int, default=8)
    parser.add_argument("--kills", type=int, default=0)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="sophon-bench-bulk-")
    server = subprocess.Popen(
        [sys.executable, os.path.join(ROOT, "scripts/fake_gemini.py"), "--rpm", str(args.rpm),
         "--latency", str(args.latency), "--exit-on-stdin-eof"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    port = int(server.stdout.readline())
    base = "http://127.0.0.1:%d" % port
    source = os.path.join(folder, "in.jsonl")
    with open(source, "w") as handle:
        for number in range(args.prompts):
            handle.write(json.dumps({"key": "k%05d" % number, "prompt": "prompt number %05d" % number}) + "\n")
    env = dict(os.environ, SOPHON_HOME=folder, SOPHON_GEMINI_BASE_URL=base, GEMINI_API_KEY="test-key")
    command = [args.bin, "run", source, "-o", os.path.join(folder, "out.jsonl"), "--rpm", str(args.rpm),
               "--jobs", str(args.jobs)]
    started = time.monotonic()
    kills = 0
    while True:
        process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
        if kills < args.kills:
            try:
                process.wait(timeout=random.uniform(1, 20))
            except subprocess.TimeoutExpired:
                process.send_signal(signal.SIGKILL)
                process.wait()
                kills += 1
                continue
        stderr = process.communicate()[1]
        break
    wall = time.monotonic() - started
    stats = json.load(urllib.request.urlopen(base + "/_sophon/stats"))
    seen = json.load(urllib.request.urlopen(base + "/_sophon/requests"))
    server.stdin.close()
    server.wait()
    asked = {}
    for request in seen:
        body = request.get("body", "")
        marker = body.find("prompt number ")
        if marker >= 0:
            key = "k" + body[marker + 14:marker + 19]
            asked[key] = asked.get(key, 0) + 1
    # A 429 answer is a request too: count only admitted ones per key.
    with open(os.path.join(folder, "out.jsonl")) as handle:
        keys = [json.loads(line)["key"] for line in handle]
    expected = ["k%05d" % number for number in range(args.prompts)]
    total_asked = sum(asked.values()) - stats["rateLimited"]
    print(json.dumps({
        "prompts": args.prompts, "rpm": args.rpm, "latency": args.latency, "jobs": args.jobs, "kills": kills,
        "exit": process.returncode, "summary": stderr.strip().splitlines()[-1:],
        "wallSeconds": round(wall, 1),
        "achievedPerMinute": round(stats["admitted"] / wall * 60, 1),
        "achievedShareOfLimit": round(stats["admitted"] / wall * 60 / args.rpm, 3),
        "answered429": stats["rateLimited"], "share429": round(stats["rateLimited"] / max(1, len(seen)), 4),
        "lost": len(set(expected) - set(keys)), "outOfOrder": keys != expected,
        "askedTwiceOrMore": total_asked - args.prompts,
    }))


if __name__ == "__main__":
    main()
