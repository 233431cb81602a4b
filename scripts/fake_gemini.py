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
    POST /upload/v1beta/files                          (resumable upload: start, then upload /
                                                        "upload, finalize" / query on the session URL)
    GET  /v1beta/files?pageSize=N&pageToken=T  GET|DELETE /v1beta/files/{id}
    GET  /v1beta/files/{id}:download?alt=media  (and /download/v1beta/files/{id}:download)

Every API request must carry `x-goog-api-key`: none -> 403 PERMISSION_DENIED; a key other than
--key (default `test-key`) -> 400 INVALID_ARGUMENT with ErrorInfo API_KEY_INVALID and a DebugInfo
whose detail echoes the key, as Google's does. Key failures do not consume a scripted reply.

Control endpoints (no key needed):
    GET  /_sophon/requests   -> JSON array of {method, path, headers, body} seen so far
    POST /_sophon/script     -> body {"replies": [...], "reset": bool}: queue replies (reset
                                first clears the queue and the request log)
    POST /_sophon/reset      -> clear the queue and the request log
    POST /_sophon/release    -> body {"gate": NAME}: lets a "gated" stream send its next chunk
    POST /_sophon/script with "modelPages": [BODY, ...] -> GET /v1beta/models answers these
                                bodies in order instead of the catalog, the last one for every
                                later page (so a page whose nextPageToken never changes repeats)

    POST /_sophon/files      -> body {"processingSeconds": S, "finalState": "ACTIVE"|"FAILED",
                                "lifetimeSeconds": L (expirationTime = now + L, default 48 h),
                                "tick": T, "interruptAt": BYTES, "pageSize": N, "repeatToken": bool}:
                                how the next uploads behave. A new file is PROCESSING until the
                                clock reaches its creation + S (then finalState); the clock moves
                                by T (default 1) on each GET of a file and by POST /_sophon/clock
                                {"advance": SECONDS}. interruptAt (one shot): the upload request
                                that would carry byte BYTES is read up to it, kept, and its
                                connection reset (the session keeps what arrived; `query` says so).
                                repeatToken: the file list hands out the same page token forever.
    GET  /_sophon/uploads    -> [{uploadId, size, received, bytesSeen, sha256, file}] per session
                                (bytesSeen counts every body byte read, resent ones included)
    POST /_sophon/files/add  -> body {File fields..., "data": base64}: a file as if generated

Embeddings: POST /v1beta/models/{model}:embedContent and :batchEmbedContents (at most 100
requests) answer deterministic vectors: each lower-cased word of the text is hashed (SHA-256)
into one of outputDimensionality (default 768) dimensions and the vector normalised, so texts
sharing words score high by cosine. An empty text is a 400. A queued reply is used by an
embedding call only when it has "embeddings": true (e.g. {"embeddings": true, "fault":
"rate_limit"}, or a "kind": "json" / "raw" reply sent as it is); other queued replies wait for
generateContent.
Judge replies: {"kind": "judge", "pass": true, "score": 0.9, "reason": ".."} answers that JSON
as the text ("raw": TEXT sends TEXT instead, for a reply that does not fit the schema).

Context caches, service tiers (a Flex queue) and Vertex AI (its paths and a token endpoint
that accepts only a correctly signed JWT): see scripts/fake_gemini_cloud.py.

Upload request bodies are logged by size ("bodyBytes"), not content.
    POST /_sophon/rules      -> body {"rules": [{"match": TEXT, "reply": {...}, "times": N}],
                                "reset": bool}: a request to generateContent whose body contains
                                TEXT gets that reply (before the queue); "times" limits how often
                                (default: always). For concurrent runs, where FIFO order is not.
                                A rule with "model": ID applies only to requests for that model
                                (`compare`: one reply per model, whatever order they arrive in).
    POST /_sophon/limits     -> body {"rpm": N, "tpm": N, "latency": SECONDS}: generateContent
                                answers 429 + QuotaFailure + RetryInfo (retryDelay = when the
                                oldest call leaves the sliding 60 s window) past N requests or N
                                tokens a minute (a call counts the default answer's usage total,
                                11); every generateContent answer waits "latency" seconds
                                first. null or 0 turns one off. "modelLatency": {ID: SECONDS}
                                adds a wait per model (the `compare` bench).
    GET  /_sophon/stats      -> {"admitted": N, "rateLimited": N}
    POST /_sophon/clock      -> body {"advance": SECONDS} or {"set": SECONDS, "autoAdvance": SECONDS}:
                                the batch clock (starts at 0; every GET of one batch advances it
                                by autoAdvance, default 10)
    POST /_sophon/batch-faults -> body merged into the batch faults (see Batch below)

Batch (docs/running-many-prompts.md):
    POST   /v1beta/models/{model}:batchGenerateContent   -> Operation (inline requests, or
                                                             inputConfig.fileName: an uploaded JSONL
                                                             file of {"key", "request"} lines)
    GET    /v1beta/batches[?pageSize=&pageToken=]         -> {"operations": [...]}
    GET    /v1beta/batches/{id}                           -> Operation
    POST   /v1beta/batches/{id}:cancel                    -> {}
    DELETE /v1beta/batches/{id}                           -> {}
A job is PENDING for "pendingFor" seconds of the batch clock (default 10), RUNNING for
"runningFor" (default 10), then SUCCEEDED with inline answers keyed by metadata.key (a job
from a file answers with "responsesFile": "files/batch-<id>", a generated JSONL file of
{"response" | "error", "key"} lines, downloadable by both download paths). Faults
(POST /_sophon/batch-faults): "createRateLimited": N (the next N creates answer 429 with
RetryInfo 1s), "loseCreate": N (the next N creates make the job, then reset the connection),
"expire": true (EXPIRED after PENDING), "fail": true (FAILED), "itemErrors": [KEY...] (400 per
item), "blocked": [KEY...] (promptFeedback SAFETY), "outOfOrder": true (answers reversed),
"pendingFor"/"runningFor": SECONDS, "getUnavailable": N (the next N GETs of a job answer 503).

