#!/usr/bin/env python3
"""A fake Gemini API server (v1beta) for tests and demos. Python standard library only.

It speaks the Gemini API's v1beta wire format (https://ai.google.dev/api) as Google's server does:
pretty-printed JSON bodies (2-space indent), SSE framed as `data: <json>\\r\\n\\r\\n` with chunked
transfer encoding, zero token counts omitted from usageMetadata, missing `index` in stream chunks,
google.rpc error bodies with typed details.

Usage
    python3 scripts/fake_gemini.py [--key KEY] [--scenario FILE] [--port 0] [--host 127.0.0.1]
    python3 scripts/fake_gemini.py --help

Try the shell without a key (README.md, "Try it without a key"):

    python3 scripts/fake_gemini.py --port 8765 &
    SOPHON_GEMINI_BASE_URL=http://127.0.0.1:8765 GEMINI_API_KEY=test-key sophon -c 'ask hi'

The first line on stdout is the port it listens on (port 0 picks a free one); then it serves
until killed. Endpoints:

    POST /v1beta/models/{model}:generateContent
    POST /v1beta/models/{model}:streamGenerateContent?alt=sse
    POST /v1beta/models/{model}:countTokens
    GET  /v1beta/models?pageSize=N&pageToken=T         (paged list; default page size 50)
    GET  /v1beta/models/{model}

Every API request must carry `x-goog-api-key`: none -> 403 PERMISSION_DENIED; a key other than
--key (default `test-key`) -> 400 INVALID_ARGUMENT with ErrorInfo API_KEY_INVALID and a DebugInfo
whose detail echoes the key, as Google's does. Key failures do not consume a scripted reply.

Control endpoints (no key needed):
    GET  /_sophon/requests   -> JSON array of {method, path, headers, body} seen so far
    POST /_sophon/script     -> body {"replies": [...], "reset": bool}: queue replies (reset
                                first clears the queue and the request log)
    POST /_sophon/reset      -> clear the queue and the request log
    POST /_sophon/release    -> body {"gate": NAME}: lets a "gated" stream send its next chunk

Each logged request also has "disconnected": true once the server saw the client close the
connection before the reply was complete (a stall or a slow stream the client gave up on).

Each API request takes the next scripted reply (FIFO); with none queued it gets a default
answer. A reply is a JSON object; its "fault" (or "kind") names what to send:

    {"kind": "generate", "text": "Hi", "finishReason": "STOP", "thought": "..",
     "usage": {"prompt": 5, "candidates": 2, "thoughts": 0}, "finishMessage": "..",
     "thoughtSignature": "..", "modelVersion": "..",
     "emptyContent": true}                                 a generateContent reply ("content": {}
                            with emptyContent, as blocked or empty real replies have it);
                            for a stream request it is sent as SSE chunks ("chunks": ["He","llo"]
                            splits the text; "usageOnlyLast": true adds a usage-only last chunk;
                            "chunkDelay": 1.0 waits that many seconds before each chunk after the
                            first; "gated": true waits before chunk N (N >= 1) until
                            POST /_sophon/release {"gate": "chunkN"})
                            Without "text", a request with generationConfig.responseSchema gets
                            a JSON answer built from that schema (enums: the first value,
                            strings: "sample NAME", integers 1, numbers 1.5, booleans true,
                            arrays one item, every property present), else a greeting.
    {"kind": "json", "status": 200, "body": {...}, "headers": {..}}   any JSON body, pretty
    {"kind": "raw", "status": 200, "contentType": "..", "text": ".."} any bytes
    {"kind": "sse", "events": [{..json..} | {"raw": "text"}], "split": true,
     "noFinalBlankLine": true}                              SSE events; "split" writes each
                            event in two pieces (mid-string) with a pause between them
    {"fault": "rate_limit", "retryDelay": "26s", "quotaId": "..."}   429 + QuotaFailure +
                            RetryInfo (omit retryDelay: no RetryInfo)
    {"fault": "quota_per_day"}                              429, per-day quota id
    {"fault": "retry_after", "retryAfter": "2"}             429 with a Retry-After header
    {"fault": "internal"}                                   500 INTERNAL
    {"fault": "overloaded"}                                 503 UNAVAILABLE "The model is overloaded."
    {"fault": "gateway_timeout"}                            504 DEADLINE_EXCEEDED
    {"fault": "not_found"}                                  404 for the model in the path
    {"fault": "bad_request", "violations": [{"field": "..", "description": ".."}]}
    {"fault": "reset"}                                      headers + half a body, then TCP RST
    {"fault": "stall", "seconds": 5}                        waits before answering (ends early,
                                                            logging "disconnected", when the
                                                            client closes the connection)
    {"fault": "truncated"}                                  Content-Length larger than the body
    {"fault": "html_502"}                                   502 with an HTML page from a proxy
    {"fault": "wrapped_error", "status": 503}               the error object in a 1-element array
    {"fault": "stream_error_after", "text": ".."}           SSE 200: one chunk, then a raw
                                                            pretty-printed JSON error (no data:)
    {"fault": "stream_cut", "text": ".."}                   SSE 200: one chunk, then EOF with no
                                                            finishReason
"""

