#!/usr/bin/env python3
"""scripts/fake_gemini.py in benchmark mode: the same server class and handler plumbing
(HTTP/1.1 keep-alive, Nagle off, listen backlog 256, ThreadingHTTPServer), but every API
request gets one fixed reply, precomputed, and no request is logged (the log would grow by one
entry per call and take a lock the clients would then contend for).

    python3 scripts/bench-server.py [--port 0] [--stream-gap-ms 20]

Prints the port on the first line of stdout, then serves until killed.

    POST .../models/{m}:generateContent         200, the fixed structured reply, pretty-printed
                                                 as Google's server sends it
    POST .../models/{m}:streamGenerateContent   200 SSE (chunked): headers, a pause of
                                                 --stream-gap-ms, then event 1 whose text is
                                                 `t=SECONDS` (CLOCK_MONOTONIC taken just
                                                 before the write), the same pause, then the
                                                 final event with finishReason STOP

The key must be `test-key` (403/400 otherwise, as fake_gemini answers).
"""

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fake_gemini  # noqa: E402

KEY = "test-key"
MOVIE = {"title": "Arrival", "year": 2016, "rating": 7.9, "tags": ["sci-fi", "drama"]}
REPLY = {
    "candidates": [{
        "content": {"parts": [{"text": json.dumps(MOVIE)}], "role": "model"},
        "finishReason": "STOP",
        "index": 0,
    }],
    "usageMetadata": {"promptTokenCount": 24, "candidatesTokenCount": 31, "totalTokenCount": 55,
                      "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 24}]},
    "modelVersion": "gemini-3.1-flash-lite",
    "responseId": "benchResponse0000000001",
}
REPLY_BYTES = fake_gemini.pretty(REPLY).encode("utf-8")
GAP = 0.02


def event(text, final):
    candidate = {"content": {"parts": [{"text": text}], "role": "model"}}
    if final:
        candidate["finishReason"] = "STOP"
    body = {"candidates": [candidate], "modelVersion": "gemini-3.1-flash-lite",
            "responseId": "benchStream"}
    if final:
        body["usageMetadata"] = {"promptTokenCount": 24, "candidatesTokenCount": 4, "totalTokenCount": 28}
    return b"data: " + json.dumps(body, separators=(",", ":")).encode("utf-8") + b"\r\n\r\n"


class BenchHandler(fake_gemini.Handler):
    def route(self, method):
        body = self.read_body()
        del body
        key = self.headers.get("x-goog-api-key")
        if key != KEY:
            status = 403 if not key else 400
            return self.send_json(status, fake_gemini.rpc_error(status, "API key not valid."))
        path = self.path.split("?", 1)[0]
        if method == "POST" and path.endswith(":generateContent"):
            return self.send_bytes(200, REPLY_BYTES)
        if method == "POST" and path.endswith(":streamGenerateContent"):
            self.start_chunked()
            time.sleep(GAP)
            stamp = time.clock_gettime(time.CLOCK_MONOTONIC)
            self.write_chunk(event("t=%.9f" % stamp, False))
            time.sleep(GAP)
            self.write_chunk(event(" done", True))
            return self.end_chunked()
        return self.send_json(404, fake_gemini.rpc_error(404, "Not found: " + path))


def main():
    global GAP
    parser = argparse.ArgumentParser(description="Fake Gemini server, benchmark mode.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--stream-gap-ms", type=float, default=20)
    args = parser.parse_args()
    GAP = args.stream_gap_ms / 1000
    assert BenchHandler.disable_nagle_algorithm, "Nagle must be off (docs/BENCHMARKING.md)"
    assert fake_gemini.Server.request_queue_size >= 128, "listen backlog too small"
    server = fake_gemini.Server((args.host, args.port), BenchHandler)
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
