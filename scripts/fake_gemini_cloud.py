"""Context caches, service tiers and Vertex AI for scripts/fake_gemini.py (issue 31).

Imported by fake_gemini.py; standard library only (the JWT signature is checked with the
`openssl` command line and the public key the test gives).

Context caches (docs/vertex.md), on the Developer paths and Vertex's
(`/v1beta1/projects/P/locations/L/cachedContents...`):
    POST   cachedContents                      {"model", "contents", "systemInstruction", "tools",
                                                "toolConfig", "ttl": "3600s" | "expireTime",
                                                "displayName"} -> the cache (name, expireTime,
                                                usageMetadata.totalTokenCount = words counted as
                                                countTokens counts them)
    GET    cachedContents[?pageSize=&pageToken=]  GET|DELETE cachedContents/{id}
    PATCH  cachedContents/{id}?updateMask=ttl  {"ttl": "7200s"} (only the expiry changes)
A cache expires at its expireTime on the clock (POST /_sophon/clock {"advance": S}; starts at
0 = 2026-12-01T00:00:00Z): then it is gone (403 PERMISSION_DENIED "CachedContent not found
(or permission denied)", as Google answers). A generateContent request naming a cache must
name a live one of the same model and carry no systemInstruction, tools or toolConfig (400,
Google's wording); its reply counts the cache's tokens in promptTokenCount and
cachedContentTokenCount.
    POST /_sophon/caches  -> {"minTokens": N}: a cache under N tokens is refused (400 "Cached
                             content is too small. total_token_count=T, min_total_token_count=N")

Service tiers (docs/vertex.md): a request with "serviceTier" gets it back in
usageMetadata.serviceTier (Vertex: usageMetadata.trafficType ON_DEMAND / ON_DEMAND_FLEX /
ON_DEMAND_PRIORITY; Vertex reads the tier only from the header X-Vertex-AI-LLM-Shared-Request-Type:
flex or priority, never from the body).
    POST /_sophon/flex    -> {"delay": SECONDS, "shed": N}: each Flex request waits "delay"
                             seconds in the queue (ends early if the client leaves); the next N
                             are shed with 503 UNAVAILABLE after the wait
    GET  /_sophon/flex    -> {"served": N, "shed": N}

Vertex AI (docs/vertex.md): `/v1beta1/projects/P/locations/L/publishers/google/
models/M:ACTION` and express mode's `/v1beta1/publishers/google/models/M:ACTION` answer as the
Developer paths do. `GET /v1beta1/publishers/google/models[?pageSize=&pageToken=]` lists the
catalog in Vertex's form (`{"publisherModels": [{"name": "publishers/google/models/ID",
"versionId", "launchStage", "openSourceCategory"}], "nextPageToken"}`). A project path and the
catalog need `Authorization: Bearer T` with a token this server issued and did not revoke (else
401 UNAUTHENTICATED); express mode needs the API key (none: 401 UNAUTHENTICATED; another: 400
API_KEY_INVALID). Every
`contents[]` needs a role (else 400, Vertex's wording). The Files API, Developer batches
(`:batchGenerateContent`, `batches`), `:batchEmbedContents` and the Interactions API are 404 there. Embeddings: `:predict` for
gemini-embedding-001 (`{"instances": [one], "parameters": {"outputDimensionality"}}` ->
`{"predictions": [{"embeddings": {"values", "statistics"}}]}`), Vertex's `:embedContent` form for
other Gemini models (`{"content", "embedContentConfig"}`); countTokens takes the request's fields
at its root (a `generateContentRequest` member is 400).
    POST /token           -> the OAuth token endpoint: grant_type=urn:ietf:params:oauth:grant-type:
                             jwt-bearer with an RS256 assertion signed by the key whose public
                             half the test gave (aud must be the token URI the file names, scope
                             cloud-platform, exp - iat <= 3600), or grant_type=refresh_token with
                             the configured client_id, client_secret and refresh_token ->
                             {"access_token", "expires_in", "token_type": "Bearer"}; anything else
                             400 {"error": "invalid_grant", "error_description": ..}
    POST /_sophon/vertex  -> {"publicKey": PEM, "audience": URL, "clientId", "clientSecret",
                             "refreshToken", "lifetime": SECONDS (default 3600),
                             "revokeTokens": true (every issued token is refused from now on),
                             "revokeAfter": N (every token is revoked after the next N calls
                             served with one: a token expiring mid-run),
                             "tokenFaults": N (the next N token requests answer 503)}
    GET  /_sophon/vertex  -> {"tokensIssued": N, "grants": [grant_type, ...]}
"""

