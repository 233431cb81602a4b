#!/usr/bin/env python3
"""Whole-process rows of scripts/bench-extract (issue 20): `sophon extract` as users run it.

    bench-extract-process.py SOPHON PYTHON FOLDER RUNS [ENGINE]   measure, print raw lines
    bench-extract-process.py markdown RAWFILE RUNS                  the docs/benchmarks.md part

SOPHON: the release binary. PYTHON: a python3 with json_repair installed. FOLDER: where the
inputs are written (seeded, from scripts/bench-extract-inputs.py's records): valid-N.json, one
pretty-printed array of records of about N MB (N = 1, 4, 10, 16, 64), and broken-10.txt, one
~10 MB reply (prose, a ```json fence, unquoted and single-quoted keys, Python literals,
trailing commas, `//` comments, cut off at the end). ENGINE: SophonBenchExtract, for the
engine's in-process MB/s on the same valid input.

Each tool runs RUNS times, alternating with the tool it is compared to, stdout to /dev/null;
wall time includes start-up and reading the file; peak RSS comes from wait4's rusage of the
child (the measuring process stays small: a forked child's peak includes its parent's pages). Prints one line per row: NAME MEDIAN_S MIN_S MAX_S PEAK_RSS_BYTES INPUT_BYTES, then
RATIO lines (median of the per-run ratios, min, max).
"""
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def inputs_module():
    spec = importlib.util.spec_from_file_location("inputs", os.path.join(ROOT, "scripts", "bench-extract-inputs.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_inputs(folder):
    names = [f"valid-{n}.json" for n in (1, 4, 10, 16, 64)] + ["broken-10.txt"]
    if all(os.path.exists(os.path.join(folder, name)) for name in names):
        return
    # Written by a child process: a forked child starts with its parent's resident set, which
    # wait4 would count in its peak, so the measuring process stays small.
    subprocess.run([sys.executable, __file__, "--write-inputs", folder], check=True)


def write_inputs_now(folder):
    gen = inputs_module()
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(20261201)
    pool = [gen.record(rng, index) for index in range(20_000)]
    for megabytes in (1, 4, 10, 16, 64):
        path = os.path.join(folder, f"valid-{megabytes}.json")
        if os.path.exists(path):
            continue
        records, size, index = [], 0, 0
        while size < megabytes * 1_000_000 * 0.913:
            item = dict(pool[index % len(pool)], id=index)
            records.append(item)
            size += len(json.dumps(item, indent=2, ensure_ascii=False).encode()) + 6
            index += 1
        with open(path, "w", encoding="utf-8") as f:
            json.dump(records, f, indent=2, ensure_ascii=False)
    path = os.path.join(folder, "broken-10.txt")
    if not os.path.exists(path):
        records = [dict(pool[index % len(pool)], id=index) for index in range(20_500)]
        body = gen.broken_value(rng, records, 0)
        body = body[: min(len(body) - 10, 10_000_000)]  # Cut off mid-reply.
        with open(path, "w", encoding="utf-8") as f:
            f.write("Sure! Here is the data you asked for:\n```json\n" + body)


def run(args):
    """Wall seconds and peak RSS (bytes) of one process."""
    with open(os.devnull, "wb") as null:
        start = time.perf_counter()
        process = subprocess.Popen(args, stdout=null, stderr=null, stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
    if status != 0:
        sys.exit(f"{args} exited with {status}")
    return elapsed, usage.ru_maxrss * 1024


def compare(name_a, args_a, name_b, args_b, runs, size, runs_a=None):
    """RUNS runs of each, alternating; then tool A alone up to RUNS_A runs (ratios pair the
    alternated runs only)."""
    a, b = [], []
    for _ in range(runs):
        a.append(run(args_a))
        b.append(run(args_b))
    while len(a) < (runs_a or runs):
        a.append(run(args_a))
    for name, results in ((name_a, a), (name_b, b)):
        times = [t for t, _ in results]
        print(f"{name} {statistics.median(times):.4f} {min(times):.4f} {max(times):.4f} "
              f"{max(r for _, r in results)} {size}")
    ratios = [tb / ta for (ta, _), (tb, _) in zip(a, b)]  # zip stops at the alternated runs.
    print(f"RATIO {name_a}/{name_b} {statistics.median(ratios):.2f} {min(ratios):.2f} {max(ratios):.2f}")


def markdown(raw, runs, py_runs):
    """The "Whole process" part of docs/benchmarks.md's Extractor section, from main's lines."""
    rows, ratios, engine = {}, {}, None
    for line in raw.strip().splitlines():
        parts = line.split()
        if parts[0] == "RATIO":
            ratios[parts[1]] = tuple(map(float, parts[2:5]))
        elif parts[0] == "ENGINE":
            engine = tuple(map(float, parts[1:4]))
        else:
            rows[parts[0]] = (*map(float, parts[1:4]), int(parts[4]), int(parts[5]))

    def row(label, tool, name):
        median, low, high, rss, size = rows[name]
        return (f"| {label} | {tool} | {median * 1000:.0f} ({low * 1000:.0f}–{high * 1000:.0f}) | "
                f"{size / 1e6 / median:.{0 if size / 1e6 / median >= 10 else 3}f} | {rss / 1e6:.1f} | {rss / size:.2f}x |")

    valid = rows["sophon-valid"]
    startup_rss = rows["startup"][3]
    lines = [
        "### Whole process: `sophon extract`",
        "",
        "`scripts/bench-extract-process.py` (run by `scripts/bench-extract`): one `sophon extract @FILE` "
        "process of the release build (`scripts/build`) per run, stdout to /dev/null (the value is "
        "still printed, pretty), start-up and reading the file included, as for the tools it is "
        f"compared to; {runs} runs each, alternating with the other tool ({py_runs} for json_repair, which "
        "takes minutes on the broken document; its ratio pairs those runs only), median "
        "with min–max; peak RSS is the largest of the runs (wait4). MB/s = input MB over the median.",
        "",
        "| input | tool | ms | MB/s | peak RSS MB | peak / input |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
        row(f"valid, {valid[4] / 1e6:.0f} MB", "`sophon extract`", "sophon-valid"),
        row(f"valid, {valid[4] / 1e6:.0f} MB", "`python3 -c json.load`", "python-json-load"),
        row(f"broken, {rows['sophon-broken'][4] / 1e6:.0f} MB", "`sophon extract`", "sophon-broken"),
        row(f"broken, {rows['sophon-broken'][4] / 1e6:.0f} MB", "json_repair (`loads`)", "json_repair-broken"),
    ]
    if "piped" in rows:
        lines.append(row(f"valid, {valid[4] / 1e6:.0f} MB", "`cat FILE \\| sophon extract`", "piped"))
        lines.append(row(f"valid, {valid[4] / 1e6:.0f} MB", "`sophon -c 'extract @FILE' -c 'echo $last'`",
                         "echo-last"))
    for megabytes in (1, 4, 16, 64):
        lines.append(row(f"valid, {megabytes} MB", "`sophon extract`", f"scale-{megabytes}"))
    v = ratios["sophon-valid/python-json-load"]
    b = ratios["sophon-broken/json_repair-broken"]
    lines += [
        "",
        f"- Valid: `sophon extract` is {v[0]:.2f}x as fast as `python3 -c json.load` (per-run "
        f"ratios {v[1]:.2f}x to {v[2]:.2f}x); it runs at {valid[4] / 1e6 / valid[0]:.0f} MB/s whole-process, "
        + (f"{100 * valid[4] / 1e6 / valid[0] / engine[0]:.0f}% of the engine's {engine[0]:.0f} MB/s "
           f"({engine[1]:.0f}–{engine[2]:.0f}) in-process (`SophonBenchExtract extract`) on the same file."
           if engine else "."),
        f"- Broken: {b[0]:.0f}x as fast as json_repair's whole process (runs {b[1]:.0f}x to {b[2]:.0f}x).",
        f"- Peak RSS: a process that only starts (`sophon -c 'echo ok'`) peaks at {startup_rss / 1e6:.1f} MB; "
        "above that, extract holds the value's compact text (smaller than a pretty-printed or "
        "repaired input) and a 64 KiB output buffer; the file is mapped and its pages given back "
        "as the engine reads it (`LLMJSONExtractor.extract(fromUTF8:releasingInput:)`): "
        f"{(valid[3] - startup_rss) / valid[4]:.2f}x the input above start-up on the valid document, "
        f"{(rows['sophon-broken'][3] - startup_rss) / rows['sophon-broken'][4]:.2f}x on the broken one; "
        f"{valid[3] / valid[4]:.2f}x and {rows['sophon-broken'][3] / rows['sophon-broken'][4]:.2f}x counted "
        "from zero. A pipe cannot be given back (its bytes exist nowhere else), so piped input "
        "adds the input's size once; `echo $last` expands from the kept text, neither parsing "
        "nor copying it.",
        "- Scaling: MB/s from 1 to 64 MB in the table (start-up weighs on the 1 MB row).",
    ]
    return "\n".join(lines)


def main():
    if sys.argv[1] == "markdown":
        with open(sys.argv[2]) as f:
            print(markdown(f.read(), int(sys.argv[3]), int(os.environ.get("PY_RUNS", "3"))))
        return
    if sys.argv[1] == "--write-inputs":
        write_inputs_now(sys.argv[2])
        return
    sophon, python, folder, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    engine = sys.argv[5] if len(sys.argv) > 5 else None
    write_inputs(folder)
    valid = os.path.join(folder, "valid-10.json")
    broken = os.path.join(folder, "broken-10.txt")
    size = os.path.getsize(valid)
    load = "import json,sys; json.load(open(sys.argv[1], encoding='utf-8'))"
    compare("sophon-valid", [sophon, "extract", "@" + valid], "python-json-load", ["python3", "-c", load, valid],
            runs, size)
    if engine:
        out = subprocess.run([engine, "extract", valid, str(runs)], capture_output=True, text=True, check=True)
        print("ENGINE " + out.stdout.strip())
    repair = "import json_repair,sys; json_repair.loads(open(sys.argv[1], encoding='utf-8').read())"
    # json_repair takes minutes on this document: PY_RUNS runs of it (default 3), RUNS of sophon.
    py_runs = int(os.environ.get("PY_RUNS", "3"))
    compare("sophon-broken", [sophon, "extract", "@" + broken], "json_repair-broken",
            [python, "-c", repair, broken], max(1, min(runs, py_runs)), os.path.getsize(broken), runs_a=runs)
    # Standard input from a pipe (read into one mapping, no copy) and `echo $last` after the
    # extract (expanded from the kept text, no tree): the valid 10 MB document.
    piped = ["sh", "-c", 'cat "$1" | "$0" extract', sophon, valid]
    echo = [sophon, "-c", "extract @" + valid, "-c", "echo $last"]
    for name, args in (("piped", piped), ("echo-last", echo)):
        results = [run(args) for _ in range(runs)]
        times = [t for t, _ in results]
        print(f"{name} {statistics.median(times):.4f} {min(times):.4f} {max(times):.4f} "
              f"{max(r for _, r in results)} {size}")
    for megabytes in (1, 4, 16, 64):
        path = os.path.join(folder, f"valid-{megabytes}.json")
        results = [run([sophon, "extract", "@" + path]) for _ in range(runs)]
        times = [t for t, _ in results]
        print(f"scale-{megabytes} {statistics.median(times):.4f} {min(times):.4f} {max(times):.4f} "
              f"{max(r for _, r in results)} {os.path.getsize(path)}")
    results = [run([sophon, "-c", "echo ok"]) for _ in range(runs)]
    print(f"startup {statistics.median([t for t, _ in results]):.4f} 0 0 {max(r for _, r in results)} 0")


if __name__ == "__main__":
    main()
