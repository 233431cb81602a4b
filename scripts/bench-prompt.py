#!/usr/bin/env python3
"""Prompt rendering speed beside dotpromptz (PyPI, Dotprompt's Python implementation), on the
same template and data (docs/prompts.md, issue 26 "Measure").

    python3 scripts/bench-prompt.py --bin .build-bench/release/sophon --venv /tmp/sophon-bench-venv [--runs 20]

Whole process: `sophon prompt render FILE --data @FILE` against a fresh `python -c` that imports
dotpromptz and renders once, median wall time of --runs each. In process: dotpromptz renders per
second in one process (the Swift in-process side is not measured yet).
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time

TEMPLATE = """---
model: googleai/gemini-3.8-flash
config:
  temperature: 0.2
input:
  schema:
    name: string
    items(array):
      title: string
      qty: integer
output:
  format: json
  schema:
    total: integer
    summary: string
---
{{role "system"}}You are a careful clerk.
{{role "user"}}Hello, I am {{name}}. My order:
{{#each items}}- {{qty}} x {{title}}{{#if @last}}.{{/if}}
{{/each}}
{{#if note}}Note: {{note}}{{else}}No note.{{/if}}
"""
DATA = {"input": {"name": "Ann", "note": "gift wrap",
                  "items": [{"title": f"item {i}", "qty": i} for i in range(1, 21)]}}

PY_ONCE = """
import asyncio, json, sys
from dotpromptz import Dotprompt
from dotpromptz._typing import DataArgument
source = open(sys.argv[1]).read()
data = DataArgument(**json.load(open(sys.argv[2])))
rendered = asyncio.run(Dotprompt().render(source, data))
"""

PY_LOOP = """
import asyncio, json, sys, time
from dotpromptz import Dotprompt
from dotpromptz._typing import DataArgument
source = open(sys.argv[1]).read()
data = DataArgument(**json.load(open(sys.argv[2])))
async def main():
    prompt = Dotprompt()
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < 2.0:
        await prompt.render(source, data)
        n += 1
    print(n / (time.perf_counter() - start))
asyncio.run(main())
"""


def median_seconds(command, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--venv", required=True)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    python = os.path.join(args.venv, "bin", "python")
    with tempfile.TemporaryDirectory() as folder:
        template = os.path.join(folder, "order.prompt")
        data = os.path.join(folder, "data.json")
        open(template, "w").write(TEMPLATE)
        json.dump(DATA, open(data, "w"))
        sophon = median_seconds([args.bin, "prompt", "render", template, "--data", "@" + data], args.runs)
        dotpromptz = median_seconds([python, "-c", PY_ONCE, template, data], args.runs)
        loop = subprocess.run([python, "-c", PY_LOOP, template, data], check=True, capture_output=True, text=True)
        per_second = float(loop.stdout.strip())
    print(f"prompt render, whole process (median of {args.runs}): sophon {sophon * 1000:.1f} ms, "
          f"dotpromptz {dotpromptz * 1000:.1f} ms, sophon {dotpromptz / sophon:.1f}x faster")
    print(f"in process: dotpromptz {per_second:.0f} renders/s (sophon: not measured yet)")


if __name__ == "__main__":
    sys.exit(main())