Interactions API (/v1beta/interactions, POST /_sophon/interactions to script it): see
scripts/fake_interactions.py.

Each logged request also has "disconnected": true once the server saw the client close the
connection before the reply was complete (a stall or a slow stream the client gave up on).

Each API request takes the next scripted reply (FIFO); with none queued it gets a default
answer. A reply is a JSON object; its "fault" (or "kind") names what to send:

    {"kind": "generate", "text": "Hi", "finishReason": "STOP", "thought": "..",
     "usage": {"prompt": 5, "candidates": 2, "thoughts": 0, "cached": 0}, "finishMessage": "..",
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
    {"kind": "generate", "functionCalls": [{"id": "fc-1", "name": "f", "args": {..}}, ..],
     "thoughtSignature": "..", "code": [{"language": "PYTHON", "code": "..", "outcome":
     "OUTCOME_OK", "output": ".."}], "sources": [{"title": "..", "uri": ".."}],
     "parts": [..]}         function calls (after "text" and "inlineData" when given;
                            "thoughtSignature" then goes on the first call, as Gemini 3 puts
                            it), code execution steps before
                            the text, grounding sources as groundingMetadata, or "parts" sent as
                            they are. Every generateContent request's history is checked as the
                            API checks it (function responses after each call turn, matching in
                            count and id, signatures of the calls this server sent given back);
                            a history the API refuses gets its 400 INVALID_ARGUMENT and takes no
                            scripted reply.
                            "inlineData": [{"mimeType": "image/png", "data": BASE64}] adds media
                            parts after the text (an empty "text" leaves the text part out)
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
import base64
import hashlib
import json
import math
import os
import re
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

from fake_interactions import InteractionsHandler
import fake_interactions
import fake_gemini_cloud  # context caches, service tiers, Vertex AI (its docstring)

STATE_LOCK = threading.Lock()
STATE = {"queue": [], "requests": [], "key": "test-key", "gates": {}, "modelPages": [], "signatures": {},
         "rules": [], "limits": {"rpm": 0, "tpm": 0, "latency": 0}, "window": [], "admitted": 0,
         "rateLimited": 0, "batches": {}, "clock": 0.0, "autoAdvance": 10.0, "batchFaults": {}}
FILES = {"files": {}, "uploads": {}, "clock": 0.0, "config": {}, "order": []}
FILE_URI_ROOT = "https://generativelanguage.googleapis.com/v1beta/"


def batch_state(job, faults):
    """The state of a job at the batch clock. Call with STATE_LOCK held."""
    if job.get("cancelled"):
        return "CANCELLED"
    age = STATE["clock"] - job["created"]
    pending = float(faults.get("pendingFor", 10))
    if age < pending:
        return "PENDING"
    if faults.get("expire"):
        return "EXPIRED"
    if faults.get("fail"):
        return "FAILED"
    if age < pending + float(faults.get("runningFor", 10)):
        return "RUNNING"
    return "SUCCEEDED"


def batch_operation(job):
    """The Operation resource of a job. Call with STATE_LOCK held."""
    faults = job["faults"]
    state = batch_state(job, faults)
    count = len(job["requests"])
    stats = {"requestCount": str(count)}
    metadata = {"@type": "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch",
                "name": job["name"], "model": "models/" + job["model"], "displayName": job["displayName"],
                "createTime": "2026-12-01T10:00:%02d.207650525Z" % (int(job["created"]) % 60),
                "updateTime": "2026-12-01T10:00:00Z", "state": "BATCH_STATE_" + state}
    operation = {"name": job["name"], "metadata": metadata}
    if job.get("inputFile"):
        metadata["inputConfig"] = {"fileName": job["inputFile"]}
    if state in ("PENDING", "RUNNING"):
        stats["pendingRequestCount"] = str(count)
    if state == "SUCCEEDED":
        items = []
        failed = 0
        for entry in job["requests"]:
            key = entry.get("metadata", {}).get("key")
            if key in faults.get("itemErrors", []):
                failed += 1
                items.append({"error": {"code": 400, "message": "Request contains an invalid argument.",
                                        "status": "INVALID_ARGUMENT"}, "metadata": {"key": key}})
            elif key in faults.get("blocked", []):
                failed += 1
                items.append({"response": {"promptFeedback": {"blockReason": "SAFETY"},
                                           "usageMetadata": {"promptTokenCount": 4, "totalTokenCount": 4},
                                           "modelVersion": job["model"]}, "metadata": {"key": key}})
            else:
                text = default_text({}, entry.get("request"))
                items.append({"response": generate_body({"text": text}, job["model"]), "metadata": {"key": key}})
        if faults.get("outOfOrder"):
            items.reverse()
        if count - failed:
            stats["successfulRequestCount"] = str(count - failed)
        if failed:
            stats["failedRequestCount"] = str(failed)
        if job.get("inputFile"):
            output = {"responsesFile": batch_results_file(job, items)}
        else:
            output = {"inlinedResponses": {"inlinedResponses": items}}
        metadata["output"] = output
        operation["response"] = dict(output, **{
            "@type": "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatchOutput"})
    if state == "FAILED":
        operation["error"] = {"code": 13, "message": "The batch failed.", "status": "INTERNAL"}
    if state in ("SUCCEEDED", "FAILED", "CANCELLED", "EXPIRED"):
        operation["done"] = True
        metadata["endTime"] = "2026-12-01T10:41:09Z"
    metadata["batchStats"] = stats
    return operation


def batch_results_file(job, items):
    """The results file of a finished job with file input (`files/batch-<id>`, JSONL lines of
    {response | error, key}, key last as observed), made once. Call with STATE_LOCK held."""
    name = "files/batch-" + job["name"].split("/", 1)[1]
    if name not in FILES["files"]:
        lines = []
        for item in items:
            line = {k: v for k, v in item.items() if k != "metadata"}
            line["key"] = item.get("metadata", {}).get("key")
            lines.append(json.dumps(line, ensure_ascii=False))
        data = ("\n".join(lines) + "\n").encode()
        resource = {"name": name, "mimeType": "application/jsonl", "sizeBytes": str(len(data)),
                    "createTime": rfc3339(time.time()), "updateTime": rfc3339(time.time()),
                    "uri": FILE_URI_ROOT + name, "state": "ACTIVE", "source": "GENERATED"}
        FILES["files"][name] = {"resource": resource, "data": data, "readyAt": 0, "finalState": "ACTIVE"}
        FILES["order"].append(name)
    return name


DEFAULT_USAGE_TOTAL = 11  # the default answer's usageMetadata: 4 prompt + 7 candidates


def rule_applies(rule, text, model):
    """Whether a /_sophon/rules rule answers this request: its "match" text is in the body,
    its "model" (when given) is the model in the path, and its "times" are not used up."""
    if rule.get("model") not in (None, model):
        return False
    return rule.get("match", "") in text and rule.get("times", 1) != 0


def model_latency(model):
    """The extra wait of `model` from /_sophon/limits "modelLatency" (0 when none)."""
    return float((STATE["limits"].get("modelLatency") or {}).get(model) or 0)


def admit(body_bytes, now=None):
    """Counts a generateContent call against the per-minute limits (sliding 60 s window).
    Returns None when admitted, else the seconds until the oldest call leaves the window.
    Call with STATE_LOCK held."""
    now = time.monotonic() if now is None else now
    limits = STATE["limits"]
    window = STATE["window"]
    while window and now - window[0][0] >= 60:
        window.pop(0)
    tokens = DEFAULT_USAGE_TOTAL
    rpm, tpm = limits.get("rpm") or 0, limits.get("tpm") or 0
    over = (rpm and len(window) >= rpm) or (tpm and window and sum(t for _, t in window) + tokens > tpm)
    if over:
        STATE["rateLimited"] += 1
        return max(0.001, 60 - (now - window[0][0]))
    if rpm or tpm:
        window.append((now, tokens))
    STATE["admitted"] += 1
    return None

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


EMBED_DIMENSIONS = 768


def embedding(text, dimensions):
    """A deterministic unit vector: each lower-cased word adds 1 to the dimension its SHA-256
    picks, then the vector is normalised, so texts sharing words score high by cosine."""
    values = [0.0] * dimensions
    for word in re.findall(r"\w+", text.lower()):
        index = int.from_bytes(hashlib.sha256(word.encode("utf-8")).digest()[:8], "big") % dimensions
        values[index] += 1.0
    norm = math.sqrt(sum(value * value for value in values)) or 1.0
    return [round(value / norm, 6) for value in values]


def rfc3339(seconds):
    """`2026-12-01T09:15:00.412345Z` for a Unix time."""
    whole = int(seconds)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)) + ".%06dZ" % int((seconds - whole) * 1e6)


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
    if spec.get("cached"):
        usage["cachedContentTokenCount"] = int(spec["cached"])
    if candidates:
        usage["candidatesTokenCount"] = candidates
    total = prompt + candidates + thoughts
    if total:
        usage["totalTokenCount"] = total
    if prompt:
        usage["promptTokensDetails"] = [{"modality": "TEXT", "tokenCount": prompt}]
    if thoughts:
        usage["thoughtsTokenCount"] = thoughts
    for name in ("serviceTier", "trafficType"):
        if spec.get(name):
            usage[name] = spec[name]
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


