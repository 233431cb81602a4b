#!/usr/bin/env python3
"""Terminal tests of the sophon REPL in a pseudo-terminal (pexpect).

Usage: scripts/terminal-smoke.py [BINARY]   (default: $SOPHON_BINARY, else .build/debug/sophon)
       scripts/terminal-smoke.py BINARY -k NAME   (only the tests whose name contains NAME)

Each test runs the binary with a fresh SOPHON_HOME and HOME (so no ~/.editrc), TERM=xterm
and LANG=C.UTF-8, and checks what a user sees: the prompt, history across sessions (also
after SIGKILL, also with two sessions at once), multi-line entries, Tab (and its quoting of
file names), Ctrl-C (also at `key set`'s prompt, ten times in a row), Ctrl-D, bracketed paste,
word motion, UTF-8 editing, TERM=dumb, the terminal left as found, SIGTERM/SIGHUP reaching
sophon only, and SIGINT in a pipe (exit 130).
Needs pexpect (`pip install pexpect`, or `apt-get install python3-pexpect`).
Exits 0 when every test passed, 1 otherwise.
"""

import io
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import pexpect

from pty_harness import (PROMPT, binary_path, end_with_ctrl_d, run_tests, spawn, terminal_env,
                         wait_for_raw_mode)

CONTINUATION = "   ...> "
TIMEOUT = 10  # seconds: catches a hang; no test relies on it for timing


BINARY = binary_path()


class Home:
    """A fresh SOPHON_HOME (and HOME) for one test."""

    def __init__(self):
        self.path = tempfile.mkdtemp(prefix="sophon-smoke-")

    def env(self, **extra):
        return terminal_env(self.path, **extra)

    def spawn(self, cwd=None, **extra):
        return spawn(BINARY, self.path, timeout=TIMEOUT, columns=100, cwd=cwd, **extra)

    def history_entries(self):
        path = os.path.join(self.path, "history")
        with open(path, "rb") as f:
            lines = f.read().split(b"\n")
        assert lines[0] == b"_HiStOrY_V2_", lines[0]
        return [unvis(line) for line in lines[1:] if line]

    def cleanup(self):
        shutil.rmtree(self.path, ignore_errors=True)


def unvis(line):
    """Decodes the octal escapes libedit writes (enough for these tests)."""
    return re.sub(rb"\\([0-7]{3})", lambda m: bytes([int(m.group(1), 8)]), line).decode("utf-8")


def run_line(child, line, prompt=PROMPT):
    child.expect_exact(prompt)
    child.send(line + "\r")


def expect_output_line(child, text):
    """Waits for `text` alone on a line of output (not the echo of the typed command)."""
    child.expect(r"\r\n" + re.escape(text) + r"\r\n")


def finish(child):
    child.expect_exact(PROMPT)
    return end_with_ctrl_d(child)


# ---------------------------------------------------------------- tests


def test_prompt_appears_and_ctrl_d_exits_0(home):
    child = home.spawn()
    child.expect_exact(PROMPT)
    status = end_with_ctrl_d(child)
    assert status == 0, status


