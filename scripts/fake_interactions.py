"""The Interactions API part of scripts/fake_gemini.py (docs/interactions.md).

Speaks the Interactions API wire format (docs/interactions.md): snake_case JSON, string error
codes ({"error": {"code": "invalid_request", "message": ".."}}), SSE framed as
`event: TYPE` + `data: JSON` + blank line, ending with `event: done` / `data: [DONE]`.

    POST   /v1beta/interactions                 create (model or agent); "stream": true -> SSE
    GET    /v1beta/interactions/{id}            the whole timeline (user_input steps included)
    GET    /v1beta/interactions/{id}?stream=true[&last_event_id=E]   the events (after E)
    POST   /v1beta/interactions/{id}/cancel     a background job -> cancelled
    DELETE /v1beta/interactions/{id}            -> {}

Checks as the API does (400 invalid_request unless said): exactly one of model / agent; an
input; no unknown top-level field (camelCase names are unknown); no `role` key in input; a
known agent (deep-research-*), run with background true and without generation_config;
generation_config without temperature / top_p / top_k; store false with neither
previous_interaction_id nor background; previous_interaction_id known (else 404 not_found);
while the previous interaction waits for function results, the input answers every pending
call by id (a call is pending until a function_result with its call_id was sent).

Replies: POST /_sophon/interactions {"replies": [...], "reset": bool} queues them (a reply in
the shared queue with "interaction": true is taken too); {"finish": ID} makes background job
ID complete at its next GET. A reply:

    {"text": "..", "chunks": ["He", "llo"], "thought": "..", "sources": [{"title", "url"}],
     "functionCalls": [{"id", "name", "arguments"}], "steps": [RAW STEP..], "status": "..",
     "usage": {"input": 5, "output": 7, "thought": 0},
     "cutAfter": [N, M..],   stream connection K ends (no done, no completed) after N_K events
     "errorEvent": {"code", "message"},   a stream `error` event after the steps
     "polls": N,            a background job: one more step per GET (default: one per step)
     "fail": {"code", "message"},   a background job that ends failed, errors[] set
     "fault": "rate_limit" | "quota" | "internal" | "overloaded" | "bad_request" | "not_found"
              | "permission_denied"}
    or {"kind": "json", "status": S, "body": {..}} / {"kind": "raw", "status": S, "text": ".."}:
    the create answered with that body as it is (odd or malformed replies).
    (codes and statuses as Google's API errors page lists them: rate_limit_exceeded and
    quota_exceeded 429, parameter_unknown 400 for an unknown field, not_found 404,
    permission_denied 403, ...). A model_output step's media blocks ({"type": "image",
    "data": BASE64, "mime_type": ..}) stream as their own step.delta.

Without "text", a request with response_format.schema gets JSON built from the schema, an
agent a Deep Research report (thought steps, then Markdown with url_citation annotations),
and anything else a greeting that names the input.
"""

import json
import threading
import time
import uuid

LOCK = threading.Lock()
STORE = {"items": {}, "queue": [], "counter": 0}

KNOWN_AGENTS = ("deep-research-preview-04-2026", "deep-research-max-preview-04-2026",
                "deep-research-pro-preview-12-2025")
TOP_LEVEL = {"model", "agent", "input", "system_instruction", "tools", "generation_config", "agent_config",
             "response_format", "previous_interaction_id", "store", "stream", "background", "service_tier",
             "safety_settings", "labels", "environment", "webhook_config"}
GENERATION_FIELDS = {"max_output_tokens", "seed", "stop_sequences", "thinking_level", "thinking_summaries",
                     "tool_choice", "speech_config", "transcription_config", "video_config", "image_config"}
TERMINAL = ("completed", "failed", "cancelled", "incomplete", "budget_exceeded")


def reset():
    with LOCK:
        STORE["items"].clear()
        STORE["queue"].clear()
        STORE["counter"] = 0


def error_body(code, message):
    return {"error": {"code": code, "message": message}}


def now_text():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def usage_block(spec):
    spec = spec or {"input": 5, "output": 7}
    block = {"total_input_tokens": int(spec.get("input", 0)), "total_output_tokens": int(spec.get("output", 0))}
    if spec.get("thought"):
        block["total_thought_tokens"] = int(spec["thought"])
    block["total_tokens"] = sum(block.values())
    return block


