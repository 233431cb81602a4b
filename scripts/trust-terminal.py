#!/usr/bin/env python3
"""Terminal tests of what the REPL refuses or explains at start (issue 14, points 5 and 6).

Usage: scripts/trust-terminal.py [BINARY]   (default: $SOPHON_BINARY, else .build/debug/sophon)

- A history file that is not a regular file (a FIFO, a symlink to /dev/zero or /dev/full) is
  refused with one warning, and the REPL runs without history: no hang before the banner, no
  endless read, the special file left alone (docs/commands.md, "Files and secrets").
- A keys.json that exists but cannot be used makes the banner say why, not "no API key".
- ~/.editrc and $EDITRC are read as libedit documents (issue 25 point 9): `bind -v` gives vi
  mode, comment lines are skipped, `sophon:` lines apply and other programs' lines do not.
- With TERM=dumb (issue 25 point 10) a line the kernel cut at its line limit is refused with a
  warning, never run cut; a long line under the limit comes back whole; Ctrl-D at the
  `API key:` prompt ends `key set`, not the session.
Needs pexpect. Exits 0 when every test passed, 1 otherwise.
"""

import os
import shutil
import stat
import sys
import tempfile

from pty_harness import PROMPT, binary_path, end_with_ctrl_d, run_tests, spawn, wait_for_raw_mode

TIMEOUT = 20  # seconds: catches a hang; no test relies on it for timing
BINARY = binary_path()


class Home:
    """A fresh SOPHON_HOME (and HOME) for one test."""

    def __init__(self):
        self.path = tempfile.mkdtemp(prefix="sophon-trust-")

    def spawn(self, **extra):
        return spawn(BINARY, self.path, timeout=TIMEOUT, **extra)

    def cleanup(self):
        shutil.rmtree(self.path, ignore_errors=True)


def run_and_quit(child):
    """Runs `echo ok` at the prompt, then Ctrl-D; returns the exit status."""
    child.expect_exact(PROMPT)
    child.send("echo ok\r")
    child.expect(r"\r\nok\r\n")
    child.expect_exact(PROMPT)
    return end_with_ctrl_d(child)


def refused_history(home, make):
    history = os.path.join(home.path, "history")
    kind = make(history)
    child = home.spawn()
    child.expect_exact("warning: history file '%s' is %s, not a regular file; running without history" % (history, kind))
    child.expect_exact("sophon ")  # the banner follows
    assert run_and_quit(child) == 0
    return history


def test_a_fifo_history_is_refused_without_hanging(home):
    history = refused_history(home, lambda path: (os.mkfifo(path), "a FIFO")[1])
    assert stat.S_ISFIFO(os.lstat(history).st_mode)


def test_a_history_linked_to_dev_zero_is_refused(home):
    history = refused_history(home, lambda path: (os.symlink("/dev/zero", path), "a device")[1])
    assert os.readlink(history) == "/dev/zero"


def test_a_history_linked_to_dev_full_is_refused(home):
    history = refused_history(home, lambda path: (os.symlink("/dev/full", path), "a device")[1])
    assert os.readlink(history) == "/dev/full"


def test_a_folder_history_is_refused(home):
    refused_history(home, lambda path: (os.mkdir(path), "a folder")[1])


def test_the_banner_says_why_an_existing_key_file_is_unusable(home):
    keys = os.path.join(home.path, "keys.json")
    with open(keys, "w") as f:
        f.write('{"gemini": "test-key"}\n')
    os.chmod(keys, 0o644)
    child = home.spawn()
    child.expect_exact(
        "no usable API key: %s is readable by other users (mode 0644); run: chmod 600 '%s'" % (keys, keys))
    assert run_and_quit(child) == 0


def test_the_banner_says_why_a_corrupt_key_file_is_unusable(home):
    keys = os.path.join(home.path, "keys.json")
    with open(keys, "w") as f:
        f.write("not json\n")
    os.chmod(keys, 0o600)
    child = home.spawn()
    child.expect_exact("no usable API key: %s is not a JSON object" % keys)
    assert run_and_quit(child) == 0


def test_the_banner_names_a_key_with_a_copied_quote(home):
    child = home.spawn(GEMINI_API_KEY="test-key\u201d")
    child.expect_exact(
        "no usable API key: the API key from environment variable GEMINI_API_KEY has a character that is "
        "not printable ASCII at position 9 (U+201D)")
    assert run_and_quit(child) == 0


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def vi_edit(child):
    """Types `echo Xabc`, then in vi command mode: ESC, `0` (start of line), `w` (next word),
    `x` (delete the X), Return; returns once `abc` is printed (emacs mode would not print it)."""
    child.expect_exact(PROMPT)
    wait_for_raw_mode(child)
    child.send("echo Xabc")
    child.expect_exact("Xabc")
    child.send("\x1b")
    child.send("0wx\r")
    child.expect(r"\r\nabc\r\n")


def test_editrc_bind_v_gives_vi_mode(home):
    write(os.path.join(home.path, ".editrc"), "# vi keys, please\n\n   # indented comment\nbind -v\n")
    child = home.spawn()
    vi_edit(child)
    assert run_and_quit(child) == 0


def test_editrc_from_the_environment_with_program_prefixes(home):
    write(os.path.join(home.path, ".editrc"), "bind -e\n")  # EDITRC wins over it
    other = os.path.join(home.path, "other-editrc")
    write(other, "# a comment\nsophon:bind -v\nsomeprogram:bind -e\n")
    child = home.spawn(EDITRC=other)
    vi_edit(child)
    assert run_and_quit(child) == 0


def test_a_dumb_terminal_refuses_a_line_the_kernel_cut(home):
    child = home.spawn(TERM="dumb")
    child.expect_exact(PROMPT)
    child.send("echo " + "a" * 5000 + "\r")
    child.expect_exact("warning: this line filled the terminal's 4095-byte line limit and may have been cut, "
                       "so it was not run; put long text in a file (@FILE) or a pipe")
    assert run_and_quit(child) == 0  # the prompt came back: `echo` never printed the cut line


def test_a_dumb_terminal_reads_a_long_line_whole(home):
    child = home.spawn(TERM="dumb")
    child.expect_exact(PROMPT)
    child.send("echo " + "b" * 4000 + "\r")
    child.expect(r"\r\n(b+)\r\n")
    assert len(child.match.group(1)) == 4000, len(child.match.group(1))
    assert run_and_quit(child) == 0


def test_ctrl_d_at_the_key_prompt_of_a_dumb_terminal_ends_only_key_set(home):
    child = home.spawn(TERM="dumb")
    child.expect_exact(PROMPT)
    child.send("key set\r")
    child.expect_exact("API key: ")
    child.sendcontrol("d")
    assert run_and_quit(child) == 0
    assert not os.path.exists(os.path.join(home.path, "keys.json"))


def main():
    return run_tests("trust-terminal", BINARY, globals(), Home)


if __name__ == "__main__":
    sys.exit(main())
