#!/usr/bin/env python3
"""Differential check of two `sophon` binaries on `extract` (issue 20: the streamed output must
be byte-identical to the tree-built output of before).

    scripts/extract-differential.py OLD NEW [MUTANTS [LARGE]]

Inputs: every file under Fuzz/Seeds, every case of Tests/Fixtures/extractor-corpus.txt, the
files of examples/, and MUTANTS (default 1500) seeded mutations of those (cuts, inserted and
deleted bytes, invalid UTF-8, a NUL, a BOM, CRLF, nesting, long strings), and LARGE (default
60) inputs of more than 1 MiB (which `extract` maps instead of reading: a mutant with prose of
1-1.3 MiB before it, some of it after, or a value repeated past 1 MiB). Each input is run
through both binaries in seven ways: `extract @FILE`, `extract < FILE`, `cat FILE | extract`,
`--json extract @FILE`, `-c 'set output raw' -c 'extract @FILE' -c 'echo $last'`,
`extract --schema '{ a?: number, name?: string, ok?: boolean }' @FILE` and
`-c 'schema [number]' -c 'extract @FILE' -c validate -c 'validate @FILE'`; stdout, stderr and
exit status must match. Prints the number of inputs and runs compared and every
difference; exits 1 when there is one.
"""
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def corpus_cases():
    """The inputs of Tests/Fixtures/extractor-corpus.txt (its format is described at its top)."""
    with open(os.path.join(ROOT, "Tests/Fixtures/extractor-corpus.txt"), encoding="utf-8") as f:
        text = f.read()
    inputs, header, lines, reading = [], None, [], False
    for line in text.split("\n") + ["### end"]:
        if line.startswith("### "):
            if header is not None:
                inputs.append(("\n".join(lines) + ("\n" if header.endswith(" +nl") else "")).encode())
            header, lines, reading = line, [], True
        elif line.startswith("--> "):
            reading = False
        elif header is not None and reading:
            lines.append(line)
    return inputs


def base_inputs():
    inputs = []
    for folder in [os.path.join(ROOT, "Fuzz/Seeds"), os.path.join(ROOT, "examples")]:
        for path, _, files in sorted(os.walk(folder)):
            for name in sorted(files):
                with open(os.path.join(path, name), "rb") as f:
                    data = f.read()
                if len(data) < 2_000_000:
                    inputs.append(data)
    return inputs + corpus_cases()


def mutate(rng, data, pool):
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        choice = rng.randrange(10)
        at = rng.randint(0, len(data))
        if choice == 0 and data:
            del data[at:]  # Cut.
        elif choice == 1:
            data[at:at] = bytes([rng.randrange(256)])
        elif choice == 2 and data:
            del data[at:at + rng.randint(1, 4)]
        elif choice == 3:
            data[at:at] = rng.choice([b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xf4\x90\x80\x80"])
        elif choice == 4:
            data[at:at] = b"\x00"
        elif choice == 5:
            data[0:0] = b"\xef\xbb\xbf"
        elif choice == 6:
            data = bytearray(bytes(data).replace(b"\n", b"\r\n"))
        elif choice == 7:
            depth = rng.randint(1, 40)
            data = bytearray(b"[" * depth + bytes(data) + b"]" * depth)
        elif choice == 8:
            data[at:at] = ('"' + "é😀\\n\t" * rng.randint(1, 3000) + '"').encode()
        else:
            data[at:at] = rng.choice(pool)[: rng.randint(0, 200)]
    return bytes(data)


PROSE = [b"Some prose about the data.\n", "é and 😀 in a line of prose.\n".encode(), b"  indented text\r\n",
         b"See [1] and {note}.\n", b"\n"]


def large(rng, data, pool):
    """An input of more than 1 MiB built around `data` (a mutant)."""
    data = mutate(rng, data, pool)
    if rng.random() < 0.3:
        # A value repeated into one long array (or prose) past 1 MiB.
        unit = data or b"{}"
        return b"[" + b",".join([unit] * (1_100_000 // len(unit) + 1)) + b"]"
    before = bytearray()
    target = rng.randint(1_050_000, 1_300_000)
    while len(before) < target:
        before += rng.choice(PROSE)
    after = b"".join(rng.choice(PROSE) for _ in range(rng.randint(0, 3)))
    if rng.random() < 0.2:
        before[0:0] = b"\xef\xbb\xbf"
    return bytes(before) + data + after


def run(binary, mode, path, home):
    env = {"PATH": "/usr/bin:/bin", "SOPHON_HOME": home, "HOME": home, "LANG": "C.UTF-8"}
    if mode == "at":
        args, stdin = [binary, "extract", "@" + path], subprocess.DEVNULL
    elif mode == "file-stdin":
        args, stdin = [binary, "extract"], open(path, "rb")
    elif mode == "pipe":
        with open(path, "rb") as f:
            data = f.read()
        out = subprocess.run([binary, "extract"], input=data, capture_output=True, env=env, cwd=home, timeout=120)
        return out.stdout, out.stderr, out.returncode
    elif mode == "schema":
        args = [binary, "extract", "--schema", "{ a?: number, name?: string, ok?: boolean }", "@" + path]
        stdin = subprocess.DEVNULL
    elif mode == "validate":
        args = [binary, "-c", "schema [number]", "-c", "extract @" + path, "-c", "validate", "-c", "validate @" + path]
        stdin = subprocess.DEVNULL
    elif mode == "json":
        args, stdin = [binary, "--json", "extract", "@" + path], subprocess.DEVNULL
    else:
        args = [binary, "-c", "set output raw", "-c", "extract @" + path, "-c", "echo $last"]
        stdin = subprocess.DEVNULL
    try:
        out = subprocess.run(args, stdin=stdin, capture_output=True, env=env, cwd=home, timeout=120)
    finally:
        if stdin is not subprocess.DEVNULL:
            stdin.close()
    return out.stdout, out.stderr, out.returncode


def main():
    old, new = sys.argv[1], sys.argv[2]
    mutants = int(sys.argv[3]) if len(sys.argv) > 3 else 1500
    larges = int(sys.argv[4]) if len(sys.argv) > 4 else 60
    rng = random.Random(20)
    inputs = base_inputs()
    pool = list(inputs)
    inputs += [mutate(rng, rng.choice(pool), pool) for _ in range(mutants)]
    inputs += [large(rng, rng.choice(pool), pool) for _ in range(larges)]
    modes = ["at", "file-stdin", "pipe", "json", "raw", "schema", "validate"]
    differences = 0
    runs = 0
    with tempfile.TemporaryDirectory() as home:
        path = os.path.join(home, "input.txt")
        for number, data in enumerate(inputs):
            with open(path, "wb") as f:
                f.write(data)
            for mode in modes:
                a = run(old, mode, path, home)
                b = run(new, mode, path, home)
                runs += 1
                if a != b:
                    differences += 1
                    keep = os.path.join(tempfile.gettempdir(), f"extract-diff-{number}-{mode}.txt")
                    with open(keep, "wb") as f:
                        f.write(data)
                    print(f"DIFFERENT input {number} ({mode}), kept as {keep}:\n  old {a!r:.300}\n  new {b!r:.300}")
    print(f"{len(inputs)} inputs ({sum(len(d) > 1 << 20 for d in inputs)} over 1 MiB), {runs} runs per binary, "
          f"{differences} differences")
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
