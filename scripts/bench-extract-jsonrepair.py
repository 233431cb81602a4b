#!/usr/bin/env python3
"""The json_repair side of scripts/bench-extract (run inside the script's throwaway venv).

bench-extract-jsonrepair.py broken FILE RUNS   repair_json(doc, skip_json_loads=True, return_objects=True)
bench-extract-jsonrepair.py valid FILE RUNS    repair_json(doc, return_objects=True) (json.loads first)
bench-extract-jsonrepair.py corpus FILE        accuracy on the corpus: RIGHT REFUSED WRONG

FILE may hold several documents separated by U+001E; each is one call. Timing modes print
MEDIAN MIN MAX BYTES (MB/s, MB = 10^6 bytes).
"""
import json
import math
import statistics
import sys
import time

from json_repair import repair_json


def timing(mode, path, runs):
    data = open(path, encoding="utf-8").read()
    documents = [doc for doc in data.split("\x1e") if doc]
    size = sum(len(doc.encode()) for doc in documents)
    skip = mode == "broken"
    speeds = []
    for _ in range(runs):
        start = time.perf_counter()
        for doc in documents:
            repair_json(doc, skip_json_loads=skip, return_objects=True)
        speeds.append(size / 1e6 / (time.perf_counter() - start))
    print(f"{statistics.median(speeds):.2f} {min(speeds):.2f} {max(speeds):.2f} {size}")


def cases(text):
    """Cases of Tests/Fixtures/extractor-corpus.txt: (name, input, expected values or None)."""
    result = []
    header, lines, expected, in_expected = None, [], [], False

    def flush():
        if header is None:
            return
        newline = header.endswith(" +nl")
        name = header[:-4] if newline else header
        body = "\n".join(lines) + ("\n" if newline else "")
        result.append((name, body, None if expected == ["REFUSE"] else list(expected)))

    for line in text.split("\n"):
        if line.startswith("### "):
            flush()
            header, lines, expected, in_expected = line[4:], [], [], False
        elif line.startswith("--> "):
            in_expected = True
            expected.append(line[4:])
        elif header is not None and not in_expected:
            lines.append(line)
    flush()
    return result


def same(a, b):
    """Equal JSON values: bools apart from numbers, ints and floats by value, NaN never."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return not (isinstance(a, float) and math.isnan(a)) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a.keys()) == list(b.keys()) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def corpus(path):
    right = refused = wrong = 0
    for name, text, expected in cases(open(path, encoding="utf-8").read()):
        try:
            got = repair_json(text, return_objects=True)
        except Exception:  # noqa: BLE001 - any failure is a refusal
            got = ""
        nothing = got == "" or got is None
        if expected is None:
            ok = nothing
        elif len(expected) == 1:
            ok = not nothing and same(got, json.loads(expected[0]))
        else:
            ok = not nothing and same(got, [json.loads(value) for value in expected])
        if ok:
            right += 1
        elif nothing:
            refused += 1
            print(f"refused: {name}")
        else:
            wrong += 1
            print(f"wrong: {name}: {json.dumps(got)}")
    print(f"{right} {refused} {wrong}")


if __name__ == "__main__":
    if sys.argv[1] == "corpus":
        corpus(sys.argv[2])
    else:
        timing(sys.argv[1], sys.argv[2], int(sys.argv[3]))
