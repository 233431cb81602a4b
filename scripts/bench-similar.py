#!/usr/bin/env python3
"""`similar` over stored vectors, Sophon beside `llm similar` and sqlite-vec, in one run
(PRODUCT §13, issue 27; docs/embeddings.md).

    scripts/bench-similar.py [--rows 100000] [--dimensions 768] [--sophon .build/release/sophon]
                             [--llm /tmp/sophon-bench-venv/bin/llm] [--vec0 PATH/vec0.so]

The same random unit vectors (numpy, seed 27) are written to Sophon's `embeddings.db` (the
documented schema: little-endian Float32 blobs), to an `llm` database (llm's own tables, made by
llm's Python API from its venv) and to a sqlite-vec `vec0` table (cosine distance, loaded into
the `sqlite3` shell, since this Python's sqlite3 cannot load extensions). Then the top 10 for
one query:

- Sophon: `similar bench TEXT -n 10`, the query embedded by scripts/fake_gemini.py over
  loopback (768 dimensions). "first" is a fresh process (start-up, reading the collection, the
  call); "warm" is a further query in the same session: (time of 11 queries - time of 1) / 10.
- llm: `llm similar bench ID -n 10` (the query is a stored row's vector: nothing to embed);
  a fresh process each time, as llm has no session.
- sqlite-vec: `SELECT rowid, distance FROM v WHERE embedding MATCH ? AND k = 10` in one `sqlite3`
  shell, `.timer on`: the first query and the next ones.

Then `embed-multi` of --multi-rows (10,000) JSONL rows against the fake server: the requests it
sends (<= 100 wanted), its peak RSS, and a run killed (SIGKILL) once half the requests were seen,
rerun: the requests the rerun sends (only the missing rows wanted).

Prints a table (median of --runs) and one JSON line. Nothing is sent to Google.
"""

import argparse
import json
import signal
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

from fake_gemini_client import FakeGemini

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(SCRIPTS)


def write_sophon(path, vectors):
    """Sophon's embeddings.db, schema version 1 (Sources/SophonLogs/EmbeddingStore.swift)."""
    import sqlite3

    db = sqlite3.connect(path)
    db.executescript(
        """
        PRAGMA journal_mode=WAL;
        CREATE TABLE collections(name TEXT PRIMARY KEY, model TEXT NOT NULL, dimensions INTEGER NOT NULL,
            created_ms INTEGER NOT NULL);
        CREATE TABLE embeddings(collection TEXT NOT NULL REFERENCES collections(name), id TEXT NOT NULL,
            content_hash TEXT NOT NULL, model TEXT NOT NULL, dimensions INTEGER NOT NULL, vector BLOB NOT NULL,
            metadata TEXT, updated_ms INTEGER NOT NULL, PRIMARY KEY(collection, id));
        PRAGMA user_version = 1;
        """)
    rows, dims = vectors.shape
    db.execute("INSERT INTO collections VALUES ('bench', 'gemini-embedding-001', ?, 0)", (dims,))
    little = vectors.astype("<f4")
    db.executemany(
        "INSERT INTO embeddings VALUES ('bench', ?, ?, 'gemini-embedding-001', ?, ?, NULL, 0)",
        (("r%06d" % i, "%064x" % i, dims, little[i].tobytes()) for i in range(rows)))
    db.commit()
    # Checkpointed and the WAL emptied: the runs measure Sophon, not a first checkpoint of 300 MB.
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    os.chmod(path, 0o600)


def write_llm(llm_python, path, vectors_path):
    """An llm database with collection `bench` (llm's tables through llm's Python API)."""
    script = r"""
import struct, sys, sqlite_utils, llm
from llm.embeddings import Collection
path, vectors_path, rows, dims = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
db = sqlite_utils.Database(path)
collection = Collection("bench", db, model_id="3-small")
data = open(vectors_path, "rb").read()
size = dims * 4
db["embeddings"].insert_all(
    ({"collection_id": collection.id, "id": "r%06d" % i, "embedding": data[i * size:(i + 1) * size],
      "content": None, "content_hash": None, "metadata": None, "updated": 0} for i in range(rows)),
    batch_size=1000)
"""
    rows, dims = vectors_path[1]
    subprocess.run([llm_python, "-c", script, path, vectors_path[0], str(rows), str(dims)], check=True)