def tool_parts(reply, finish):
    """The parts of a reply with function calls, code execution or raw parts, else None."""
    if "parts" in reply:
        return list(reply["parts"])
    calls = reply.get("functionCalls")
    code = reply.get("code")
    if not calls and not code:
        return None
    parts = []
    if reply.get("thought"):
        parts.append({"text": reply["thought"], "thought": True})
    for step in code or []:
        parts.append({"executableCode": {"language": step.get("language", "PYTHON"), "code": step.get("code", "")}})
        result = {"outcome": step.get("outcome", "OUTCOME_OK")}
        if step.get("output"):
            result["output"] = step["output"]
        parts.append({"codeExecutionResult": result})
    if reply.get("text") and (calls or code):
        parts.append({"text": reply["text"]})
    # Media beside calls, as an image model sends them: after the text, before the calls.
    parts.extend({"inlineData": item} for item in reply.get("inlineData", []))
    for number, call in enumerate(calls or []):
        part = {"functionCall": {key: call[key] for key in ("id", "name", "args") if key in call}}
        if number == 0 and reply.get("thoughtSignature"):
            part["thoughtSignature"] = reply["thoughtSignature"]
            if call.get("id"):
                with STATE_LOCK:
                    STATE["signatures"][call["id"]] = reply["thoughtSignature"]
        parts.append(part)
    if not calls and finish and reply.get("thoughtSignature"):
        parts.append({"text": "", "thoughtSignature": reply["thoughtSignature"]})
    return parts


