#!/usr/bin/env python3
"""The measuring half of scripts/bench (which builds and installs first; run that instead).

    bench-run.py --bin DIR --venv DIR [--runs N] [--quick] [--only client,stream,startup,replay]
                 [--extract-output FILE] [--no-write]

Every figure is measured RUNS times, the clients interleaved within each run (the order
rotates from run to run) so that a ratio is computed pair by pair inside one run; tables give
the median with min and max, ratios the median of the per-run ratios with their min and max.
Peak RSS comes from wait4() on each child; CPU per call from getrusage() inside each client
around its measured loop (warm-up excluded).

Writes docs/benchmarks.md (all sections but "## Extractor", which scripts/bench-extract owns,
and "## Downscale", "## Tool loop", "## Prompt rendering" and "## Similar", whose scripts write them: each is
kept as found) and benchmarks/results.json (every raw number).
"""

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPTS = os.path.join(ROOT, "scripts")
DOC = os.path.join(ROOT, "docs", "benchmarks.md")
RESULTS = os.path.join(ROOT, "benchmarks", "results.json")
SCHEMA_LINE = "schema { title: string, year: integer, rating: number, tags: [string] }"


# ---- process measurement -------------------------------------------------------------------

def run_measured(cmd, env=None, stdin_path=None, cwd=None):
    """Runs cmd to completion; returns wall seconds, peak RSS (MB), exit code, stdout, stderr."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
        try:
            start = time.perf_counter()
            process = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=stdin, env=env, cwd=cwd)
            _, status, usage = os.wait4(process.pid, 0)
            wall = time.perf_counter() - start
            process.returncode = os.waitstatus_to_exitcode(status)
        finally:
            if stdin_path:
                stdin.close()
        out.seek(0)
        err.seek(0)
        return {"wall": wall, "rss_mb": usage.ru_maxrss / 1024, "rc": process.returncode,
                "cpu": usage.ru_utime + usage.ru_stime,
                "stdout": out.read().decode("utf-8", "replace"), "stderr": err.read().decode("utf-8", "replace")}


def loadavg():
    with open("/proc/loadavg") as handle:
        return " ".join(handle.read().split()[:3])


def summary(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "n": len(values)}


class Server:
    """scripts/bench-server.py (fake_gemini in benchmark mode) on a free port."""

    def __init__(self):
        self.process = subprocess.Popen([sys.executable, os.path.join(SCRIPTS, "bench-server.py")],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.port = int(self.process.stdout.readline())
        self.url = "http://127.0.0.1:%d" % self.port

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


# ---- sections -------------------------------------------------------------------------------

def client_section(args, server, log):
    """Throughput: raw floor, minimal Swift floor, Sophon (and Sophon before the fixes), google-genai."""
    scale = 0.25 if args.quick else 1.0
    clients = {
        "raw": ([args.python, os.path.join(SCRIPTS, "bench-peers.py"), "raw"], 4000),
        "floor": ([args.swift_bench, "floor"], 3000),
        "sophon": ([args.swift_bench, "sophon"], 3000),
        "genai": ([args.python, os.path.join(SCRIPTS, "bench-peers.py"), "genai"], 800),
    }
    if args.before:
        clients["sophon-before"] = ([args.before, "sophon"], 3000)
    names = list(clients)
    rows = []
    for run in range(args.runs):
        for concurrency in (1, 32):
            order = names[run % len(names):] + names[:run % len(names)]
            for name in order:
                cmd, calls = clients[name]
                calls = max(200, int(calls * scale))
                warmup = 50 if concurrency == 1 else 96
                result = run_measured(cmd + ["--base-url", server.url, "--calls", str(calls),
                                             "--concurrency", str(concurrency), "--warmup", str(warmup)])
                if result["rc"] != 0:
                    raise SystemExit("bench: %s failed: %s" % (name, result["stderr"][-2000:]))
                report = json.loads(result["stdout"].strip().splitlines()[-1])
                row = {"run": run, "client": name, "concurrency": concurrency, "calls": calls,
                       "seconds": report["seconds"], "calls_per_s": calls / report["seconds"],
                       "cpu_ms_per_call": report["cpu_seconds"] / calls * 1000,
                       "peak_rss_mb": result["rss_mb"], "errors": report["errors"], "load": loadavg()}
                rows.append(row)
                log("  run %d c=%-2d %-13s %7.0f calls/s  %.3f ms CPU/call  %5.1f MB" % (
                    run + 1, concurrency, name, row["calls_per_s"], row["cpu_ms_per_call"], row["peak_rss_mb"]))
    return rows


def stream_section(args, server, log):
    calls = 10 if args.quick else 40
    clients = {
        "raw-stream": [args.python, os.path.join(SCRIPTS, "bench-peers.py"), "raw-stream"],
        "sophon-stream": [args.swift_bench, "sophon-stream"],
        "genai-stream": [args.python, os.path.join(SCRIPTS, "bench-peers.py"), "genai-stream"],
    }
    rows = []
    names = list(clients)
    for run in range(args.runs):
        order = names[run % len(names):] + names[:run % len(names)]
        for name in order:
            result = run_measured(clients[name] + ["--base-url", server.url, "--calls", str(calls), "--warmup", "3"])
            if result["rc"] != 0:
                raise SystemExit("bench: %s failed: %s" % (name, result["stderr"][-2000:]))
            latencies = json.loads(result["stdout"].strip().splitlines()[-1])["latencies_ms"]
            rows.append({"run": run, "client": name, "latencies_ms": latencies,
                         "median_ms": statistics.median(latencies), "load": loadavg()})
            log("  run %d %-14s first chunk %.3f ms (median of %d)" % (
                run + 1, name, statistics.median(latencies), len(latencies)))
    return rows


PLAIN = "sophon -c 'echo ok' (plain static link)"


def startup_section(args, log):
    home = tempfile.mkdtemp(prefix="sophon-bench-home.")
    env = dict(os.environ, SOPHON_HOME=home, LLM_USER_PATH=os.path.join(home, "llm"))
    env.pop("GOOGLE_API_KEY", None)
    env.pop("GEMINI_API_KEY", None)
    commands = {
        "sophon -c 'echo ok'": [args.sophon, "-c", "echo ok"],
        PLAIN: [args.sophon_plain, "-c", "echo ok"],
        "llm --version": [os.path.join(args.venv, "bin", "llm"), "--version"],
        "python3 -c 'import google.genai'": [args.python, "-c", "import google.genai"],
    }
    runs = args.runs * 2
    rows = []
    for run in range(runs):
        for name, cmd in commands.items():
            result = run_measured(cmd, env=env)
            if result["rc"] != 0:
                raise SystemExit("bench: %s failed: %s" % (name, result["stderr"][-2000:]))
            rows.append({"run": run, "command": name, "wall_ms": result["wall"] * 1000,
                         "peak_rss_mb": result["rss_mb"], "stdout": result["stdout"].strip()[:80]})
        log("  run %d: %s" % (run + 1, ", ".join("%.1f ms" % r["wall_ms"] for r in rows[-len(commands):])))
    shutil.rmtree(home, ignore_errors=True)
    return rows


def offline_script(lines):
    """A script of `lines` offline commands: schema once, then let / extract / validate / validate."""
    out = [SCHEMA_LINE]
    reply = ("'Here it is: {\"title\": \"Arrival\", \"year\": 2016, \"rating\": 7.9, "
             "\"tags\": [\"sci-fi\", \"drama\",],} Enjoy.'")
    valid = "'{\"title\": \"Arrival\", \"year\": 2016, \"rating\": 7.9, \"tags\": [\"sci-fi\"]}'"
    number = 0
    while len(out) < lines:
        number += 1
        out.append("let n%d = %d" % (number, number))
        out.append("extract " + reply)
        out.append("validate")
        out.append("validate " + valid)
    return "\n".join(out[:lines]) + "\n"


def replay_section(args, server, log):
    work = tempfile.mkdtemp(prefix="sophon-bench-replay.")
    env = dict(os.environ, SOPHON_HOME=os.path.join(work, "home"))
    os.makedirs(env["SOPHON_HOME"])
    env.pop("GOOGLE_API_KEY", None)
    env.pop("GEMINI_API_KEY", None)
    lines = 2000 if args.quick else 10000
    asks = 200 if args.quick else 1000
    offline = os.path.join(work, "offline.sophon")
    with open(offline, "w") as handle:
        handle.write(offline_script(lines))
    ask = os.path.join(work, "ask.sophon")
    with open(ask, "w") as handle:
        handle.write(SCHEMA_LINE + "\n")
        for number in range(asks):
            handle.write("ask Extract the film in review %d: Arrival (2016), rated 7.9.\n" % number)
    tape = os.path.join(work, "ask.tape")
    live_env = dict(env, GEMINI_API_KEY="test-key", SOPHON_GEMINI_BASE_URL=server.url)
    # The tape is generated by recording the script once against the fake server.
    record = run_measured([args.sophon, "--record", tape, ask], env=live_env)
    if record["rc"] != 0:
        raise SystemExit("bench: recording the ask tape failed: " + record["stderr"][-2000:])
    rows = []
    cases = {
        "offline script (let/extract/validate)": ([args.sophon, offline], env, lines),
        "ask script replayed from a tape": ([args.sophon, "--replay", tape, ask], env, asks + 1),
        "ask script live against the fake server": ([args.sophon, ask], live_env, asks + 1),
    }
    for run in range(args.runs):
        for name, (cmd, case_env, commands) in cases.items():
            result = run_measured(cmd, env=case_env)
            if result["rc"] != 0:
                raise SystemExit("bench: %s failed (rc %d): %s" % (name, result["rc"], result["stderr"][-2000:]))
            rows.append({"run": run, "case": name, "commands": commands, "wall_s": result["wall"],
                         "commands_per_s": commands / result["wall"], "peak_rss_mb": result["rss_mb"],
                         "cpu_s": result["cpu"]})
            log("  run %d %-42s %8.0f commands/s (%.2f s, %.1f MB)" % (
                run + 1, name, commands / result["wall"], result["wall"], result["rss_mb"]))
    tape_lines = sum(1 for _ in open(tape))
    shutil.rmtree(work, ignore_errors=True)
    return {"rows": rows, "offline_lines": lines, "asks": asks, "tape_exchanges": tape_lines - 1}


# ---- analysis -------------------------------------------------------------------------------

def by(rows, **keys):
    return [r for r in rows if all(r.get(k) == v for k, v in keys.items())]


def per_run_ratio(rows, field, numerator, denominator, key="client", **filters):
    ratios = []
    for run in sorted({r["run"] for r in rows}):
        top = by(rows, run=run, **{key: numerator}, **filters)
        bottom = by(rows, run=run, **{key: denominator}, **filters)
        if top and bottom and bottom[0][field]:
            ratios.append(top[0][field] / bottom[0][field])
    return summary(ratios)


def per_run_difference(rows, field, first, second, key="client"):
    values = []
    for run in sorted({r["run"] for r in rows}):
        a = by(rows, run=run, **{key: first})
        b = by(rows, run=run, **{key: second})
        if a and b:
            values.append(a[0][field] - b[0][field])
    return summary(values)


def fmt(s, digits=0, unit=""):
    if s is None:
        return "—"
    pattern = "{:,.%df}" % digits
    return "%s%s (%s–%s)" % (pattern.format(s["median"]), unit, pattern.format(s["min"]), pattern.format(s["max"]))


def fmt_ratio(s):
    if s is None:
        return "—"
    return "%.2fx (%.2f–%.2f)" % (s["median"], s["min"], s["max"])


CLIENT_LABELS = {
    "raw": "raw floor: Python `http.client` keep-alive loop, no decoding",
    "floor": "minimal Swift floor: URLSession + JSONEncoder/JSONDecoder, no retry",
    "sophon": "**Sophon** `generateStructured` (retry policy, extractor, schema check, lenient decoding)",
    "sophon-before": os.environ.get("SOPHON_BENCH_BEFORE_LABEL", "Sophon before the profiling fixes (same loop, an earlier library)"),
    "genai": "google-genai `generate_content` + pydantic schema, `.parsed`",
}


def analyse(data):
    out = {}
    if "client" in data:
        rows = data["client"]
        table = {}
        for concurrency in (1, 32):
            for client in CLIENT_LABELS:
                subset = by(rows, client=client, concurrency=concurrency)
                if subset:
                    table["%s@%d" % (client, concurrency)] = {
                        "calls_per_s": summary([r["calls_per_s"] for r in subset]),
                        "cpu_ms_per_call": summary([r["cpu_ms_per_call"] for r in subset]),
                        "peak_rss_mb": summary([r["peak_rss_mb"] for r in subset]),
                    }
        ratios = {}
        for concurrency in (1, 32):
            pairs = [("sophon", "floor"), ("sophon", "genai"), ("floor", "genai"), ("floor", "raw"), ("sophon", "raw"),
                     ("sophon", "sophon-before")]
            for a, b in pairs:
                ratios["%s/%s calls_per_s @%d" % (a, b, concurrency)] = per_run_ratio(
                    rows, "calls_per_s", a, b, concurrency=concurrency)
            ratios["genai/sophon cpu_ms_per_call @%d" % concurrency] = per_run_ratio(
                rows, "cpu_ms_per_call", "genai", "sophon", concurrency=concurrency)
            ratios["sophon/floor cpu_ms_per_call @%d" % concurrency] = per_run_ratio(
                rows, "cpu_ms_per_call", "sophon", "floor", concurrency=concurrency)
        out["client"] = {"table": table, "ratios": ratios}
    if "stream" in data:
        rows = data["stream"]
        out["stream"] = {
            "table": {c: summary([r["median_ms"] for r in by(rows, client=c)])
                      for c in ("raw-stream", "sophon-stream", "genai-stream")},
            "overhead_vs_raw": {
                "sophon-stream": per_run_difference(rows, "median_ms", "sophon-stream", "raw-stream"),
                "genai-stream": per_run_difference(rows, "median_ms", "genai-stream", "raw-stream"),
            },
        }
    if "startup" in data:
        rows = data["startup"]
        names = sorted({r["command"] for r in rows})
        out["startup"] = {
            "table": {n: {"wall_ms": summary([r["wall_ms"] for r in by(rows, command=n)]),
                          "peak_rss_mb": summary([r["peak_rss_mb"] for r in by(rows, command=n)])}
                      for n in names},
            "ratios": {
                "llm/sophon wall": per_run_ratio(rows, "wall_ms", "llm --version", "sophon -c 'echo ok'",
                                                 key="command"),
                "plain/sophon rss": per_run_ratio(rows, "peak_rss_mb", PLAIN, "sophon -c 'echo ok'",
                                                  key="command"),
                "genai-import/sophon wall": per_run_ratio(rows, "wall_ms", "python3 -c 'import google.genai'",
                                                          "sophon -c 'echo ok'", key="command"),
            },
        }
    if "replay" in data:
        rows = data["replay"]["rows"]
        out["replay"] = {c: {"commands_per_s": summary([r["commands_per_s"] for r in by(rows, case=c)]),
                             "wall_s": summary([r["wall_s"] for r in by(rows, case=c)]),
                             "peak_rss_mb": summary([r["peak_rss_mb"] for r in by(rows, case=c)])}
                         for c in sorted({r["case"] for r in rows})}
    return out


def bars(analysis):
    """The issue's bars, each with its measured value and whether it is met."""
    checks = []
    client = analysis.get("client")
    if client:
        for concurrency in (1, 32):
            ratio = client["ratios"]["sophon/floor calls_per_s @%d" % concurrency]
            if ratio:
                checks.append(("Sophon >= 90%% of the minimal Swift loop at concurrency %d" % concurrency,
                               "%.0f%% (median of per-run ratios; %.0f–%.0f%%)" % (
                                   ratio["median"] * 100, ratio["min"] * 100, ratio["max"] * 100),
                               ratio["median"] >= 0.9))
            versus = client["ratios"]["sophon/genai calls_per_s @%d" % concurrency]
            target = 3.0 if concurrency == 1 else 5.0
            if versus:
                checks.append(("Sophon vs google-genai at concurrency %d (issue: ~%s, derived from the 90%% bar)" % (
                    concurrency, "3–4x" if concurrency == 1 else "5x"),
                    fmt_ratio(versus), versus["median"] >= target))
            cpu = client["ratios"]["genai/sophon cpu_ms_per_call @%d" % concurrency]
            if cpu:
                checks.append(("Lower CPU per call than google-genai at concurrency %d" % concurrency,
                               "google-genai uses " + fmt_ratio(cpu) + " Sophon's CPU per call",
                               cpu["median"] > 1))
    startup = analysis.get("startup")
    if startup:
        sophon = startup["table"].get("sophon -c 'echo ok'")
        if sophon:
            checks.append(("`sophon -c 'echo ok'` under 30 ms", fmt(sophon["wall_ms"], 1, " ms"),
                           sophon["wall_ms"]["median"] < 30))
            checks.append(("`sophon -c 'echo ok'` under 20 MB peak RSS", fmt(sophon["peak_rss_mb"], 1, " MB"),
                           sophon["peak_rss_mb"]["median"] < 20))
        ratio = startup["ratios"]["llm/sophon wall"]
        if ratio:
            checks.append(("Start-up at least 35x faster than `llm --version`", fmt_ratio(ratio),
                           ratio["median"] >= 35))
    stream = analysis.get("stream")
    if stream and stream["overhead_vs_raw"]["sophon-stream"]:
        overhead = stream["overhead_vs_raw"]["sophon-stream"]
        checks.append(("First-chunk overhead within 5 ms of the raw floor", fmt(overhead, 2, " ms"),
                       overhead["median"] <= 5))
    return checks


