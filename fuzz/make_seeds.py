#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets into fuzz/corpus/<target>/.

Seeds come from the MCP spec material (the hand-written valid and invalid
messages of every revision, the official example instances of 2026-07-28,
an SSE transcript) and from hand-written cases below for what the spec has
no examples of (HTTP requests, URI templates, OAuth headers). Run it again
to refresh the seeds; scripts/fuzz.sh keeps what the fuzzer finds beside them.

  fuzz/make_seeds.py --spec /path/to/shared/spec
"""
import argparse
import base64
import hashlib
import hmac
import json
import pathlib
import time

HERE = pathlib.Path(__file__).resolve().parent
NUL = b"\0"


def messages(spec):
    """Every message line of the spec's test files, by revision."""
    out = {}
    for path in sorted((spec / "tests").glob("*.jsonl")):
        out[path.stem] = [line for line in path.read_text().splitlines() if line.startswith("{")]
    return out


def examples(spec, definition):
    folder = spec / "2026-07-28" / "examples" / definition
    return [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))] if folder.is_dir() else []


def compact(value):
    return json.dumps(value, separators=(",", ":")).encode()


def initialize(version):
    return compact({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                    "params": {"protocolVersion": version, "capabilities": {},
                               "clientInfo": {"name": "fuzz", "version": "1"}}})


def modern(method, params, id_=1):
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}}
    return compact({"jsonrpc": "2.0", "id": id_, "method": method, "params": dict(params, _meta=meta)})


SESSION_CALLS = [
    ("tools/list", {}),
    ("tools/call", {"name": "order", "arguments": {"item": "tea", "quantity": 2, "notes": ["hot"]}}),
    ("tools/call", {"name": "echo", "arguments": {"text": "hi", "n": 3}}),
    ("tools/call", {"name": "echo", "arguments": {"n": -1}}),
    ("resources/list", {}),
    ("resources/templates/list", {}),
    ("resources/read", {"uri": "demo://readme"}),
    ("resources/read", {"uri": "demo://items/42?q=x"}),
    ("prompts/list", {}),
    ("prompts/get", {"name": "greet", "arguments": {"name": "Ada"}}),
    ("completion/complete", {"ref": {"type": "ref/prompt", "name": "greet"},
                             "argument": {"name": "name", "value": "A"}}),
    ("logging/setLevel", {"level": "debug"}),
    ("ping", {}),
]


def session_seeds(spec):
    seeds = {}
    initialized = compact({"jsonrpc": "2.0", "method": "notifications/initialized"})
    for version in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]:
        lines = [initialize(version), initialized]
        lines += [compact({"jsonrpc": "2.0", "id": i + 1, "method": m, "params": p})
                  for i, (m, p) in enumerate(SESSION_CALLS)]
        lines.append(compact({"jsonrpc": "2.0", "method": "notifications/cancelled",
                              "params": {"requestId": 3, "reason": "x"}}))
        lines.append(b"[" + b",".join(lines[2:5]) + b"]")
        seeds[f"legacy-{version}"] = b"\n".join(lines)
    seeds["modern"] = b"\n".join([modern("server/discover", {}, 0)] +
                                 [modern(m, p, i + 1) for i, (m, p) in enumerate(SESSION_CALLS)])
    for revision, lines in messages(spec).items():
        version = revision if revision != "2026-07-28" else "2025-11-25"
        seeds[f"spec-{revision}"] = b"\n".join([initialize(version), initialized] + [l.encode() for l in lines])
    return seeds


def frame_seeds(spec):
    seeds = {}
    for revision, lines in messages(spec).items():
        for i, line in enumerate(lines):
            seeds[f"{revision}-{i}"] = line.encode()
        seeds[f"{revision}-batch"] = b"[" + b",".join(l.encode() for l in lines[:4]) + b"]"
    seeds["empty-batch"] = b"[]"
    seeds["not-json"] = b"{\"jsonrpc\":\"2.0\",\"id\":"
    return seeds


