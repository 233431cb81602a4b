#!/usr/bin/env python3
"""Upload throughput over loopback: `sophon attach` of a large file (resumable upload in 8 MiB
chunks through the client's call path) beside the raw floor, the same bytes sent by a plain
socket as one request to the same fake server (scripts/fake_gemini.py). Standard library only.

    scripts/bench-upload.py [--sophon .build/release/sophon] [--mib 64] [--runs 3]

Prints one line per side: median seconds and MB/s (MB = 10^6 bytes).
"""

import argparse
import os
import socket
import statistics
import subprocess
import tempfile
import time

from fake_gemini_client import FakeGemini

HERE = os.path.dirname(os.path.abspath(__file__))


def request(port, head, body=b""):
    """One HTTP/1.1 request on a fresh socket; returns (status, headers dict)."""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(head.encode() + b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body))
        view = memoryview(body)
        while view:
            sent = sock.send(view[:1 << 20])
            view = view[sent:]
        reply = b""
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            reply += chunk
    lines = reply.split(b"\r\n\r\n", 1)[0].decode().split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers


def raw_upload(port, data):
    status, headers = request(port, "POST /upload/v1beta/files HTTP/1.1\r\nHost: x\r\nx-goog-api-key: test-key\r\n"
                              "X-Goog-Upload-Protocol: resumable\r\nX-Goog-Upload-Command: start\r\n"
                              "X-Goog-Upload-Header-Content-Length: %d\r\n" % len(data), b"{}")
    path = headers["x-goog-upload-url"].split("invalid", 1)[1]
    status, _ = request(port, "POST %s HTTP/1.1\r\nHost: x\r\nx-goog-api-key: test-key\r\n"
                        "X-Goog-Upload-Command: upload, finalize\r\nX-Goog-Upload-Offset: 0\r\n" % path, data)
    assert status == 200, status


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sophon", default=os.path.join(HERE, "..", ".build", "release", "sophon"))
    parser.add_argument("--mib", type=int, default=64)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    data = bytes(range(256)) * (args.mib * 4096)
    with tempfile.TemporaryDirectory() as home:
        path = os.path.join(home, "big.bin")
        with open(path, "wb") as handle:
            handle.write(data)
        server = FakeGemini()
        port = server.port
        try:
            env = dict(os.environ, SOPHON_HOME=home, **server.environment())
            sophon, raw = [], []
            for _ in range(args.runs):
                started = time.perf_counter()
                subprocess.run([args.sophon, "-c", "attach --mime video/mp4 " + path], env=env, check=True)
                sophon.append(time.perf_counter() - started)
                started = time.perf_counter()
                raw_upload(port, data)
                raw.append(time.perf_counter() - started)
        finally:
            server.stop()
    for name, times in (("sophon attach (8 MiB chunks)", sophon), ("raw socket, one request", raw)):
        median = statistics.median(times)
        print("%-30s %6.3f s  %7.1f MB/s" % (name, median, len(data) / median / 1e6))


if __name__ == "__main__":
    main()
