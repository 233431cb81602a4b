#!/usr/bin/env python3
"""The Python side of scripts/bench: google-genai and the raw floors, same calls as SophonBench.

    bench-peers.py MODE --base-url URL [--calls N] [--concurrency C] [--warmup W]

MODE
    genai          google-genai `models.generate_content` with a pydantic response_schema,
                   result read through `response.parsed` (sync client at concurrency 1, the
                   async client `aio` with C workers otherwise)
    raw            floor: `http.client` keep-alive POSTs of the same body, the reply read whole
                   and not decoded (one thread and connection per worker)
    genai-stream   google-genai `generate_content_stream`: ms from the server's first SSE event
                   (its CLOCK_MONOTONIC stamp is the event text, `t=SECONDS`) to the first chunk
    raw-stream     floor: a plain socket sending the request and reading until the first
                   `data:` line, stamped when the line is complete

Prints one JSON object like SophonBench's: calls, seconds, cpu_seconds (getrusage of this
process around the measured loop, warm-up excluded), errors, or latencies_ms for streams.
google-genai is pointed at the fake server through http_options base_url with a dummy key:
nothing is ever sent to Google.
"""

import argparse
import asyncio
import http.client
import json
import re
import resource
import socket
import sys
import threading
import time
from urllib.parse import urlsplit

MODEL = "gemini-3.1-flash-lite"
PROMPT = "Extract the film: Arrival (2016), directed by Denis Villeneuve, rated 7.9."
KEY = "test-key"
BODY = json.dumps({
    "contents": [{"role": "user", "parts": [{"text": PROMPT}]}],
    "generationConfig": {
        "responseMimeType": "application/json",
        "responseSchema": {
            "type": "OBJECT",
            "properties": {"title": {"type": "STRING"}, "year": {"type": "INTEGER"},
                           "rating": {"type": "NUMBER", "minimum": 0, "maximum": 10},
                           "tags": {"type": "ARRAY", "items": {"type": "STRING"}}},
            "required": ["title", "year", "rating", "tags"],
            "propertyOrdering": ["title", "year", "rating", "tags"],
        },
    },
}).encode("utf-8")


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def now():
    return time.clock_gettime(time.CLOCK_MONOTONIC)


def stamp_of(text):
    match = re.match(r"t=([0-9.]+)", text or "")
    if not match:
        raise ValueError("first chunk without a stamp: %r" % text)
    return float(match.group(1))


# ---- google-genai ---------------------------------------------------------------------------

def genai_client(base_url):
    from google import genai
    from google.genai import types
    return genai.Client(api_key=KEY, http_options=types.HttpOptions(base_url=base_url, api_version="v1beta"))


def genai_config():
    from google.genai import types
    from pydantic import BaseModel

    class Movie(BaseModel):
        title: str
        year: int
        rating: float
        tags: list[str]

    return types.GenerateContentConfig(response_mime_type="application/json", response_schema=Movie)


def genai_throughput(args):
    client = genai_client(args.base_url)
    config = genai_config()
    errors = 0

    def check(response):
        movie = response.parsed
        if movie is None or movie.year != 2016:
            raise ValueError("bad parse: %r" % response.text)

    if args.concurrency == 1:
        def one():
            check(client.models.generate_content(model=MODEL, contents=PROMPT, config=config))
        for _ in range(args.warmup):
            one()
        cpu, start = cpu_seconds(), now()
        for _ in range(args.calls):
            try:
                one()
            except Exception as error:  # noqa: BLE001 - counted, first one shown
                errors += 1
                if errors == 1:
                    print("first error:", error, file=sys.stderr)
        return {"seconds": now() - start, "cpu_seconds": cpu_seconds() - cpu, "errors": errors}

    async def run_async():
        nonlocal errors
        remaining = [args.warmup]

        async def worker():
            nonlocal errors
            while remaining[0] > 0:
                remaining[0] -= 1
                try:
                    check(await client.aio.models.generate_content(model=MODEL, contents=PROMPT, config=config))
                except Exception as error:  # noqa: BLE001
                    errors += 1
                    if errors == 1:
                        print("first error:", error, file=sys.stderr)

        await asyncio.gather(*(worker() for _ in range(min(args.concurrency, max(args.warmup, 1)))))
        remaining[0] = args.calls
        cpu, start = cpu_seconds(), now()
        await asyncio.gather(*(worker() for _ in range(args.concurrency)))
        return {"seconds": now() - start, "cpu_seconds": cpu_seconds() - cpu, "errors": errors}

    return asyncio.run(run_async())


