#!/usr/bin/env node
// Interop test: the official TypeScript MCP SDK (pinned in package.json) as a
// client of a stdio MCP server (Caduceus' counter-server).
//
//   node ts_client_stdio.mjs <server-command> [args...]
//
// Part 1 (once per protocol version 2024-11-05, 2025-03-26, 2025-06-18,
// 2025-11-25, plus one unsupported version): a fresh server process driven at
// the transport level (StdioClientTransport) so the offered protocolVersion can
// be chosen. Every line the server writes to stdout is checked to be a JSON-RPC
// message (SDK JSONRPCMessageSchema + no extra envelope keys) and every response
// is validated against the SDK's result schema for its method.
// Part 2: the high-level SDK Client (negotiates the SDK's latest version).
//
// Output: one "ok - ..." / "not ok - ..." line per check, diagnostics as
// "# ..." lines, last line "N passed, M failed". Exit 0 iff M == 0.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
    JSONRPCMessageSchema,
    InitializeResultSchema,
    EmptyResultSchema,
    ListToolsResultSchema,
    CallToolResultSchema,
    LATEST_PROTOCOL_VERSION,
    SUPPORTED_PROTOCOL_VERSIONS
} from '@modelcontextprotocol/sdk/types.js';

const REQUEST_TIMEOUT_MS = 10_000;
const SCRIPT_TIMEOUT_MS = 60_000;
const VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const UNSUPPORTED_VERSION = '1999-01-01';
const SERVER_LATEST = '2025-11-25';
const CLIENT_INFO = { name: 'caduceus-interop-ts-client', version: '0.1.0' };

const argv = process.argv.slice(2);
if (argv.length === 0) {
    console.error('usage: node ts_client_stdio.mjs <server-command> [args...]');
    process.exit(2);
}
const [serverCommand, ...serverArgs] = argv;

// ---------------------------------------------------------------- reporting
let passed = 0;
let failed = 0;
let finished = false;

function ok(name) {
    passed++;
    console.log(`ok - ${name}`);
}
function notOk(name, detail) {
    failed++;
    console.log(`not ok - ${name}`);
    if (detail !== undefined) diag(detail);
}
function check(cond, name, detail) {
    if (cond) ok(name);
    else notOk(name, typeof detail === 'function' ? detail() : detail);
    return !!cond;
}
function diag(text) {
    for (const line of String(text).split('\n')) console.log(`# ${line}`);
}
function short(v, max = 400) {
    let s;
    try {
        s = typeof v === 'string' ? v : JSON.stringify(v);
    } catch {
        s = String(v);
    }
    return s.length > max ? s.slice(0, max) + '...' : s;
}
function zodErr(err) {
    // zod v4 error: list each issue with its path
    if (err?.issues) return err.issues.map(i => `${(i.path ?? []).join('.') || '<root>'}: ${i.message} (${i.code})`).join('\n');
    return String(err);
}

// every transport ever started, so that they can be killed on any exit path
const liveTransports = new Set();
function killAll() {
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

function finish() {
    if (finished) return;
    finished = true;
    killAll();
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed === 0 ? 0 : 1);
}

const scriptTimer = setTimeout(() => {
    notOk(`whole script finished within ${SCRIPT_TIMEOUT_MS / 1000} s`);
    finish();
}, SCRIPT_TIMEOUT_MS);

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

function withTimeout(promise, ms, what) {
    let timer;
    return Promise.race([
        promise,
        new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`timeout after ${ms} ms: ${what}`)), ms);
        })
    ]).finally(() => clearTimeout(timer));
}

// ------------------------------------------------------- raw stdout checking
const ENVELOPE_KEYS = {
    request: ['jsonrpc', 'id', 'method', 'params'],
    notification: ['jsonrpc', 'method', 'params'],
    result: ['jsonrpc', 'id', 'result'],
    error: ['jsonrpc', 'id', 'error']
};