# ---- report ---------------------------------------------------------------------------------

def machine_info(args):
    def command(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, timeout=60).stdout.strip()
        except OSError:
            return ""
    cpu = ""
    for line in command(["lscpu"]).splitlines():
        if line.startswith("Model name:"):
            cpu = line.split(":", 1)[1].strip()
    genai = command([args.python, "-c", "import google.genai; print(google.genai.__version__)"])
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": cpu, "cores": os.cpu_count(), "kernel": platform.release(),
        "swift": command(["swift", "--version"]).splitlines()[0] if command(["swift", "--version"]) else "",
        "python": command([args.python, "--version"]),
        "google_genai": genai,
        "llm": command([os.path.join(args.venv, "bin", "llm"), "--version"]),
        "commit": command(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]),
    }


def reply_size():
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench_server", os.path.join(SCRIPTS, "bench-server.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return len(module.REPLY_BYTES)


def markdown(machine, data, analysis, checks, args, extract_note):
    lines = ["# Benchmarks", ""]
    lines += [
        "Generated by `scripts/bench` (issue 7): Sophon against the tools a user would otherwise pick, "
        "measured in the same run on the same machine. Every figure is the median of %d runs with min and "
        "max in parentheses; ratios are computed pair by pair within each run (clients interleaved, order "
        "rotating), then the median and range of those per-run ratios is given. Absolute numbers drift by "
        "±30%% between runs on this shared machine; compare ratios." % args.runs,
        "",
        "## Machine",
        "",
        "| | |", "| --- | --- |",
        "| date | %s |" % machine["date"],
        "| CPU | %s, %s cores (a shared VM: its speed drifts between runs) |" % (machine["cpu"], machine["cores"]),
        "| kernel | Linux %s |" % machine["kernel"],
        "| toolchain | %s; release build by `scripts/build` (`--static-swift-stdlib`, lld, packed relocations, start-up order) |" % machine["swift"],
        "| Python peers | %s; google-genai %s; %s |" % (machine["python"], machine["google_genai"], machine["llm"]),
        "| commit | %s |" % machine["commit"],
        "| load average | %s |" % "; ".join("%s: %s" % (k, v) for k, v in data["load"].items()),
        "",
        "The fake server is `scripts/bench-server.py`: `scripts/fake_gemini.py`'s server and handler "
        "(HTTP/1.1 keep-alive, Nagle's algorithm off, listen backlog 256) answering every call with one "
        "fixed, precomputed structured reply (pretty-printed, %d bytes) and logging nothing. It runs on "
        "the same two cores as the client, so the raw floor beside every figure shows what the server "
        "itself allows." % reply_size(),
        "",
        "## Bars (issue 7)",
        "",
        "| bar | measured | met |", "| --- | --- | --- |",
    ]
    for name, value, met in checks:
        lines.append("| %s | %s | %s |" % (name, value, "yes" if met else "**no**"))
    client = analysis.get("client")
    if client:
        lines += ["", "## Client throughput", "",
                  "N structured `generateContent` calls (a 4-field schema; the reply is decoded into a "
                  "typed value) against the fake server. Calls per second, CPU milliseconds per call "
                  "(user+system of the client process over the measured loop, warm-up excluded) and peak "
                  "RSS of the client process.", ""]
        for concurrency in (1, 32):
            lines += ["### Concurrency %d" % concurrency, "",
                      "| client | calls/s | CPU ms/call | peak RSS MB |", "| --- | ---: | ---: | ---: |"]
            for name, label in CLIENT_LABELS.items():
                row = client["table"].get("%s@%d" % (name, concurrency))
                if row:
                    lines.append("| %s | %s | %s | %s |" % (label, fmt(row["calls_per_s"]),
                                                          fmt(row["cpu_ms_per_call"], 3), fmt(row["peak_rss_mb"], 1)))
            r = client["ratios"]
            lines += ["", "Ratios (per run, then median and range):", ""]
            for key, text in (("sophon/floor calls_per_s", "Sophon / minimal Swift floor, calls/s"),
                              ("sophon/genai calls_per_s", "Sophon / google-genai, calls/s"),
                              ("genai/sophon cpu_ms_per_call", "google-genai / Sophon, CPU per call"),
                              ("sophon/floor cpu_ms_per_call", "Sophon / minimal Swift floor, CPU per call"),
                              ("floor/genai calls_per_s", "minimal Swift floor / google-genai, calls/s (the most a "
                               "URLSession client can be ahead of google-genai here)"),
                              ("floor/raw calls_per_s", "minimal Swift floor / raw Python floor, calls/s"),
                              ("sophon/sophon-before calls_per_s", "Sophon / Sophon before the fixes, calls/s")):
                value = r.get("%s @%d" % (key, concurrency))
                if value:
                    lines.append("- %s: %s" % (text, fmt_ratio(value)))
            lines.append("")
        lines += [
            "Concurrency 32 means 32 tasks (Swift: a task group; google-genai: 32 asyncio workers on "
            "`client.aio`; raw floor: 32 threads, one connection each) pulling from one shared count of "
            "calls. At concurrency 32 both cores are saturated by client plus server, so calls/s there "
            "is mostly a measure of CPU per call on both sides.",
        ]
    stream = analysis.get("stream")
    if stream:
        lines += ["", "## Streaming: first chunk", "",
                  "`streamGenerateContent?alt=sse`: the server sends the headers, waits 20 ms, stamps "
                  "CLOCK_MONOTONIC into the first event's text and writes it; the client stamps the "
                  "moment its first chunk is delivered to the caller (Sophon: the first element of "
                  "`streamGenerateContent`'s stream; google-genai: the first item of "
                  "`generate_content_stream`; raw floor: a plain socket reading until the first complete "
                  "`data:` line). Milliseconds from the server's write to delivery, median per run of "
                  "%s streamed calls, then median (min–max) over runs." % (10 if args.quick else 40), "",
                  "| client | first chunk after the server's first event, ms | overhead over the raw floor, ms |",
                  "| --- | ---: | ---: |"]
        labels = {"raw-stream": "raw floor: socket reader", "sophon-stream": "**Sophon**",
                  "genai-stream": "google-genai"}
        for name, label in labels.items():
            overhead = stream["overhead_vs_raw"].get(name)
            lines.append("| %s | %s | %s |" % (label, fmt(stream["table"][name], 3),
                                               fmt(overhead, 3) if overhead else "—"))
    startup = analysis.get("startup")
    if startup:
        lines += ["", "## Start-up", "",
                  "Wall time from spawn to exit and peak RSS (wait4), %d runs each, interleaved; a "
                  "fresh `SOPHON_HOME` and `LLM_USER_PATH`, no API key in the environment." % (args.runs * 2), "",
                  "| command | wall ms | peak RSS MB |", "| --- | ---: | ---: |"]
        for name in ("sophon -c 'echo ok'", PLAIN, "llm --version", "python3 -c 'import google.genai'"):
            row = startup["table"].get(name)
            if row:
                label = ("`sophon -c 'echo ok'`, before: the plain `--static-swift-stdlib` link (gold, no "
                         "start-up order)") if name == PLAIN else "`%s`" % name
                lines.append("| %s | %s | %s |" % (label, fmt(row["wall_ms"], 1), fmt(row["peak_rss_mb"], 1)))
        lines += ["", "- `llm --version` / `sophon -c 'echo ok'`, wall: %s" % fmt_ratio(startup["ratios"]["llm/sophon wall"]),
                  "- `import google.genai` / `sophon -c 'echo ok'`, wall: %s" % fmt_ratio(
                      startup["ratios"]["genai-import/sophon wall"]),
                  "- plain static link / scripts/build, peak RSS: %s" % fmt_ratio(startup["ratios"]["plain/sophon rss"])]
    replay = analysis.get("replay")
    if replay:
        info = data["replay"]
        lines += ["", "## Script replay", "",
                  "One `sophon` process per script, wall time including start-up. The offline script "
                  "is %s generated lines: a `schema` line, then `let`, `extract` (a reply with prose "
                  "and trailing commas, repaired), `validate` (of `$last`) and `validate JSON` in turn. "
                  "The ask script is a `schema` line and %s `ask` lines with different prompts; its tape "
                  "(%s exchanges) is generated by recording that script once against the fake server "
                  "with `--record`, then replayed with `--replay` (no network, no key). The same script "
                  "run live against the fake server is shown for comparison." % (
                      "{:,}".format(info["offline_lines"]), "{:,}".format(info["asks"]),
                      "{:,}".format(info["tape_exchanges"])), "",
                  "| script | commands/s | wall s | peak RSS MB |", "| --- | ---: | ---: | ---: |"]
        for name, row in replay.items():
            lines.append("| %s | %s | %s | %s |" % (name, fmt(row["commands_per_s"]), fmt(row["wall_s"], 3),
                                                    fmt(row["peak_rss_mb"], 1)))
        lines += ["", "No peer runs scripts of this kind (`llm` has no script mode); these are Sophon's own figures."]
    lines += ["", PROFILE_SECTION.strip(), ""]
    lines += ["", extract_note.strip(), ""]
    return "\n".join(lines)


