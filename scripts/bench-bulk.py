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
import tempfile
import time

from fake_gemini_client import FakeGemini


# The peer: google-genai's async client in a plain asyncio loop, JOBS calls at a time, no
# limiter, its default retry options.
PEER = """
import asyncio, json, sys
from google import genai
from google.genai import types

async def main(base, source, output, jobs):
    client = genai.Client(api_key="test-key", http_options=types.HttpOptions(base_url=base, api_version="v1beta"))
    lines = [json.loads(line) for line in open(source)]
    semaphore = asyncio.Semaphore(jobs)
    results = {}
    async def one(item):
        async with semaphore:
            try:
                reply = await client.aio.models.generate_content(model="gemini-3.8-flash", contents=item["prompt"])
                results[item["key"]] = {"ok": True, "result": reply.text}
            except Exception as error:
                results[item["key"]] = {"ok": False, "error": type(error).__name__}
    await asyncio.gather(*(one(item) for item in lines))
    with open(output, "w") as handle:
        for item in lines:
            handle.write(json.dumps(dict(key=item["key"], **results[item["key"]])) + "\\n")
    print(json.dumps({"failed": sum(1 for r in results.values() if not r["ok"])}))

asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])))
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--prompts", type=int, default=2000)
    parser.add_argument("--rpm", type=int, default=600)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--jobs", type=int, default=8)
    parser.add_argument("--kills", type=int, default=0)
    parser.add_argument("--peer", help="a Python with google-genai: run the same prompts through its "
                        "async client instead (a plain asyncio loop, JOBS at a time, as a user writes it)")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="sophon-bench-bulk-")
    server = FakeGemini(options=("--rpm", str(args.rpm), "--latency", str(args.latency)))
    base = server.url
    source = os.path.join(folder, "in.jsonl")
    with open(source, "w") as handle:
        for number in range(args.prompts):
            handle.write(json.dumps({"key": "k%05d" % number, "prompt": "prompt number %05d" % number}) + "\n")
    env = dict(os.environ, SOPHON_HOME=folder, SOPHON_GEMINI_BASE_URL=base, GEMINI_API_KEY="test-key")
    command = [args.bin, "run", source, "-o", os.path.join(folder, "out.jsonl"), "--rpm", str(args.rpm),
               "--jobs", str(args.jobs)]
    started = time.monotonic()
    kills = 0
    if args.peer:
        peer = subprocess.run([args.peer, "-c", PEER, base, source, os.path.join(folder, "out.jsonl"),
                               str(args.jobs)], env=env, capture_output=True, text=True)
        wall = time.monotonic() - started
        stats = server.stats()
        server.stop()
        report = json.loads(peer.stdout or "{}")
        print(json.dumps({
            "client": "google-genai", "prompts": args.prompts, "rpm": args.rpm, "latency": args.latency,
            "jobs": args.jobs, "wallSeconds": round(wall, 1),
            "achievedPerMinute": round(stats["admitted"] / wall * 60, 1),
            "answered429": stats["rateLimited"], "failedKeys": report.get("failed"),
            "error": peer.stderr.strip().splitlines()[-1:] if peer.returncode else None,
        }))
        return
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
    stats = server.stats()
    seen = server.requests()
    server.stop()
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
