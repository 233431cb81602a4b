"""What scripts/terminal-smoke.py and scripts/terminal-gemini.py share: the command line
(`[BINARY] [-k NAME]`), the terminal environment, and the loop that runs their `test_*`
functions, each with a fresh fixture, printing `ok`/`FAILED` per test and a closing tally."""

import os
import sys
import traceback


def only_filter():
    """NAME from `-k NAME`: run only the tests whose name contains it; None runs them all."""
    if "-k" in sys.argv:
        index = sys.argv.index("-k")
        if index + 1 < len(sys.argv):
            return sys.argv[index + 1]
    return None


def binary_path():
    """The sophon binary: the first argument, else $SOPHON_BINARY, else .build/debug/sophon."""
    args = [a for a in sys.argv[1:] if not a.startswith("-") and a != only_filter()]
    if args:
        return os.path.abspath(args[0])
    if os.environ.get("SOPHON_BINARY"):
        return os.environ["SOPHON_BINARY"]
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".build", "debug", "sophon")


def terminal_env(home, **extra):
    """A clean environment for the shell in a pty: HOME and SOPHON_HOME at `home` (so no
    ~/.editrc), TERM=xterm, LANG=C.UTF-8, plus `extra` (a None value leaves a name out)."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": home,
        "SOPHON_HOME": home,
        "TERM": "xterm",
        "LANG": "C.UTF-8",
    }
    env.update(extra)
    return {k: v for k, v in env.items() if v is not None}


def run_tests(label, binary, namespace, make_fixture, check=None):
    """Runs every `test_*` function in `namespace` (sorted, filtered by -k) with a fresh
    `make_fixture()`; `check(fixture)` runs after a test that passed and can fail it;
    `fixture.cleanup()` always runs. Returns the exit status: 0 all passed, 1 some failed,
    2 no binary."""
    if not os.path.exists(binary):
        print("%s: no binary at %s" % (label, binary), file=sys.stderr)
        return 2
    tests = [(name, f) for name, f in sorted(namespace.items()) if name.startswith("test_")]
    if only_filter():
        tests = [(n, f) for n, f in tests if only_filter() in n]
    failed = 0
    for name, test in tests:
        fixture = None
        try:
            fixture = make_fixture()
            test(fixture)
            if check is not None:
                check(fixture)
            print("ok      %s" % name)
        except Exception:  # noqa: BLE001 - report every failure and go on
            failed += 1
            print("FAILED  %s" % name)
            traceback.print_exc()
        finally:
            if fixture is not None:
                fixture.cleanup()
    print("%d passed, %d failed" % (len(tests) - failed, failed))
    return 1 if failed else 0