def requests_seen(server):
    """The embedding requests the fake server saw since the last reset."""
    return [r for r in server.requests() if "Embed" in r["path"]]


def embed_multi(args, env, server, work, results):
    """embed-multi of --multi-rows rows: requests, peak RSS, and a rerun after a kill halfway."""
    def write_rows(path, count):
        with open(path, "w") as out:
            for i in range(count):
                out.write(json.dumps({"id": "row%05d" % i, "text": "row %d says word%d and word%d"
                                      % (i, i % 97, i % 89)}) + "\n")

    def peak_rss_mb(collection, path):
        # Peak RSS by /usr/bin/time (GNU, %M in KB): getrusage(RUSAGE_CHILDREN) would count this
        # process's own pages, shared with each child between fork and exec.
        command = [args.sophon, "--no-log", "-c", "embed-multi %s %s --dimensions 256" % (collection, path)]
        run = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, env=env, check=True, capture_output=True,
                             text=True)
        return round(int(run.stderr.strip().splitlines()[-1]) / 1024, 1)

    # Memory flat: the same run over a tenth of the rows, for its peak RSS beside the full one's.
    small = os.path.join(work, "rows-small.jsonl")
    write_rows(small, max(1, args.multi_rows // 10))
    results["embed_multi_small_rows"] = max(1, args.multi_rows // 10)
    results["embed_multi_small_peak_rss_mb"] = peak_rss_mb("small", small)
    rows = os.path.join(work, "rows.jsonl")
    write_rows(rows, args.multi_rows)
    server.script()
    start = time.perf_counter()
    results["embed_multi_peak_rss_mb"] = peak_rss_mb("multi", rows)
    results["embed_multi_seconds"] = time.perf_counter() - start
    results["embed_multi_requests"] = len(requests_seen(server))
    # Killed halfway: a new collection, SIGKILL once half the requests were answered.
    server.script()
    killed = [args.sophon, "--no-log", "-c", "embed-multi killed %s --dimensions 256" % rows]
    process = subprocess.Popen(killed, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    half = (args.multi_rows // 100) // 2
    while len(requests_seen(server)) < half and process.poll() is None:
        time.sleep(0.005)
    process.send_signal(signal.SIGKILL)
    process.wait()
    sent_before_kill = len(requests_seen(server))
    server.script()
    out = subprocess.run(killed, env=env, check=True, capture_output=True, text=True).stdout
    results["killed_after_requests"] = sent_before_kill
    results["rerun_requests"] = len(requests_seen(server))
    results["rerun_report"] = out.strip()


def timed(command, env=None, stdin=None):
    start = time.perf_counter()
    result = subprocess.run(command, env=env, input=stdin, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit("bench-similar: %s failed (%d): %s" % (command[0], result.returncode, result.stderr[-2000:]))
    return elapsed, result.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--dimensions", type=int, default=768)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sophon", default=os.path.join(ROOT, ".build/release/sophon"))
    parser.add_argument("--llm", default="/tmp/sophon-bench-venv/bin/llm")
    parser.add_argument("--multi-rows", type=int, default=10_000)
    parser.add_argument("--vec0", default=None, help="sqlite-vec's vec0.so (default: from the llm venv)")
    args = parser.parse_args()
    import numpy

    work = tempfile.mkdtemp(prefix="bench-similar-")
    rng = numpy.random.default_rng(27)
    vectors = rng.standard_normal((args.rows, args.dimensions), dtype=numpy.float32)
    vectors /= numpy.linalg.norm(vectors, axis=1, keepdims=True)
    raw = os.path.join(work, "vectors.f32")
    vectors.astype("<f4").tofile(raw)
    home = os.path.join(work, "home")
    os.makedirs(home, mode=0o700)
    write_sophon(os.path.join(home, "embeddings.db"), vectors)
    results = {"rows": args.rows, "dimensions": args.dimensions, "megabytes": round(vectors.nbytes / 1e6)}

    server = FakeGemini()
    env = {"PATH": "/usr/bin:/bin", "HOME": home, "SOPHON_HOME": home, "LANG": "C.UTF-8", **server.environment()}
    query = "similar bench how to cook pasta -n 10"
    try:
        # First, so that the peak RSS of the children (getrusage) is embed-multi's own.
        embed_multi(args, env, server, work, results)
        first, warm = [], []
        for _ in range(args.runs):
            one, out = timed([args.sophon, "--no-log", "-c", query], env=env)
            eleven, _ = timed([args.sophon, "--no-log"] + ["-c", query] * 11, env=env)
            first.append(one)
            warm.append((eleven - one) / 10)
        results["sophon_first_ms"] = statistics.median(first) * 1000
        results["sophon_warm_ms"] = statistics.median(warm) * 1000
        results["sophon_top"] = out.split("\n")[0]
    finally:
        server.stop()

    if os.path.exists(args.llm):
        llm_python = os.path.join(os.path.dirname(args.llm), "python")
        llm_db = os.path.join(work, "llm.db")
        write_llm(llm_python, llm_db, (raw, (args.rows, args.dimensions)))
        runs = [timed([args.llm, "similar", "bench", "r000000", "-n", "10", "-d", llm_db])[0]
                for _ in range(args.runs)]
        results["llm_ms"] = statistics.median(runs) * 1000

    vec0 = args.vec0
    if vec0 is None:
        found = [os.path.join(d, "sqlite_vec", "vec0.so") for d in
                 [os.path.join(os.path.dirname(os.path.dirname(args.llm)), "lib", "python%d.%d" %
                               sys.version_info[:2], "site-packages")]]
        vec0 = next((p for p in found if os.path.exists(p)), None)
    if vec0 and os.path.exists(vec0):
        vec_db = os.path.join(work, "vec.db")
        load = ".load %s\n" % vec0[:-3]
        setup = (load + "CREATE VIRTUAL TABLE v USING vec0(embedding float[%d] distance_metric=cosine);\n"
                 % args.dimensions + "ATTACH '%s' AS s;\n" % os.path.join(home, "embeddings.db")
                 + "INSERT INTO v(rowid, embedding) SELECT rowid, vector FROM s.embeddings WHERE collection = 'bench';\n")
        subprocess.run(["sqlite3", vec_db], input=setup, text=True, check=True, capture_output=True)
        probe = json.dumps([round(float(x), 6) for x in vectors[0]])
        select = "SELECT rowid, distance FROM v WHERE embedding MATCH '%s' AND k = 10;\n" % probe
        firsts, warms = [], []
        for _ in range(args.runs):
            _, out = timed(["sqlite3", vec_db], stdin=load + ".timer on\n" + select * 11)
            times = [float(t) for t in re.findall(r"Run Time: real ([0-9.]+)", out)]
            firsts.append(times[0])
            warms.append(statistics.median(times[1:]))
        results["sqlite_vec_first_ms"] = statistics.median(firsts) * 1000
        results["sqlite_vec_warm_ms"] = statistics.median(warms) * 1000

    print("similar over %d stored %d-dimension vectors (%d MB of Float32), median of %d runs"
          % (args.rows, args.dimensions, results["megabytes"], args.runs))
    for name, key in [("sophon, fresh process (first query)", "sophon_first_ms"),
                      ("sophon, warm (next query in the session)", "sophon_warm_ms"),
                      ("llm similar (fresh process)", "llm_ms"),
                      ("sqlite-vec, first query", "sqlite_vec_first_ms"),
                      ("sqlite-vec, warm", "sqlite_vec_warm_ms")]:
        if key in results:
            print("  %-44s %10.1f ms" % (name, results[key]))
    print("embed-multi of %d rows: %d requests, %.1f s, peak RSS %s MB (%s MB for %d rows); killed after %d"
          " requests, the rerun sent %d (%s)"
          % (args.multi_rows, results["embed_multi_requests"], results["embed_multi_seconds"],
             results["embed_multi_peak_rss_mb"], results["embed_multi_small_peak_rss_mb"],
             results["embed_multi_small_rows"], results["killed_after_requests"], results["rerun_requests"],
             results["rerun_report"]))
    print(json.dumps(results))


if __name__ == "__main__":
    main()