def test_exit_after_a_failed_script_of_dash_i_is_1_and_interactive_errors_do_not_count(home):
    """PRODUCT §5: `exit` without N is 1 when a command failed; interactive errors never count."""
    with open(os.path.join(home.path, "bad.sophon"), "w") as f:
        f.write("ehco hi\n")
    with open(os.path.join(home.path, "good.sophon"), "w") as f:
        f.write("echo hi\n")
    child = spawn(BINARY, home.path, args=["-i", "bad.sophon"], timeout=TIMEOUT, columns=100, cwd=home.path)
    run_line(child, "exit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1, child.exitstatus
    child = spawn(BINARY, home.path, args=["-i", "good.sophon"], timeout=TIMEOUT, columns=100, cwd=home.path)
    run_line(child, "ehco hi")
    run_line(child, "exit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.exitstatus


def test_the_repl_ends_with_the_runs_tally_and_its_failed_expect_does_not_count(home):
    """PRODUCT §5: `N passed, N failed` once per run, last on stdout; interactive errors never
    count, so the status stays 0."""
    child = home.spawn()
    run_line(child, "expect 1 == 1")
    run_line(child, "expect 1 == 2")
    run_line(child, "exit")
    expect_output_line(child, "1 passed, 1 failed")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.exitstatus


def test_backspace_deletes_a_character_not_a_byte(home):
    child = home.spawn()
    run_line(child, "echo café\x7f")
    expect_output_line(child, "caf")
    assert finish(child) == 0


def test_up_recalls_a_line_from_a_session_killed_with_sigkill(home):
    first = home.spawn()
    run_line(first, "echo from-the-first-session")
    expect_output_line(first, "from-the-first-session")
    first.expect_exact(PROMPT)
    first.kill(signal.SIGKILL)
    first.close(force=True)

    second = home.spawn()
    second.expect_exact(PROMPT)
    second.send("\x1b[A\r")
    expect_output_line(second, "from-the-first-session")
    assert finish(second) == 0


def test_a_three_line_block_comes_back_as_one_entry(home):
    first = home.spawn()
    run_line(first, 'echo """')
    run_line(first, "inside", prompt=CONTINUATION)
    run_line(first, '"""', prompt=CONTINUATION)
    first.expect_exact(PROMPT)
    end_with_ctrl_d(first)
    entries = home.history_entries()
    assert entries == ['echo """\ninside\n"""'], entries

    second = home.spawn()
    second.expect_exact(PROMPT)
    second.send("\x1b[A")  # one Up: the whole block
    second.send("\r")
    second.expect_exact(PROMPT)
    end_with_ctrl_d(second)
    assert home.history_entries() == ['echo """\ninside\n"""'], home.history_entries()


def test_a_pasted_block_runs_as_one_command(home):
    child = home.spawn()
    child.expect_exact(PROMPT)
    child.send('echo """\rpasted\r"""\r')  # one write, as a terminal delivers a paste
    child.expect_exact(CONTINUATION)
    assert finish(child) == 0
    entries = home.history_entries()
    assert entries == ['echo """\npasted\n"""'], entries


def test_two_sessions_at_once_keep_both_their_lines(home):
    a = home.spawn()
    b = home.spawn()
    for n in range(1, 4):
        run_line(a, f"echo a{n}")
        expect_output_line(a, f"a{n}")
        run_line(b, f"echo b{n}")
        expect_output_line(b, f"b{n}")
    assert finish(a) == 0
    assert finish(b) == 0
    entries = home.history_entries()
    assert entries == ["echo a1", "echo b1", "echo a2", "echo b2", "echo a3", "echo b3"], entries


def test_tab_completes_sav_to_save(home):
    child = home.spawn()
    child.expect_exact(PROMPT)
    child.send("sav\t")
    child.send("x.txt\x01echo \r")  # then Ctrl-A: the completed line becomes printable
    expect_output_line(child, "save x.txt")
    assert finish(child) == 0


def test_tab_completes_setting_values_and_a_key_with_its_equals_sign(home):
    """`set output r<Tab>` completes `raw` as `set api <Tab>` completes its values, and
    `retry-policy att<Tab>` gives `attempts=` with no space, so the value follows it."""
    child = home.spawn()
    child.expect_exact(PROMPT)
    child.send("set output r\t")
    child.send("\x01echo \r")
    expect_output_line(child, "set output raw")
    child.expect_exact(PROMPT)
    child.send("retry-policy att\t")
    child.send("3\x01echo \r")
    expect_output_line(child, "retry-policy attempts=3")
    child.expect_exact(PROMPT)
    child.send("schema show js\t")
    child.send("\x01echo \r")
    expect_output_line(child, "schema show json-schema")
    assert finish(child) == 0


def test_ctrl_c_at_the_prompt_clears_the_line(home):
    child = home.spawn()
    child.expect_exact(PROMPT)
    child.send("echo partial")
    child.expect_exact("partial")
    child.sendintr()
    run_line(child, "echo fresh")
    expect_output_line(child, "fresh")
    assert finish(child) == 0


def test_ctrl_c_at_a_continuation_prompt_drops_the_block(home):
    child = home.spawn()
    run_line(child, 'echo """')
    child.expect_exact(CONTINUATION)
    child.sendintr()
    run_line(child, "echo after")
    expect_output_line(child, "after")
    assert finish(child) == 0


def test_ctrl_c_during_sleep_returns_to_the_prompt_and_keeps_variables(home):
    child = home.spawn()
    run_line(child, "let x = kept")
    run_line(child, "sleep 30s")
    time.sleep(0.5)
    started = time.monotonic()
    child.sendintr()
    child.expect_exact(PROMPT, timeout=5)
    assert time.monotonic() - started < 1.0, "Ctrl-C took more than a second"
    child.send("echo $x\r")
    expect_output_line(child, "kept")
    assert finish(child) == 0


def test_ctrl_c_during_a_plugin_command_sends_cancel_and_returns_to_the_prompt(home):
    plugins = os.path.join(home.path, "plugins")
    os.makedirs(plugins)
    shutil.copy(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "SophonShellTests",
                             "Support", "Plugins", "sophon-plugin-faulty"), plugins)
    child = home.spawn()
    run_line(child, "let x = kept")
    run_line(child, "faulty-slow")
    child.expect_exact("faulty: waiting for a cancel")
    child.sendintr()
    child.expect_exact("faulty: got cancel for request 2 (call was request 2)")
    child.expect_exact("interrupted")
    child.send("echo $x\r")
    expect_output_line(child, "kept")
    run_line(child, "faulty-session")
    child.expect_exact('"kept"')
    assert finish(child) == 0


def test_term_dumb_writes_no_escape_sequences(home):
    child = home.spawn(TERM="dumb")
    run_line(child, "echo plain")
    expect_output_line(child, "plain")
    child.expect_exact(PROMPT)
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    seen = child.before or ""
    child.close()
    assert "\x1b" not in seen, repr(seen)


def test_no_term_writes_no_escape_sequences(home):
    child = home.spawn(TERM=None)
    run_line(child, "echo plain")
    expect_output_line(child, "plain")
    child.expect_exact(PROMPT)
    transcript = child.before
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    child.close()
    assert "\x1b" not in transcript, repr(transcript)


STTY_SETTINGS = r"([0-9a-f]+(?::[0-9a-f]+){10,})\r\n"  # what `stty -g` prints


def test_the_terminal_is_left_as_found(home):
    for ending in ("ctrl-d", "sigterm", "sighup"):
        # bash -m: the binary runs as its own job (process group), as from an interactive
        # shell; libedit sends a caught signal on to its whole process group.
        shell = pexpect.spawn("/bin/bash", ["--norc", "-m", "-c", f'stty -g; "{BINARY}"; stty -g'],
                              env=home.env(), encoding="utf-8", timeout=TIMEOUT)
        shell.expect(STTY_SETTINGS)
        before = shell.match.group(1)
        shell.expect_exact(PROMPT)
        shell.send("echo typed but not entered")
        shell.expect_exact("entered")
        if ending == "ctrl-d":
            shell.send("\x15")  # Ctrl-U: empty line
            shell.sendcontrol("d")
        else:
            pid = int(subprocess.check_output(["pgrep", "-P", str(shell.pid)]).split()[0])
            os.kill(pid, signal.SIGTERM if ending == "sigterm" else signal.SIGHUP)
        shell.expect(STTY_SETTINGS)
        after = shell.match.group(1)
        shell.expect(pexpect.EOF)
        assert before == after, f"{ending}: {before} != {after}"


def test_a_pipe_gets_no_banner_and_no_prompt(home):
    result = subprocess.run([BINARY], input="echo hi\n", capture_output=True, text=True,
                            env=home.env(), timeout=TIMEOUT)
    assert result.stdout == "hi\n", repr(result.stdout)
    assert result.returncode == 0, result.returncode


def test_sigint_in_a_pipe_exits_130(home):
    process = subprocess.Popen([BINARY], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=home.env(), text=True)
    process.stdin.write("sleep 30s\n")
    process.stdin.flush()
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=TIMEOUT) == 130, process.returncode


PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"


def test_ctrl_c_at_the_key_prompt_cancels_key_set_ten_times_in_a_row(home):
    # Issue 14 point 4: the Ctrl-C was lost in some runs and the next line became the key.
    for attempt in range(10):
        child = home.spawn()
        run_line(child, "key set")
        child.expect_exact("API key: ")
        child.sendintr()
        child.expect_exact("interrupted")
        run_line(child, f"echo after-{attempt}")
        expect_output_line(child, f"after-{attempt}")
        assert finish(child) == 0
        assert not os.path.exists(os.path.join(home.path, "keys.json")), f"attempt {attempt}: a key was saved"
        entries = home.history_entries()
        assert entries[-1] == f"echo after-{attempt}", entries


def test_ctrl_c_at_the_key_prompt_of_a_dumb_terminal_cancels_key_set(home):
    child = home.spawn(TERM="dumb")
    run_line(child, "key set")
    child.expect_exact("API key: ")
    child.sendintr()
    child.expect_exact("interrupted")
    run_line(child, "echo after")
    expect_output_line(child, "after")
    assert finish(child) == 0
    assert not os.path.exists(os.path.join(home.path, "keys.json"))


def test_bracketed_paste_is_on_while_editing_and_off_when_sophon_exits(home):
    child = home.spawn()
    child.expect_exact("\x1b[?2004h")
    child.expect_exact(PROMPT)
    wait_for_raw_mode(child)
    child.sendcontrol("d")
    child.expect_exact("\x1b[?2004l")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.exitstatus


