// Shared helpers of the interop scripts that drive a stdio MCP server with the
// official TypeScript SDK (ts_client_stdio.mjs, ts_client_features.mjs):
// TAP-like reporting, deadlines, an independent tap on the server's stdout
// that validates every line, a transport-level client with its own request
// ids, and session teardown that kills every child on every exit path.
//
// Reporting: one "ok - ..." / "not ok - ..." line per check, diagnostics as
// "# ..." lines, last line "N passed, M failed"; exit 0 iff M == 0.

import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as sdkTypes from '@modelcontextprotocol/sdk/types.js';

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
export function killAll() {
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
 * Returns { command, args }; makeSession() starts that command by default.
 */
export function startHarness({ usage, scriptTimeoutMs }) {
    const argv = process.argv.slice(2);
    if (argv.length === 0) {
        console.error(usage);
        process.exit(2);
    }
    const [command, ...args] = argv;
    server = { command, args };
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
    s.received.push({ msg, t: Date.now() });
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
        if (!raw) throw new Error(`SDK delivered a response to ${method} that the raw stdout tap did not see`);
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
    check(s.rawProblems.length === 0, `${tag} every stdout line is a valid JSON-RPC message with no extra envelope keys`, () =>
        s.rawProblems.join('\n')
    );
    check(s.partial.length === 0, `${tag} no unterminated output left on stdout`, () => `trailing bytes: ${short(s.partial.toString('utf8'))}`);
    check(s.sdkCount === s.rawCount, `${tag} SDK transport delivered every stdout line (${s.sdkCount}/${s.rawCount})`);
    check(!s.unexpectedClose, `${tag} server did not exit before the client closed it`, s.exitInfo && `exit ${s.exitInfo}`);
    if (failedSince(s) && s.stderr.trim()) diag(`server stderr (${tag}):\n${s.stderr.trimEnd().split('\n').slice(-20).join('\n')}`);
}
export function failedSince(s) {
    return failed > s.failedAtStart;
}