function envelopeKind(msg) {
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
 */
function makeSession(label) {
    const transport = new StdioClientTransport({
        command: serverCommand,
        args: serverArgs,
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
        partial: Buffer.alloc(0)
    };
    transport.stderr?.on('data', chunk => {
        s.stderr += chunk.toString('utf8');
        if (s.stderr.length > 20000) s.stderr = s.stderr.slice(-20000);
    });
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
}

// ------------------------------------------------ transport-level sessions
class RawClient {
    constructor(s) {
        this.s = s;
        this.nextId = 1;
        this.pending = new Map();
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
                diag(`server sent request ${msg.method}; answering -32601`);
                this.s.transport
                    .send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'not supported by test client' } })
                    .catch(() => {});
            } else {
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

/**
 * Checks a response: it is a result (not an error), and the result validates
 * against `schema`. Returns the parsed (schema output) result or undefined.
 */
function expectResult(tag, what, raw, schema) {
    if (!check('result' in raw, `${tag} ${what}: answered with a result`, () => `got ${short(raw)}`)) return undefined;
    const r = schema.safeParse(raw.result);
    if (!check(r.success, `${tag} ${what}: result matches ${schemaName(schema)}`, () => `${zodErr(r.error)}\nresult: ${short(raw.result)}`))
        return undefined;
    return r.data;
}
function schemaName(schema) {
    for (const [n, sch] of Object.entries({ InitializeResultSchema, EmptyResultSchema, ListToolsResultSchema, CallToolResultSchema })) {
        if (sch === schema) return n;
    }
    return 'schema';
}

function counterText(result) {
    if (!Array.isArray(result?.content)) return undefined;
    const texts = result.content.filter(c => c?.type === 'text').map(c => c.text);
    return texts.length === 1 ? texts[0] : JSON.stringify(texts);
}

async function step(tag, what, fn) {
    try {
        return await fn();
    } catch (e) {
        notOk(`${tag} ${what}`, e?.message ?? String(e));
        return undefined;
    }
}

async function closeSession(tag, s, { expectExitOnEof = true } = {}) {
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

function sessionFinalChecks(tag, s) {
    check(s.transportErrors.length === 0, `${tag} SDK transport reported no errors (onerror)`, () => s.transportErrors.join('\n'));
    check(s.rawProblems.length === 0, `${tag} every stdout line is a valid JSON-RPC message with no extra envelope keys`, () =>
        s.rawProblems.join('\n')
    );
    check(s.partial.length === 0, `${tag} no unterminated output left on stdout`, () => `trailing bytes: ${short(s.partial.toString('utf8'))}`);
    check(s.sdkCount === s.rawCount, `${tag} SDK transport delivered every stdout line (${s.sdkCount}/${s.rawCount})`);
    check(!s.unexpectedClose, `${tag} server did not exit before the client closed it`, s.exitInfo && `exit ${s.exitInfo}`);
    if (failedSince(s) && s.stderr.trim()) diag(`server stderr (${tag}):\n${s.stderr.trimEnd().split('\n').slice(-20).join('\n')}`);
}
function failedSince(s) {
    return failed > s.failedAtStart;
}

async function runVersion(offered) {
    const unsupported = !VERSIONS.includes(offered);
    const expected = unsupported ? SERVER_LATEST : offered;
    const tag = `[${offered}]`;
    const s = makeSession(tag);
    s.failedAtStart = failed;
    const c = new RawClient(s);
    try {
        try {
            await withTimeout(s.transport.start(), REQUEST_TIMEOUT_MS, 'spawn');
            ok(`${tag} server process spawned`);
        } catch (e) {
            notOk(`${tag} server process spawned`, e.message);
            return;
        }

        // initialize
        const init = await step(tag, 'initialize', async () => {
            const raw = await c.request('initialize', { protocolVersion: offered, capabilities: {}, clientInfo: CLIENT_INFO });
            return expectResult(tag, 'initialize', raw, InitializeResultSchema);
        });
        if (!init) return;
        check(
            init.protocolVersion === expected,
            unsupported
                ? `${tag} unsupported version answered with server latest ${expected}`
                : `${tag} initialize result protocolVersion equals offered ${offered}`,
            () => `got ${short(init.protocolVersion)}`
        );
        check(init.capabilities?.tools !== undefined, `${tag} server declares the tools capability`, () => `capabilities: ${short(init.capabilities)}`);
        if (!(await step(tag, 'notifications/initialized sent', async () => (await c.notify('notifications/initialized'), true)))) return;
        if (unsupported) return; // only the negotiation is of interest here

        // ping
        await step(tag, 'ping', async () => {
            const raw = await c.request('ping');
            const r = expectResult(tag, 'ping', raw, EmptyResultSchema);
            if (r) check(Object.keys(raw.result).length === 0, `${tag} ping result is exactly {}`, () => short(raw.result));
        });

        // tools/list
        await step(tag, 'tools/list', async () => {
            const raw = await c.request('tools/list');
            const r = expectResult(tag, 'tools/list', raw, ListToolsResultSchema);
            if (!r) return;
            const counter = r.tools.find(t => t.name === 'counter');
            if (check(counter, `${tag} tools/list contains counter`, () => `tools: ${r.tools.map(t => t.name).join(', ')}`)) {
                check(
                    counter.inputSchema?.properties?.increment?.type === 'boolean',
                    `${tag} counter inputSchema has boolean property increment`,
                    () => short(counter.inputSchema)
                );
            }
        });

        // tools/call counter x3
        const calls = [
            [{ name: 'counter', arguments: { increment: true } }, 'Counter value: 1', '{"increment":true}'],
            [{ name: 'counter', arguments: { increment: true } }, 'Counter value: 2', '{"increment":true}'],
            [{ name: 'counter' }, 'Counter value: 2', 'without arguments']
        ];
        for (const [params, want, desc] of calls) {
            await step(tag, `tools/call counter ${desc}`, async () => {
                const raw = await c.request('tools/call', params);
                const r = expectResult(tag, `tools/call counter ${desc}`, raw, CallToolResultSchema);
                if (!r) return;
                // CallToolResultSchema defaults a missing content to [], so check the raw JSON
                check(Array.isArray(raw.result.content), `${tag} tools/call counter ${desc}: result has a content array`, () => short(raw.result));
                check(
                    counterText(r) === want && r.isError !== true,
                    `${tag} tools/call counter ${desc} -> "${want}"`,
                    () => `got ${short(raw.result)}`
                );
            });
        }

        // unknown method
        await step(tag, 'unknown method', async () => {
            const raw = await c.request('caduceus/no_such_method', {});
            check(
                'error' in raw && raw.error?.code === -32601,
                `${tag} unknown method -> JSON-RPC error -32601`,
                () => `got ${short(raw)}`
            );
        });

        // unknown tool
        await step(tag, 'unknown tool', async () => {
            const raw = await c.request('tools/call', { name: 'no_such_tool_xyz', arguments: {} });
            if ('error' in raw) {
                check(Number.isInteger(raw.error?.code), `${tag} unknown tool rejected (JSON-RPC error ${raw.error?.code}: ${short(raw.error?.message, 80)})`, () => short(raw));
            } else {
                const r = expectResult(tag, 'unknown tool', raw, CallToolResultSchema);
                if (r) check(r.isError === true, `${tag} unknown tool rejected (result with isError:true)`, () => `got ${short(raw.result)}`);
            }
        });

        // still alive and consistent after the errors
        await step(tag, 'tools/call counter after errors', async () => {
            const raw = await c.request('tools/call', { name: 'counter', arguments: {} });
            const r = expectResult(tag, 'tools/call counter {} after errors', raw, CallToolResultSchema);
            if (r) check(counterText(r) === 'Counter value: 2', `${tag} tools/call counter {} after errors -> "Counter value: 2"`, () => `got ${short(raw.result)}`);
        });
    } finally {
        await closeSession(tag, s);
        sessionFinalChecks(tag, s);
    }
}

// ------------------------------------------------------ high-level Client
async function runHighLevelClient() {
    const tag = '[Client]';
    const s = makeSession(tag);
    s.failedAtStart = failed;
    const t = s.transport;
    // counted like in RawClient; Client.connect() chains these handlers
    t.onmessage = () => {
        s.sdkCount++;
    };
    t.onerror = err => {
        s.transportErrors.push(err?.message ?? String(err));
    };
    t.onclose = () => {
        if (!s.closedByUs) s.unexpectedClose = true;
    };
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    client.onerror = err => {
        // Protocol-level errors (e.g. response to unknown id) also count
        s.transportErrors.push(`Client.onerror: ${err?.message ?? String(err)}`);
    };
    const opts = { timeout: REQUEST_TIMEOUT_MS };
    try {
        const connected = await step(tag, 'connect (initialize with SDK latest version)', async () => {
            await withTimeout(client.connect(t, opts), REQUEST_TIMEOUT_MS + 1000, 'Client.connect');
            ok(`${tag} connect (initialize offering ${LATEST_PROTOCOL_VERSION})`);
            return true;
        });
        if (!connected) return;
        const initRaw = s.rawById.get(0); // Client numbers requests from 0
        if (initRaw?.result) {
            check(
                initRaw.result.protocolVersion === LATEST_PROTOCOL_VERSION,
                `${tag} negotiated protocolVersion ${LATEST_PROTOCOL_VERSION}`,
                () => `got ${short(initRaw.result.protocolVersion)}`
            );
        } else {
            notOk(`${tag} raw initialize response seen`, `rawById keys: ${[...s.rawById.keys()].join(',')}`);
        }
        diag(`${tag} serverInfo: ${short(client.getServerVersion())}`);

        await step(tag, 'listTools', async () => {
            const r = await client.listTools(undefined, opts);
            check(
                r.tools.some(x => x.name === 'counter'),
                `${tag} listTools contains counter`,
                () => `tools: ${r.tools.map(x => x.name).join(', ')}`
            );
        });
        await step(tag, 'callTool', async () => {
            const r = await client.callTool({ name: 'counter', arguments: { increment: true } }, CallToolResultSchema, opts);
            check(counterText(r) === 'Counter value: 1' && r.isError !== true, `${tag} callTool counter {"increment":true} -> "Counter value: 1"`, () =>
                `got ${short(r)}`
            );
        });
        await step(tag, 'ping', async () => {
            const r = await client.ping(opts);
            check(r && Object.keys(r).length === 0, `${tag} ping -> {}`, () => `got ${short(r)}`);
        });
    } finally {
        s.closedByUs = true;
        const child = s.child;
        try {
            await withTimeout(client.close(), 8000, 'Client.close()');
        } catch (e) {
            notOk(`${tag} Client.close()`, e.message);
        }
        liveTransports.delete(t);
        if (child && child.exitCode === null && child.signalCode === null) {
            try {
                child.kill('SIGKILL');
            } catch {
                /* ignore */
            }
        }
        sessionFinalChecks(tag, s);
    }
}

// -------------------------------------------------------------------- main
diag(`TS SDK client vs: ${[serverCommand, ...serverArgs].join(' ')}`);
diag(`SDK LATEST_PROTOCOL_VERSION=${LATEST_PROTOCOL_VERSION} SUPPORTED_PROTOCOL_VERSIONS=${SUPPORTED_PROTOCOL_VERSIONS.join(',')}`);
try {
    for (const v of VERSIONS) await runVersion(v);
    await runVersion(UNSUPPORTED_VERSION);
    await runHighLevelClient();
} catch (e) {
    notOk('harness ran without internal error', e?.stack ?? String(e));
} finally {
    clearTimeout(scriptTimer);
    finish();
}