def wire_seeds(spec):
    seeds = {}
    for definition in ["Tool", "Resource", "ResourceLink", "CallToolResult", "GetPromptResult",
                       "CompleteResult", "LoggingMessageNotificationParams", "TextResourceContents",
                       "BlobResourceContents", "ListToolsResult", "ListResourcesResult",
                       "ListResourceTemplatesResult", "ListPromptsResult", "ReadResourceResult"]:
        for i, value in enumerate(examples(spec, definition)):
            seeds[f"{definition}-{i}"] = compact(value)
            for key in ("tools", "resources", "resourceTemplates", "prompts", "contents"):
                for j, item in enumerate(value.get(key, []) if isinstance(value, dict) else []):
                    seeds[f"{definition}-{i}-{key}-{j}"] = compact(item)
    return seeds


def schema_seeds(spec):
    seeds = {}
    for i, tool in enumerate(examples(spec, "Tool")):
        schema = tool.get("inputSchema", {})
        seeds[f"tool-{i}"] = compact(schema) + NUL + compact({k: "x" for k in schema.get("properties", {})})
    for definition in ["StringSchema", "NumberSchema", "BooleanSchema", "TitledSingleSelectEnumSchema",
                       "UntitledMultiSelectEnumSchema", "TitledMultiSelectEnumSchema"]:
        for i, schema in enumerate(examples(spec, definition)):
            seeds[f"{definition}-{i}"] = compact(schema) + NUL + b"\"a\""
    seeds["keywords"] = compact({
        "type": "object", "required": ["a"], "additionalProperties": False,
        "properties": {"a": {"type": "array", "items": {"$ref": "#/$defs/n"}, "minItems": 1, "uniqueItems": True},
                       "b": {"anyOf": [{"type": "string", "pattern": "^[a-z]+$"}, {"const": 3}]},
                       "c": {"oneOf": [{"enum": [1, 2]}, {"not": {"type": "null"}}]},
                       "d": {"type": "string", "format": "date-time", "minLength": 2, "maxLength": 30}},
        "$defs": {"n": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5}},
        "if": {"required": ["b"]}, "then": {"required": ["c"]}}) + NUL + compact(
        {"a": [0.5, 1], "b": "abc", "c": 1, "d": "2026-11-27T12:00:00Z"})
    return seeds


URI_TEMPLATES = [
    ("file:///{path}", "file:///etc/hosts"),
    ("demo://items/{id}{?q,lang}", "demo://items/42?q=x&lang=en"),
    ("http://example.com/{+path}/here", "http://example.com/foo/bar/here"),
    ("{#frag}", "#a,b"),
    ("map?{x,y}", "map?1024,768"),
    ("{/list*}", "/red/green/blue"),
    ("{;keys*}", ";semi=%3B;dot=.;comma=%2C"),
    ("{.dom*}", ".example.com"),
    ("{?q,p*}{&more}", "?q=1&a=b&more=2"),
    ("{var:3}", "val"),
    ("github://{owner}/{repo}/blob/{ref}/{+path}", "github://a/b/blob/main/src/x.cpp"),
]


def uri_template_seeds():
    return {f"rfc6570-{i}": t.encode() + NUL + u.encode() for i, (t, u) in enumerate(URI_TEMPLATES)}


def sse_seeds(spec):
    transcript = (spec / "tests" / "sse-2025-11-25.txt").read_bytes()
    return {
        # The first byte picks the chunk size.
        "transcript-1": b"\x00" + transcript,
        "transcript-7": b"\x06" + transcript,
        "crlf": b"\x10" + transcript.replace(b"\n", b"\r\n"),
        "cr": b"\x20" + transcript.replace(b"\n", b"\r"),
        "bom-retry": b"\x03\xef\xbb\xbfretry: 10\nid: 7\ndata: a\ndata: b\n\nevent: end\ndata\n\n:comment\n",
    }


