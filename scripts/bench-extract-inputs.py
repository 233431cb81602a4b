#!/usr/bin/env python3
"""Writes the inputs of scripts/bench-extract into a folder (deterministic, seeded).

valid.json        one pretty-printed JSON document (an array of records), about 8 MB
broken.txt        4,000 model replies with the usual breakages, separated by U+001E, about 3 MB
broken-truth.txt  the replies of broken.txt that are not cut off, with their true values, in the
                  format of Tests/Fixtures/extractor-corpus.txt (a second accuracy score)
truncated-N.txt   one pretty-printed array cut in the middle of a string, N = 1, 4, 16 MB
"""
import json
import random
import sys
from pathlib import Path

WORDS = ("alpha beta gamma delta river stone cloud garden signal orbit maple harbor lantern "
         "quartz meadow ember cipher atlas velvet summit café naïve résumé 東京 😀").split()


def record(rng, index):
    return {
        "id": index,
        "name": f"{rng.choice(WORDS).title()} {rng.choice(WORDS).title()}",
        "email": f"user{index}@example.com",
        "score": round(rng.uniform(0, 100), 3),
        "active": rng.random() < 0.7,
        "manager": None if rng.random() < 0.5 else rng.randrange(1000),
        "tags": rng.sample(WORDS, 3),
        "bio": " ".join(rng.choice(WORDS) for _ in range(rng.randrange(8, 30)))
        + ' with "quotes", a \\ backslash\nand a second line',
        "address": {"city": rng.choice(WORDS).title(), "zip": f"{rng.randrange(10**5):05d}"},
        "history": [rng.randrange(-500, 500) for _ in range(rng.randrange(3, 12))],
    }


def broken_value(rng, value, indent):
    """Renders a value the way a careless model might."""
    pad = "  " * indent
    if isinstance(value, dict):
        lines = []
        for key, item in value.items():
            style = rng.random()
            if style < 0.25:
                rendered_key = key  # unquoted
            elif style < 0.45:
                rendered_key = f"'{key}'"
            else:
                rendered_key = json.dumps(key)
            lines.append(f"{pad}  {rendered_key}: {broken_value(rng, item, indent + 1)}")
        separators = []
        for _ in lines[:-1]:
            roll = rng.random()
            separators.append("" if roll < 0.05 else ",  // note" if roll < 0.12 else ",")
        body = "".join(line + sep + "\n" for line, sep in zip(lines, separators + [""]))
        trailing = "," if rng.random() < 0.3 else ""
        return "{\n" + body.rstrip("\n") + trailing + "\n" + pad + "}"
    if isinstance(value, list):
        items = [broken_value(rng, item, indent + 1) for item in value]
        trailing = ", " if rng.random() < 0.3 else ""
        return "[" + ", ".join(items) + trailing + "]"
    if value is True:
        return "True" if rng.random() < 0.3 else "true"
    if value is False:
        return "False" if rng.random() < 0.3 else "false"
    if value is None:
        return "None" if rng.random() < 0.3 else "null"
    if isinstance(value, str):
        if rng.random() < 0.2 and "'" not in value and "\\" not in value and "\n" not in value:
            return "'" + value + "'"
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(value)


def broken_reply(rng, index):
    """A reply and, when it is not cut off, the records it holds (else None)."""
    records = [record(rng, index * 10 + k) for k in range(rng.randrange(1, 3))]
    body = broken_value(rng, records, 0)
    if rng.random() < 0.3:  # cut off mid-reply
        body = body[: rng.randrange(len(body) // 2, len(body))]
        return f"Sure! Here is the data:\n```json\n{body}", None
    return f"Sure! Here is the data:\n```json\n{body}\n```\nLet me know if you need more.", records


def truncated(rng, size):
    parts = ["[\n"]
    total = 2
    index = 0
    while total < size:
        text = json.dumps(record(rng, index), indent=2, ensure_ascii=False) + ",\n"
        parts.append(text)
        total += len(text.encode())
        index += 1
    document = "".join(parts).encode()[:size]
    # Cut inside the next string after the size: back up to just after a quote that opens one.
    cut = document.rfind(b': "') + 6
    return document[:cut].decode("utf-8", errors="ignore")


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(20261129)
    records = [record(rng, index) for index in range(13_000)]
    (out / "valid.json").write_text(json.dumps(records, indent=2, ensure_ascii=False), encoding="utf-8")
    replies = [broken_reply(rng, index) for index in range(4_000)]
    (out / "broken.txt").write_text("\x1e".join(reply for reply, _ in replies), encoding="utf-8")
    cases = [
        f"### generated: {index}\n{reply}\n--> {json.dumps(records, separators=(',', ':'), ensure_ascii=False)}\n"
        for index, (reply, records) in enumerate(replies)
        if records is not None
    ]
    (out / "broken-truth.txt").write_text("\n".join(cases), encoding="utf-8")
    for megabytes in (1, 4, 16):
        (out / f"truncated-{megabytes}.txt").write_text(
            truncated(rng, megabytes * 1_000_000), encoding="utf-8")


if __name__ == "__main__":
    main()
