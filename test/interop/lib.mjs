// Shared helpers of the interop scripts that drive an MCP server with the
// official TypeScript SDK (ts_client_stdio.mjs, ts_client_features.mjs):
// TAP-like reporting, deadlines, an independent tap on everything the server
// sends (its stdout lines for stdio; the HTTP response bodies, JSON or SSE,
// for Streamable HTTP) that validates every message, a transport-level client
// with its own request ids, and session teardown that kills every child on
// every exit path.
//
// Reporting: one "ok - ..." / "not ok - ..." line per check, diagnostics as
// "# ..." lines, last line "N passed, M failed"; exit 0 iff M == 0.
//
// The last section ("the official conformance suite") serves the two runners
// of @modelcontextprotocol/conformance, conformance_server.mjs and
// conformance_client.mjs: its CLI run in process groups (one process for a
// whole selection where the CLI can name it, else one per scenario),
// checks.json counting, and the per-scenario report with its summary and
// exit code.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as sdkTypes from '@modelcontextprotocol/sdk/types.js';
import { EXTENSION_SET } from './lib/command-line.mjs';

const { JSONRPCMessageSchema } = sdkTypes;

export const REQUEST_TIMEOUT_MS = 10_000;

// ---------------------------------------------------------------- reporting
let passed = 0;
let failed = 0;
let finished = false;
let scriptTimer;
let server = { command: undefined, args: [] };

export function ok(name) {
    passed++;
    console.log(`ok - ${name}`);
}
export function notOk(name, detail) {
    failed++;
    console.log(`not ok - ${name}`);
    if (detail !== undefined) diag(detail);
}
export function check(cond, name, detail) {
    if (cond) ok(name);
    else notOk(name, typeof detail === 'function' ? detail() : detail);
    return !!cond;
}
export function diag(text) {
    for (const line of String(text).split('\n')) console.log(`# ${line}`);
}
export function short(v, max = 400) {
    let s;
    try {
        s = typeof v === 'string' ? v : JSON.stringify(v);
    } catch {
        s = String(v);
    }
    if (s === undefined) s = String(v);
    return s.length > max ? s.slice(0, max) + '...' : s;
}
export function zodErr(err) {
    // zod v4 error: list each issue with its path
    if (err?.issues) return err.issues.map(i => `${(i.path ?? []).join('.') || '<root>'}: ${i.message} (${i.code})`).join('\n');
    return String(err);
}
/** Number of failed checks so far. */
export function failedCount() {
    return failed;
}

// every transport ever started, so that they can be killed on any exit path
export const liveTransports = new Set();
// every server process started directly (HTTP mode), likewise
export const liveChildren = new Set();
export function killAll() {
    for (const child of liveChildren) {
        try {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        } catch {
            /* already gone */
        }
    }
    liveChildren.clear();
    for (const t of liveTransports) {
        const pid = t.pid;
        if (pid) {
            try {
                process.kill(pid, 'SIGKILL');
            } catch {
                /* already gone */
            }
        }
    }
    liveTransports.clear();
}

/** Kills every child, prints the summary line and exits (0 iff nothing failed). */
export function finish() {
    if (finished) return;
    finished = true;
    clearTimeout(scriptTimer);
    killAll();
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed === 0 ? 0 : 1);
}

/**
 * Parses `<server-command> [args...]` from argv (exit 2 with `usage` when
 * missing), arms the whole-script deadline and makes every abnormal exit path
 * (uncaught exception, unhandled rejection, SIGINT/SIGTERM) a failure that
 * still kills the children and prints the summary.
 * With `allowHttp`, a leading `--http` selects HTTP mode (`http: true` in the
 * result; the command is then started with startHttpServer()).
 * Returns { command, args, http }; makeSession() starts that command by default.
 */
export function startHarness({ usage, scriptTimeoutMs, allowHttp = false }) {
    let argv = process.argv.slice(2);
    let http = false;
    if (allowHttp && argv[0] === '--http') {
        http = true;
        argv = argv.slice(1);
    }
    if (argv.length === 0) {
        console.error(usage);
        process.exit(2);
    }
    const [command, ...args] = argv;
    server = { command, args, http };
    scriptTimer = setTimeout(() => {
        notOk(`whole script finished within ${scriptTimeoutMs / 1000} s`);
        finish();
    }, scriptTimeoutMs);
    process.on('uncaughtException', err => {
        notOk('no uncaught exception', err?.stack ?? String(err));
        finish();
    });
    process.on('unhandledRejection', err => {
        notOk('no unhandled promise rejection', err?.stack ?? String(err));
        finish();
    });
    for (const sig of ['SIGINT', 'SIGTERM']) {
        process.on(sig, () => {
            notOk(`interrupted by ${sig}`);
            finish();
        });
    }
    return server;
}

export function withTimeout(promise, ms, what) {
    let timer;
    return Promise.race([
        promise,
        new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`timeout after ${ms} ms: ${what}`)), ms);
        })
    ]).finally(() => clearTimeout(timer));
}

export const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

/** Polls `pred` every 10 ms; resolves true as soon as it holds, false after `ms`. */
export async function waitFor(pred, ms) {
    const end = Date.now() + ms;
    for (;;) {
        if (pred()) return true;
        if (Date.now() >= end) return false;
        await sleep(10);
    }
}

// ------------------------------------------------------- raw stdout checking
export const ENVELOPE_KEYS = {
    request: ['jsonrpc', 'id', 'method', 'params'],
    notification: ['jsonrpc', 'method', 'params'],
    result: ['jsonrpc', 'id', 'result'],
    error: ['jsonrpc', 'id', 'error']
};

export function envelopeKind(msg) {
    if ('method' in msg) return 'id' in msg ? 'request' : 'notification';
    if ('result' in msg) return 'result';
    if ('error' in msg) return 'error';
    return undefined;
}

/**
 * Creates a transport plus an independent tap on the child's stdout that
 * re-splits the byte stream into lines and checks each line itself (the SDK
 * transport only reports problems via onerror, and parses with its own
 * schema, so the raw text is what we validate). Returns a "session" object.
 *
 * Besides the checks, the session records every message in both directions
 * with a timestamp: `received` (parsed stdout lines, in stdout order) and
 * `sent` (everything passed to transport.send, i.e. what went to stdin).
 */
export function makeSession(label, command = server.command, args = server.args) {
    const transport = new StdioClientTransport({
        command,
        args,
        stderr: 'pipe'
    });
    const s = {
        label,
        transport,
        rawById: new Map(), // id -> raw parsed object of a response
        rawProblems: [], // strings
        rawCount: 0,
        sdkCount: 0,
        transportErrors: [],
        stderr: '',
        closedByUs: false,
        unexpectedClose: false,
        child: undefined,
        partial: Buffer.alloc(0),
        received: [], // { msg, t } per stdout line that parsed as a JSON object
        sent: [] // { msg, t } per message handed to transport.send
    };
    transport.stderr?.on('data', chunk => {
        s.stderr += chunk.toString('utf8');
        if (s.stderr.length > 20000) s.stderr = s.stderr.slice(-20000);
    });
    const origSend = transport.send.bind(transport);
    transport.send = (msg, opts) => {
        s.sent.push({ msg, t: Date.now() });
        return origSend(msg, opts);
    };
    const origStart = transport.start.bind(transport);
    transport.start = async () => {
        liveTransports.add(transport);
        await origStart();
        // private field of StdioClientTransport; attached synchronously after the
        // 'spawn' event, before any stdout data can have been delivered
        s.child = transport._process;
        if (!s.child?.stdout) throw new Error('cannot tap child stdout (SDK internals changed?)');
        s.child.stdout.on('data', chunk => onRawChunk(s, chunk));
        // 'close' (which drives transport.onclose) can be delayed when stdin
        // broke with EPIPE; 'exit' is reliable. Leave stdout a moment to drain.
        const onExit = (code, signal) => {
            if (s.closedByUs || s.exitInfo) return;
            s.unexpectedClose = true;
            s.exitInfo = `code=${code} signal=${signal}`;
            setTimeout(() => s.onChildExit?.(), 500);
        };
        s.child.once('exit', onExit);
        if (s.child.exitCode !== null || s.child.signalCode !== null) onExit(s.child.exitCode, s.child.signalCode);
    };
    return s;
}