def test_bracketed_paste_is_off_after_exit_and_before_the_key_prompt(home):
    child = home.spawn()
    run_line(child, "key set")
    child.expect_exact("\x1b[?2004l")
    child.expect_exact("API key: ")
    child.sendintr()
    run_line(child, "exit 3")
    child.expect_exact("\x1b[?2004l")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 3, child.exitstatus


def test_a_key_pasted_with_key_set_is_the_key_and_never_a_command(home):
    child = home.spawn()
    transcript = io.StringIO()
    child.logfile_read = transcript
    child.expect_exact(PROMPT)
    child.send(PASTE_START + "key set\rAIzaPastedTestKey123\recho after\r" + PASTE_END)
    child.expect_exact("API key: ")
    expect_output_line(child, "after")
    assert finish(child) == 0
    with open(os.path.join(home.path, "keys.json")) as f:
        assert "AIzaPastedTestKey123" in f.read()
    assert home.history_entries() == ["key set", "echo after"], home.history_entries()
    assert "AIzaPastedTestKey123" not in transcript.getvalue(), transcript.getvalue()


def test_a_paste_keeps_its_tabs_and_leaves_no_markers(home):
    child = home.spawn()
    child.expect_exact(PROMPT)
    child.send("let x = " + PASTE_START + "a\tb\tc" + PASTE_END + "\r")
    run_line(child, "echo \"[$x]\"")
    child.expect(r"\r\n\[a(\t| +)b(\t| +)c\]\r\n")  # the terminal may expand a Tab it prints
    assert finish(child) == 0
    entries = home.history_entries()
    assert entries[0] == "let x = a\tb\tc", entries


def test_a_pasted_tab_does_not_list_commands(home):
    child = home.spawn()
    child.expect_exact(PROMPT)
    child.send("echo " + PASTE_START + "'one\ttwo'" + PASTE_END + "\r")
    child.expect(r"\r\none(\t| +)two\r\n")
    transcript = child.before
    assert "help" not in transcript, repr(transcript)
    assert "200~" not in transcript and "201~" not in transcript, repr(transcript)
    assert finish(child) == 0
    assert home.history_entries() == ["echo 'one\ttwo'"], home.history_entries()


def test_a_pasted_block_with_markers_runs_as_one_command(home):
    child = home.spawn()
    child.expect_exact(PROMPT)
    child.send(PASTE_START + 'echo """\r\tpasted\r"""\r' + PASTE_END)
    child.expect(r"\r\n\tpasted\r\n")
    assert finish(child) == 0
    entries = home.history_entries()
    assert entries == ['echo """\n\tpasted\n"""'], entries