import argparse
import json
import os
import select
import signal
import socket
import struct
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

STATE_LOCK = threading.Lock()
STATE = {"queue": [], "requests": [], "key": "test-key", "gates": {}}

CATALOG = [
    ("gemini-2.5-flash-lite", "Gemini 2.5 Flash-Lite", "001"),
    ("gemini-2.5-flash", "Gemini 2.5 Flash", "001"),
    ("gemini-2.5-pro", "Gemini 2.5 Pro", "2.5"),
    ("gemini-3.1-flash-lite", "Gemini 3.1 Flash-Lite", "3.1"),
    ("gemini-3.5-flash-lite", "Gemini 3.5 Flash-Lite", "3.5"),
    ("gemini-3.5-flash", "Gemini 3.5 Flash", "3.5"),
    ("gemini-3.6-flash", "Gemini 3.6 Flash", "3.6"),
    ("gemini-3.8-flash", "Gemini 3.8 Flash", "3.8"),
    ("text-embedding-004", "Text Embedding 004", "004"),
]

STATUS_NAMES = {
    400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED",
}


def pretty(value):
    return json.dumps(value, indent=2, ensure_ascii=False)


def rpc_error(code, message, details=None, status=None):
    error = {"code": code, "message": message, "status": status or STATUS_NAMES.get(code, "UNKNOWN")}
    if details:
        error["details"] = details
    return {"error": error}


def usage_block(spec):
    """usageMetadata with zero counts omitted, as the API sends it."""
    prompt = int(spec.get("prompt", 0))
    candidates = int(spec.get("candidates", 0))
    thoughts = int(spec.get("thoughts", 0))
    usage = {}
    if prompt:
        usage["promptTokenCount"] = prompt
    if candidates:
        usage["candidatesTokenCount"] = candidates
    total = prompt + candidates + thoughts
    if total:
        usage["totalTokenCount"] = total
    if prompt:
        usage["promptTokensDetails"] = [{"modality": "TEXT", "tokenCount": prompt}]
    if thoughts:
        usage["thoughtsTokenCount"] = thoughts
    return usage


def sample_from_schema(schema, name="value"):
    """A JSON value that fits a Gemini Schema (the default structured answer)."""
    if not isinstance(schema, dict):
        return None
    kind = str(schema.get("type", "")).upper()
    if schema.get("enum"):
        return schema["enum"][0]
    if kind == "OBJECT":
        properties = schema.get("properties") or {}
        order = schema.get("propertyOrdering") or list(properties)
        order += [key for key in properties if key not in order]
        return {key: sample_from_schema(properties[key], key) for key in order if key in properties}
    if kind == "ARRAY":
        return [sample_from_schema(schema.get("items") or {"type": "STRING"}, name)]
    if kind == "INTEGER":
        return int(schema.get("minimum", 1))
    if kind == "NUMBER":
        return float(schema.get("minimum", 1.5))
    if kind == "BOOLEAN":
        return True
    if kind == "NULL":
        return None
    return "sample " + name


def default_text(reply, request):
    """The reply's text, else a JSON answer for a structured request, else a greeting."""
    if "text" in reply:
        return reply["text"]
    config = (request or {}).get("generationConfig") or {}
    if isinstance(config.get("responseSchema"), dict):
        return json.dumps(sample_from_schema(config["responseSchema"]), ensure_ascii=False)
    return "Hello from the fake Gemini server."