function onRawChunk(s, chunk) {
    let buf = Buffer.concat([s.partial, chunk]);
    let nl;
    while ((nl = buf.indexOf(0x0a)) !== -1) {
        const line = buf.toString('utf8', 0, nl).replace(/\r$/, '');
        buf = buf.subarray(nl + 1);
        onRawLine(s, line);
    }
    s.partial = buf;
}

function onRawLine(s, line) {
    s.rawCount++;
    let msg;
    try {
        msg = JSON.parse(line);
    } catch (e) {
        s.rawProblems.push(`stdout line is not JSON (${e.message}): ${short(line)}`);
        return;
    }
    if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) {
        s.rawProblems.push(`stdout line is not a JSON object: ${short(line)}`);
        return;
    }
    onRawMessage(s, msg, line);
}

/**
 * Checks one message as the server wrote it (a parsed JSON object) and records
 * it in s.received / s.rawById; `via` says where it came from (HTTP only).
 */
function onRawMessage(s, msg, line, via) {
    s.received.push(via === undefined ? { msg, t: Date.now() } : { msg, t: Date.now(), via });
    const parsed = JSONRPCMessageSchema.safeParse(msg);
    if (!parsed.success) {
        s.rawProblems.push(`JSONRPCMessageSchema rejected ${short(line)}\n${zodErr(parsed.error)}`);
    }
    const kind = envelopeKind(msg);
    if (!kind) {
        s.rawProblems.push(`message is neither request, notification, result nor error: ${short(line)}`);
    } else {
        const extra = Object.keys(msg).filter(k => !ENVELOPE_KEYS[kind].includes(k));
        if (extra.length) s.rawProblems.push(`unexpected envelope key(s) ${extra.join(', ')} on ${kind}: ${short(line)}`);
        if ((kind === 'result' || kind === 'error') && 'result' in msg && 'error' in msg) {
            s.rawProblems.push(`response has both result and error: ${short(line)}`);
        }
    }
    if ((kind === 'result' || kind === 'error') && msg.id !== undefined && msg.id !== null) {
        if (s.rawById.has(msg.id)) s.rawProblems.push(`duplicate response for id ${short(msg.id)}`);
        s.rawById.set(msg.id, msg);
        // The SDK transport (whose 'data' listener ran before ours) drops a
        // message its schema rejects; fail the waiting request at once
        // instead of letting it run into its timeout.
        if (!parsed.success) s.onRejectedResponse?.(msg.id, zodErr(parsed.error));
    }
    s.onRawMessage?.(msg);
}

// ------------------------------------------------------ Streamable HTTP mode
/**
 * An SSE parser after the WHATWG EventSource rules (lines end in CRLF, LF or
 * CR; `data` lines joined by LF; one leading space of a value dropped; a
 * comment line starts with ':'), independent of the SDK's (eventsource-parser).
 * Calls onEvent({ event, data, id }) per dispatched event that has data.
 */
export class SseParser {
    constructor(onEvent) {
        this.onEvent = onEvent;
        this.buf = '';
        this.first = true;
        this.data = [];
        this.event = '';
        this.lastId = undefined;
        this.events = 0;
    }
    push(text, final = false) {
        if (this.first && text.length) {
            if (text[0] === '\uFEFF') text = text.slice(1);
            this.first = false;
        }
        const buf = this.buf + text;
        let pos = 0;
        while (pos < buf.length) {
            const cr = buf.indexOf('\r', pos);
            const lf = buf.indexOf('\n', pos);
            if (cr === -1 && lf === -1) break;
            let end;
            let next;
            if (cr !== -1 && (lf === -1 || cr < lf)) {
                if (cr === buf.length - 1 && !final) break; // may be the first half of CRLF
                end = cr;
                next = buf[cr + 1] === '\n' ? cr + 2 : cr + 1;
            } else {
                end = lf;
                next = lf + 1;
            }
            this.line(buf.slice(pos, end));
            pos = next;
        }
        this.buf = buf.slice(pos);
    }
    line(l) {
        if (l === '') {
            if (this.data.length > 0) {
                this.events++;
                this.onEvent({ event: this.event || 'message', data: this.data.join('\n'), id: this.lastId });
            }
            this.data = [];
            this.event = '';
            return;
        }
        if (l[0] === ':') return;
        const i = l.indexOf(':');
        const field = i === -1 ? l : l.slice(0, i);
        let value = i === -1 ? '' : l.slice(i + 1);
        if (value[0] === ' ') value = value.slice(1);
        if (field === 'data') this.data.push(value);
        else if (field === 'event') this.event = value;
        else if (field === 'id' && !value.includes('\0')) this.lastId = value;
    }
    /** Text of an event the stream ended in the middle of ('' if none). */
    leftover() {
        return this.buf + (this.data.length ? `[data: ${this.data.join('\\n')}]` : '');
    }
}

/**
 * Starts an HTTP server process (stdin a pipe kept open, stdout/stderr piped)
 * and waits at most `urlTimeoutMs` for its first stdout line, which must be
 * its endpoint URL. Resolves to a server object { child, url, stderr,
 * extraStdout, exitInfo, sessions }; rejects (with the child killed) if no URL
 * line comes in time or the process ends first. The child is killed on every
 * exit path of the script (killAll).
 */
export function startHttpServer(command = server.command, args = server.args, { urlTimeoutMs = 10_000 } = {}) {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    liveChildren.add(child);
    const srv = { child, url: undefined, stderr: '', extraStdout: '', exitInfo: undefined, sessions: new Set() };
    child.stderr.on('data', chunk => {
        srv.stderr += chunk.toString('utf8');
        if (srv.stderr.length > 20000) srv.stderr = srv.stderr.slice(-20000);
    });
    child.stdin.on('error', () => {});
    child.on('exit', (code, signal) => {
        srv.exitInfo = `code=${code} signal=${signal}`;
        for (const s of srv.sessions) {
            if (s.closedByUs) continue;
            s.unexpectedClose = true;
            s.exitInfo = srv.exitInfo;
            setTimeout(() => s.onChildExit?.(), 100);
        }
    });
    return new Promise((resolve, reject) => {
        let out = '';
        let timer;
        const fail = why => {
            clearTimeout(timer);
            try {
                child.kill('SIGKILL');
            } catch {
                /* gone */
            }
            reject(new Error(`${why}${srv.stderr.trim() ? `\nserver stderr:\n${srv.stderr.trimEnd()}` : ''}`));
        };
        timer = setTimeout(() => fail(`no endpoint URL line on stdout within ${urlTimeoutMs} ms (got ${short(out)})`), urlTimeoutMs);
        child.once('error', e => fail(`cannot start ${command}: ${e.message}`));
        child.once('exit', () => {
            if (!srv.url) setTimeout(() => fail(`server exited (${srv.exitInfo}) before printing its URL (stdout ${short(out)})`), 50);
        });
        child.stdout.on('data', chunk => {
            if (srv.url) {
                srv.extraStdout += chunk.toString('utf8');
                return;
            }
            out += chunk.toString('utf8');
            const nl = out.indexOf('\n');
            if (nl === -1) return;
            const line = out.slice(0, nl).replace(/\r$/, '');
            srv.extraStdout = out.slice(nl + 1);
            if (!/^https?:\/\/\S+$/.test(line)) return fail(`first stdout line is not a URL: ${short(line)}`);
            srv.url = line;
            clearTimeout(timer);
            resolve(srv);
        });
    });
}

