"""What the terminal checks (scripts/terminal-*.py, trust-, tools-, secrets-, crash-safety)
share: the command line (`[BINARY] [-k NAME]`), the terminal environment, the one way to start
`sophon` in a pseudo-terminal (`spawn`, and `GeminiShell`: a fresh home, scripts/fake_gemini.py
and the shell talking to it), waiting until line editing reads keys, Ctrl-D at the prompt, and
the loop that runs their `test_*` functions, each with a fresh fixture, printing `ok`/`FAILED`
per test and a closing tally."""

import os
import shutil
import sys
import tempfile
import termios
import time
import traceback

import pexpect

from fake_gemini_client import FakeGemini

PROMPT = "sophon> "


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


def spawn(binary, home, args=(), timeout=10, columns=200, cwd=None, encoding="utf-8", **extra):
    """`binary` with `args` in a 24-row pty `columns` wide, in `terminal_env(home, **extra)`;
    `timeout` (seconds) is pexpect's default for every expect; `encoding` None reads bytes."""
    return pexpect.spawn(binary, list(args), env=terminal_env(home, **extra), cwd=cwd, encoding=encoding,
                         timeout=timeout, dimensions=(24, columns))


def wait_for_raw_mode(child, timeout=10):
    """Waits until the terminal of `child` is out of canonical mode, i.e. libedit reads single
    keys. libedit writes its prompt as it switches modes, so a key sent the instant the prompt
    shows can reach a terminal still in canonical mode, where the kernel turns a Ctrl-D into an
    end of file nobody reads (a user never types that fast). The pty master shares the terminal
    settings of its slave, so this reads them there. Raises pexpect.TIMEOUT after `timeout` s."""
    deadline = time.monotonic() + timeout
    while termios.tcgetattr(child.child_fd)[3] & termios.ICANON:
        if time.monotonic() > deadline:
            raise pexpect.TIMEOUT("the terminal never left canonical mode in %s s" % timeout)
        time.sleep(0.01)


def edits_lines(child):
    """Whether the shell in `child` edits lines with libedit: its TERM is set and not dumb
    (else it reads plain lines in canonical mode)."""
    term = (child.env if child.env is not None else os.environ).get("TERM", "")
    return term not in ("", "dumb")


def end_with_ctrl_d(child):
    """At the prompt: Ctrl-D (after `wait_for_raw_mode` when the shell `edits_lines`), then
    waits for the end. Returns the exit status."""
    if edits_lines(child):
        wait_for_raw_mode(child)
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


class GeminiShell:
    """A fresh SOPHON_HOME, scripts/fake_gemini.py (`server`, a `FakeGemini` with key
    `test-key`) and the shell in a pty (`child`) talking to it, at its first prompt."""

    def __init__(self, binary, prefix, timeout, term="xterm"):
        self.home = tempfile.mkdtemp(prefix=prefix)
        self.server = FakeGemini()
        try:
            self.child = spawn(binary, self.home, timeout=timeout, TERM=term, **self.server.environment())
            self.child.expect_exact(PROMPT)
        except BaseException:
            self.server.stop()
            shutil.rmtree(self.home, ignore_errors=True)
            raise

    def enter(self, line):
        """Types `line` and Return."""
        self.child.send(line + "\r")

    def run(self, line):
        """Enters `line` and waits for the next prompt; returns what was printed before it."""
        self.enter(line)
        self.child.expect_exact(PROMPT)
        return self.child.before

    def close(self):
        """Ctrl-D at the prompt; returns the shell's exit status."""
        return end_with_ctrl_d(self.child)

    def cleanup(self):
        """Ends the shell if still running, stops the server, removes the home (idempotent)."""
        self.child.close(force=True)
        self.server.stop()
        shutil.rmtree(self.home, ignore_errors=True)


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