def test_ctrl_left_and_ctrl_right_move_by_word(home):
    child = home.spawn()
    child.expect_exact(PROMPT)
    child.send("echo b")
    child.send("\x1b[1;5D")  # Ctrl-Left: before "b"
    child.send("a ")
    child.send("\r")
    expect_output_line(child, "a b")
    child.expect_exact(PROMPT)
    child.send("echo one two")
    child.send("\x01\x1b[1;5C\x1b[1;5C")  # Ctrl-A, then Ctrl-Right twice: after "one"
    child.send("X\r")
    expect_output_line(child, "oneX two")
    for left, right in (("\x1b[1;3D", "\x1b[1;3C"), ("\x1b[5D", "\x1b[5C"), ("\x1bOd", "\x1bOc")):
        child.expect_exact(PROMPT)
        child.send("echo one two" + left + left + right + "X\r")
        expect_output_line(child, "oneX two")
    assert finish(child) == 0


def test_tab_quotes_a_file_name_with_a_space_and_completes_inside_a_quote(home):
    work = os.path.join(home.path, "work")
    os.makedirs(work)
    with open(os.path.join(work, "trip plan.sophon"), "w") as f:
        f.write("echo from-the-trip-plan\n")
    with open(os.path.join(work, "cost$.sophon"), "w") as f:
        f.write("echo from-the-cost-file\n")
    child = home.spawn(cwd=work)
    # What the screen shows depends on how libedit redraws; the entered lines are exact
    # (history drops the repeated first line).
    for typed, output in (("source tri", "from-the-trip-plan"), ("source 'tr", "from-the-trip-plan"),
                          ('source "co', "from-the-cost-file"), ("source co", "from-the-cost-file")):
        child.expect_exact(PROMPT)
        child.send(typed)
        child.expect_exact(typed[-2:])
        child.send("\t\r")
        expect_output_line(child, output)
    assert finish(child) == 0
    assert home.history_entries() == [
        "source 'trip plan.sophon' ", 'source "cost\\$.sophon" ',
        "source 'cost$.sophon' "], home.history_entries()


def test_ctrl_z_then_fg_goes_on_editing_and_the_shell_gets_its_terminal_back(home):
    # libedit's own handling of Ctrl-Z is off (it re-sent signals to the process group);
    # sophon restores the terminal before stopping and re-enters raw mode when continued.
    shell = pexpect.spawn("/bin/bash", ["--norc", "-i"], env=home.env(PS1="bash$ "), encoding="utf-8",
                          timeout=TIMEOUT)
    shell.expect_exact("bash$ ")
    shell.send(f'"{BINARY}"\r')
    shell.expect_exact(PROMPT)
    wait_for_raw_mode(shell)
    shell.sendcontrol("z")
    shell.expect_exact("bash$ ")
    shell.send("stty -a | grep -o -- '-\\?icanon'\r")
    shell.expect(r"\r(-?icanon)\r\n")  # bash's own readline writes its paste sequences too
    assert shell.match.group(1) == "icanon", shell.match.group(1)
    shell.expect_exact("bash$ ")
    shell.send("fg\r")
    shell.send("echo back\r")
    shell.expect(r"\r\nback\r\n")
    shell.expect_exact(PROMPT)
    wait_for_raw_mode(shell)
    shell.sendcontrol("d")
    shell.expect_exact("bash$ ")
    shell.send("exit\r")
    shell.expect(pexpect.EOF)


def test_sigterm_and_sighup_at_the_prompt_do_not_reach_the_parent(home):
    for signo in (signal.SIGTERM, signal.SIGHUP):
        # No -m: sophon shares the process group of the shell that started it, as when a
        # script runs it. The shell must survive and report how sophon ended.
        shell = pexpect.spawn("/bin/bash", ["--norc", "-c", f'"{BINARY}"; echo "parent-alive $?"'],
                              env=home.env(), encoding="utf-8", timeout=TIMEOUT)
        shell.expect_exact(PROMPT)
        shell.send("echo typed")
        shell.expect_exact("typed")
        pid = int(subprocess.check_output(["pgrep", "-P", str(shell.pid)]).split()[0])
        os.kill(pid, signo)
        shell.expect_exact("parent-alive %d" % (128 + signo))
        shell.expect(pexpect.EOF)
        shell.close()


# ---------------------------------------------------------------- runner


def main():
    return run_tests("terminal-smoke", BINARY, globals(), Home)


if __name__ == "__main__":
    sys.exit(main())