/** Whether the HTTP server process is still running. */
export function httpServerAlive(srv) {
    return srv.child.exitCode === null && srv.child.signalCode === null;
}

/**
 * Stops the HTTP server (SIGTERM, then SIGKILL after 3 s) and checks that it
 * was still running, that it printed nothing on stdout after its URL line and
 * that it ended within 3 s of SIGTERM.
 */
export async function stopHttpServer(tag, srv) {
    const child = srv.child;
    check(httpServerAlive(srv), `${tag} server still running after all sessions`, () => `exit ${srv.exitInfo}`);
    if (httpServerAlive(srv)) {
        const exited = new Promise(resolve => child.once('exit', resolve));
        child.kill('SIGTERM');
        const ended = await Promise.race([exited.then(() => true), sleep(3000).then(() => false)]);
        // not a check (yet): everything-server takes ~30 s, see the README
        if (ended) ok(`${tag} server ended within 3 s of SIGTERM`);
        else {
            diag(`${tag} NOTE: server did not end within 3 s of SIGTERM; killed`);
            child.kill('SIGKILL');
        }
    }
    liveChildren.delete(child);
    check(srv.extraStdout === '', `${tag} server printed nothing on stdout after its URL line`, () => `got ${short(srv.extraStdout)}`);
}

function mediaType(contentType) {
    return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * Like makeSession, for a Streamable HTTP server started with startHttpServer:
 * an SDK StreamableHTTPClientTransport whose fetch is tapped. Every response
 * body the server sends (JSON or SSE) is parsed independently while it passes
 * to the SDK (so a message is recorded before the SDK can deliver it) and each
 * message goes through the same checks as a stdout line in stdio mode; the
 * HTTP status and Content-Type of every exchange is checked too (a POST
 * holding a request: 200 with application/json, or text/event-stream unless
 * `jsonOnly`; a POST of only notifications/responses: 202 with no body; GET:
 * 200 text/event-stream). s.http records every exchange.
 */
export function makeHttpSession(label, srv, { jsonOnly = false } = {}) {
    const s = {
        label,
        kind: 'http',
        srv,
        jsonOnly,
        rawById: new Map(),
        rawProblems: [],
        rawCount: 0,
        sdkCount: 0,
        transportErrors: [],
        ignoredErrors: [],
        get stderr() {
            return srv.stderr;
        },
        closedByUs: false,
        transportClosed: false,
        unexpectedClose: false,
        partial: Buffer.alloc(0),
        received: [],
        sent: [],
        http: [], // { method, what, t, status, ctype, sessionId, stream }
        initSessionId: undefined
    };
    const transport = new StreamableHTTPClientTransport(new URL(srv.url), { fetch: (url, init) => tapFetch(s, url, init) });
    s.transport = transport;
    // After our close() the SDK reports the aborted GET stream through onerror;
    // that is no failure. Everything else reaches the installed handler.
    let wrappedOnerror;
    Object.defineProperty(transport, 'onerror', {
        configurable: true,
        get() {
            return wrappedOnerror;
        },
        set(fn) {
            wrappedOnerror =
                fn &&
                (err => {
                    const m = err?.message ?? String(err);
                    if (s.transportClosed && /abort/i.test(`${m} ${err?.name}`)) s.ignoredErrors.push(m);
                    // a cancelled request's POST still pending when we ended the session, answered 404 (reported by closeHttpSession)
                    else if (s.closedByUs && err?.code === 404 && s.http.some(r => r.status === 404 && isCancelledExchange(s, r))) s.ignoredErrors.push(m);
                    else fn(err);
                });
        }
    });
    const origSend = transport.send.bind(transport);
    transport.send = (msg, opts) => {
        s.sent.push({ msg, t: Date.now() });
        return origSend(msg, opts);
    };
    const origStart = transport.start.bind(transport);
    transport.start = async () => {
        liveTransports.add(transport);
        srv.sessions.add(s);
        if (!httpServerAlive(srv)) {
            s.unexpectedClose = true;
            s.exitInfo = srv.exitInfo;
        }
        await origStart();
    };
    return s;
}

/** Whether `rec` is a POST whose requests were all cancelled by us (notifications/cancelled sent). */
function isCancelledExchange(s, rec) {
    if (!rec.requestIds?.length) return false;
    const cancelled = new Set(s.sent.filter(x => x.msg.method === 'notifications/cancelled').map(x => x.msg.params?.requestId));
    return rec.requestIds.every(id => cancelled.has(id));
}

async function tapFetch(s, url, init = {}) {
    const method = (init.method ?? 'GET').toUpperCase();
    let bodyMsgs;
    if (typeof init.body === 'string') {
        try {
            const b = JSON.parse(init.body);
            bodyMsgs = Array.isArray(b) ? b : [b];
        } catch {
            /* not ours to judge */
        }
    }
    const requestIds = (bodyMsgs ?? []).filter(m => m && 'method' in m && 'id' in m).map(m => m.id);
    const hasRequest = requestIds.length > 0;
    const isInit = !!bodyMsgs?.some(m => m?.method === 'initialize');
    const what = bodyMsgs
        ? bodyMsgs.map(m => (m?.method === undefined ? `response to id ${short(m?.id)}` : 'id' in m ? `${m.method} id ${short(m.id)}` : m.method)).join(', ')
        : '';
    const rec = { method, what, requestIds, t: Date.now(), status: undefined, ctype: undefined };
    s.http.push(rec);
    const res = await fetch(url, init);
    rec.status = res.status;
    rec.ctype = res.headers.get('content-type');
    rec.sessionId = res.headers.get('mcp-session-id');
    const mt = mediaType(rec.ctype);
    // A request we cancelled (notifications/cancelled sent) gets no JSON-RPC
    // response; what becomes of its HTTP exchange is reported, not judged.
    if (isCancelledExchange(s, rec) && res.status !== 200) return res;
    const where = `${method}${what ? ` (${what})` : ''} -> HTTP ${res.status}${rec.ctype ? ` ${rec.ctype}` : ''}`;
    const problem = text => {
        s.rawProblems.push(`${where} (${Date.now() - rec.t} ms after it was sent): ${text}`);
        if (!res.ok) {
            const idx = s.rawProblems.length - 1;
            res.clone()
                .text()
                .then(b => (s.rawProblems[idx] += `; body ${short(b)}`))
                .catch(() => {});
        }
    };
    if (isInit && res.ok) s.initSessionId = rec.sessionId;
    let kind = 'other'; // how the body is tapped: sse, json, other (must be empty)
    if (method === 'POST' && hasRequest) {
        if (res.status !== 200) problem('a POST holding a request must be answered 200');
        else if (mt === 'application/json') kind = 'json';
        else if (mt === 'text/event-stream') {
            kind = 'sse';
            if (s.jsonOnly) problem('server in --json mode answered a request with an SSE stream');
        } else problem('Content-Type must be application/json or text/event-stream');
    } else if (method === 'POST') {
        if (res.status !== 202) problem('a POST of only notifications/responses must be answered 202 Accepted');
    } else if (method === 'GET') {
        if (res.status === 200) {
            if (mt === 'text/event-stream') kind = 'sse';
            else problem('the GET stream must be text/event-stream');
        } else if (res.status !== 405) problem('GET must open an SSE stream (or be 405)');
    }
    rec.stream = kind === 'sse' ? (method === 'GET' ? 'GET' : 'POST-SSE') : kind === 'json' ? 'POST-JSON' : undefined;
    if (!res.body || [101, 204, 205, 304].includes(res.status)) return res;
    if (!res.ok) return res; // an error body (read by the SDK for its message) is no MCP message
    const decoder = new TextDecoder();
    let text = '';
    let bytes = 0;
    const parser =
        kind === 'sse'
            ? new SseParser(ev => {
                  // A priming event (2025-11-25): an id to resume from, no message.
                  if (ev.data === '' && ev.id !== undefined) {
                      rec.primed = true;
                      return;
                  }
                  if (ev.event !== 'message') {
                      problem(`SSE event of type "${ev.event}" (the SDK ignores it): ${short(ev.data)}`);
                      return;
                  }
                  onHttpText(s, ev.data, `SSE data on ${where}`, rec.stream);
              })
            : undefined;
    const tap = new TransformStream({
        transform(chunk, controller) {
            bytes += chunk.byteLength;
            const t = decoder.decode(chunk, { stream: true });
            if (parser) parser.push(t);
            else text += t;
            controller.enqueue(chunk);
        },
        flush() {
            rec.ended = Date.now();
            const t = decoder.decode();
            if (parser) {
                parser.push(t, true);
                const left = parser.leftover();
                if (left) problem(`SSE stream ended inside an event: ${short(left)}`);
                rec.events = parser.events;
                return;
            }
            text += t;
            if (kind === 'json') {
                let v;
                try {
                    v = JSON.parse(text);
                } catch (e) {
                    s.rawCount++;
                    problem(`body is not JSON (${e.message}): ${short(text)}`);
                    return;
                }
                for (const m of Array.isArray(v) ? v : [v]) onHttpValue(s, m, JSON.stringify(m), `JSON body of ${where}`, rec.stream);
            } else if (bytes > 0) problem(`unexpected body: ${short(text)}`);
        }
    });
    const body = res.body.pipeThrough(tap);
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

function onHttpText(s, text, where, via) {
    let msg;
    try {
        msg = JSON.parse(text);
    } catch (e) {
        s.rawCount++;
        s.rawProblems.push(`${where}: not JSON (${e.message}): ${short(text)}`);
        return;
    }
    onHttpValue(s, msg, text, where, via);
}

function onHttpValue(s, msg, text, where, via) {
    s.rawCount++;
    if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) {
        s.rawProblems.push(`${where}: not a JSON object: ${short(text)}`);
        return;
    }
    onRawMessage(s, msg, text, via);
}

/**
 * Ends an HTTP session: transport.terminateSession() (DELETE with the session
 * id) must succeed with a 2xx status, then the transport is closed, and a
 * request on the old session id must then fail with HTTP 404.
 */
export async function closeHttpSession(tag, s) {
    s.closedByUs = true;
    const sid = s.transport.sessionId;
    const pv = s.transport.protocolVersion;
    check(typeof s.initSessionId === 'string' && /^[\x21-\x7e]+$/.test(s.initSessionId), `${tag} initialize response carried an Mcp-Session-Id (visible ASCII)`, () =>
        `got ${short(s.initSessionId)}`
    );
    const alive = httpServerAlive(s.srv) && !s.unexpectedClose;
    // SSE streams and HTTP exchanges of cancelled requests the server has not ended yet
    const open = () => s.http.filter(r => ((r.stream === 'GET' || r.stream === 'POST-SSE') && !r.ended) || (r.status === undefined && isCancelledExchange(s, r)));
    const describe = r => `${r.method} ${r.what || '(GET stream)'}${r.status === undefined ? ' (no HTTP response yet)' : ''}`;
    const lingering = open().filter(r => isCancelledExchange(s, r));
    if (lingering.length)
        diag(
            `${tag} NOTE: the HTTP exchange of the cancelled request(s) was still open when the session ended: ` +
                lingering.map(r => `${describe(r)}, sent ${Date.now() - r.t} ms ago`).join('; ')
        );
    if (alive && sid) {
        try {
            await withTimeout(s.transport.terminateSession(), REQUEST_TIMEOUT_MS, 'terminateSession (DELETE)');
            const del = s.http.filter(r => r.method === 'DELETE').pop();
            check(del && del.status >= 200 && del.status < 300, `${tag} transport.terminateSession(): DELETE answered 2xx`, () => `got HTTP ${del?.status}`);
            const ended = await waitFor(() => open().length === 0, 1000);
            check(ended, `${tag} after DELETE the server ended every SSE stream of the session within 1 s`, () =>
                `still open: ${open().map(describe).join('; ')}`
            );
            for (const r of lingering) diag(`${tag} after DELETE, ${describe(r)}: HTTP ${r.status ?? '-'}${r.ended ? ', stream ended' : ''}`);
        } catch (e) {
            notOk(`${tag} transport.terminateSession(): DELETE answered 2xx`, e?.message ?? String(e));
        }
    }
    s.transportClosed = true;
    try {
        await withTimeout(s.transport.close(), 8000, 'transport.close()');
    } catch (e) {
        notOk(`${tag} transport closed`, e.message);
    }
    liveTransports.delete(s.transport);
    s.srv.sessions.delete(s);
    if (alive && sid) {
        try {
            const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid };
            if (pv) headers['mcp-protocol-version'] = pv;
            const res = await fetch(s.srv.url, {
                method: 'POST',
                headers,
                body: JSON.stringify({ jsonrpc: '2.0', id: 'after-delete', method: 'ping' }),
                signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS)
            });
            const body = await res.text().catch(() => '');
            check(res.status === 404, `${tag} ping on the deleted session id -> HTTP 404`, () => `got HTTP ${res.status}: ${short(body)}`);
        } catch (e) {
            notOk(`${tag} ping on the deleted session id -> HTTP 404`, e?.message ?? String(e));
        }
    }
}

