#!/usr/bin/env python3
"""Terminal tests of Ctrl-C during Gemini calls, in a pseudo-terminal (pexpect), against
scripts/fake_gemini.py over HTTP.

Usage: scripts/terminal-gemini.py [BINARY]   (default: $SOPHON_BINARY, else .build/debug/sophon)
       scripts/terminal-gemini.py BINARY -k NAME   (only the tests whose name contains NAME)

Each test starts a fake server on a free port and runs the binary in a pty with a fresh
SOPHON_HOME, SOPHON_GEMINI_BASE_URL pointing at the server and GEMINI_API_KEY set. It checks:
Ctrl-C during an `ask` the server holds for 20 s, and during a stream that sends one chunk a
second, is back at the prompt within a second, the server sees the connection closed, and the
next `ask` works; 20 Ctrl-Cs timed just as replies finish never end the shell; `research` shows
its steps on one progress line, and Ctrl-C detaches from it (the job goes on, `agents` lists it).
Needs pexpect. Exits 0 when every test passed, 1 otherwise.
"""

import sys
import time

from pty_harness import PROMPT, GeminiShell, binary_path, run_tests

TIMEOUT = 10  # seconds: catches a hang; only the Ctrl-C checks measure time (a 1 s budget)
BINARY = binary_path()


class Session(GeminiShell):
    """A fresh SOPHON_HOME, a fake server, and the shell in a pty talking to it."""

    def __init__(self):
        super().__init__(BINARY, "sophon-gemini-", TIMEOUT)

    def interrupt_and_time_the_prompt(self):
        started = time.monotonic()
        self.child.sendintr()
        self.child.expect_exact(PROMPT)
        return time.monotonic() - started

    def ask_works(self, text):
        self.server.script({"kind": "generate", "text": text})
        self.enter("ask and now?")
        self.child.expect_exact(text)
        self.child.expect_exact(PROMPT)


def ctrl_d_exits_0(session):
    status = session.close()
    assert status == 0, "Ctrl-D ended the shell with status %r" % status


# ---------------------------------------------------------------- tests


def test_ctrl_c_during_an_ask_the_server_holds_for_20_s(session):
    session.server.script({"fault": "stall", "seconds": 20, "text": "too late"})
    session.enter("ask Are you there?")
    session.server.wait_for(lambda seen: len(seen) == 1, "the ask", TIMEOUT)
    time.sleep(0.3)
    elapsed = session.interrupt_and_time_the_prompt()
    assert elapsed < 1.0, "Ctrl-C took %.2f s to get back to the prompt" % elapsed
    session.server.wait_for(lambda seen: seen[0].get("disconnected"), "the connection closed", TIMEOUT)
    session.ask_works("Back again after the stall.")


def test_ctrl_c_during_a_stream_that_sends_one_chunk_a_second(session):
    chunks = ["one ", "two ", "three ", "four ", "five ", "six ", "seven ", "eight ", "nine ", "ten."]
    session.server.script({"kind": "generate", "chunks": chunks, "chunkDelay": 1.0})
    session.enter("ask Count to ten slowly.")
    session.child.expect_exact("one two ")
    elapsed = session.interrupt_and_time_the_prompt()
    assert elapsed < 1.0, "Ctrl-C took %.2f s to get back to the prompt" % elapsed
    session.server.wait_for(lambda seen: seen[0].get("disconnected"), "the connection closed", TIMEOUT)
    assert "ten." not in session.child.before
    session.ask_works("Streams work after the interrupted one.")


def test_the_message_of_an_interrupted_ask_starts_below_the_echoed_caret_c(session):
    """The terminal echoes Ctrl-C as `^C` where the cursor stands: the message goes on the next
    line, as in bash, never `^Cerror: interrupted`, and a cut stream's line ends only once."""
    session.server.script({"fault": "stall", "seconds": 20, "text": "too late"})
    session.enter("ask Are you there?")
    session.server.wait_for(lambda seen: len(seen) == 1, "the ask", TIMEOUT)
    session.child.expect_exact("ask Are you there?\r\n")
    session.child.sendintr()
    session.child.expect_exact(PROMPT)
    assert session.child.before == "^C\r\nerror: interrupted\r\n", repr(session.child.before)
    session.server.script({"kind": "generate", "chunks": ["one ", "two ", "three."], "gated": True}, reset=True)
    session.enter("ask Count.")
    session.child.expect_exact("ask Count.\r\none ")
    session.child.sendintr()
    session.child.expect_exact(PROMPT)
    assert session.child.before == "^C\r\nerror: interrupted\r\n", repr(session.child.before)


def test_twenty_ctrl_cs_timed_as_replies_finish_never_end_the_shell(session):
    for number in range(20):
        text = "reply number %d" % number
        session.server.script({"kind": "generate", "chunks": ["reply ", "number %d" % number]})
        session.enter("ask Reply, please.")
        session.child.expect_exact(text)
        time.sleep((number % 5) * 0.004)  # around the moment the command ends
        session.child.sendintr()
        session.child.expect_exact(PROMPT)
        assert session.child.isalive(), "the shell ended after Ctrl-C number %d" % (number + 1)
        # The prompt matched may be the one printed before the Ctrl-C was handled (the signal
        # reaches the shell a moment after the tty takes ^C): a line typed at once can lose its
        # first keys to that late Ctrl-C, as it would at the prompt. A sync line shows the
        # Ctrl-C handled before the next `ask` is typed: its echo, or the error of what is left.
        session.enter("echo sync-%d" % number)
        session.child.expect([r"\r\nsync-%d\r\n" % number, r"unknown command '[^']*'"])
        session.child.expect_exact(PROMPT)
    session.enter("echo still here")
    session.child.expect(r"\r\nstill here\r\n")
    session.child.expect_exact(PROMPT)
    assert session.child.isalive()


def test_ctrl_c_detaches_from_a_research_job_shown_on_one_progress_line(session):
    session.server.post("/_sophon/interactions", {"reset": True, "replies": [{"polls": 100000}]})
    session.enter("research History of TPUs")
    session.child.expect_exact("\r\x1b[K[in_progress] Planning the research on: History of TPUs")
    session.server.wait_for(lambda seen: len(seen) >= 2, "the first poll", TIMEOUT)
    job = session.server.requests()[1]["path"].rsplit("/", 1)[1]
    elapsed = session.interrupt_and_time_the_prompt()
    assert elapsed < 1.0, "Ctrl-C took %.2f s to get back to the prompt" % elapsed
    assert "detached: research job %s goes on on the server" % job in session.child.before
    session.enter("agents")
    session.child.expect_exact("%s  in_progress  deep-research-preview-04-2026" % job)
    session.child.expect_exact(PROMPT)


# ---------------------------------------------------------------- runner


def main():
    return run_tests("terminal-gemini", BINARY, globals(), Session, check=ctrl_d_exits_0)


if __name__ == "__main__":
    sys.exit(main())