def input_text(value):
    """The text of an input (string, content, contents or steps)."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        value = [value]
    texts = []
    for item in value or []:
        if not isinstance(item, dict):
            continue
        if item.get("type") == "text":
            texts.append(str(item.get("text", "")))
        elif item.get("type") == "user_input":
            texts.append(input_text(item.get("content") or []))
    return " ".join(text for text in texts if text)


def input_steps(value):
    """The input as a list of steps (a user_input step for text and content)."""
    if isinstance(value, str):
        return [{"type": "user_input", "content": [{"type": "text", "text": value}]}]
    if isinstance(value, dict):
        value = [value]
    items = [item for item in value or [] if isinstance(item, dict)]
    if items and all(item.get("type") in ("text", "image", "audio", "document", "video") for item in items):
        return [{"type": "user_input", "content": items}]
    return items


def research_steps(question):
    summaries = ["Planning the research on: " + question, "Searching the web for sources",
                 "Reading and comparing 3 sources"]
    steps = [{"type": "thought", "signature": "sig-%d" % number,
              "summary": [{"type": "text", "text": text}]} for number, text in enumerate(summaries)]
    report = ("# Report\n\n%s\n\nThe fake agent found two sources that agree.\n" % question)
    sources = [{"title": "Example source", "url": "https://example.com/a"},
               {"title": "Second source", "url": "https://example.org/b"}]
    steps.append(model_output(report, sources))
    return steps


def model_output(text, sources=None):
    block = {"type": "text", "text": text}
    if sources:
        block["annotations"] = [{"type": "url_citation", "url": source["url"], "title": source.get("title", ""),
                                 "start_index": 0, "end_index": len(text.encode("utf-8"))}
                                for source in sources]
    return {"type": "model_output", "content": [block]}


def sample(schema, name="value"):
    if not isinstance(schema, dict):
        return None
    kind = str(schema.get("type", "")).lower()
    if schema.get("enum"):
        return schema["enum"][0]
    if kind == "object":
        return {key: sample(value, key) for key, value in (schema.get("properties") or {}).items()}
    if kind == "array":
        return [sample(schema.get("items") or {"type": "string"}, name)]
    if kind == "integer":
        return int(schema.get("minimum", 1))
    if kind == "number":
        return float(schema.get("minimum", 1.5))
    if kind == "boolean":
        return True
    return "sample " + name


def planned_steps(reply, request):
    """The output steps a reply makes."""
    if reply.get("steps") is not None:
        return list(reply["steps"])
    steps = []
    if reply.get("thought"):
        steps.append({"type": "thought", "signature": "sig-thought",
                      "summary": [{"type": "text", "text": reply["thought"]}]})
    if "text" in reply or reply.get("chunks"):
        text = reply["text"] if "text" in reply else "".join(reply["chunks"])
        steps.append(model_output(text, reply.get("sources")))
    for call in reply.get("functionCalls") or []:
        steps.append({"type": "function_call", "id": call.get("id") or "call_" + uuid.uuid4().hex[:8],
                      "name": call["name"], "arguments": call.get("arguments", {})})
    if steps:
        return steps
    if request.get("agent"):
        return research_steps(input_text(request.get("input")))
    schema = (request.get("response_format") or {}).get("schema") if isinstance(
        request.get("response_format"), dict) else None
    if schema is not None:
        return [model_output(json.dumps(sample(schema), indent=2))]
    results = [step for step in input_steps(request.get("input")) if step.get("type") == "function_result"]
    if results:
        return [model_output("Done: " + "; ".join(json.dumps(step.get("result"), sort_keys=True)
                                                   for step in results))]
    return [model_output("Hello from the fake Interactions API: " + input_text(request.get("input")))]


def step_events(index, step, chunks=None):
    """step.start, step.delta*, step.stop for one whole step."""
    kind = step.get("type")
    events = []
    if kind == "model_output":
        blocks = step.get("content") or []
        text = "".join(block.get("text", "") for block in blocks if block.get("type") == "text")
        pieces = chunks or ([text[:len(text) // 2], text[len(text) // 2:]] if text else [])
        first = pieces[0] if pieces else ""
        events.append({"event_type": "step.start", "index": index,
                       "step": {"type": "model_output", "content": [{"type": "text", "text": first}]}})
        for piece in pieces[1:]:
            events.append({"event_type": "step.delta", "index": index, "delta": {"type": "text", "text": piece}})
        for block in blocks:  # inline media arrives as its own delta (image, audio, video, document)
            if block.get("type") != "text":
                events.append({"event_type": "step.delta", "index": index, "delta": dict(block)})
        annotations = [note for block in blocks for note in block.get("annotations") or []]
        if annotations:
            events.append({"event_type": "step.delta", "index": index,
                           "delta": {"type": "text_annotation_delta", "annotations": annotations}})
    elif kind == "thought":
        events.append({"event_type": "step.start", "index": index,
                       "step": {"type": "thought", "signature": "", "summary": step.get("summary") or []}})
        events.append({"event_type": "step.delta", "index": index,
                       "delta": {"type": "thought_signature", "signature": step.get("signature", "")}})
    elif kind == "function_call":
        events.append({"event_type": "step.start", "index": index,
                       "step": {"type": "function_call", "id": step["id"], "name": step["name"], "arguments": {}}})
        text = json.dumps(step.get("arguments", {}), separators=(",", ":"))
        for piece in (text[:len(text) // 2], text[len(text) // 2:]):
            events.append({"event_type": "step.delta", "index": index,
                           "delta": {"type": "arguments_delta", "arguments": piece}})
    else:
        events.append({"event_type": "step.start", "index": index, "step": step})
    events.append({"event_type": "step.stop", "index": index})
    return events


def public_view(item, timeline):
    """The Interaction object: the whole timeline (GET) or only the output steps (POST)."""
    view = {"id": item["id"], "status": item["status"], "object": "interaction"}
    view["agent" if item.get("agent") else "model"] = item.get("agent") or item.get("model")
    if item.get("previous_interaction_id"):
        view["previous_interaction_id"] = item["previous_interaction_id"]
    shown = item["steps"][:item["revealed"]]
    view["steps"] = (item["input_steps"] + shown) if timeline else shown
    if item["status"] in TERMINAL or item["status"] == "requires_action":
        view["usage"] = item["usage"]
    if item.get("errors"):
        view["errors"] = item["errors"]
    view["created"] = item["created"]
    view["updated"] = now_text()
    return view


class InteractionsHandler:
    """Mixed into fake_gemini.Handler: the /v1beta/interactions routes."""

    def interactions_take_reply(self, shared_state, shared_lock):
        with LOCK:
            if STORE["queue"]:
                return STORE["queue"].pop(0)
        with shared_lock:
            queue = shared_state["queue"]
            if queue and isinstance(queue[0], dict) and queue[0].get("interaction"):
                return queue.pop(0)
        return {}

    def interactions_control(self, body):
        try:
            value = json.loads(body or b"{}")
        except ValueError as error:
            return self.send_json(400, {"error": str(error)})
        with LOCK:
            if value.get("reset"):
                STORE["queue"].clear()
            STORE["queue"].extend(value.get("replies", []))
            finished = STORE["items"].get(value.get("finish") or "")
            if finished is not None:  # the job's next GET completes it
                finished["pollsNeeded"] = finished["polls"] + 1
        return self.send_json(200, {"ok": True})

    def interactions_route(self, method, rest, query, body, shared_state, shared_lock):
        parts = rest.split("/")
        if method == "POST" and rest == "interactions":
            return self.interactions_create(body, shared_state, shared_lock)
        if len(parts) < 2 or not parts[1]:
            return self.send_json(404, error_body("not_found", "Not found: /v1beta/" + rest))
        with LOCK:
            item = STORE["items"].get(parts[1])
        if item is None:
            return self.send_json(404, error_body("not_found", "Interaction '%s' was not found." % parts[1]))
        if method == "GET" and len(parts) == 2:
            if (query.get("stream") or ["false"])[0] == "true":
                last = (query.get("last_event_id") or [None])[0]
                return self.interactions_stream(item, after=last)
            with LOCK:
                if item["background"] and item["status"] == "in_progress":
                    item["polls"] += 1
                    if item["polls"] >= item["pollsNeeded"]:
                        self.interactions_finish(item)
                    else:
                        item["revealed"] = min(len(item["steps"]), item["polls"])
                view = public_view(item, timeline=True)
            return self.send_json(200, view)
        if method == "POST" and len(parts) == 3 and parts[2] == "cancel":
            with LOCK:
                if item["status"] in TERMINAL:
                    return self.send_json(400, error_body(
                        "invalid_request", "Interaction '%s' is already %s." % (item["id"], item["status"])))
                item["status"] = "cancelled"
                view = public_view(item, timeline=True)
            return self.send_json(200, view)
        if method == "DELETE" and len(parts) == 2:
            with LOCK:
                STORE["items"].pop(item["id"], None)
            return self.send_json(200, {})
        return self.send_json(404, error_body("not_found", "Not found: /v1beta/" + rest))

    @staticmethod
    def interactions_finish(item):
        item["revealed"] = len(item["steps"])
        if item.get("fail"):
            item["status"] = "failed"
            item["errors"] = [item["fail"]]
        else:
            item["status"] = item["finalStatus"]

    def interactions_problem(self, request):
        """(status, code, message) of a request the API refuses, else None."""
        if not isinstance(request, dict):
            return 400, "invalid_request", "Invalid JSON payload received."
        for key in request:
            if key not in TOP_LEVEL:
                return 400, "parameter_unknown", 'Invalid JSON payload received. Unknown name "%s".' % key
        if ("model" in request) == ("agent" in request):
            return 400, "invalid_request", "Exactly one of 'model' or 'agent' must be set."
        if "input" not in request:
            return 400, "invalid_request", "'input' is required."
        items = request["input"] if isinstance(request["input"], list) else [request["input"]]
        if any(isinstance(step, dict) and "role" in step for step in items):
            return 400, "invalid_request", "Input steps take 'type', not 'role'."
        if "agent" in request:
            if request["agent"] not in KNOWN_AGENTS:
                return 400, "invalid_request", "Unknown agent '%s'." % request["agent"]
            if request.get("background") is not True:
                return 400, "invalid_request", "Agents require background=true."
            if "generation_config" in request:
                return 400, "invalid_request", "generation_config is not supported for agents."
        for key in (request.get("generation_config") or {}):
            if key not in GENERATION_FIELDS:
                return 400, "invalid_request", 'Unknown name "%s" at \'generation_config\'.' % key
        if request.get("store") is False and (request.get("previous_interaction_id") or request.get("background")):
            return 400, "invalid_request", "store=false cannot be combined with previous_interaction_id or background."
        steps = input_steps(request["input"])
        answered = [step.get("call_id") for step in steps if step.get("type") == "function_result"]
        previous_id = request.get("previous_interaction_id")
        if previous_id:
            with LOCK:
                previous = STORE["items"].get(previous_id)
            if previous is None:
                return 404, "not_found", "Interaction '%s' was not found." % previous_id
            pending = [step["id"] for step in previous["steps"] if step.get("type") == "function_call"]
            if previous["status"] == "requires_action":
                missing = [call for call in pending if call not in answered]
                if missing:
                    return 400, "invalid_request", "Function call '%s' has no function_result." % missing[0]
            known = pending
        else:
            known = [step.get("id") for step in steps if step.get("type") == "function_call"]
        for call_id in answered:
            if call_id not in known:
                return 400, "invalid_request", "function_result '%s' answers no function call." % call_id
        return None

    def interactions_create(self, body, shared_state, shared_lock):
        try:
            request = json.loads(body or b"{}")
        except ValueError:
            return self.send_json(400, error_body("invalid_request", "Invalid JSON payload received."))
        problem = self.interactions_problem(request)
        if problem:
            return self.send_json(problem[0], error_body(problem[1], problem[2]))
        reply = self.interactions_take_reply(shared_state, shared_lock)
        fault = reply.get("fault")
        if fault:
            statuses = {"rate_limit": (429, "rate_limit_exceeded", "Resource has been exhausted (e.g. check quota)."),
                        "quota": (429, "quota_exceeded", "You have exceeded your daily quota."),
                        "internal": (500, "internal", "An internal error has occurred."),
                        "overloaded": (503, "unavailable", "The model is overloaded. Please try again later."),
                        "bad_request": (400, "invalid_request", reply.get("message", "Invalid request.")),
                        "not_found": (404, "not_found", reply.get("message", "Not found.")),
                        "permission_denied": (403, "permission_denied",
                                              reply.get("message", "Permission denied on the interaction."))}
            status, code, message = statuses.get(fault, (500, "internal", "unknown fault " + fault))
            return self.send_json(status, error_body(code, message))
        if reply.get("kind") in ("json", "raw"):
            return getattr(self, "reply_" + reply["kind"])(reply, None, False)
        steps = planned_steps(reply, request)
        calls = any(step.get("type") == "function_call" for step in steps)
        with LOCK:
            STORE["counter"] += 1
            identifier = "v1_%s%d" % (uuid.uuid4().hex[:10], STORE["counter"])
            background = bool(request.get("background"))
            item = {"id": identifier, "model": request.get("model"), "agent": request.get("agent"),
                    "previous_interaction_id": request.get("previous_interaction_id"),
                    "input_steps": input_steps(request["input"]), "steps": steps,
                    "status": "in_progress" if background else reply.get(
                        "status", "requires_action" if calls else "completed"),
                    "finalStatus": reply.get("status", "requires_action" if calls else "completed"),
                    "usage": usage_block(reply.get("usage")), "created": now_text(),
                    "background": background, "polls": 0,
                    "pollsNeeded": int(reply.get("polls", len(steps))), "fail": reply.get("fail"),
                    "revealed": 0 if background else len(steps), "reply": reply, "connections": 0}
            if request.get("store") is not False:
                STORE["items"][identifier] = item
        if request.get("stream"):
            if background:
                with LOCK:
                    self.interactions_finish(item)
            return self.interactions_stream(item, after=None)
        with LOCK:
            view = public_view(item, timeline=False)
        return self.send_json(200, view)

    def interactions_events(self, item):
        """Every event of the interaction, each with its event_id."""
        reply = item["reply"]
        shell = {"id": item["id"], "status": "in_progress", "object": "interaction"}
        shell["agent" if item.get("agent") else "model"] = item.get("agent") or item.get("model")
        events = [{"event_type": "interaction.created", "interaction": shell}]
        for index, step in enumerate(item["steps"]):
            events += step_events(index, step, reply.get("chunks") if step.get("type") == "model_output" else None)
        if reply.get("errorEvent"):
            events.append({"event_type": "error", "error": reply["errorEvent"]})
        else:
            done = {"id": item["id"], "status": item["status"], "object": "interaction", "usage": item["usage"]}
            if item.get("errors"):
                done["errors"] = item["errors"]
            events.append({"event_type": "interaction.completed", "interaction": done})
        for number, event in enumerate(events):
            event["event_id"] = "evt_%d" % (number + 1)
        return events

    def interactions_stream(self, item, after):
        with LOCK:
            events = self.interactions_events(item)
            cuts = item["reply"].get("cutAfter") or []
            connection = item["connections"]
            item["connections"] += 1
        if after is not None:
            ids = [event["event_id"] for event in events]
            if after not in ids:
                return self.send_json(400, error_body("invalid_request", "Unknown last_event_id '%s'." % after))
            events = events[ids.index(after) + 1:]
        limit = cuts[connection] if connection < len(cuts) else None
        complete = limit is None or limit >= len(events)
        if not complete:
            events = events[:limit]
        self.start_chunked()
        try:
            for event in events:
                data = json.dumps(event, separators=(",", ":"), ensure_ascii=False)
                self.write_chunk(("event: %s\ndata: %s\n\n" % (event["event_type"], data)).encode("utf-8"))
                time.sleep(0.002)
            if complete:
                self.write_chunk(b"event: done\ndata: [DONE]\n\n")
            self.end_chunked()
        except OSError:
            self.mark_disconnected()
            self.close_connection = True