// ------------------------------------------------ transport-level sessions
export class RawClient {
    constructor(s) {
        this.s = s;
        this.nextId = 1;
        this.pending = new Map();
        /** optional hooks; by default requests get -32601 and notifications are printed */
        this.onServerRequest = undefined;
        this.onNotification = undefined;
        const t = s.transport;
        t.onmessage = msg => this.onMessage(msg);
        t.onerror = err => {
            s.transportErrors.push(err?.message ?? String(err));
        };
        t.onclose = () => {
            if (!s.closedByUs) s.unexpectedClose = true;
            for (const [, p] of this.pending) p.reject(new Error('server process closed the connection'));
            this.pending.clear();
        };
        s.onChildExit = () => {
            for (const [, p] of this.pending) p.reject(new Error(`server process exited (${s.exitInfo})`));
            this.pending.clear();
        };
        s.onRejectedResponse = (id, why) => {
            const p = this.pending.get(id);
            if (p) {
                this.pending.delete(id);
                p.reject(new Error(`response to id ${id} rejected by SDK JSONRPCMessageSchema:\n${why}`));
            }
        };
    }
    onMessage(msg) {
        this.s.sdkCount++;
        if ('method' in msg) {
            if ('id' in msg) {
                if (this.onServerRequest) return this.onServerRequest(msg);
                diag(`server sent request ${msg.method}; answering -32601`);
                this.s.transport
                    .send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'not supported by test client' } })
                    .catch(() => {});
            } else {
                if (this.onNotification) return this.onNotification(msg);
                diag(`server notification: ${short(msg)}`);
            }
            return;
        }
        const p = this.pending.get(msg.id);
        if (!p) {
            this.s.rawProblems.push(`response with unknown id: ${short(msg)}`);
            return;
        }
        this.pending.delete(msg.id);
        p.resolve(msg);
    }
    /** Sends a request; resolves to the RAW response object as written by the server. */
    async request(method, params) {
        const id = this.nextId++;
        const req = { jsonrpc: '2.0', id, method };
        if (params !== undefined) req.params = params;
        const answered = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
        answered.catch(() => {}); // may reject (server exit) while send() is still pending
        try {
            await withTimeout(
                // all(): a send() stuck waiting for 'drain' (EPIPE) must not hide a rejection
                Promise.all([this.s.transport.send(req), answered]),
                REQUEST_TIMEOUT_MS,
                `${method} (id ${id})`
            );
        } finally {
            this.pending.delete(id);
        }
        const raw = this.s.rawById.get(id);
        if (!raw) throw new Error(`SDK delivered a response to ${method} that the raw ${this.s.kind === 'http' ? 'HTTP' : 'stdout'} tap did not see`);
        return raw;
    }
    notify(method, params) {
        const n = { jsonrpc: '2.0', method };
        if (params !== undefined) n.params = params;
        return withTimeout(this.s.transport.send(n), REQUEST_TIMEOUT_MS, `notification ${method}`);
    }
}

