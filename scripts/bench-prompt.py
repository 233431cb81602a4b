#!/usr/bin/env python3
"""Prompt rendering speed beside dotpromptz (PyPI, Dotprompt's Python implementation), on the
same template and data (docs/prompts.md, issue 26 "Measure"; docs/benchmarks.md, "Prompt
rendering").

    python3 scripts/bench-prompt.py --bin DIR --venv VENV [--runs 20] [--seconds 3] [--no-write]

DIR holds release builds of `sophon` and `SophonBenchPrompt` (scripts/bench builds both into
.build-bench). VENV has dotpromptz (scripts/bench installs it). Whole process: `sophon prompt
render FILE --data @FILE` against a fresh `python -c` that imports dotpromptz and renders once,
median wall time of --runs each, interleaved. In process: renders per second for --seconds in
one process each (SophonBenchPrompt; dotpromptz's async `render` in one event loop), the source
parsed on every render on both sides. Writes the "## Prompt rendering" section of
docs/benchmarks.md (scripts/bench-run.py keeps it) and benchmarks/prompt.json.
"""
import argparse, datetime, json, os, platform, re, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "benchmarks.md")
RESULTS = os.path.join(ROOT, "benchmarks", "prompt.json")

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
print(rendered.model_dump_json(by_alias=True, exclude_none=True))
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
    while time.perf_counter() - start < float(sys.argv[3]):
        await prompt.render(source, data)
        n += 1
    print(json.dumps({"renders": n, "seconds": time.perf_counter() - start,
                      "per_second": n / (time.perf_counter() - start)}))
asyncio.run(main())
"""


def interleaved_medians(commands, runs):
    """Median wall seconds of each command, the commands run in turn within each round."""
    times = [[] for _ in commands]
    for _ in range(runs):
        for index, command in enumerate(commands):
            start = time.perf_counter()
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            times[index].append(time.perf_counter() - start)
    return [statistics.median(each) for each in times], times


def version(python, package):
    return subprocess.run([python, "-c", "import importlib.metadata as m; print(m.version(%r))" % package],
                          check=True, capture_output=True, text=True).stdout.strip()


def section(result):
    whole, inproc = result["whole_process"], result["in_process"]
    return "\n".join([
        "## Prompt rendering",
        "",
        "`scripts/bench-prompt.py` (%s, the machine above; %s): one prompt file (frontmatter with "
        "config, Picoschema input and output schemas; a body with two `{{role}}` blocks, an "
        "`#each` over 20 items, `#if`/`else`) rendered with the same data by Sophon (release build) "
        "and by dotpromptz %s (PyPI, Dotprompt's Python implementation), to Dotprompt's "
        "rendered-prompt JSON (the same `messages`, `config`, `input`, `output` and `model` on both "
        "sides, checked by the script). Both sides parse the source on every render. Load average "
        "%s at the start, %s at the end (other builds were running)."
        % (result["date"], result["python"], result["dotpromptz"], " ".join(result["load"]["start"]),
           " ".join(result["load"]["end"])),
        "",
        "| | Sophon | dotpromptz | Sophon ahead by |",
        "|---|---|---|---|",
        "| whole process, `prompt render FILE --data @FILE` vs `python -c` (median of %d) | %.1f ms | %.1f ms | %.1fx |"
        % (whole["runs"], whole["sophon_ms"], whole["dotpromptz_ms"], whole["ratio"]),
        "| in process, renders per second (%.0f s each) | %s | %s | %.1fx |"
        % (inproc["seconds"], f"{inproc['sophon_per_second']:,.0f}", f"{inproc['dotpromptz_per_second']:,.0f}",
           inproc["ratio"]),
        "",
        "The whole-process figure for dotpromptz includes starting Python and importing the package. "
        "This section is written by scripts/bench-prompt.py (scripts/bench runs it); "
        "scripts/bench-run.py keeps it as found.",
    ])


def write_section(text):
    document = open(DOC, encoding="utf-8").read() if os.path.exists(DOC) else "# Benchmarks\n"
    pattern = re.compile(r"^## Prompt rendering\n.*?(?=^## (?!#)|\Z)", re.S | re.M)
    if pattern.search(document):
        document = pattern.sub(lambda _: text + "\n\n", document).rstrip("\n") + "\n"
    else:
        document = document.rstrip("\n") + "\n\n" + text + "\n"
    with open(DOC, "w", encoding="utf-8") as handle:
        handle.write(document)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, help="folder with release sophon and SophonBenchPrompt")
    parser.add_argument("--venv", required=True)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    python = os.path.join(args.venv, "bin", "python")
    sophon = os.path.join(args.bin, "sophon")
    bench = os.path.join(args.bin, "SophonBenchPrompt")
    with tempfile.TemporaryDirectory() as folder:
        template = os.path.join(folder, "order.prompt")
        data = os.path.join(folder, "data.json")
        open(template, "w").write(TEMPLATE)
        json.dump(DATA, open(data, "w"))
        # Both render the whole thing: the same messages come out.
        ours = json.loads(subprocess.run([sophon, "prompt", "render", template, "--data", "@" + data],
                                         check=True, capture_output=True, text=True).stdout)
        theirs = json.loads(subprocess.run([python, "-c", PY_ONCE, template, data], check=True,
                                           capture_output=True, text=True).stdout)
        same = [key for key in ("messages", "config", "input", "output", "model") if ours.get(key) == theirs.get(key)]
        assert len(same) == 5, (ours, theirs)
        load_start = open("/proc/loadavg").read().split()[:3]
        (sophon_s, dotpromptz_s), raw = interleaved_medians(
            [[sophon, "prompt", "render", template, "--data", "@" + data], [python, "-c", PY_ONCE, template, data]],
            args.runs)
        swift_loop = json.loads(subprocess.run([bench, template, data, str(args.seconds)], check=True,
                                               capture_output=True, text=True).stdout)
        python_loop = json.loads(subprocess.run([python, "-c", PY_LOOP, template, data, str(args.seconds)],
                                                check=True, capture_output=True, text=True).stdout)
    result = {
        "load": {"start": load_start, "end": open("/proc/loadavg").read().split()[:3]},
        "same_as_dotpromptz": same,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "python": "Python " + platform.python_version(),
        "dotpromptz": version(python, "dotpromptz"),
        "whole_process": {"runs": args.runs, "sophon_ms": sophon_s * 1000, "dotpromptz_ms": dotpromptz_s * 1000,
                          "ratio": dotpromptz_s / sophon_s,
                          "sophon_all_ms": [t * 1000 for t in raw[0]], "dotpromptz_all_ms": [t * 1000 for t in raw[1]]},
        "in_process": {"seconds": args.seconds, "sophon_per_second": swift_loop["per_second"],
                       "dotpromptz_per_second": python_loop["per_second"],
                       "ratio": swift_loop["per_second"] / python_loop["per_second"],
                       "sophon": swift_loop, "dotpromptz": python_loop},
    }
    text = section(result)
    print(text)
    if not args.no_write:
        write_section(text)
        os.makedirs(os.path.dirname(RESULTS), exist_ok=True)
        with open(RESULTS, "w", encoding="utf-8") as handle:
            json.dump(result, handle, indent=2)
            handle.write("\n")
        print("wrote docs/benchmarks.md (Prompt rendering) and benchmarks/prompt.json", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
