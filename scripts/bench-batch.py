#!/usr/bin/env python3
"""`batch submit` and `batch results` of a large job, measured (docs/running-many-prompts.md).

    bench-batch.py --bin .build/release/sophon [--lines 100000] [--prompt-bytes 0]
                   [--max-requests 100000]

Starts scripts/fake_gemini.py (jobs succeed at once, answers out of order), writes LINES prompt
lines (`{"key": "k000001", "prompt": "prompt number 000001 ..."}`, padded with PROMPT-BYTES
more bytes), then runs `sophon batch submit IN --name bench --max-requests M`, `batch wait
bench` and `batch results bench -o OUT` under /usr/bin/time -v. Prints one JSON object: input
bytes; for submit and results the wall seconds and peak RSS (MB); how the requests went
(inline bytes or the uploaded file's bytes); and whether OUT holds every key once, in input
order.
"""

import argparse
import json
import os
import re
import subprocess
import tempfile
import time
import urllib.request

from fake_gemini_client import FakeGemini


def timed(command, env):
    """Runs command under /usr/bin/time -v: (exit status, wall seconds, peak RSS MB, stderr)."""
    process = subprocess.run(["/usr/bin/time", "-v"] + command, env=env, capture_output=True, text=True)
    text = process.stderr
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1)) / 1024
    clock = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", text).group(1)
    seconds = 0.0
    for part in clock.split(":"):
        seconds = seconds * 60 + float(part)
    own = text[:text.find("\tCommand being timed")].strip()
    return process.returncode, round(seconds, 2), round(rss, 1), own


def submit_name(folder):
    """The journal's first job, as JSON text."""
    with open(os.path.join(folder, "batches.json")) as handle:
        return json.dumps(json.load(handle)["jobs"][0])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--lines", type=int, default=100000)
    parser.add_argument("--prompt-bytes", type=int, default=0)
    parser.add_argument("--max-requests", type=int, default=100000)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="sophon-bench-batch-")
    server = FakeGemini()
    base = server.url
    server.post("/_sophon/batch-faults", {"pendingFor": 5, "runningFor": 0, "outOfOrder": True})
    source = os.path.join(folder, "in.jsonl")
    padding = "x" * args.prompt_bytes
    with open(source, "w") as handle:
        for number in range(args.lines):
            handle.write(json.dumps({"key": "k%06d" % number, "prompt": "prompt number %06d %s" % (number, padding)})
                         + "\n")
    env = dict(os.environ, SOPHON_HOME=folder, SOPHON_GEMINI_BASE_URL=base, GEMINI_API_KEY="test-key")
    submit = timed([args.bin, "batch", "submit", source, "--name", "bench", "--max-requests",
                    str(args.max_requests)], env)
    seen = server.requests()
    creates = [r for r in seen if r["path"].endswith(":batchGenerateContent")]
    uploads = server.uploads()
    sent = {"creates": len(creates), "inlineBytes": sum(len(r["body"].encode()) for r in creates
                                                       if '"fileName"' not in r["body"][:200]),
            "uploadedBytes": sum(u["size"] for u in uploads)}
    wait = subprocess.run([args.bin, "batch", "wait", "bench"], env=env, capture_output=True, text=True)
    # The server's share: one plain GET of the finished Operation (and of its results file), read whole.
    def timed_get(path):
        started = time.monotonic()
        request = urllib.request.Request(base + "/v1beta/" + path, headers={"x-goog-api-key": "test-key"})
        body = urllib.request.urlopen(request).read()
        return body, round(time.monotonic() - started, 2)

    body, seconds = timed_get(json.loads(submit_name(folder))["name"])
    server_get = {"operationSeconds": seconds, "operationBytes": len(body)}
    responses = json.loads(body).get("metadata", {}).get("output", {}).get("responsesFile")
    if responses:
        body, seconds = timed_get(responses + ":download?alt=media")
        server_get.update(fileSeconds=seconds, fileBytes=len(body))
    output = os.path.join(folder, "out.jsonl")
    results = timed([args.bin, "batch", "results", "bench", "-o", output], env)
    server.stop()
    with open(output) as handle:
        keys = [json.loads(line)["key"] for line in handle]
    print(json.dumps({
        "lines": args.lines, "inputBytes": os.path.getsize(source),
        "submit": {"exit": submit[0], "wallSeconds": submit[1], "peakRSSMB": submit[2], "sent": sent},
        "wait": {"exit": wait.returncode}, "serverGet": server_get,
        "results": {"exit": results[0], "wallSeconds": results[1], "peakRSSMB": results[2],
                    "stderr": results[3].splitlines()[-1:]},
        "inInputOrder": keys == ["k%06d" % n for n in range(args.lines)],
    }))


if __name__ == "__main__":
    main()