/** The name under which the SDK's types.js exports `schema` (for messages). */
export function schemaName(schema) {
    for (const [n, sch] of Object.entries(sdkTypes)) {
        if (sch === schema && n.endsWith('Schema')) return n;
    }
    return 'schema';
}

/**
 * Checks a response: it is a result (not an error), and the result validates
 * against `schema`. Returns the parsed (schema output) result or undefined.
 */
export function expectResult(tag, what, raw, schema) {
    if (!check('result' in raw, `${tag} ${what}: answered with a result`, () => `got ${short(raw)}`)) return undefined;
    const r = schema.safeParse(raw.result);
    if (!check(r.success, `${tag} ${what}: result matches ${schemaName(schema)}`, () => `${zodErr(r.error)}\nresult: ${short(raw.result)}`))
        return undefined;
    return r.data;
}

export async function step(tag, what, fn) {
    try {
        return await fn();
    } catch (e) {
        notOk(`${tag} ${what}`, e?.message ?? String(e));
        return undefined;
    }
}

export async function closeSession(tag, s, { expectExitOnEof = true } = {}) {
    s.closedByUs = true;
    const child = s.child;
    try {
        await withTimeout(s.transport.close(), 8000, 'transport.close()');
    } catch (e) {
        notOk(`${tag} transport closed`, e.message);
    }
    liveTransports.delete(s.transport);
    if (child && child.exitCode === null && child.signalCode === null) {
        try {
            child.kill('SIGKILL');
        } catch {
            /* ignore */
        }
    }
    if (expectExitOnEof && child) {
        // StdioClientTransport.close() ends stdin, waits 2 s, then SIGTERMs
        check(
            child.exitCode !== null && child.signalCode === null,
            `${tag} server exited by itself when stdin was closed`,
            () => `exitCode=${child.exitCode} signal=${child.signalCode}`
        );
    }
}

export function sessionFinalChecks(tag, s) {
    check(s.transportErrors.length === 0, `${tag} SDK transport reported no errors (onerror)`, () => s.transportErrors.join('\n'));
    if (s.kind === 'http') {
        if (s.ignoredErrors.length)
            diag(`${tag} ignored ${s.ignoredErrors.length} SDK transport error(s) caused by close() or by the end of a cancelled request's exchange: ${short(s.ignoredErrors.join(' | '))}`);
        check(
            s.rawProblems.length === 0,
            `${tag} every HTTP exchange has the expected status/Content-Type; every message in a JSON body or SSE event is a valid JSON-RPC message with no extra envelope keys`,
            () => s.rawProblems.join('\n')
        );
        check(s.sdkCount === s.rawCount, `${tag} SDK transport delivered every message the server sent (${s.sdkCount}/${s.rawCount})`);
        const count = st => s.http.filter(r => r.stream === st).length;
        diag(`${tag} HTTP: ${s.http.length} exchanges; requests answered with JSON ${count('POST-JSON')}, with SSE ${count('POST-SSE')}; GET streams ${count('GET')}`);
        const via = {};
        for (const { msg, via: v } of s.received) if ('method' in msg) via[`${msg.method} on ${v}`] = (via[`${msg.method} on ${v}`] ?? 0) + 1;
        if (Object.keys(via).length) diag(`${tag} server requests/notifications by stream: ${Object.entries(via).map(([k, n]) => `${k}: ${n}`).join(', ')}`);
    } else {
        check(s.rawProblems.length === 0, `${tag} every stdout line is a valid JSON-RPC message with no extra envelope keys`, () =>
            s.rawProblems.join('\n')
        );
        check(s.partial.length === 0, `${tag} no unterminated output left on stdout`, () => `trailing bytes: ${short(s.partial.toString('utf8'))}`);
        check(s.sdkCount === s.rawCount, `${tag} SDK transport delivered every stdout line (${s.sdkCount}/${s.rawCount})`);
    }
    check(!s.unexpectedClose, `${tag} server did not exit before the client closed it`, s.exitInfo && `exit ${s.exitInfo}`);
    if (failedSince(s) && s.stderr.trim()) diag(`server stderr (${tag}):\n${s.stderr.trimEnd().split('\n').slice(-20).join('\n')}`);
}
export function failedSince(s) {
    return failed > s.failedAtStart;
}

// ------------------------------------------- the official conformance suite
// Helpers of conformance_server.mjs and conformance_client.mjs, which run the
// CLI of @modelcontextprotocol/conformance (pinned in package.json). Each
// start of that CLI costs about 1.4 s of CPU (Node loading its bundle), so a
// selection the CLI can name itself (`--requirements V`, `--suite NAME`) runs
// in ONE CLI process (ConformanceRun.batch), whose result folders are mapped
// back to their scenarios (resultFolders); any other scenario runs in a CLI
// process of its own. Every process they start leads a process group of its
// own (spawnGroup), and those groups are killed on every exit path of the
// script (ConformanceRun.installHandlers / finish).

export const INTEROP_DIR = path.dirname(fileURLToPath(import.meta.url));
export const SUITE_CLI = path.join(INTEROP_DIR, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
/** 0.2.0-alpha.12 of the suite, installed under the npm alias `conformance-next` (`--suite next`). */
export const SUITE_NEXT_CLI = path.join(INTEROP_DIR, 'node_modules', 'conformance-next', 'dist', 'index.js');
/** Lets the suite's CLI load on Node 20 (see lib/node20-compat.mjs). */
export const SUITE_COMPAT = path.join(INTEROP_DIR, 'lib', 'node20-compat.mjs');

/** `s` as a folder name: anything but letters, digits, `.`, `_` and `-` made `_`. */
const safeName = s => s.replace(/[^A-Za-z0-9._-]/g, '_');
export const stripAnsi = s => s.replace(/\x1b\[[0-9;?]*[ -\/]*[@-~]/g, '');
export const oneLine = s => String(s ?? '').replace(/\s+/g, ' ').trim();

/** Keeps the last `max` lines written to a stream. */
export class Tail {
    constructor(max = 40) {
        this.max = max;
        this.lines = [];
        this.partial = '';
    }
    push(chunk) {
        const parts = (this.partial + chunk.toString('utf8')).split('\n');
        this.partial = parts.pop();
        if (this.partial.length > 4000) this.partial = this.partial.slice(-4000);
        for (const p of parts) this.lines.push(p.length > 400 ? p.slice(0, 400) + '...' : p);
        if (this.lines.length > this.max) this.lines.splice(0, this.lines.length - this.max);
    }
    text() {
        return stripAnsi([...this.lines, this.partial].filter(l => l.length > 0).join('\n'));
    }
}

/** Live child processes started by spawnGroup (each leads its own process group). */
export const groupChildren = new Set();

/** Starts a process as the leader of a new process group (stdin ignored, stdout/stderr piped). */
export function spawnGroup(command, args, options = {}) {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...options });
    groupChildren.add(child);
    child.on('exit', () => groupChildren.delete(child));
    child.on('error', () => groupChildren.delete(child));
    return child;
}

/** Signals the child's whole process group (the command and anything it forked). */
export function killGroup(child, signal = 'SIGKILL') {
    if (!child || child.pid === undefined) return;
    try {
        process.kill(-child.pid, signal);
    } catch {
        try {
            child.kill(signal);
        } catch {
            /* already gone */
        }
    }
}

/** Whether the process group led by `child` still has members (the leader may be gone). */
export function groupAlive(child) {
    if (!child || child.pid === undefined) return false;
    try {
        process.kill(-child.pid, 0);
        return true;
    } catch {
        return false;
    }
}