PROFILE_SECTION_PATH = os.path.join(ROOT, "benchmarks", "profile.md")
PROFILE_SECTION = open(PROFILE_SECTION_PATH, encoding="utf-8").read() if os.path.exists(PROFILE_SECTION_PATH) else ""


def extractor_section(args):
    """The '## Extractor' section as scripts/bench-extract left it, with a note when it was not re-run."""
    existing = ""
    if os.path.exists(DOC):
        text = open(DOC, encoding="utf-8").read()
        match = re.search(r"^## Extractor\n.*?(?=^## (?!#)|\Z)", text, re.S | re.M)
        if match:
            existing = match.group(0).rstrip()
    ran = args.extract_output and os.path.exists(args.extract_output)
    failed = ran and open(args.extract_output).read().rstrip().endswith("FAILED")
    if existing and ran and not failed:
        return existing
    note = ("scripts/bench-extract failed in this run" if failed else
            "scripts/bench-extract was not run in this run (--quick or --no-extract)" if os.path.exists(
                os.path.join(SCRIPTS, "bench-extract")) else
            "scripts/bench-extract does not exist on this branch yet (issue 6)")
    if existing:
        return existing + "\n\n_Note: %s; the section above is from its last run._" % note
    return "## Extractor\n\n_%s: no extractor numbers._" % note.capitalize()