def http_request(method, target, headers, body=b""):
    head = f"{method} {target} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers)
    return head.encode() + b"\r\n" + body


MCP_HEADERS = [("Host", "127.0.0.1:8080"), ("Accept", "application/json, text/event-stream"),
               ("Content-Type", "application/json"), ("Mcp-Session-Id", "3f2a9c"),
               ("MCP-Protocol-Version", "2025-11-25"), ("Origin", "http://localhost:3000")]


def http_seeds():
    body = initialize("2025-11-25")
    modern_call = modern("tools/call", {"name": "echo", "arguments": {"text": "hi"}})
    routing = [("Mcp-Method", "tools/call"), ("Mcp-Name", "=?base64?ZWNobw==?="), ("MCP-Protocol-Version", "2026-07-28")]
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + 16]), body[i:i + 16]) for i in range(0, len(body), 16)) + b"0\r\n\r\n"
    return {
        "post": http_request("POST", "/mcp", MCP_HEADERS + [("Content-Length", str(len(body)))], body),
        "modern": http_request("POST", "/mcp", MCP_HEADERS[:3] + routing + [("Content-Length", str(len(modern_call)))], modern_call),
        "chunked": http_request("POST", "/mcp", MCP_HEADERS + [("Transfer-Encoding", "chunked")], chunked),
        "get-resume": http_request("GET", "/mcp", MCP_HEADERS[:2] + [("Last-Event-ID", "s1-4"), ("Mcp-Session-Id", "x")]),
        "pipelined": http_request("DELETE", "/mcp", MCP_HEADERS) + http_request("GET", "/sse", [("Host", "localhost")]),
        "auth": http_request("POST", "/messages?sessionId=ab", [("Authorization", "Bearer abc.def.ghi"),
                             ("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
                             ("Content-Length", "2")], b"{}"),
        "http10": b"POST /mcp HTTP/1.0\r\nContent-Length: 2\r\n\r\n[]",
    }


def http_rules_seeds(spec):
    schema = {"type": "object", "properties": {
        "region": {"type": "string", "x-mcp-header": "Region"},
        "count": {"type": "integer", "x-mcp-header": "Count"},
        "nested": {"type": "object", "properties": {"flag": {"type": "boolean", "x-mcp-header": "Flag"}}}}}
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "echo", "arguments": {"region": "eu-west", "count": 3, "nested": {"flag": True}},
                       "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}}
    seeds = {"mirrored": compact(call) + NUL + b"2026-07-28" + NUL + b"tools/call" + NUL + b"echo" + NUL + compact(schema),
             "base64-name": compact(call) + NUL + b"2026-07-28" + NUL + b"tools/call" + NUL + b"=?base64?ZWNobw==?=" + NUL}
    for i, line in enumerate(messages(spec).get("2026-07-28", [])):
        seeds[f"modern-{i}"] = line.encode() + NUL + b"2026-07-28" + NUL + NUL + NUL
    for i, line in enumerate(messages(spec).get("2025-03-26", [])[:6]):
        seeds[f"legacy-{i}"] = line.encode() + NUL + b"2025-03-26"
    return seeds


def envelope_seeds(spec):
    seeds = {}
    for i, line in enumerate(messages(spec).get("2026-07-28", [])):
        params = json.loads(line).get("params")
        if isinstance(params, dict):
            seeds[f"modern-{i}"] = compact(params)
    seeds["trace"] = compact({"_meta": {"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                                        "tracestate": "congo=t61rcWkgMzE", "baggage": "k=v"}})
    seeds["full"] = compact({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                                       "io.modelcontextprotocol/clientCapabilities": {"sampling": {}},
                                       "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"},
                                       "io.modelcontextprotocol/logLevel": "warning"}})
    return seeds


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=")


def request_state_seeds():
    # A state sealed with the target's key ('k' * 32), as request_state.cpp
    # seals, so that its MAC holds: the fuzzer starts past the MAC check. (It
    # expires in 2100, so that the seed is the same whenever it is made.)
    params = {"name": "book", "arguments": {"day": "mon"}}
    payload = compact({"binding": "0" * 64, "expires": 4102444800000,
                       "answers": {"q1": {"action": "accept"}}, "carried": None})
    signed = b"v1." + b64url(payload)
    state = signed + b"." + b64url(hmac.new(b"k" * 32, signed, hashlib.sha256).digest())
    return {"sealed": state + NUL + compact(params), "plain": b"v1.e30.AAAA" + NUL + b"{}"}


# RFC 7517 appendix A.1's public keys.
JWKS = {"keys": [
    {"kty": "EC", "crv": "P-256", "x": "MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4",
     "y": "4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM", "use": "sig", "kid": "1"},
    {"kty": "RSA", "n": "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSo"
     "c_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQ"
     "MicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksI"
     "NHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw", "e": "AQAB", "alg": "RS256", "kid": "2011-04-29"},
    {"kty": "oct", "k": "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"}]}


def jws(header, claims):
    return b64url(compact(header)) + b"." + b64url(compact(claims)) + b"." + b64url(b"\x01" * 64)


def auth_seeds():
    now = int(time.time())
    token = jws({"alg": "ES256", "typ": "at+jwt", "kid": "1"},
                {"iss": "https://issuer.example.com", "aud": "https://mcp.example.com/mcp", "sub": "ada",
                 "exp": now + 3600, "iat": now, "scope": "mcp:read", "cnf": {"jkt": "abc"}})
    proof = jws({"typ": "dpop+jwt", "alg": "ES256", "jwk": {k: JWKS["keys"][0][k] for k in ("kty", "crv", "x", "y")}},
                {"jti": "1", "htm": "POST", "htu": "https://mcp.example.com/mcp", "iat": now,
                 "ath": b64url(hashlib.sha256(b"token").digest()).decode()})
    challenge = (b'DPoP algs="ES256 RS256", error="invalid_token", Bearer resource_metadata='
                 b'"https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="mcp:read mcp:write", '
                 b'error_description="the \\"token\\" expired"')
    return {
        "full": b"Bearer " + token + NUL + proof + NUL + challenge + NUL + compact(JWKS) + NUL + token,
        "dpop-scheme": b"DPoP " + token + NUL + proof + NUL + b"Bearer realm=\"x\"" + NUL + b"{\"keys\":[]}" + NUL + token,
        "alg-none": b"bearer x" + NUL + NUL + NUL + compact(JWKS) + NUL + jws({"alg": "none", "kid": "1"}, {"sub": "x"}),
    }


def line_framer_seeds(spec):
    lines = [l.encode() for l in messages(spec)["2025-11-25"]]
    return {"lines": b"\x05" + b"\n".join(lines), "crlf-blank": b"\x01" + b"\r\n\n\r\n".join(lines[:3]) + b"\nunterminated"}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spec", type=pathlib.Path, required=True, help="the shared spec folder")
    spec = parser.parse_args().spec
    corpora = {
        "jsonrpc_frame": frame_seeds(spec), "line_framer": line_framer_seeds(spec),
        "server_session": session_seeds(spec), "wire_readers": wire_seeds(spec),
        "schema_validator": schema_seeds(spec), "uri_template": uri_template_seeds(),
        "sse_parser": sse_seeds(spec), "http_request": http_seeds(), "http_rules": http_rules_seeds(spec),
        "envelope": envelope_seeds(spec), "request_state": request_state_seeds(), "auth_headers": auth_seeds(),
    }
    for target, seeds in corpora.items():
        folder = HERE / "corpus" / target
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in seeds.items():
            (folder / f"seed-{name}").write_bytes(data)
        print(f"{target}: {len(seeds)} seeds")


if __name__ == "__main__":
    main()
