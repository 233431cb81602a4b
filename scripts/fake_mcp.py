#!/usr/bin/env python3
"""A scripted MCP server over stdio for the tests (docs/mcp.md). Python standard library only.

JSON-RPC 2.0, one message per line. Tools:
  echo {text}        -> text content "echo: TEXT"
  lines {}           -> two text items "first" and "second" (joined by the client)
  add {a, b}         -> structuredContent {"sum": a + b} (and the same as text)
  fail {}            -> isError with the text "it failed on purpose"
  crash {}           -> writes "boom" on stderr and exits with status 3
  hang {}            -> never answers
  garbage {}         -> writes a line that is not JSON
  bad_schema {}      -> an input schema the converter refuses (not offered)
Options:
  --page-size N      tools/list pages of N tools (nextCursor "page-2", ...)
  --repeat-cursor    every page's nextCursor is "again" (the client must stop)
  --log FILE         appends every message received (and "start") to FILE, one per line
  --crash-once FILE  the crash tool crashes only when FILE does not exist (and creates it)
  --protocol V       answers initialize with protocol version V
  --help, -h         prints this text and exits
Try it: sophon -c 'mcp add --trust fake -- scripts/fake_mcp.py' -c 'mcp list'
"""
import json
import os
import sys
import time

TOOLS = [
    {"name": "echo", "description": "Echo a text",
     "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}},
    {"name": "lines", "description": "Two text items", "inputSchema": {"type": "object", "properties": {}}},
    {"name": "add", "description": "Add two integers",
     "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
                     "required": ["a", "b"], "additionalProperties": False}},
    {"name": "fail", "description": "Always fails", "inputSchema": {"type": "object"}},
    {"name": "crash", "description": "Exits", "inputSchema": {"type": "object"}},
    {"name": "hang", "description": "Never answers", "inputSchema": {"type": "object"}},
    {"name": "garbage", "description": "Writes garbage", "inputSchema": {"type": "object"}},
    {"name": "bad_schema", "description": "Cannot be converted",
     "inputSchema": {"type": "object", "properties": {"x": {"allOf": [{"type": "string"}, {"minLength": 1}]}}}},
]


def option(name, default=None):
    if name in sys.argv:
        index = sys.argv.index(name)
        return sys.argv[index + 1] if index + 1 < len(sys.argv) else default
    return default


LOG = option("--log")
PAGE = int(option("--page-size", "0"))
REPEAT = "--repeat-cursor" in sys.argv
CRASH_ONCE = option("--crash-once")
PROTOCOL = option("--protocol")


def log(text):
    if LOG:
        with open(LOG, "a") as handle:
            handle.write(text + "\n")


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def reply(message_id, result):
    send({"jsonrpc": "2.0", "id": message_id, "result": result})


def text_result(text, **extra):
    result = {"content": [{"type": "text", "text": text}]}
    result.update(extra)
    return result


def call(message_id, name, args):
    if name == "echo":
        reply(message_id, text_result("echo: " + str(args.get("text"))))
    elif name == "lines":
        reply(message_id, {"content": [{"type": "text", "text": "first"}, {"type": "image", "data": "", "mimeType": "image/png"},
                                       {"type": "text", "text": "second"}]})
    elif name == "add":
        total = args.get("a", 0) + args.get("b", 0)
        reply(message_id, text_result(json.dumps({"sum": total}), structuredContent={"sum": total}))
    elif name == "fail":
        reply(message_id, text_result("it failed on purpose", isError=True))
    elif name == "crash":
        if CRASH_ONCE and os.path.exists(CRASH_ONCE):
            reply(message_id, text_result("survived"))
            return
        if CRASH_ONCE:
            open(CRASH_ONCE, "w").close()
        sys.stderr.write("boom\n")
        sys.stderr.flush()
        os._exit(3)
    elif name == "hang":
        time.sleep(3600)
    elif name == "garbage":
        sys.stdout.write("this is not json\n")
        sys.stdout.flush()
    else:
        send({"jsonrpc": "2.0", "id": message_id, "error": {"code": -32602, "message": "unknown tool " + name}})


def tools_page(cursor):
    if PAGE <= 0:
        return {"tools": TOOLS}
    start = 0 if cursor is None else (int(cursor.split("-")[1]) - 1) * PAGE
    page = {"tools": TOOLS[start:start + PAGE]}
    if REPEAT:
        page["nextCursor"] = "again"
    elif start + PAGE < len(TOOLS):
        page["nextCursor"] = "page-%d" % (start // PAGE + 2)
    return page


def main():
    log("start")
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        log(line)
        message = json.loads(line)
        method = message.get("method")
        message_id = message.get("id")
        params = message.get("params") or {}
        if method == "initialize":
            version = PROTOCOL or params.get("protocolVersion")
            reply(message_id, {"protocolVersion": version, "capabilities": {"tools": {}},
                               "serverInfo": {"name": "fake-mcp", "version": "1"}})
        elif method == "tools/list":
            if REPEAT and params.get("cursor") == "again":
                page = {"tools": [], "nextCursor": "again"}
            else:
                page = tools_page(params.get("cursor"))
            reply(message_id, page)
        elif method == "tools/call":
            call(message_id, params.get("name"), params.get("arguments") or {})
        elif message_id is not None:
            send({"jsonrpc": "2.0", "id": message_id, "error": {"code": -32601, "message": "no method " + str(method)}})


if __name__ == "__main__":
    if "--help" in sys.argv or "-h" in sys.argv:
        # A server reads stdin until its end: without this, --help in a terminal seemed to hang.
        sys.stdout.write(__doc__)
        sys.exit(0)
    main()