def downscale_section():
    """The '## Downscale' section scripts/bench-downscale's numbers went into, kept as it is."""
    if not os.path.exists(DOC):
        return ""
    text = open(DOC, encoding="utf-8").read()
    match = re.search(r"^## Downscale\n.*?(?=^## (?!#)|\Z)", text, re.S | re.M)
    return match.group(0).rstrip() if match else ""


def tool_loop_section():
    """The '## Tool loop' section scripts/bench-tool-loop's numbers went into, kept as it is."""
    if not os.path.exists(DOC):
        return ""
    text = open(DOC, encoding="utf-8").read()
    match = re.search(r"^## Tool loop\n.*?(?=^## (?!#)|\Z)", text, re.S | re.M)
    return match.group(0).rstrip() if match else ""


def kept_section(title):
    """A section another script writes ('## Prompt rendering': scripts/bench-prompt.py; '## Similar':
    scripts/bench-similar.py's figures), kept as it is."""
    if not os.path.exists(DOC):
        return ""
    text = open(DOC, encoding="utf-8").read()
    match = re.search(r"^## " + re.escape(title) + r"\n.*?(?=^## (?!#)|\Z)", text, re.S | re.M)
    return match.group(0).rstrip() if match else ""


def main():
    parser = argparse.ArgumentParser(description="scripts/bench's measuring half")
    parser.add_argument("--bin", required=True, help="the release bin directory (sophon, SophonBench)")
    parser.add_argument("--venv", required=True, help="venv with google-genai and llm")
    parser.add_argument("--runs", type=int)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", default="client,stream,startup,replay")
    parser.add_argument("--extract-output")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    args.runs = args.runs or (2 if args.quick else 5)
    args.sophon = os.path.join(args.bin, "sophon")
    args.swift_bench = os.path.join(args.bin, "SophonBench")
    args.sophon_plain = os.path.join(os.path.dirname(os.path.dirname(args.bin.rstrip("/"))), "sophon-plain-static")
    if not os.path.exists(args.sophon_plain):
        args.sophon_plain = args.sophon
    args.python = os.path.join(args.venv, "bin", "python")
    args.before = os.environ.get("SOPHON_BENCH_BEFORE") or None
    sections = set(args.only.split(","))

    def log(message):
        print(message, file=sys.stderr, flush=True)

    machine = machine_info(args)
    data = {"load": {"start": loadavg()}}
    server = Server()
    try:
        if "client" in sections:
            log("client throughput (%d runs)..." % args.runs)
            data["client"] = client_section(args, server, log)
            data["load"]["after client"] = loadavg()
        if "stream" in sections:
            log("streaming first chunk...")
            data["stream"] = stream_section(args, server, log)
            data["load"]["after stream"] = loadavg()
        if "startup" in sections:
            log("start-up...")
            data["startup"] = startup_section(args, log)
            data["load"]["after start-up"] = loadavg()
        if "replay" in sections:
            log("script replay...")
            data["replay"] = replay_section(args, server, log)
            data["load"]["after replay"] = loadavg()
    finally:
        server.stop()

    analysis = analyse(data)
    checks = bars(analysis)
    print("\nBars:")
    for name, value, met in checks:
        print("  [%s] %s: %s" % ("met " if met else "MISS", name, value))
    extract_note = extractor_section(args)
    document = markdown(machine, data, analysis, checks, args, extract_note)
    kept = downscale_section()
    if kept:
        document = document.rstrip("\n") + "\n\n" + kept + "\n"
    kept_tools = tool_loop_section()
    if kept_tools:
        document = document.rstrip("\n") + "\n\n" + kept_tools + "\n"
    for title in ("Prompt rendering", "Similar"):
        kept = kept_section(title)
        if kept:
            document = document.rstrip("\n") + "\n\n" + kept + "\n"
    print("\n" + document)
    if not args.no_write:
        os.makedirs(os.path.dirname(DOC), exist_ok=True)
        with open(DOC, "w", encoding="utf-8") as handle:
            handle.write(document)
        os.makedirs(os.path.dirname(RESULTS), exist_ok=True)
        with open(RESULTS, "w", encoding="utf-8") as handle:
            json.dump({"machine": machine, "args": {"runs": args.runs, "quick": args.quick,
                                                    "sections": sorted(sections)},
                       "raw": data, "summary": analysis,
                       "bars": [{"bar": n, "measured": v, "met": m} for n, v, m in checks]},
                      handle, indent=2)
            handle.write("\n")
        log("wrote %s and %s" % (os.path.relpath(DOC, ROOT), os.path.relpath(RESULTS, ROOT)))


if __name__ == "__main__":
    sys.exit(main())