def history_problem(request):
    """The 400 message the API sends for a history it refuses (docs/commands.md), or None."""
    contents = request.get("contents") or []
    for number, content in enumerate(contents):
        parts = content.get("parts")
        if not parts:
            return "* GenerateContentRequest.contents[%d].parts: contents.parts must not be empty.\n" % number
    with STATE_LOCK:
        signatures = dict(STATE["signatures"])
    for number, content in enumerate(contents):
        parts = content.get("parts") or []
        calls = [part for part in parts if "functionCall" in part]
        responses = [part for part in parts if "functionResponse" in part]
        previous = contents[number - 1] if number > 0 else None
        previous_calls = [part for part in (previous or {}).get("parts") or [] if "functionCall" in part]
        if responses and not previous_calls:
            return "Please ensure that function response turn comes immediately after a function call turn."
        if calls:
            if previous is None or (previous.get("role") == "model"):
                return ("Please ensure that function call turn comes immediately after a user turn or after a "
                        "function response turn.")
            following = contents[number + 1] if number + 1 < len(contents) else None
            answers = [part for part in (following or {}).get("parts") or [] if "functionResponse" in part]
            if len(answers) != len(calls):
                return ("Please ensure that the number of function response parts is equal to the number of "
                        "function call parts of the function call turn.")
            call_ids = sorted(str(part["functionCall"].get("id")) for part in calls)
            answer_ids = sorted(str(part["functionResponse"].get("id")) for part in answers)
            if call_ids != answer_ids:
                return "functionResponse.id does not match functionCall.id"
            for part in calls:
                call = part["functionCall"]
                expected = signatures.get(call.get("id"))
                if expected is not None and part.get("thoughtSignature") != expected:
                    return ("Function call is missing a thought_signature in functionCall parts. This is required "
                            "for tools to work correctly, and missing thought_signature may lead to degraded model "
                            "performance. Additional data, function call `default_api:%s` , position %d. Please "
                            "refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details."
                            % (call.get("name"), number + 1))
    return None


def generate_body(reply, model, text=None, finish=True, index=True, usage=None):
    parts = tool_parts(reply, finish)
    if parts is None:
        parts = []
        if reply.get("thought"):
            parts.append({"text": reply["thought"], "thought": True})
        body_text = default_text(reply, None) if text is None else text
        if body_text or not reply.get("inlineData"):
            parts.append({"text": body_text})
        if finish:
            parts.extend({"inlineData": item} for item in reply.get("inlineData", []))
        if finish and reply.get("thoughtSignature"):
            parts.append({"text": "", "thoughtSignature": reply["thoughtSignature"]})
    candidate = {"content": {} if reply.get("emptyContent") else {"parts": parts, "role": "model"}}
    if finish:
        candidate["finishReason"] = reply.get("finishReason", "STOP")
        if reply.get("finishMessage"):
            candidate["finishMessage"] = reply["finishMessage"]
    if index:
        candidate["index"] = 0
    if reply.get("sources"):
        candidate["groundingMetadata"] = {
            "webSearchQueries": reply.get("searchQueries", ["query"]),
            "groundingChunks": [{"web": {"uri": source["uri"], "title": source["title"]}}
                                for source in reply["sources"]]}
    body = {"candidates": [candidate]}
    block = usage_block(usage if usage is not None else reply.get("usage", {"prompt": 4, "candidates": 7}))
    if block:
        body["usageMetadata"] = block
    body["modelVersion"] = reply.get("modelVersion", model)
    body["responseId"] = reply.get("responseId", uuid.uuid4().hex[:22])
    return body


