#!/usr/bin/env python3
"""Checks scripts/fake_interactions.py through scripts/fake_gemini.py over HTTP: create, get,
stream, a stream cut and resumed with last_event_id, function calls pending until answered by
id, background jobs that advance per poll, fail or are cancelled, delete, and the refusals.
Exits 0 when every check passes. Usage: python3 scripts/interactions-check.py"""

import json
import sys
import urllib.error
import urllib.request

from fake_gemini_client import FakeGemini

def call(base, method, path, body=None, key="test-key"):
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("content-type", "application/json")
    if key:
        request.add_header("x-goog-api-key", key)
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8")


def events(text):
    """The (event, data) pairs of an SSE body."""
    found = []
    for block in text.split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "event" in lines:
            found.append((lines["event"], lines.get("data")))
    return found


def main():
    server = FakeGemini()
    base = server.url
    failures = []

    def check(name, condition):
        print(("ok   " if condition else "FAIL ") + name)
        if not condition:
            failures.append(name)

    try:
        status, text = call(base, "POST", "/v1beta/interactions", {"model": "gemini-3.5-flash", "input": "hi"})
        reply = json.loads(text)
        check("create answers a completed model_output", status == 200 and reply["status"] == "completed"
              and reply["steps"][0]["content"][0]["text"] == "Hello from the fake Interactions API: hi")
        status, text = call(base, "GET", "/v1beta/interactions/" + reply["id"])
        check("get returns the timeline with the user_input step",
              json.loads(text)["steps"][0] == {"type": "user_input", "content": [{"type": "text", "text": "hi"}]})
        status, text = call(base, "POST", "/v1beta/interactions", {"model": "m", "input": "x", "systemInstruction": "s"})
        check("a camelCase field is refused with a string code",
              status == 400 and json.loads(text)["error"]["code"] == "parameter_unknown")
        status, text = call(base, "POST", "/v1beta/interactions",
                            {"model": "m", "input": "x", "previous_interaction_id": "v1_gone"})
        check("an unknown previous_interaction_id is 404 not_found",
              status == 404 and json.loads(text)["error"]["code"] == "not_found")
        call(base, "POST", "/_sophon/interactions", {"replies": [{"fault": "permission_denied"}]})
        status, text = call(base, "POST", "/v1beta/interactions",
                            {"model": "m", "input": "x", "previous_interaction_id": reply["id"]})
        check("a permission_denied fault is 403 with its string code",
              status == 403 and json.loads(text)["error"]["code"] == "permission_denied")
        image = {"type": "image", "data": "AAE=", "mime_type": "image/png"}
        call(base, "POST", "/_sophon/interactions", {"replies": [{"steps": [
            {"type": "model_output", "content": [{"type": "text", "text": "A dot."}, image]}]}]})
        status, text = call(base, "POST", "/v1beta/interactions", {"model": "m", "input": "draw", "stream": True})
        deltas = [json.loads(data)["delta"] for name, data in events(text) if name == "step.delta"]
        check("a streamed model_output's image arrives as its own step.delta", image in deltas)
        status, text = call(base, "POST", "/v1beta/interactions", {"agent": "deep-thought", "input": "x",
                                                                    "background": True})
        check("an unknown agent is refused", status == 400 and "Unknown agent" in text)

        call(base, "POST", "/_sophon/interactions", {"replies": [{"text": "streamed answer", "cutAfter": [3]}]})
        status, text = call(base, "POST", "/v1beta/interactions", {"model": "m", "input": "s", "stream": True})
        first = events(text)
        check("a cut stream ends after 3 events without done",
              [name for name, _ in first] == ["interaction.created", "step.start", "step.delta"])
        identifier = json.loads(first[0][1])["interaction"]["id"]
        last = json.loads(first[-1][1])["event_id"]
        status, text = call(base, "GET", "/v1beta/interactions/%s?stream=true&last_event_id=%s" % (identifier, last))
        rest = events(text)
        check("the resume sends the rest, then done",
              [name for name, _ in rest] == ["step.stop", "interaction.completed", "done"])

        call(base, "POST", "/_sophon/interactions", {"replies": [{"functionCalls": [
            {"id": "c1", "name": "f", "arguments": {"a": 1}}, {"id": "c2", "name": "g", "arguments": {}}]}]})
        status, text = call(base, "POST", "/v1beta/interactions", {"model": "m", "input": "go"})
        calls = json.loads(text)
        check("function calls end in requires_action", calls["status"] == "requires_action")
        status, text = call(base, "POST", "/v1beta/interactions", {
            "model": "m", "previous_interaction_id": calls["id"],
            "input": [{"type": "function_result", "call_id": "c1", "name": "f", "result": "r1"}]})
        check("a call left unanswered is refused", status == 400 and "'c2'" in text)
        status, text = call(base, "POST", "/v1beta/interactions", {
            "model": "m", "previous_interaction_id": calls["id"],
            "input": [{"type": "function_result", "call_id": "c1", "name": "f", "result": "r1"},
                      {"type": "function_result", "call_id": "c2", "name": "g", "result": {"ok": True}}]})
        check("both answers complete the turn", status == 200 and json.loads(text)["status"] == "completed")

        status, text = call(base, "POST", "/v1beta/interactions", {
            "agent": "deep-research-preview-04-2026", "input": "TPUs", "background": True})
        job = json.loads(text)
        seen = []
        for _ in range(10):
            _, text = call(base, "GET", "/v1beta/interactions/" + job["id"])
            polled = json.loads(text)
            seen.append((polled["status"], len(polled["steps"])))
            if polled["status"] == "completed":
                break
        check("a research job advances a step per poll, then completes",
              seen == [("in_progress", 2), ("in_progress", 3), ("in_progress", 4), ("completed", 5)])
        check("the report cites its sources",
              polled["steps"][-1]["content"][0]["annotations"][0]["url"] == "https://example.com/a")

        call(base, "POST", "/_sophon/interactions", {"replies": [{"fail": {"code": "internal",
                                                                          "message": "the agent crashed"}}]})
        _, text = call(base, "POST", "/v1beta/interactions", {
            "agent": "deep-research-preview-04-2026", "input": "q", "background": True, "store": True})
        failing = json.loads(text)["id"]
        for _ in range(6):
            _, text = call(base, "GET", "/v1beta/interactions/" + failing)
        check("a failing job ends failed with its errors",
              json.loads(text)["status"] == "failed" and json.loads(text)["errors"][0]["message"] == "the agent crashed")

        _, text = call(base, "POST", "/v1beta/interactions", {
            "agent": "deep-research-preview-04-2026", "input": "q", "background": True})
        cancelled = json.loads(text)["id"]
        status, text = call(base, "POST", "/v1beta/interactions/%s/cancel" % cancelled)
        check("cancel ends a running job", status == 200 and json.loads(text)["status"] == "cancelled")
        status, _ = call(base, "DELETE", "/v1beta/interactions/" + cancelled)
        status_after, _ = call(base, "GET", "/v1beta/interactions/" + cancelled)
        check("delete removes it", status == 200 and status_after == 404)
    finally:
        server.stop()
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
