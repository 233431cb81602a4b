#!/usr/bin/env python3
"""Terminal tests of the consent question of served tools (issue 15; docs/commands.md, "Tools"),
in a pseudo-terminal (pexpect), against scripts/fake_gemini.py over HTTP.

Usage: scripts/tools-terminal.py [BINARY]   (default: $SOPHON_BINARY, else .build/debug/sophon)
       scripts/tools-terminal.py BINARY -k NAME   (only the tests whose name contains NAME)

The REPL loads examples/plugins/sophon-plugin-csv (its tool `csv_columns`) and the fake server
scripts a call of it. The first call of the tool asks `run csv_columns ARGS? [y]es / [n]o /
[a]lways`: `y` runs this call, `n` sends the model `{"error": "the user declined this call"}`,
`a` runs it and every later call of the tool without asking; Ctrl-C at the question cancels the
command (nothing more is sent) and the shell lives on, as does Ctrl-C while a served tool runs;
a plugin loaded with `--trust` is never asked about; a dumb terminal asks too; after Ctrl-C
during a call an MCP server is stuck in, the next call starts the server again at once. Needs pexpect. Exits 0 when every test passed, 1 otherwise.
"""

import json
import os
import sys
import time

from pty_harness import PROMPT, GeminiShell, binary_path, run_tests

TIMEOUT = 20  # seconds: catches a hang; no test relies on it for timing
HERE = os.path.dirname(os.path.abspath(__file__))
PLUGIN = os.path.normpath(os.path.join(HERE, "..", "examples", "plugins", "sophon-plugin-csv"))
BINARY = binary_path()

CALL = {"kind": "generate", "functionCalls": [{"id": "c1", "name": "csv_columns", "args": {"text": "a,b"}}]}
QUESTION = 'run csv_columns {"text":"a,b"}? [y]es / [n]o / [a]lways '
RAN = 'tool csv_columns {"text":"a,b"} -> {"columns":["a","b"]}'
DECLINED = 'tool csv_columns {"text":"a,b"} -> {"error":"the user declined this call"}'


class Session(GeminiShell):
    """A fresh SOPHON_HOME, a fake server, and the shell in a pty talking to it."""

    def __init__(self, term="xterm"):
        super().__init__(BINARY, "sophon-tools-", TIMEOUT, term=term)

    def load(self, *flags):
        self.run(" ".join(("plugin", "load") + flags + (PLUGIN,)))

    def answer(self, reply):
        """Waits for the consent question and answers it."""
        self.child.expect_exact(QUESTION)
        self.enter(reply)

    def function_responses(self):
        """The `response` of each functionResponse the server received, in order."""
        found = []
        for request in self.server.requests():
            body = request.get("body") or "{}"
            body = json.loads(body) if isinstance(body, str) else body
            for content in body.get("contents", []):
                for part in content.get("parts", []):
                    if "functionResponse" in part:
                        found.append(part["functionResponse"]["response"])
        return found


# ---------------------------------------------------------------- tests


def test_yes_runs_this_call_and_the_next_call_asks_again(session):
    session.load()
    session.server.script(CALL, {"kind": "generate", "text": "Columns a and b."},
                          CALL, {"kind": "generate", "text": "You said no."})
    session.enter("ask Columns?")
    session.answer("y")
    session.child.expect_exact(RAN)
    session.child.expect_exact("Columns a and b.")
    session.child.expect_exact(PROMPT)
    session.enter("ask Again?")
    session.answer("n")
    session.child.expect_exact(DECLINED)
    session.child.expect_exact("You said no.")
    session.child.expect_exact(PROMPT)
    assert session.function_responses() == [
        {"columns": ["a", "b"]}, {"error": "the user declined this call"}], session.function_responses()
    assert session.close() == 0


def test_always_runs_the_tool_without_asking_for_the_rest_of_the_session(session):
    session.load()
    session.server.script(CALL, {"kind": "generate", "text": "First."}, CALL, {"kind": "generate", "text": "Second."})
    session.enter("ask Columns?")
    session.answer("always")
    session.child.expect_exact("First.")
    session.child.expect_exact(PROMPT)
    printed = session.run("ask Again?")
    assert "[y]es" not in printed, printed
    assert RAN in printed and "Second." in printed, printed
    assert session.function_responses() == [{"columns": ["a", "b"]}] * 2
    assert session.close() == 0


def test_another_answer_asks_again(session):
    session.load()
    session.server.script(CALL, {"kind": "generate", "text": "Done."})
    session.enter("ask Columns?")
    session.answer("maybe")
    session.answer("Y")
    session.child.expect_exact("Done.")
    session.child.expect_exact(PROMPT)
    assert session.close() == 0