class Handler(InteractionsHandler, BaseHTTPRequestHandler):
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
        if (self.headers.get("Connection") or "").lower() == "close":
            # Say so, as real servers do: a client must not reuse a connection about to close.
            self.send_header("Connection", "close")
            self.close_connection = True
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

    def do_DELETE(self):
        self.route("DELETE")

    def do_PATCH(self):
        self.route("PATCH")

    def cloud(self):
        return fake_gemini_cloud.Cloud(self, STATE, rpc_error, rfc3339,
                                       lambda text, size: embedding(text, size or EMBED_DIMENSIONS))

    def route(self, method):
        url = urlsplit(self.path)
        if url.path == "/upload/v1beta/files" and "upload_id" in parse_qs(url.query):
            return self.upload_session(url)
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
        if url.path == "/token" and method == "POST":
            return self.cloud().token(body)
        if url.path.startswith("/v1beta1/"):
            return self.cloud().vertex_route(method, url.path, parse_qs(url.query), body)
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
        if path == "/upload/v1beta/files" and method == "POST":
            return self.upload_start(body)
        if path.startswith("/download/v1beta/files/") and method == "GET":
            return self.file_download(path[len("/download/v1beta/"):])
        prefix = "/v1beta/"
        if path.startswith(prefix + "files") and not path.startswith(prefix + "models"):
            return self.files_api(method, path[len(prefix):], parse_qs(url.query))
        if not path.startswith(prefix):
            return self.send_json(404, rpc_error(404, "Not found: " + path))
        rest = path[len(prefix):]
        query = parse_qs(url.query)
        if method == "GET" and rest == "models":
            return self.list_models(query)
        if method == "GET" and rest.startswith("models/"):
            return self.get_model(rest[len("models/"):])
        if method == "POST" and rest.startswith("models/") and rest.endswith(":batchGenerateContent"):
            return self.batch_create(rest[len("models/"):].rsplit(":", 1)[0], body)
        if method == "POST" and rest.startswith("models/") and ":" in rest:
            model, action = rest[len("models/"):].rsplit(":", 1)
            return self.model_action(model, action, query, body)
        if rest == "batches" or rest.startswith("batches/"):
            return self.batch_route(method, rest, query)
        if rest == "interactions" or rest.startswith("interactions/"):
            return self.interactions_route(method, rest, query, body, STATE, STATE_LOCK)
        if rest == "cachedContents" or rest.startswith("cachedContents/"):
            return self.cloud().caches(method, rest, query, body)
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
                STATE["modelPages"] = []
                STATE["signatures"].clear()
                FILES.update({"files": {}, "uploads": {}, "clock": 0.0, "config": {}, "order": []})
                STATE["rules"].clear()
                STATE["window"].clear()
                STATE["limits"] = {"rpm": 0, "tpm": 0, "latency": 0}
                STATE["admitted"] = STATE["rateLimited"] = 0
                STATE["batches"].clear()
                STATE["batchFaults"].clear()
                STATE["clock"] = 0.0
                STATE["autoAdvance"] = 10.0
            fake_interactions.reset()
            fake_gemini_cloud.reset()
            return self.send_json(200, {"ok": True})
        if method == "POST" and path in ("/_sophon/clock", "/_sophon/batch-faults"):
            try:
                value = json.loads(body or b"{}")
            except ValueError as error:
                return self.send_json(400, {"error": str(error)})
            with STATE_LOCK:
                if path == "/_sophon/clock":
                    STATE["clock"] += float(value.get("advance", 0))
                    FILES["clock"] += float(value.get("advance", 0))
                    if "set" in value:
                        STATE["clock"] = float(value["set"])
                    if "autoAdvance" in value:
                        STATE["autoAdvance"] = float(value["autoAdvance"])
                else:
                    STATE["batchFaults"].update(value)
                return self.send_json(200, {"ok": True, "clock": STATE["clock"]})
        if method == "GET" and path == "/_sophon/stats":
            with STATE_LOCK:
                return self.send_json(200, {"admitted": STATE["admitted"], "rateLimited": STATE["rateLimited"]})
        if method == "POST" and path in ("/_sophon/rules", "/_sophon/limits"):
            try:
                value = json.loads(body or b"{}")
            except ValueError as error:
                return self.send_json(400, {"error": str(error)})
            with STATE_LOCK:
                if path == "/_sophon/rules":
                    if value.get("reset"):
                        STATE["rules"].clear()
                    STATE["rules"].extend(value.get("rules", []))
                else:
                    STATE["limits"].update(value)
                    STATE["window"].clear()
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
                if "modelPages" in script:
                    STATE["modelPages"] = list(script["modelPages"])
            return self.send_json(200, {"ok": True})
        if method == "POST" and path == "/_sophon/interactions":
            return self.interactions_control(body)
        if path in ("/_sophon/caches", "/_sophon/flex", "/_sophon/vertex"):
            return self.cloud().control(method, path, body)
        if path.startswith("/_sophon/files") or path in ("/_sophon/clock", "/_sophon/uploads"):
            return self.files_control(method, path, body)
        return self.send_json(404, {"error": "unknown control path"})

    # ---- API ------------------------------------------------------------------------------

    def batch_create(self, model, body):
        try:
            batch = json.loads(body or b"{}").get("batch") or {}
        except ValueError:
            return self.send_json(400, rpc_error(400, "Invalid JSON payload received."))
        input_config = batch.get("inputConfig") or {}
        requests = (input_config.get("requests") or {}).get("requests")
        file_name = input_config.get("fileName")
        if file_name is not None and requests is None:
            requests = self.batch_file_requests(file_name)
            if requests is None:
                return self.missing_file(str(file_name))
            if isinstance(requests, str):
                return self.send_json(400, rpc_error(400, requests))
        if not batch.get("displayName") or not isinstance(requests, list):
            return self.send_json(400, rpc_error(400, "* GenerateContentBatch.display_name: required; "
                                                 "inputConfig.requests.requests: required"))
        with STATE_LOCK:
            faults = STATE["batchFaults"]
            if faults.get("createRateLimited", 0) > 0:
                faults["createRateLimited"] -= 1
                limited = True
            else:
                limited = False
                name = "batches/" + uuid.uuid4().hex[:36].ljust(36, "0")
                STATE["batches"][name] = {"name": name, "model": model, "displayName": batch["displayName"],
                                          "created": STATE["clock"], "requests": requests,
                                          "inputFile": file_name,
                                          "faults": {k: v for k, v in faults.items()
                                                     if k not in ("createRateLimited", "loseCreate")}}
                operation = batch_operation(STATE["batches"][name])
                lose = faults.get("loseCreate", 0) > 0
                if lose:
                    faults["loseCreate"] -= 1
        if limited:
            return self.reply_rate_limit({"retryDelay": "1s"}, model, False)
        if lose:
            return self.reply_reset({"text": "lost"}, model, False)
        self.send_json(200, operation)

    def batch_file_requests(self, file_name):
        """The lines of an uploaded JSONL batch input as inline-shaped entries ({request, metadata:
        {key}}); None for an unknown file, a message for a bad line."""
        with STATE_LOCK:
            entry = FILES["files"].get(file_name)
            state = self.file_state(entry)["state"] if entry else None
        if entry is None:
            return None
        if state != "ACTIVE":
            return "The File %s is not in an ACTIVE state and usage is not allowed." % file_name.split("/")[-1]
        requests = []
        for number, line in enumerate(entry["data"].split(b"\n"), 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except ValueError:
                return "Invalid JSON in %s line %d." % (file_name, number)
            if not isinstance(item, dict) or not isinstance(item.get("request"), dict):
                return "%s line %d has no request." % (file_name, number)
            requests.append({"request": item["request"], "metadata": {"key": item.get("key")}})
        return requests

    def batch_route(self, method, rest, query):
        with STATE_LOCK:
            if method == "GET" and rest == "batches":
                jobs = list(STATE["batches"].values())
                size = int((query.get("pageSize") or ["50"])[0]) or 50
                start = int(((query.get("pageToken") or ["page-0"])[0]).split("-")[-1] or 0)
                page = {"operations": [batch_operation(job) for job in jobs[start:start + size]]}
                if start + size < len(jobs):
                    page["nextPageToken"] = "page-%d" % (start + size)
                return self.send_json(200, page)
            name, _, verb = rest.partition(":")
            job = STATE["batches"].get(name)
            if job is None:
                return self.send_json(404, rpc_error(404, "Batch %s not found." % name))
            if method == "GET" and not verb and STATE["batchFaults"].get("getUnavailable", 0) > 0:
                STATE["batchFaults"]["getUnavailable"] -= 1
                return self.send_json(503, rpc_error(503, "The service is currently unavailable."))
            if method == "GET" and not verb:
                operation = batch_operation(job)
                STATE["clock"] += STATE["autoAdvance"]
                return self.send_json(200, operation)
            if method == "POST" and verb == "cancel":
                if batch_state(job, job["faults"]) in ("PENDING", "RUNNING"):
                    job["cancelled"] = True
                return self.send_json(200, {})
            if method == "DELETE" and not verb:
                del STATE["batches"][name]
                return self.send_json(200, {})
        return self.send_json(404, rpc_error(404, "Not found: " + rest))

    def list_models(self, query, vertex=False):
        """A page of the catalog; `vertex`: Vertex AI's publisher models (`publisherModels`)."""
        with STATE_LOCK:
            pages = STATE["modelPages"]
            scripted = (pages.pop(0) if len(pages) > 1 else pages[0]) if pages else None
        if scripted is not None:
            return self.send_json(200, scripted)
        size = int((query.get("pageSize") or ["50"])[0]) or 50
        start = int(((query.get("pageToken") or ["page-0"])[0]).split("-")[-1] or 0)
        page = CATALOG[start:start + size]
        if vertex:
            body = {"publisherModels": [
                {"name": "publishers/google/models/" + model_id, "versionId": version, "launchStage": "GA",
                 "openSourceCategory": "PROPRIETARY"} for model_id, _, version in page]}
        else:
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
        if action in ("embedContent", "batchEmbedContents"):
            return self.embed_action(model, action, body)
        generating = action in ("generateContent", "streamGenerateContent")
        if generating:
            try:
                problem = history_problem(json.loads(body or b"{}"))
            except (ValueError, AttributeError, TypeError):
                problem = None
            if problem:
                return self.send_json(400, rpc_error(400, problem))
            try:
                parsed = json.loads(body or b"{}")
            except ValueError:
                parsed = {}
            if isinstance(parsed, dict) and self.cloud().check_generate(model, parsed):
                return
        with STATE_LOCK:
            wait = admit(len(body or b"")) if generating else None
            latency = (STATE["limits"].get("latency") or 0) + model_latency(model)
        if generating and latency:
            time.sleep(latency)
        if wait is not None:
            return self.reply_rate_limit({"retryDelay": "%.3fs" % wait}, model, action == "streamGenerateContent")
        with STATE_LOCK:
            reply = None
            text = (body or b"").decode("utf-8", "replace")
            for rule in STATE["rules"] if generating else []:
                if rule_applies(rule, text, model):
                    if "times" in rule:
                        rule["times"] -= 1
                    reply = rule.get("reply", {})
                    break
            if reply is None:
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
        if self.refuse_unusable_files():
            return
        if generating and isinstance(self.request_json, dict):
            reply = self.cloud().usage_extras(self.request_json, reply)
        kind = reply.get("fault") or reply.get("kind", "generate")
        handler = getattr(self, "reply_" + kind, None)
        if handler is None:
            return self.send_json(500, rpc_error(500, "fake_gemini: unknown reply kind " + kind))
        handler(reply, model, stream)

    def embed_action(self, model, action, body):
        """embedContent / batchEmbedContents: deterministic vectors (embedding()); a queued reply
        is taken only when it says "embeddings": true (so judge replies queued for
        generateContent stay queued); an empty text is refused with a 400 as the API does."""
        with STATE_LOCK:
            queued = STATE["queue"][0] if STATE["queue"] else None
            reply = STATE["queue"].pop(0) if isinstance(queued, dict) and queued.get("embeddings") else None
        if reply is not None and (reply.get("fault") or reply.get("kind") in ("json", "raw")):
            self.request_json = {}
            return getattr(self, "reply_" + (reply.get("fault") or reply["kind"]))(reply, model, False)
        try:
            request = json.loads(body or b"{}")
        except ValueError:
            return self.send_json(400, rpc_error(400, "Invalid JSON payload received."))
        items = request.get("requests") if action == "batchEmbedContents" else [request]
        if not isinstance(items, list) or len(items) > 100:
            return self.send_json(400, rpc_error(
                400, "* BatchEmbedContentsRequest.requests: at most 100 requests can be in one batch"))
        vectors = []
        for item in items:
            text = " ".join(str(part.get("text", "")) for part in (item.get("content") or {}).get("parts", []))
            if not text.strip():
                return self.send_json(400, rpc_error(400, "* EmbedContentRequest.content: contents must not be empty"))
            vectors.append({"values": embedding(text, item.get("outputDimensionality") or EMBED_DIMENSIONS)})
        if action == "embedContent":
            return self.send_json(200, {"embedding": vectors[0]})
        return self.send_json(200, {"embeddings": vectors})

    def count_tokens(self, body):
        try:
            request = json.loads(body or b"{}")
        except ValueError:
            request = {}
        whole = request.get("generateContentRequest") or {}
        contents = request.get("contents") or whole.get("contents") or []
        if whole.get("systemInstruction"):  # counted too, as the real API does
            contents = contents + [whole["systemInstruction"]]
        words = sum(len(str(part.get("text", "")).split()) for content in contents
                    for part in content.get("parts", []))
        if not words:
            return {}
        return {"totalTokens": words, "promptTokensDetails": [{"modality": "TEXT", "tokenCount": words}]}

    # ---- replies --------------------------------------------------------------------------

    def reply_generate(self, reply, model, stream):
        if any(key in reply for key in ("functionCalls", "code", "parts")):
            if not stream:
                return self.send_json(200, generate_body(reply, model))
            return self.reply_sse({"events": [generate_body(reply, model, index=False)]}, model, True)
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

    def reply_judge(self, reply, model, stream):
        """A grader's answer: {"kind": "judge", "pass": B, "score": S, "reason": R} sends
        {"pass": B, "score": S, "reason": R} as the text (fields left out stay out; "raw": TEXT
        sends TEXT as it is, for a reply that does not fit the schema)."""
        if "raw" in reply:
            text = reply["raw"]
        else:
            text = json.dumps({key: reply[key] for key in ("pass", "score", "reason") if key in reply})
        self.reply_generate(dict(reply, kind="generate", text=text), model, stream)

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


    # ---- Files API ------------------------------------------------------------------------

    def file_state(self, entry):
        """PROCESSING until the clock reaches readyAt, then the configured final state."""
        if entry["resource"]["state"] == "PROCESSING" and FILES["clock"] >= entry["readyAt"]:
            entry["resource"]["state"] = entry["finalState"]
            if entry["finalState"] == "FAILED":
                entry["resource"]["error"] = {"code": 400, "message": "The file could not be processed."}
        return entry["resource"]

    def upload_start(self, body):
        if (self.headers.get("X-Goog-Upload-Protocol") or "").lower() != "resumable" or \
                (self.headers.get("X-Goog-Upload-Command") or "").lower() != "start":
            return self.send_json(400, rpc_error(400, "Upload must start with protocol resumable, command start."))
        try:
            size = int(self.headers.get("X-Goog-Upload-Header-Content-Length") or "")
        except ValueError:
            return self.send_json(400, rpc_error(400, "Missing X-Goog-Upload-Header-Content-Length."))
        try:
            meta = (json.loads(body or b"{}").get("file") or {})
        except ValueError:
            return self.send_json(400, rpc_error(400, "Invalid JSON payload."))
        upload_id = uuid.uuid4().hex[:16]
        with STATE_LOCK:
            FILES["uploads"][upload_id] = {
                "size": size, "mimeType": self.headers.get("X-Goog-Upload-Header-Content-Type") or "",
                "displayName": meta.get("displayName"), "data": bytearray(), "bytesSeen": 0, "file": None}
        url = "https://upload.fake.invalid/upload/v1beta/files?upload_id=%s&upload_protocol=resumable" % upload_id
        self.send_bytes(200, b"", headers={"X-Goog-Upload-URL": url, "X-Goog-Upload-Status": "active",
                                            "X-Goog-Upload-Chunk-Granularity": "8388608"})

    def upload_session(self, url):
        """A request on an upload session URL: upload, "upload, finalize" or query."""
        upload_id = parse_qs(url.query)["upload_id"][0]
        length = int(self.headers.get("Content-Length") or 0)
        self.logged = {"method": "POST", "path": self.path,
                       "headers": {k.lower(): v for k, v in self.headers.items()}, "body": "", "bodyBytes": length}
        with STATE_LOCK:
            STATE["requests"].append(self.logged)
            session = FILES["uploads"].get(upload_id)
            interrupt = FILES["config"].get("interruptAt")
        if self.headers.get("x-goog-api-key") != STATE["key"]:
            self.rfile.read(length)
            return self.send_json(403, rpc_error(403, "The caller does not have permission"))
        if session is None:
            self.rfile.read(length)
            return self.send_json(404, rpc_error(404, "No upload session " + upload_id))
        command = [c.strip() for c in (self.headers.get("X-Goog-Upload-Command") or "").lower().split(",")]
        status = lambda: "final" if session["file"] else "active"  # noqa: E731
        if command == ["query"]:
            self.rfile.read(length)
            return self.send_bytes(200, pretty({"file": session["file"]}).encode() if session["file"] else b"",
                                   headers={"X-Goog-Upload-Status": status(),
                                            "X-Goog-Upload-Size-Received": str(len(session["data"]))})
        if "upload" not in command:
            self.rfile.read(length)
            return self.send_json(400, rpc_error(400, "Unknown X-Goog-Upload-Command."))
        offset = int(self.headers.get("X-Goog-Upload-Offset") or -1)
        if offset != len(session["data"]):
            self.rfile.read(length)
            return self.send_json(400, rpc_error(
                400, "Invalid X-Goog-Upload-Offset %d: the server holds %d bytes." % (offset, len(session["data"]))))
        if interrupt is not None and offset < interrupt < offset + length:
            part = self.rfile.read(interrupt - offset)
            with STATE_LOCK:
                FILES["config"].pop("interruptAt", None)
                session["data"] += part
                session["bytesSeen"] += len(part)
            return self.reset_connection()
        chunk = self.rfile.read(length)
        with STATE_LOCK:
            session["data"] += chunk
            session["bytesSeen"] += len(chunk)
        if len(session["data"]) > session["size"]:
            return self.send_json(400, rpc_error(400, "More bytes than X-Goog-Upload-Header-Content-Length."))
        if "finalize" in command:
            if len(session["data"]) != session["size"]:
                return self.send_json(400, rpc_error(400, "Finalized with %d of %d bytes." % (
                    len(session["data"]), session["size"])))
            session["file"] = self.create_file(session)
            return self.send_bytes(200, pretty({"file": session["file"]}).encode(),
                                   headers={"X-Goog-Upload-Status": "final"})
        self.send_bytes(200, b"", headers={"X-Goog-Upload-Status": "active"})

    def create_file(self, session, resource=None):
        config = FILES["config"]
        file_id = uuid.uuid4().hex[:12]
        data = bytes(session["data"])
        processing = float(config.get("processingSeconds", 0))
        digest = hashlib.sha256(data).hexdigest()
        resource = dict(resource or {})
        resource.update({
            "name": "files/" + file_id, "mimeType": resource.get("mimeType", session.get("mimeType")),
            "sizeBytes": str(len(data)), "createTime": rfc3339(time.time()), "updateTime": rfc3339(time.time()),
            "expirationTime": rfc3339(time.time() + float(config.get("lifetimeSeconds", 48 * 3600))),
            "sha256Hash": base64.b64encode(digest.encode()).decode(), "uri": FILE_URI_ROOT + "files/" + file_id,
            "state": "PROCESSING" if processing > 0 else config.get("finalState", "ACTIVE"),
            "source": resource.get("source", "UPLOADED")})
        if session.get("displayName"):
            resource["displayName"] = session["displayName"]
        with STATE_LOCK:
            FILES["files"][resource["name"]] = {"resource": resource, "data": data,
                                                "readyAt": FILES["clock"] + processing,
                                                "finalState": config.get("finalState", "ACTIVE")}
            FILES["order"].append(resource["name"])
            if resource["state"] == "FAILED":
                resource["error"] = {"code": 400, "message": "The file could not be processed."}
        return resource

    def missing_file(self, name):
        self.send_json(403, rpc_error(403, "You do not have permission to access the File %s or it may not exist."
                                      % name.split("/")[-1]))

    def files_api(self, method, rest, query):
        if rest == "files" and method == "GET":
            return self.list_files(query)
        name, _, action = rest.partition(":")
        with STATE_LOCK:
            entry = FILES["files"].get(name)
        if entry is None:
            return self.missing_file(name)
        if action == "download" and method == "GET":
            return self.file_download(rest)
        if action:
            return self.send_json(404, rpc_error(404, "Not found: " + rest))
        if method == "GET":
            with STATE_LOCK:
                FILES["clock"] += float(FILES["config"].get("tick", 1))
                resource = dict(self.file_state(entry))
            return self.send_json(200, resource)
        if method == "DELETE":
            with STATE_LOCK:
                FILES["files"].pop(name, None)
                FILES["order"].remove(name)
            return self.send_json(200, {})
        self.send_json(405, rpc_error(400, "Method not allowed"))

    def list_files(self, query):
        size = int((query.get("pageSize") or ["10"])[0] or 10)
        size = min(size, int(FILES["config"].get("pageSize", 100)))
        token = (query.get("pageToken") or ["p0"])[0]
        start = int(token[1:] or 0) if token.startswith("p") else 0
        with STATE_LOCK:
            names = FILES["order"][start:start + size]
            body = {"files": [dict(self.file_state(FILES["files"][n])) for n in names]}
            more = start + size < len(FILES["order"])
            repeat = FILES["config"].get("repeatToken")
        if repeat:
            body["nextPageToken"] = "p0"
        elif more:
            body["nextPageToken"] = "p%d" % (start + size)
        if not body["files"]:
            del body["files"]
        self.send_json(200, body)

    def file_download(self, rest):
        name = rest.split(":")[0]
        with STATE_LOCK:
            entry = FILES["files"].get(name)
        if entry is None:
            return self.missing_file(name)
        if entry["resource"].get("source") != "GENERATED":
            return self.send_json(400, rpc_error(400, "Only generated or batch output files can be downloaded."))
        self.send_bytes(200, entry["data"], content_type=entry["resource"].get("mimeType") or "application/octet-stream")

    def refuse_unusable_files(self):
        """403 for a fileData part naming an unknown file, 400 for one still PROCESSING."""
        for content in self.request_json.get("contents") or []:
            for part in content.get("parts") or []:
                uri = (part.get("fileData") or {}).get("fileUri", "")
                if not uri.startswith(FILE_URI_ROOT):
                    continue
                name = uri[len(FILE_URI_ROOT):]
                with STATE_LOCK:
                    entry = FILES["files"].get(name)
                    state = self.file_state(entry)["state"] if entry else None
                if entry is None:
                    self.missing_file(name)
                    return True
                if state != "ACTIVE":
                    self.send_json(400, rpc_error(400, "The File %s is not in an ACTIVE state and usage is not "
                                                  "allowed." % name.split("/")[-1], status="FAILED_PRECONDITION"))
                    return True
        return False

    def files_control(self, method, path, body):
        try:
            value = json.loads(body or b"{}")
        except ValueError as error:
            return self.send_json(400, {"error": str(error)})
        if path == "/_sophon/files" and method == "POST":
            with STATE_LOCK:
                FILES["config"] = value
            return self.send_json(200, {"ok": True})
        if path == "/_sophon/clock" and method == "POST":
            with STATE_LOCK:
                FILES["clock"] += float(value.get("advance", 0))
            return self.send_json(200, {"ok": True, "clock": FILES["clock"]})
        if path == "/_sophon/uploads" and method == "GET":
            with STATE_LOCK:
                listing = [{"uploadId": key, "size": up["size"], "received": len(up["data"]),
                            "bytesSeen": up["bytesSeen"], "sha256": hashlib.sha256(bytes(up["data"])).hexdigest(),
                            "file": (up["file"] or {}).get("name")} for key, up in FILES["uploads"].items()]
            return self.send_json(200, listing)
        if path == "/_sophon/files/add" and method == "POST":
            data = base64.b64decode(value.pop("data", ""))
            resource = self.create_file({"data": data, "displayName": value.get("displayName")},
                                        dict(value, source=value.get("source", "GENERATED")))
            return self.send_json(200, resource)
        return self.send_json(404, {"error": "unknown control path"})


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
    parser.add_argument("--rpm", type=int, default=0, help="generateContent requests per minute (0: no limit)")
    parser.add_argument("--tpm", type=int, default=0, help="tokens per minute, 11 per call (0: no limit)")
    parser.add_argument("--latency", type=float, default=0, help="seconds every generateContent answer waits")
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
    STATE["limits"] = {"rpm": args.rpm, "tpm": args.tpm, "latency": args.latency}
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