import base64
import json
import os
import subprocess
import tempfile
import threading
import time
import uuid
from urllib.parse import parse_qs

LOCK = threading.Lock()
EPOCH = 1796083200.0  # 2026-12-01T00:00:00Z
CLOUD = {}


def reset():
    with LOCK:
        CLOUD.clear()
        CLOUD.update({"caches": {}, "minTokens": 0, "flex": {"delay": 0, "shed": 0}, "served": 0, "shed": 0,
                      "vertex": {"lifetime": 3600}, "tokens": {}, "grants": [], "tokenFaults": 0})


reset()


def words(contents):
    return sum(len(str(part.get("text", "")).split()) for content in contents or []
               for part in (content or {}).get("parts", []))


def now(state):
    return state["clock"]


def seconds(text):
    try:
        return float(str(text).rstrip("s"))
    except ValueError:
        return None


def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Cloud:
    """The routes; `handler` is fake_gemini's request handler, `state` its STATE."""

    def __init__(self, handler, state, rpc_error, rfc3339, vector=None):
        self.h = handler
        self.state = state
        self.rpc_error = rpc_error
        self.rfc3339 = rfc3339
        self.vector = vector  # (text, dimensions or None) -> fake_gemini's deterministic vector

    # ---- control ----------------------------------------------------------------------

    def control(self, method, path, body):
        try:
            value = json.loads(body or b"{}")
        except ValueError as error:
            return self.h.send_json(400, {"error": str(error)})
        with LOCK:
            if path == "/_sophon/caches" and method == "POST":
                CLOUD["minTokens"] = int(value.get("minTokens", 0))
                return self.h.send_json(200, {"ok": True})
            if path == "/_sophon/flex":
                if method == "POST":
                    CLOUD["flex"].update(value)
                return self.h.send_json(200, {"served": CLOUD["served"], "shed": CLOUD["shed"]})
            if path == "/_sophon/vertex":
                if method == "POST":
                    if value.pop("revokeTokens", False):
                        CLOUD["tokens"].clear()
                    if "revokeAfter" in value:
                        CLOUD["revokeAfter"] = int(value.pop("revokeAfter"))
                    CLOUD["tokenFaults"] = int(value.pop("tokenFaults", CLOUD["tokenFaults"]))
                    CLOUD["vertex"].update(value)
                return self.h.send_json(200, {"tokensIssued": len(CLOUD["grants"]), "grants": CLOUD["grants"]})
        return self.h.send_json(404, {"error": "unknown control path"})

    # ---- the token endpoint -----------------------------------------------------------

    def token(self, body):
        form = {k: v[0] for k, v in parse_qs(body.decode("utf-8", "replace")).items()}
        grant = form.get("grant_type", "")
        with LOCK:
            CLOUD["grants"].append(grant)
            config = dict(CLOUD["vertex"])
            if CLOUD["tokenFaults"] > 0:
                CLOUD["tokenFaults"] -= 1
                return self.h.send_json(503, {"error": "temporarily_unavailable"})
        problem = None
        if grant == "urn:ietf:params:oauth:grant-type:jwt-bearer":
            problem = self.check_assertion(form.get("assertion", ""), config)
        elif grant == "refresh_token":
            for field, name in (("client_id", "clientId"), ("client_secret", "clientSecret"),
                                ("refresh_token", "refreshToken")):
                if not config.get(name) or form.get(field) != config.get(name):
                    problem = "Bad " + field
                    break
        else:
            problem = "Unsupported grant type"
        if problem:
            return self.h.send_json(400, {"error": "invalid_grant", "error_description": problem})
        token = "ya29.fake-" + uuid.uuid4().hex
        lifetime = int(config.get("lifetime", 3600))
        with LOCK:
            CLOUD["tokens"][token] = time.time() + lifetime
        return self.h.send_json(200, {"access_token": token, "expires_in": lifetime, "token_type": "Bearer"})

    def check_assertion(self, assertion, config):
        pieces = assertion.split(".")
        if len(pieces) != 3:
            return "Invalid JWT: not three segments"
        try:
            header = json.loads(b64url(pieces[0]))
            claims = json.loads(b64url(pieces[1]))
            signature = b64url(pieces[2])
        except (ValueError, TypeError):
            return "Invalid JWT: undecodable segment"
        if header.get("alg") != "RS256":
            return "Invalid JWT: alg must be RS256"
        key = config.get("publicKey")
        if not key or not verify_rs256((pieces[0] + "." + pieces[1]).encode(), signature, key):
            return "Invalid JWT Signature."
        audience = config.get("audience")
        if audience and claims.get("aud") != audience:
            return "Invalid JWT: wrong audience"
        if "https://www.googleapis.com/auth/cloud-platform" not in str(claims.get("scope", "")).split():
            return "Invalid JWT: no cloud-platform scope"
        iat, exp = claims.get("iat"), claims.get("exp")
        if not isinstance(iat, int) or not isinstance(exp, int) or not 0 < exp - iat <= 3600:
            return "Invalid JWT: Token must be a short-lived token (60 minutes)"
        if not claims.get("iss"):
            return "Invalid JWT: no iss"
        return None

    # ---- routing ----------------------------------------------------------------------

    def vertex_route(self, method, path, query, body):
        """`/v1beta1/...`: auth, then the Developer handlers. True when handled."""
        rest = path[len("/v1beta1/"):]
        parts = rest.split("/")
        project = None
        if len(parts) >= 4 and parts[0] == "projects" and parts[2] == "locations":
            project = parts[1]
            rest = "/".join(parts[4:])
        # The publisher's model catalog has no project in its path but, like a project path,
        # takes an access token (express mode's API key reaches only generate and countTokens).
        catalog = method == "GET" and rest == "publishers/google/models"
        if project is None and not catalog:
            if not self.key_ok():
                return True
        else:
            token = (self.h.headers.get("Authorization") or "")
            token = token[len("Bearer "):] if token.startswith("Bearer ") else ""
            with LOCK:
                expiry = CLOUD["tokens"].get(token)
            if expiry is None or expiry < time.time():
                self.h.send_json(401, self.rpc_error(
                    401, "Request had invalid authentication credentials. Expected OAuth 2 access token, "
                    "login cookie or other valid authentication credential.", status="UNAUTHENTICATED"))
                return True
            with LOCK:
                if CLOUD.get("revokeAfter"):
                    CLOUD["revokeAfter"] -= 1
                    if CLOUD["revokeAfter"] == 0:
                        CLOUD["tokens"].clear()  # this call is served; the next one is refused
        self.h.vertex = True
        if catalog:
            self.h.list_models(query, vertex=True)
            return True
        if rest.startswith("publishers/") and ":" in rest:
            model = rest.split("/models/", 1)[-1]
            model, action = model.rsplit(":", 1)
            if method == "POST" and self.vertex_only(model, action, body):
                return True
            if method == "POST":
                self.h.model_action(model, action, query, body)
                return True
        if rest == "cachedContents" or rest.startswith("cachedContents/"):
            if project is None:
                self.h.send_json(404, self.rpc_error(404, "Not found: " + path))
                return True
            return self.caches(method, rest, query, body,
                               "projects/%s/locations/%s/" % (project, parts[3]))
        self.h.send_json(404, self.rpc_error(404, "Not found: " + path))
        return True

    def vertex_only(self, model, action, body):
        """What Vertex answers differently from the Developer API (docs/vertex.md): embeddings
        by `:predict` (gemini-embedding-001, one instance) or Vertex's
        `:embedContent` form (one content, `embedContentConfig`), no `:batchEmbedContents`;
        countTokens with the request's fields at the root (no `generateContentRequest`) and a
        role on every content. True when a reply was sent."""
        try:
            request = json.loads(body or b"{}")
        except ValueError:
            request = None
        if not isinstance(request, dict):
            self.h.send_json(400, self.rpc_error(400, "Invalid JSON payload received."))
            return True
        if action in ("batchEmbedContents", "batchGenerateContent"):
            self.h.send_json(404, self.rpc_error(404, "Method not found: %s is not served by Vertex AI." % action))
            return True
        predict = model == "gemini-embedding-001" or not model.startswith("gemini")
        if action == "predict":
            instances = request.get("instances")
            if not predict or not isinstance(instances, list) or len(instances) != 1:
                self.h.send_json(400, self.rpc_error(
                    400, "Unable to submit request because the model takes one instance per predict request."))
                return True
            text = str((instances[0] or {}).get("content", ""))
            size = (request.get("parameters") or {}).get("outputDimensionality")
            values = self.vector(text, size)
            self.h.send_json(200, {"predictions": [{"embeddings": {
                "values": values, "statistics": {"token_count": len(text.split()), "truncated": False}}}]})
            return True
        if action == "embedContent":
            content = request.get("content")
            if predict or "requests" in request or not isinstance(content, dict) or any(
                    key in request for key in ("taskType", "title", "outputDimensionality")):
                self.h.send_json(400, self.rpc_error(
                    400, "Unable to submit request because the embedContent request is not in Vertex AI's form."))
                return True
            text = " ".join(str(part.get("text", "")) for part in content.get("parts", []))
            size = (request.get("embedContentConfig") or {}).get("outputDimensionality")
            self.h.send_json(200, {"embedding": {"values": self.vector(text, size)},
                                   "usageMetadata": {"promptTokenCount": len(text.split())}})
            return True
        if action == "countTokens":
            if "generateContentRequest" in request:
                self.h.send_json(400, self.rpc_error(
                    400, 'Invalid JSON payload received. Unknown name "generateContentRequest": Cannot find field.'))
                return True
            contents = list(request.get("contents") or [])
            if any(not isinstance(c, dict) or c.get("role") not in ("user", "model") for c in contents):
                self.h.send_json(400, self.rpc_error(
                    400, "Unable to submit request because Please use a valid role: user, model.."))
                return True
            if request.get("systemInstruction"):
                contents.append(request["systemInstruction"])
            total = words(contents)
            self.h.send_json(200, {"totalTokens": total, "totalBillableCharacters": total * 5,
                                   "promptTokensDetails": [{"modality": "TEXT", "tokenCount": total}]})
            return True
        return False

    def key_ok(self):
        """Express mode's API key: none is 401 UNAUTHENTICATED; a wrong one 400 API_KEY_INVALID."""
        key = self.h.headers.get("x-goog-api-key")
        if key and key == self.state["key"]:
            return True
        if key:
            self.h.send_json(400, self.rpc_error(400, "API key not valid. Please pass a valid API key.", [
                {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID",
                 "domain": "googleapis.com", "metadata": {"service": "aiplatform.googleapis.com"}}]))
            return False
        self.h.send_json(401, self.rpc_error(
            401, "Request is missing required authentication credential. Expected OAuth 2 access token, "
            "login cookie or other valid authentication credential.", status="UNAUTHENTICATED"))
        return False

    def caches(self, method, rest, query, body, scope=""):
        """cachedContents CRUD; True when handled."""
        t = now(self.state)
        with LOCK:
            for name, cache in list(CLOUD["caches"].items()):
                if cache["expires"] <= t:
                    del CLOUD["caches"][name]
        if rest == "cachedContents" and method == "POST":
            try:
                request = json.loads(body or b"{}")
            except ValueError:
                self.h.send_json(400, self.rpc_error(400, "Invalid JSON payload received."))
                return True
            contents = list(request.get("contents") or [])
            if request.get("systemInstruction"):
                contents.append(request["systemInstruction"])
            tokens = words(contents)
            with LOCK:
                minimum = CLOUD["minTokens"]
            if tokens < minimum:
                self.h.send_json(400, self.rpc_error(
                    400, "Cached content is too small. total_token_count=%d, min_total_token_count=%d"
                    % (tokens, minimum)))
                return True
            if "expireTime" in request:
                expires = None
                self.h.send_json(400, self.rpc_error(400, "fake_gemini: send ttl, not expireTime"))
                return True
            ttl = seconds(request.get("ttl", "3600s"))
            if ttl is None or ttl <= 0:
                self.h.send_json(400, self.rpc_error(400, "Invalid value at 'cached_content.ttl'"))
                return True
            expires = t + ttl
            name = scope + "cachedContents/" + uuid.uuid4().hex[:12]
            cache = {"name": name, "model": request.get("model", ""), "expires": expires, "created": t,
                     "updated": t, "tokens": tokens, "displayName": request.get("displayName"),
                     "system": bool(request.get("systemInstruction")),
                     "tools": bool(request.get("tools") or request.get("toolConfig"))}
            with LOCK:
                CLOUD["caches"][name] = cache
            self.h.send_json(200, self.resource(cache))
            return True
        if rest == "cachedContents" and method == "GET":
            with LOCK:
                items = sorted(CLOUD["caches"].values(), key=lambda c: c["created"])
            items = [c for c in items if c["name"].startswith(scope)]
            self.h.send_json(200, {"cachedContents": [self.resource(c) for c in items]} if items else {})
            return True
        name = scope + rest
        with LOCK:
            cache = CLOUD["caches"].get(name)
        if cache is None:
            self.h.send_json(403, self.rpc_error(403, "CachedContent not found (or permission denied)"))
            return True
        if method == "GET":
            self.h.send_json(200, self.resource(cache))
        elif method == "DELETE":
            with LOCK:
                CLOUD["caches"].pop(name, None)
            self.h.send_json(200, {})
        elif method == "PATCH":
            try:
                patch = json.loads(body or b"{}")
            except ValueError:
                patch = {}
            if query.get("updateMask", [""])[0] not in ("ttl", "expireTime", "expire_time"):
                self.h.send_json(400, self.rpc_error(400, "Only the expiration of a cached content can be updated"))
                return True
            ttl = seconds(patch.get("ttl", ""))
            if ttl is None or ttl <= 0:
                self.h.send_json(400, self.rpc_error(400, "Invalid value at 'cached_content.ttl'"))
                return True
            with LOCK:
                cache["expires"] = t + ttl
                cache["updated"] = t
            self.h.send_json(200, self.resource(cache))
        else:
            return False
        return True

    def resource(self, cache):
        value = {"name": cache["name"], "model": cache["model"], "createTime": self.rfc3339(EPOCH + cache["created"]),
                 "updateTime": self.rfc3339(EPOCH + cache["updated"]),
                 "expireTime": self.rfc3339(EPOCH + cache["expires"]),
                 "usageMetadata": {"totalTokenCount": cache["tokens"]}}
        if cache.get("displayName"):
            value["displayName"] = cache["displayName"]
        return value

    # ---- generateContent --------------------------------------------------------------

    def check_generate(self, model, request):
        """Refuses what the API refuses (a cache misused, Vertex without roles) and runs the Flex
        queue. True when a reply was sent."""
        vertex = getattr(self.h, "vertex", False)
        if vertex:
            for content in request.get("contents") or []:
                if not isinstance(content, dict) or content.get("role") not in ("user", "model"):
                    self.h.send_json(400, self.rpc_error(
                        400, "Unable to submit request because Please use a valid role: user, model.."))
                    return True
        name = request.get("cachedContent")
        if name:
            if any(request.get(field) for field in ("systemInstruction", "tools", "toolConfig")):
                self.h.send_json(400, self.rpc_error(
                    400, "CachedContent can not be used with GenerateContent request setting system_instruction, "
                    "tools or tool_config.\n\nProposed fix: move those values to CachedContent from "
                    "GenerateContent request."))
                return True
            t = now(self.state)
            with LOCK:
                cache = CLOUD["caches"].get(name)
            if cache is None or cache["expires"] <= t:
                self.h.send_json(403, self.rpc_error(403, "CachedContent not found (or permission denied)"))
                return True
            if cache["model"].split("/")[-1] != model:
                self.h.send_json(400, self.rpc_error(
                    400, "Model used by GenerateContent request (models/%s) and CachedContent (%s) has to be "
                    "the same." % (model, cache["model"])))
                return True
        tier = self.tier(request)
        if tier == "flex":
            with LOCK:
                delay = float(CLOUD["flex"].get("delay") or 0)
            if delay and self.h.wait_or_disconnect(delay):
                return True
            with LOCK:
                shed = CLOUD["flex"].get("shed", 0) > 0
                if shed:
                    CLOUD["flex"]["shed"] -= 1
                    CLOUD["shed"] += 1
                else:
                    CLOUD["served"] += 1
            if shed:
                self.h.send_json(503, self.rpc_error(
                    503, "The service is currently unavailable for Flex requests. Please retry later."))
                return True
        return False

    def tier(self, request):
        """The tier asked for: on Vertex by the header X-Vertex-AI-LLM-Shared-Request-Type only
        (docs/vertex.md), on the Developer API by the body's serviceTier."""
        if getattr(self.h, "vertex", False):
            return (self.h.headers.get("X-Vertex-AI-LLM-Shared-Request-Type") or "").lower() or None
        return request.get("serviceTier")

    def usage_extras(self, request, reply):
        """The reply with the cache's tokens and the served tier in its usage."""
        extras = {}
        name = request.get("cachedContent")
        with LOCK:
            cache = CLOUD["caches"].get(name) if name else None
        tier = self.tier(request)
        if cache is None and not tier:
            return reply
        usage = dict(reply.get("usage", {"prompt": 4, "candidates": 7}))
        if cache is not None:
            usage["prompt"] = int(usage.get("prompt", 0)) + cache["tokens"]
            usage["cached"] = cache["tokens"]
        if getattr(self.h, "vertex", False):
            usage["trafficType"] = {"flex": "ON_DEMAND_FLEX", "priority": "ON_DEMAND_PRIORITY"}.get(tier, "ON_DEMAND")
        elif tier:
            usage["serviceTier"] = tier
        extras["usage"] = usage
        return dict(reply, **extras)


def verify_rs256(data, signature, public_key):
    """Whether `signature` is an RS256 signature of `data` by `public_key` (PEM), checked by
    `openssl dgst -sha256 -verify`."""
    with tempfile.TemporaryDirectory() as folder:
        paths = {name: os.path.join(folder, name) for name in ("key.pem", "data", "sig")}
        for name, content in (("key.pem", public_key.encode()), ("data", data), ("sig", signature)):
            with open(paths[name], "wb") as handle:
                handle.write(content)
        result = subprocess.run(
            ["openssl", "dgst", "-sha256", "-verify", paths["key.pem"], "-signature", paths["sig"], paths["data"]],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        return result.returncode == 0