def test_ctrl_c_at_the_question_cancels_the_command_and_the_shell_lives_on(session):
    session.load()
    session.server.script(CALL, {"kind": "generate", "text": "never sent"})
    session.enter("ask Columns?")
    session.child.expect_exact(QUESTION)
    session.child.sendintr()
    session.child.expect_exact("interrupted")
    session.child.expect_exact(PROMPT)
    assert len(session.server.requests()) == 1, session.server.requests()
    # Nothing is pending: the next ask is a fresh exchange.
    session.server.script({"kind": "generate", "text": "Fresh answer."})
    assert "Fresh answer." in session.run("ask Hello?")
    assert session.function_responses() == []
    assert session.close() == 0


def test_a_trusted_plugin_is_never_asked_about(session):
    session.load("--trust")
    session.server.script(CALL, {"kind": "generate", "text": "Trusted."})
    printed = session.run("ask Columns?")
    assert "[y]es" not in printed, printed
    assert RAN in printed and "Trusted." in printed, printed
    assert session.close() == 0


def test_a_dumb_terminal_asks_too(session):
    session.cleanup()
    dumb = Session(term="dumb")
    try:
        dumb.load()
        dumb.server.script(CALL, {"kind": "generate", "text": "Plain."})
        dumb.enter("ask Columns?")
        dumb.answer("yes")
        dumb.child.expect_exact(RAN)
        dumb.child.expect_exact("Plain.")
        dumb.child.expect_exact(PROMPT)
        assert dumb.close() == 0
    finally:
        dumb.cleanup()


HANGING_PLUGIN = r'''#!/usr/bin/env python3
import json, sys, time
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "id": message["id"], "protocol": 1, "name": "slow", "commands": [],
                          "tools": [{"name": "slow_tool", "description": "never answers"}]}), flush=True)
    elif message["type"] == "tool":
        sys.stderr.write("working\n")
        sys.stderr.flush()
        time.sleep(600)
'''


def test_ctrl_c_while_a_served_tool_runs_cancels_the_command(session):
    path = os.path.join(session.home, "sophon-plugin-slow")
    with open(path, "w") as f:
        f.write(HANGING_PLUGIN)
    os.chmod(path, 0o755)
    session.run("plugin load --trust " + path)
    session.server.script({"kind": "generate", "functionCalls": [{"id": "s1", "name": "slow_tool"}]},
                          {"kind": "generate", "text": "never sent"})
    session.enter("ask Slow?")
    session.child.expect_exact("slow: working")
    session.child.sendintr()
    session.child.expect_exact(PROMPT)
    printed = session.child.before
    assert "interrupted" in printed and "slow_tool" not in printed, printed
    assert len(session.server.requests()) == 1, session.server.requests()
    session.server.script({"kind": "generate", "text": "Still here."})
    assert "Still here." in session.run("ask Hello?")
    assert session.close() == 0


def test_ctrl_c_during_a_stuck_mcp_call_restarts_the_server_for_the_next_call(session):
    # The server gets notifications/cancelled and a ping; one that does not answer the ping
    # (stuck in the call) is stopped, so the next call starts it again instead of waiting for
    # tool-timeout (docs/mcp.md, "Faults").
    log = os.path.join(session.home, "mcp.log")
    session.run("mcp add --trust fake -- %s %s --log %s" % (
        sys.executable, os.path.join(HERE, "fake_mcp.py"), log))
    session.run("set tool-timeout 10m")
    session.server.script({"kind": "generate", "functionCalls": [{"id": "h1", "name": "hang", "args": {}}]},
                          {"kind": "generate", "functionCalls": [{"id": "e1", "name": "echo",
                                                                  "args": {"text": "x"}}]},
                          {"kind": "generate", "text": "Back."})
    session.enter("ask Hang?")
    deadline = time.time() + TIMEOUT
    while '"name": "hang"' not in open(log).read().replace('"name":"hang"', '"name": "hang"'):
        assert time.time() < deadline, open(log).read()
        time.sleep(0.05)
    session.child.sendintr()
    session.child.expect_exact(PROMPT)
    assert "interrupted" in session.child.before, session.child.before
    session.enter("ask Again?")
    session.child.expect_exact('tool echo {"text":"x"} -> {"content":"echo: x"}')
    session.child.expect_exact("Back.")
    session.child.expect_exact(PROMPT)
    methods = [line if line == "start" else json.loads(line).get("method")
               for line in open(log).read().split("\n") if line]
    started = ["start", "initialize", "notifications/initialized", "tools/list"]
    assert methods == started + ["tools/call"] + started + ["tools/call"], methods
    assert session.close() == 0


def main():
    return run_tests("tools-terminal", BINARY, globals(), Session)


if __name__ == "__main__":
    sys.exit(main())