def generate_body(reply, model, text=None, finish=True, index=True, usage=None):
    parts = []
    if reply.get("thought"):
        parts.append({"text": reply["thought"], "thought": True})
    body_text = default_text(reply, None) if text is None else text
    parts.append({"text": body_text})
    if finish and reply.get("thoughtSignature"):
        parts.append({"text": "", "thoughtSignature": reply["thoughtSignature"]})
    candidate = {"content": {} if reply.get("emptyContent") else {"parts": parts, "role": "model"}}
    if finish:
        candidate["finishReason"] = reply.get("finishReason", "STOP")
        if reply.get("finishMessage"):
            candidate["finishMessage"] = reply["finishMessage"]
    if index:
        candidate["index"] = 0
    body = {"candidates": [candidate]}
    block = usage_block(usage if usage is not None else reply.get("usage", {"prompt": 4, "candidates": 7}))
    if block:
        body["usageMetadata"] = block
    body["modelVersion"] = reply.get("modelVersion", model)
    body["responseId"] = reply.get("responseId", uuid.uuid4().hex[:22])
    return body


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server_version = "FakeGemini/1.0"

    def log_message(self, format, *args):  # noqa: A002 - quiet by default
        pass

    def finish(self):
        try:
            super().finish()
        except OSError:
            pass

    # ---- plumbing -------------------------------------------------------------------------

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def send_bytes(self, status, data, content_type="application/json; charset=UTF-8", headers=None):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def send_json(self, status, value, headers=None):
        self.send_bytes(status, pretty(value).encode("utf-8"), headers=headers)

    def start_chunked(self, status=200, content_type="text/event-stream"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

    def write_chunk(self, data):
        if data:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()

    def end_chunked(self):
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def mark_disconnected(self):
        with STATE_LOCK:
            getattr(self, "logged", {})["disconnected"] = True

    def client_closed(self, timeout):
        """Waits up to `timeout` seconds; True (and logged) when the client closed the connection."""
        try:
            readable, _, _ = select.select([self.connection], [], [], timeout)
            if readable and self.connection.recv(1, socket.MSG_PEEK) == b"":
                self.mark_disconnected()
                return True
        except (OSError, ValueError):
            self.mark_disconnected()
            return True
        return False

    def wait_or_disconnect(self, seconds, gate=None):
        """Waits `seconds` (or until `gate` is released, at most 30 s); True when the client
        closed the connection meanwhile."""
        deadline = time.monotonic() + (30.0 if gate else seconds)
        event = None
        if gate:
            with STATE_LOCK:
                event = STATE["gates"].setdefault(gate, threading.Event())
        while True:
            left = deadline - time.monotonic()
            if event is not None and event.is_set():
                return False
            if left <= 0:
                return False
            if self.client_closed(min(left, 0.05)):
                return True

    def reset_connection(self):
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True

    # ---- routing --------------------------------------------------------------------------

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")

    def route(self, method):
        url = urlsplit(self.path)
        body = self.read_body()
        if url.path.startswith("/_sophon/"):
            return self.control(method, url.path, body)
        self.logged = {
            "method": method,
            "path": self.path,
            "headers": {k.lower(): v for k, v in self.headers.items()},
            "body": body.decode("utf-8", "replace"),
        }
        with STATE_LOCK:
            STATE["requests"].append(self.logged)
            expected = STATE["key"]
        key = self.headers.get("x-goog-api-key")
        if not key:
            return self.send_json(403, rpc_error(
                403, "Method doesn't allow unregistered callers (callers without established identity)."
                " Please use API Key or other form of API consumer identity to call this API."))
        if key != expected:
            return self.send_json(400, rpc_error(400, "API key not valid. Please pass a valid API key.", [
                {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID",
                 "domain": "googleapis.com", "metadata": {"service": "generativelanguage.googleapis.com"}},
                {"@type": "type.googleapis.com/google.rpc.LocalizedMessage", "locale": "en-US",
                 "message": "API key not valid. Please pass a valid API key."},
                {"@type": "type.googleapis.com/google.rpc.DebugInfo", "detail": "Invalid API key: " + key},
            ]))
        path = url.path
        prefix = "/v1beta/"
        if not path.startswith(prefix):
            return self.send_json(404, rpc_error(404, "Not found: " + path))
        rest = path[len(prefix):]
        query = parse_qs(url.query)
        if method == "GET" and rest == "models":
            return self.list_models(query)
        if method == "GET" and rest.startswith("models/"):
            return self.get_model(rest[len("models/"):])
        if method == "POST" and rest.startswith("models/") and ":" in rest:
            model, action = rest[len("models/"):].rsplit(":", 1)
            return self.model_action(model, action, query, body)
        return self.send_json(404, rpc_error(404, "Not found: " + path))

    def control(self, method, path, body):
        if method == "GET" and path == "/_sophon/requests":
            with STATE_LOCK:
                return self.send_json(200, STATE["requests"])
        if method == "POST" and path == "/_sophon/reset":
            with STATE_LOCK:
                STATE["queue"].clear()
                STATE["requests"].clear()
                STATE["gates"].clear()
            return self.send_json(200, {"ok": True})
        if method == "POST" and path == "/_sophon/release":
            try:
                gate = json.loads(body or b"{}").get("gate", "")
            except ValueError as error:
                return self.send_json(400, {"error": str(error)})
            with STATE_LOCK:
                STATE["gates"].setdefault(gate, threading.Event()).set()
            return self.send_json(200, {"ok": True})
        if method == "POST" and path == "/_sophon/script":
            try:
                script = json.loads(body or b"{}")
            except ValueError as error:
                return self.send_json(400, {"error": str(error)})
            with STATE_LOCK:
                if script.get("reset"):
                    STATE["queue"].clear()
                    STATE["requests"].clear()
                    STATE["gates"].clear()
                STATE["queue"].extend(script.get("replies", []))
            return self.send_json(200, {"ok": True})
        return self.send_json(404, {"error": "unknown control path"})

    # ---- API ------------------------------------------------------------------------------

    def list_models(self, query):
        size = int((query.get("pageSize") or ["50"])[0]) or 50
        start = int(((query.get("pageToken") or ["page-0"])[0]).split("-")[-1] or 0)
        page = CATALOG[start:start + size]
        body = {"models": [self.model_entry(*entry) for entry in page]}
        if start + size < len(CATALOG):
            body["nextPageToken"] = "page-%d" % (start + size)
        self.send_json(200, body)

    def model_entry(self, model_id, display, version):
        entry = {"name": "models/" + model_id, "version": version, "displayName": display,
                 "description": display + " (fake)", "inputTokenLimit": 1048576, "outputTokenLimit": 65536}
        if model_id.startswith("text-embedding"):
            entry["supportedGenerationMethods"] = ["embedContent"]
            entry["outputTokenLimit"] = 1
        else:
            entry["supportedGenerationMethods"] = ["generateContent", "countTokens", "createCachedContent",
                                                   "batchGenerateContent"]
            entry.update({"temperature": 1, "topP": 0.95, "topK": 64, "maxTemperature": 2, "thinking": True})
        return entry

    def get_model(self, model_id):
        for entry in CATALOG:
            if entry[0] == model_id:
                return self.send_json(200, self.model_entry(*entry))
        self.send_json(404, rpc_error(404, "models/%s is not found for API version v1beta" % model_id))

    def model_action(self, model, action, query, body):
        with STATE_LOCK:
            reply = STATE["queue"].pop(0) if STATE["queue"] else None
        stream = action == "streamGenerateContent"
        if reply is None:
            if action == "countTokens":
                reply = {"kind": "json", "body": self.count_tokens(body)}
            else:
                reply = {"kind": "generate"}
        try:
            self.request_json = json.loads(body or b"{}")
        except ValueError:
            self.request_json = {}
        kind = reply.get("fault") or reply.get("kind", "generate")
        handler = getattr(self, "reply_" + kind, None)
        if handler is None:
            return self.send_json(500, rpc_error(500, "fake_gemini: unknown reply kind " + kind))
        handler(reply, model, stream)

    def count_tokens(self, body):
        try:
            request = json.loads(body or b"{}")
        except ValueError:
            request = {}
        contents = request.get("contents") or (request.get("generateContentRequest") or {}).get("contents") or []
        words = sum(len(str(part.get("text", "")).split()) for content in contents
                    for part in content.get("parts", []))
        if not words:
            return {}
        return {"totalTokens": words, "promptTokensDetails": [{"modality": "TEXT", "tokenCount": words}]}

    # ---- replies --------------------------------------------------------------------------

    def reply_generate(self, reply, model, stream):
        reply = dict(reply, text=default_text(reply, getattr(self, "request_json", {})))
        if not stream:
            return self.send_json(200, generate_body(reply, model))
        text = reply["text"]
        pieces = reply.get("chunks") or [text[:len(text) // 2], text[len(text) // 2:]]
        usage = reply.get("usage", {"prompt": 4, "candidates": 7})
        events = []
        reply = dict(reply, responseId=reply.get("responseId", uuid.uuid4().hex[:22]))  # repeats, as real chunks do
        for number, piece in enumerate(pieces):
            last = number == len(pieces) - 1 and not reply.get("usageOnlyLast")
            running = dict(usage, candidates=int(usage.get("candidates", 0)) * (number + 1) // len(pieces))
            chunk = generate_body(dict(reply, thought=reply.get("thought") if number == 0 else None),
                                  model, text=piece, finish=last, index=False, usage=running)
            events.append(chunk)
        if reply.get("usageOnlyLast"):
            final = {"candidates": [{"content": {"parts": [{"text": ""}], "role": "model"},
                                     "finishReason": reply.get("finishReason", "STOP")}],
                     "usageMetadata": usage_block(usage), "modelVersion": model,
                     "responseId": events[0]["responseId"]}
            events.append(final)
        self.reply_sse({"events": events, "split": reply.get("split", False),
                        "chunkDelay": reply.get("chunkDelay", 0), "gated": reply.get("gated", False)},
                       model, True)

    def reply_json(self, reply, model, stream):
        self.send_json(int(reply.get("status", 200)), reply.get("body", {}), headers=reply.get("headers"))

    def reply_raw(self, reply, model, stream):
        self.send_bytes(int(reply.get("status", 200)), reply.get("text", "").encode("utf-8"),
                        content_type=reply.get("contentType", "text/plain"), headers=reply.get("headers"))

    def reply_sse(self, reply, model, stream):
        self.start_chunked()
        events = reply.get("events", [])
        delay = float(reply.get("chunkDelay", 0))
        for number, event in enumerate(events):
            if number > 0 and (delay or reply.get("gated")):
                gate = "chunk%d" % number if reply.get("gated") else None
                if self.wait_or_disconnect(delay, gate=gate):
                    self.close_connection = True
                    return
            if isinstance(event, dict) and "raw" in event:
                data = event["raw"].encode("utf-8")
            else:
                data = b"data: " + json.dumps(event, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
                last = number == len(events) - 1
                if not (last and reply.get("noFinalBlankLine")):
                    data += b"\r\n\r\n"
            try:
                if reply.get("split"):
                    middle = data.find(b'"text":"')
                    cut = middle + 12 if middle >= 0 else len(data) // 2
                    self.write_chunk(data[:cut])
                    time.sleep(0.05)
                    self.write_chunk(data[cut:])
                else:
                    self.write_chunk(data)
            except OSError:
                self.mark_disconnected()
                self.close_connection = True
                return
            time.sleep(0.005)
        self.end_chunked()

    def reply_rate_limit(self, reply, model, stream):
        quota_id = reply.get("quotaId", "GenerateRequestsPerMinutePerProjectPerModel-FreeTier")
        details = [
            {"@type": "type.googleapis.com/google.rpc.Help", "links": [
                {"description": "Learn more about Gemini API quotas",
                 "url": "https://ai.google.dev/gemini-api/docs/rate-limits"}]},
            {"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": [
                {"quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests",
                 "quotaId": quota_id, "quotaDimensions": {"location": "global", "model": model},
                 "quotaValue": "10"}]},
        ]
        delay = reply.get("retryDelay")
        if delay:
            details.append({"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": delay})
        message = ("You exceeded your current quota, please check your plan and billing details."
                   " For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits."
                   + (" Please retry in %s." % delay if delay else ""))
        self.send_json(429, rpc_error(429, message, details), headers=reply.get("headers"))

    def reply_quota_per_day(self, reply, model, stream):
        self.reply_rate_limit(dict(reply, quotaId="GenerateRequestsPerDayPerProjectPerModel-FreeTier",
                                   retryDelay=reply.get("retryDelay", "36s")), model, stream)

    def reply_retry_after(self, reply, model, stream):
        self.send_json(429, rpc_error(429, "Resource has been exhausted (e.g. check quota)."),
                       headers={"Retry-After": str(reply.get("retryAfter", "2"))})

    def reply_internal(self, reply, model, stream):
        self.send_json(500, rpc_error(500, "An internal error has occurred. Please retry or report in"
                                      " https://developers.generativeai.google/guide/troubleshooting"))

    def reply_overloaded(self, reply, model, stream):
        self.send_json(503, rpc_error(503, "The model is overloaded. Please try again later."))

    def reply_gateway_timeout(self, reply, model, stream):
        self.send_json(504, rpc_error(504, "Deadline expired before operation could complete."))

    def reply_not_found(self, reply, model, stream):
        self.send_json(404, rpc_error(404, "models/%s is not found for API version v1beta, or is not supported"
                                      " for generateContent. Call ModelService.ListModels to see the list of"
                                      " available models and their supported methods." % model))

    def reply_bad_request(self, reply, model, stream):
        violations = reply.get("violations", [{"field": "generation_config.temperature",
                                               "description": "must be between 0 and 2"}])
        self.send_json(400, rpc_error(400, reply.get("message", "Invalid value at 'generation_config'."), [
            {"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": violations}]))

    def send_half_of_a_reply(self, reply, model):
        """A 200 whose Content-Length promises the whole generateContent body; sends half."""
        data = pretty(generate_body(reply, model)).encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "application/json; charset=UTF-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data[:len(data) // 2])
        self.wfile.flush()

    def reply_reset(self, reply, model, stream):
        self.send_half_of_a_reply(reply, model)
        time.sleep(0.02)
        self.reset_connection()

    def reply_stall(self, reply, model, stream):
        if self.wait_or_disconnect(float(reply.get("seconds", 5))):
            self.close_connection = True
            return
        try:
            self.reply_generate({k: v for k, v in reply.items() if k != "fault"}, model, stream)
        except OSError:
            self.mark_disconnected()

    def reply_truncated(self, reply, model, stream):
        self.send_half_of_a_reply(reply, model)
        self.close_connection = True
        self.connection.shutdown(socket.SHUT_WR)

    def reply_html_502(self, reply, model, stream):
        page = ("<html><head><title>502 Bad Gateway</title></head>\n<body>\n<center><h1>502 Bad Gateway</h1>"
                "</center>\n<hr><center>nginx</center>\n</body>\n</html>\n")
        self.send_bytes(502, page.encode("utf-8"), content_type="text/html")

    def reply_wrapped_error(self, reply, model, stream):
        code = int(reply.get("status", 503))
        message = reply.get("message", "The model is overloaded. Please try again later.")
        self.send_json(code, [rpc_error(code, message)])

    def reply_stream_error_after(self, reply, model, stream):
        first = generate_body(reply, model, text=reply.get("text", "Partial "), finish=False, index=False)
        error = pretty(rpc_error(int(reply.get("status", 500)), reply.get("message", "An internal error has occurred.")))
        self.reply_sse({"events": [first, {"raw": error + "\n"}]}, model, True)

    def reply_stream_cut(self, reply, model, stream):
        first = generate_body(reply, model, text=reply.get("text", "Partial "), finish=False, index=False)
        self.reply_sse({"events": [first]}, model, True)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256

    def handle_error(self, request, client_address):
        pass


def main():
    parser = argparse.ArgumentParser(
        description="A fake Gemini API server (v1beta) for tests and demos.",
        epilog=__doc__.split("\n", 2)[2], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0,
                        help="the port (default 0: a free one); printed as the first line on stdout")
    parser.add_argument("--key", default="test-key", help="the API key requests must carry (default test-key)")
    parser.add_argument("--scenario", help="a JSON file {\"replies\": [...]} queued at start")
    parser.add_argument("--exit-on-stdin-eof", action="store_true",
                        help="exit when stdin closes (tests: the server dies with its parent)")
    args = parser.parse_args()
    # A parent that blocks signals (Swift test runners do) passes the mask on: undo it so
    # SIGTERM and SIGINT stop the server.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
    if args.exit_on_stdin_eof:
        def watch_stdin():
            while sys.stdin.buffer.read(1):
                pass
            os._exit(0)
        threading.Thread(target=watch_stdin, daemon=True).start()
    STATE["key"] = args.key
    if args.scenario:
        with open(args.scenario, encoding="utf-8") as handle:
            STATE["queue"].extend(json.load(handle).get("replies", []))
    server = Server((args.host, args.port), Handler)
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