def genai_stream(args):
    client = genai_client(args.base_url)

    def one():
        latency = None
        for chunk in client.models.generate_content_stream(model=MODEL, contents=PROMPT):
            arrived = now()
            if latency is None:
                latency = arrived - stamp_of(chunk.text)
        return latency * 1000

    for _ in range(args.warmup):
        one()
    return {"latencies_ms": [one() for _ in range(args.calls)], "errors": 0}


# ---- raw floors -----------------------------------------------------------------------------

def raw_throughput(args):
    url = urlsplit(args.base_url)
    path = "/v1beta/models/%s:generateContent" % MODEL
    headers = {"content-type": "application/json", "x-goog-api-key": KEY}
    counter = [0]
    lock = threading.Lock()
    errors = [0]

    def worker(count_limit):
        connection = http.client.HTTPConnection(url.hostname, url.port)
        while True:
            with lock:
                if counter[0] >= count_limit:
                    break
                counter[0] += 1
            connection.request("POST", path, body=BODY, headers=headers)
            response = connection.getresponse()
            data = response.read()
            if response.status != 200 or not data:
                errors[0] += 1
        connection.close()

    def run(count):
        counter[0] = 0
        threads = [threading.Thread(target=worker, args=(count,)) for _ in range(args.concurrency)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    run(args.warmup)
    cpu, start = cpu_seconds(), now()
    run(args.calls)
    return {"seconds": now() - start, "cpu_seconds": cpu_seconds() - cpu, "errors": errors[0]}


def raw_stream(args):
    url = urlsplit(args.base_url)
    request = (
        "POST /v1beta/models/%s:streamGenerateContent?alt=sse HTTP/1.1\r\nHost: %s:%d\r\n"
        "x-goog-api-key: %s\r\ncontent-type: application/json\r\naccept: text/event-stream\r\n"
        "Content-Length: %d\r\nConnection: close\r\n\r\n" % (MODEL, url.hostname, url.port, KEY, len(BODY))
    ).encode("ascii") + BODY

    def one():
        with socket.create_connection((url.hostname, url.port)) as sock:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.sendall(request)
            buffer = b""
            while True:
                data = sock.recv(65536)
                if not data:
                    raise ValueError("EOF before a data: line")
                buffer += data
                start = buffer.find(b"data: ")
                end = buffer.find(b"\r\n", start) if start >= 0 else -1
                if end >= 0:
                    arrived = now()
                    line = buffer[start + 6:end].decode("utf-8")
                    text = json.loads(line)["candidates"][0]["content"]["parts"][0]["text"]
                    return (arrived - stamp_of(text)) * 1000

    for _ in range(args.warmup):
        one()
    return {"latencies_ms": [one() for _ in range(args.calls)], "errors": 0}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=["genai", "raw", "genai-stream", "raw-stream"])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--warmup", type=int, default=50)
    args = parser.parse_args()
    run = {"genai": genai_throughput, "raw": raw_throughput, "genai-stream": genai_stream,
           "raw-stream": raw_stream}[args.mode]
    report = run(args)
    report.update({"mode": args.mode, "calls": args.calls, "concurrency": args.concurrency})
    print(json.dumps(report, sort_keys=True))


if __name__ == "__main__":
    sys.exit(main())