/** SIGKILLs every live process group started by spawnGroup. */
export function killGroupsNow() {
    for (const c of groupChildren) killGroup(c, 'SIGKILL');
    groupChildren.clear();
}

/** The first checks.json under `dir` (the suite writes DIR/<scenario>-<timestamp>/checks.json). */
export function findChecksJson(dir) {
    let entries;
    try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
        return undefined;
    }
    for (const e of entries) if (e.isFile() && e.name === 'checks.json') return path.join(dir, e.name);
    for (const e of entries) {
        if (!e.isDirectory()) continue;
        const found = findChecksJson(path.join(dir, e.name));
        if (found) return found;
    }
    return undefined;
}

// The suite names a scenario's result folder `<prefix><scenario>-<time>`, the
// time being new Date().toISOString() with ':' and '.' made '-'.
const RESULT_TIME = /-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/**
 * The result folders the suite made under `dir`, by scenario: Map name ->
 * folder. The suite makes DIR/<prefix><scenario>-<time>/ when it starts a
 * scenario (a `/` in the name nests folders: DIR/auth/metadata-default-<time>)
 * and writes checks.json into it when the scenario is done. Only the trailing
 * time is cut off, so a name that is the start of another (tools-call vs
 * tools-call-error) maps to its own folder.
 */
function resultFolders(dir, prefix = '') {
    const folders = new Map();
    const walk = rel => {
        let entries;
        try {
            entries = fs.readdirSync(path.join(dir, rel), { withFileTypes: true });
        } catch {
            return;
        }
        for (const e of entries) {
            if (!e.isDirectory()) continue;
            const sub = rel ? `${rel}/${e.name}` : e.name;
            if (RESULT_TIME.test(e.name) && sub.startsWith(prefix)) folders.set(sub.slice(prefix.length).replace(RESULT_TIME, ''), path.join(dir, sub));
            else walk(sub);
        }
    };
    walk('');
    return folders;
}

/** Up to `max` lines of `text` from the line `first` on (the last `max` lines when there is no such line). */
export function excerpt(text, first, max = 20) {
    const lines = text.split('\n').filter(l => l.trim());
    const at = lines.findIndex(l => l.trim() === first);
    return (at < 0 ? lines.slice(-max) : lines.slice(at, at + max)).join('\n');
}

/** Why a scenario has no checks.json when its CLI run was killed after `secs` seconds. */
export const killedWhy = secs => `killed after ${secs} s (scenario timeout or whole-run deadline)`;

/** How a scenario is named in the report: `V NAME` in a pass of spec version V, else `NAME`. */
export const scenarioLabel = (scenario, version) => (version ? `${version} ${scenario}` : scenario);

/**
 * What a ConformanceRun.batch() run `b` says about `scenario`: undefined when
 * it did not start it (so it is to run on its own), else { t: tallyChecks of
 * its folder, noChecks: why there is no checks.json (undefined if there is
 * one): killed while it ran, or the suite did not write it }.
 */
function batchOutcome(b, scenario) {
    if (!b.started.has(scenario)) return undefined;
    const t = tallyChecks(b.folders.get(scenario)); // no folder: no checks.json
    if (t.file) return { t, noChecks: undefined };
    const secs = ((b.endedAt - b.started.get(scenario)) / 1000).toFixed(1);
    return { t, noChecks: b.r.timedOut || b.r.stopped ? killedWhy(secs) : 'the suite did not write it' };
}

/** One line describing a check of checks.json. */
export function checkMessage(c) {
    const msg = c.errorMessage ?? c.details?.message ?? c.details?.error ?? c.description ?? c.name ?? '';
    const m = oneLine(typeof msg === 'string' ? msg : JSON.stringify(msg));
    return m.length > 500 ? m.slice(0, 500) + '...' : m;
}

/**
 * Reads the checks.json under `outDir` and counts it as the suite does:
 * SUCCESS = passed, FAILURE = failed, WARNING / SKIPPED (0.2 only) / INFO not
 * counted. Returns { file, checks, pass, fail, warn, skipped, lines }: `file`
 * undefined when there is none, `checks` undefined when there is none or it
 * is unreadable (which counts as 1 failed); `lines` holds `    - id: message`
 * per failure and `    ~ id (warning): message` per warning.
 */
export function tallyChecks(outDir) {
    const t = { file: findChecksJson(outDir), checks: undefined, pass: 0, fail: 0, warn: 0, skipped: 0, lines: [] };
    if (!t.file) return t;
    try {
        const checks = JSON.parse(fs.readFileSync(t.file, 'utf8'));
        if (!Array.isArray(checks)) throw new Error('not a JSON array');
        t.checks = checks;
    } catch (err) {
        t.lines.push(`    - (checks.json): unreadable: ${err.message}`);
        t.fail++;
        return t;
    }
    for (const c of t.checks) {
        if (c?.status === 'SUCCESS') t.pass++;
        else if (c?.status === 'FAILURE') {
            t.fail++;
            t.lines.push(`    - ${c.id ?? '(no id)'}: ${checkMessage(c)}`);
        } else if (c?.status === 'WARNING') {
            t.warn++;
            t.lines.push(`    ~ ${c.id ?? '(no id)'} (warning): ${checkMessage(c)}`);
        } else if (c?.status === 'SKIPPED') t.skipped++;
    }
    return t;
}

/**
 * The scenario names of a `conformance list --requirements V` output
 * (0.2.0-alpha): `scored` = the `  - NAME` entries under the "Server
 * scenarios" or "Client scenarios" heading of `kind`; `notScored` = the
 * entries of `kind` under "Run and reported, but never scored:" (printed
 * `    - NAME [server|client]` below a `  REASON (N):` line), as
 * { name, reason }. An entry marked "not scored" anywhere counts as not
 * scored. The CLI prints both kinds whatever --server/--client says.
 */
export function parseRequirementsListing(text, kind) {
    const scored = [];
    const notScored = [];
    let section; // 'server' | 'client' | 'not-scored' | undefined
    let reason = '';
    for (const raw of stripAnsi(text).split('\n')) {
        const line = raw.replace(/\s+$/, '');
        if (/^Server scenarios\b/.test(line)) section = 'server';
        else if (/^Client scenarios\b/.test(line)) section = 'client';
        else if (/^Run and reported, but never scored/i.test(line)) section = 'not-scored';
        else if (/^\S/.test(line)) section = undefined; // "Required for V (...)" and anything else
        else {
            const item = /^\s+-\s+(\S+)(.*)$/.exec(line);
            if (!item) {
                const heading = /^\s+(\S.*?)\s*\(\d+\):$/.exec(line);
                if (heading && section === 'not-scored') reason = heading[1];
                continue;
            }
            const [, name, rest] = item;
            const leg = /\[(server|client)\]/.exec(rest)?.[1];
            const marked = /\[not scored(?::\s*([^\]]*))?\]/i.exec(rest);
            if (section === 'not-scored' || marked) {
                if ((leg ?? section) === kind || (!leg && section === 'not-scored')) notScored.push({ name, reason: marked?.[1] ?? reason });
            } else if (section === kind) scored.push(name);
        }
    }
    return { scored, notScored };
}

/**
 * The bookkeeping of one conformance run: counts, the per-scenario report,
 * the results folder, the whole-run deadline, running the suite's CLI, and
 * finish(): kill everything, print `<summary>: N passed, M failed`, exit 0 iff
 * M == 0 and N >= minPassed (1 otherwise).
 *
 * With groups (defineGroups: one per spec version of `--suite next`) every
 * report also counts for the group begun last, and finish() prints one
 * `<summary> <group>: N passed, M failed` line per group instead (in the
 * order defined), exit 0 iff every group has M == 0 and N >= its minimum.
 * A failure given to finish() counts for every group not completed yet
 * (the one running and those never begun).
 */
export class ConformanceRun {
    constructor({ summary, minPassed, totalTimeout, suiteCli = SUITE_CLI }) {
        this.summary = summary;
        this.minPassed = minPassed;
        this.totalTimeout = totalTimeout;
        this.suiteCli = suiteCli;
        /** name -> { name, minPassed, passed, failed, state: 'pending'|'running'|'done' }; undefined = no groups */
        this.groups = undefined;
        this.group = undefined;
        this.passed = 0;
        this.failed = 0;
        this.finished = false;
        this.resultsDir = undefined;
        this.removeResultsOnSuccess = false;
        this.startedAt = Date.now();
        this.deadline = this.startedAt + totalTimeout * 1000;
        /** children whose process groups are killed at the end even after the child itself exited */
        this.groupLeaders = [];
    }

    /**
     * Makes every exit path kill all process groups: SIGINT/SIGTERM/SIGHUP,
     * uncaught exceptions and unhandled rejections end the run with one more
     * failure; process 'exit' is the last resort. Arms the whole-run backstop
     * (the CLI timeouts are clipped to the deadline already).
     */
    installHandlers() {
        process.on('exit', () => {
            killGroupsNow();
            for (const c of this.groupLeaders) killGroup(c, 'SIGKILL');
        });
        for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => this.finish(`interrupted by ${sig}`));
        process.on('uncaughtException', err => this.finish(`uncaught exception: ${err?.stack ?? err}`));
        process.on('unhandledRejection', err => this.finish(`unhandled rejection: ${err?.stack ?? err}`));
        setTimeout(() => this.finish(`whole run exceeded ${this.totalTimeout} s`), this.totalTimeout * 1000 + 15_000).unref();
    }

    /** Uses `dir` for the suite's output, or a temporary folder (removed if the run passes). */
    useResults(dir, prefix) {
        if (dir) {
            this.resultsDir = dir;
            fs.mkdirSync(dir, { recursive: true });
        } else {
            this.resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
            this.removeResultsOnSuccess = true;
        }
        return this.resultsDir;
    }

    /** Counts from now on also per group: `groups` = [{ name, minPassed }], in the order of the summary lines. */
    defineGroups(groups) {
        this.groups = new Map(groups.map(({ name, minPassed }) => [name, { name, minPassed, passed: 0, failed: 0, state: 'pending' }]));
    }

    /** Ends the running group (if any) and makes `name` the one reports count for. */
    beginGroup(name) {
        this.endGroup();
        this.group = this.groups.get(name);
        this.group.state = 'running';
    }

    /**
     * Begins the pass of spec version `version` (`--suite next`): its group
     * and the `# --- V: ...` line saying what runs and how (`batched`: in one
     * suite process, which also runs the not-scored scenarios, not counted;
     * else one process per scenario, the not-scored ones not run).
     */
    beginPass({ version, scenarios, notScored }, batched) {
        this.beginGroup(version);
        const what = version === EXTENSION_SET ? 'extension scenarios (not scored by the suite)' : `scored scenarios at the ${version} wire`;
        const how = batched ? 'in one suite process' : 'one suite process each';
        const skipped = notScored.length && !batched ? `; not scored, not run: ${notScored.map(n => `${n.name} (${n.reason})`).join(', ')}` : '';
        diag(`--- ${version}: ${scenarios.length} ${what}, ${how}${skipped}`);
    }

    endGroup() {
        if (this.group) this.group.state = 'done';
        this.group = undefined;
    }

    /** A fresh, empty output folder for one scenario (below the folder `sub`, if given). */
    scenarioDir(scenario, sub) {
        return this.freshDir(safeName(scenario), sub);
    }

    /**
     * A fresh, empty folder `name` below the results (below the folder `sub`
     * there, if given). A name with a `+` (`+batch`) is never a scenarioDir().
     */
    freshDir(name, sub) {
        const dir = path.join(this.resultsDir, sub ? safeName(sub) : '', name);
        fs.rmSync(dir, { recursive: true, force: true });
        fs.mkdirSync(dir, { recursive: true });
        return dir;
    }

    /** Milliseconds left before the whole-run deadline. */
    remainingMs() {
        return this.deadline - Date.now();
    }

    /** Prints `ok|FAIL <scenario>: a passed, b failed[, w warnings]` + details; adds to the totals. */
    report(scenario, { ok, pass, fail, warn, skipped, lines }) {
        if (this.finished) return; // interrupted: the summary is already being printed
        this.passed += pass;
        this.failed += fail;
        if (this.group) {
            this.group.passed += pass;
            this.group.failed += fail;
        }
        console.log(
            `${ok ? 'ok' : 'FAIL'} ${scenario}: ${pass} passed, ${fail} failed${warn ? `, ${warn} warnings` : ''}${skipped ? `, ${skipped} skipped` : ''}`
        );
        for (const l of lines) console.log(l);
    }

    notRun(scenario, why) {
        this.report(scenario, { ok: false, pass: 0, fail: 1, warn: 0, lines: [`    - (not run): ${why}`] });
    }

    /**
     * Runs the suite's CLI in a process group of its own, SIGKILLed (the whole
     * group) after `timeoutMs` or when `signal` (an AbortSignal) aborts. When
     * the CLI exits, whatever it left running in its group (e.g. a client
     * command) is killed too. `onLine` gets each line of its stdout and of its
     * stderr as it comes, without ANSI colours. Resolves { code, signal,
     * timedOut, stopped, leftovers, out, text }: `stopped` = killed through
     * `signal`, `out` = the last `tailLines` lines of stdout+stderr, `text` =
     * all of it (up to 4 MB), both without ANSI colours; `leftovers` =
     * processes of the group outlived the CLI. Never settles once the run is
     * finishing (finish() kills it).
     */
    cli(cliArgs, timeoutMs, { cwd = INTEROP_DIR, tailLines = 60, onLine, signal: stop } = {}) {
        if (this.finished) return new Promise(() => {});
        return new Promise(resolve => {
            const tail = new Tail(tailLines);
            let text = '';
            const keep = d => {
                tail.push(d);
                if (text.length < 4 * 1024 * 1024) text += d.toString('utf8');
            };
            const lines = () => {
                let partial = '';
                return d => {
                    keep(d);
                    const parts = (partial + d.toString('utf8')).split('\n');
                    partial = parts.pop();
                    for (const l of parts) onLine(stripAnsi(l));
                };
            };
            let child;
            try {
                child = spawnGroup(process.execPath, ['--import', SUITE_COMPAT, this.suiteCli, ...cliArgs], {
                    cwd,
                    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }
                });
            } catch (err) {
                resolve({ code: null, signal: null, timedOut: false, stopped: false, leftovers: false, out: `spawn error: ${err.message}`, text: '' });
                return;
            }
            let timedOut = false;
            let stopped = false;
            let leftovers = false;
            const timer = setTimeout(() => {
                timedOut = true;
                killGroup(child, 'SIGKILL');
            }, Math.max(0, timeoutMs));
            const onStop = () => {
                stopped = true;
                killGroup(child, 'SIGKILL');
            };
            stop?.addEventListener('abort', onStop, { once: true });
            child.stdout.on('data', onLine ? lines() : keep);
            child.stderr.on('data', onLine ? lines() : keep);
            // a process left in the group may hold the pipes open: kill it so that 'close' comes
            child.on('exit', () => {
                if (!timedOut && !stopped && !this.finished && groupAlive(child)) {
                    leftovers = true;
                    killGroup(child, 'SIGKILL');
                }
            });
            let done = false;
            const end = (code, signal, extra) => {
                if (done) return;
                done = true;
                clearTimeout(timer);
                stop?.removeEventListener('abort', onStop);
                if (this.finished) return; // killed by finish(): the caller is not to go on
                if (extra) keep(`\n${extra}\n`);
                resolve({ code, signal, timedOut, stopped, leftovers, out: tail.text(), text: stripAnsi(text) });
            };
            child.on('error', err => end(null, null, `spawn error: ${err.message}`));
            child.on('close', (code, signal) => end(code, signal));
        });
    }

    /**
     * Runs the suite's CLI ONCE for a selection it names itself (`args`, which
     * name `dir` as its output folder), bounded by `timeoutMs`. The CLI
     * prints a line matching `startLine` (group 1: the scenario) as it starts
     * a scenario; there `stopAt(name)` may stop the run (true: that scenario
     * counts as not started), and a scenario that runs longer than `stallMs`
     * (when given) stops it too. Resolves { r: as cli(), started: Map
     * scenario -> when it started (ms), endedAt, folders: resultFolders(dir,
     * prefix) }, which batchOutcome() reads.
     */
    async batch(args, dir, { timeoutMs, startLine, prefix, stallMs, stopAt = () => false, cwd }) {
        const started = new Map();
        const stop = new AbortController();
        let stall;
        const onLine = line => {
            const name = startLine.exec(line)?.[1];
            // (the first line only: a client's output, which the suite may echo, could repeat it)
            if (name === undefined || started.has(name) || stop.signal.aborted) return;
            if (stopAt(name)) return stop.abort();
            started.set(name, Date.now());
            clearTimeout(stall);
            if (stallMs !== undefined) stall = setTimeout(() => stop.abort(), stallMs);
        };
        const r = await this.cli(args, timeoutMs, { cwd, onLine, signal: stop.signal });
        clearTimeout(stall);
        return { r, started, endedAt: Date.now(), folders: resultFolders(dir, prefix) };
    }

    /**
     * Reports what the batch() run `b` did for `pass` ({ version, scenarios,
     * notScored }): `reportOne(scenario, outcome)` (batchOutcome) reports
     * each scenario of the pass it started, in the order of the pass, and
     * says whether that scenario explains a non-zero exit of the CLI (a
     * failure the CLI counts). A `#` line gives the counts of each scenario
     * it ran beyond the pass (the not-scored ones of `--requirements V`),
     * which count for nothing. A CLI that exited non-zero by itself with no
     * scenario to explain it counts 1 failed, as `[V ](suite run)`: what a
     * non-zero exit without a FAILURE check is for a scenario run on its own.
     * Returns the scenarios of the pass it did not start.
     */
    reportBatch(b, { version, scenarios, notScored }, reportOne) {
        const notStarted = [];
        let explained = false;
        for (const scenario of scenarios) {
            const o = batchOutcome(b, scenario);
            if (o) explained = reportOne(scenario, o) || explained;
            else notStarted.push(scenario);
        }
        for (const [name, folder] of b.folders) {
            if (scenarios.includes(name)) continue;
            const t = tallyChecks(folder);
            const counts = t.checks ? `${t.pass} passed, ${t.fail} failed${t.warn ? `, ${t.warn} warnings` : ''}` : 'no checks.json';
            const reason = notScored.find(n => n.name === name)?.reason;
            diag(`not counted: ${scenarioLabel(name, version)}: ${counts}${reason ? ` (not scored: ${reason})` : ''}`);
        }
        const { r } = b;
        if (!explained && r.code !== 0 && !r.timedOut && !r.stopped) {
            const why = `    - (cli): the suite exited with ${r.code ?? r.signal} without a failed scenario to show for it`;
            this.report(scenarioLabel('(suite run)', version), { ok: false, pass: 0, fail: 1, warn: 0, lines: [why, ...r.out.split('\n').map(l => `#   ${l}`)] });
        }
        return notStarted;
    }

    /**
     * The scenario names of `conformance list --server|--client`, only those
     * tagged `[tag]` (e.g. `extension`) when given; finishes the run if that fails.
     */
    async listScenarios(kind, tag) {
        const r = await this.cli(['list', `--${kind}`], Math.min(60_000, this.remainingMs()));
        const names = [];
        for (const line of r.text.split('\n')) {
            const m = /^\s+-\s+(\S+)(?:\s+\[([^\]]*)\])?/.exec(line);
            if (m && (!tag || (m[2] ?? '').split(',').includes(tag))) names.push(m[1]);
        }
        if (r.code !== 0 || names.length === 0) {
            await this.finish(`\`conformance list --${kind}\` failed (${r.timedOut ? 'timed out' : `exit ${r.code ?? r.signal}`}):\n${r.out}`);
        }
        return names;
    }

    /**
     * The scenarios of `kind` ('server' | 'client') in the alpha suite's
     * requirement set for `version` (`list --<kind> --requirements V`):
     * { scored, notScored } as parseRequirementsListing gives them; finishes
     * the run if the listing fails or names no scored scenario of `kind`.
     */
    async listRequirements(kind, version) {
        const args = ['list', `--${kind}`, '--requirements', version];
        const r = await this.cli(args, Math.min(60_000, this.remainingMs()));
        const listing = parseRequirementsListing(r.text, kind);
        if (r.code !== 0 || listing.scored.length === 0) {
            await this.finish(
                `\`conformance ${args.join(' ')}\` failed (${r.timedOut ? 'timed out' : `exit ${r.code ?? r.signal}`}, ${listing.scored.length} scored ${kind} scenarios):\n${r.out}`
            );
        }
        return listing;
    }

    /** Also kill the process group of `child` at the end, even after `child` exited. */
    killAtEnd(child) {
        if (child) this.groupLeaders.push(child);
    }

    /**
     * Kills everything (waiting up to 1 s for it to go away), prints the
     * summary line, exits. Returns a promise that never settles, so
     * `await run.finish(...)` stops the caller.
     */
    finish(extraFailure) {
        const never = new Promise(() => {});
        if (this.finished) return never;
        this.finished = true;
        if (extraFailure) {
            this.failed++;
            if (this.groups) for (const g of this.groups.values()) if (g.state !== 'done') g.failed++;
            diag(extraFailure);
        }
        const dying = [...groupChildren];
        for (const c of this.groupLeaders) if (c.exitCode === null && c.signalCode === null && !dying.includes(c)) dying.push(c);
        killGroupsNow();
        for (const c of this.groupLeaders) killGroup(c, 'SIGKILL'); // whatever they forked, too
        const gone = dying.map(c =>
            c.exitCode !== null || c.signalCode !== null || c.pid === undefined
                ? Promise.resolve()
                : new Promise(resolve => {
                      c.once('exit', resolve);
                      c.once('error', resolve);
                  })
        );
        const wait = new Promise(resolve => setTimeout(resolve, 1000).unref());
        Promise.race([Promise.all(gone), wait]).then(() => {
            const groups = this.groups ? [...this.groups.values()] : undefined;
            let good;
            if (groups) {
                good = this.failed === 0 && groups.every(g => g.failed === 0 && g.passed >= g.minPassed);
                for (const g of groups) {
                    if (g.failed === 0 && g.passed < g.minPassed)
                        diag(`${g.name}: only ${g.passed} checks passed, at least ${g.minPassed} required (--min-passed)`);
                }
            } else {
                good = this.failed === 0 && this.passed >= this.minPassed;
                if (this.failed === 0 && this.passed < this.minPassed)
                    diag(`only ${this.passed} checks passed, at least ${this.minPassed} required (--min-passed)`);
            }
            if (this.resultsDir) {
                if (good && this.removeResultsOnSuccess) fs.rmSync(this.resultsDir, { recursive: true, force: true });
                else diag(`results: ${this.resultsDir}`);
            }
            diag(`took ${((Date.now() - this.startedAt) / 1000).toFixed(1)} s`);
            if (groups) for (const g of groups) console.log(`${this.summary} ${g.name}: ${g.passed} passed, ${g.failed} failed`);
            else console.log(`${this.summary}: ${this.passed} passed, ${this.failed} failed`);
            process.exit(good ? 0 : 1);
        });
        return never;
    }
}
