#!/usr/bin/env node
// Interop test: the official TypeScript MCP SDK (pinned in package.json) as a
// client of Caduceus' everything-server, through every server feature of MCP.
//
//   node ts_client_features.mjs <server-command> [args...]
//   node ts_client_features.mjs --http <server-command> [args...]
//   e.g. node ts_client_features.mjs build/bin/everything-server --stdio --page-size 10
//        node ts_client_features.mjs --http build/bin/everything-server --http 127.0.0.1:0 --page-size 10 [--json]
//
// The command is run as given (nothing is appended); the checks assume the
// server pages its lists by at most 10 items (resources/list).
//
// With --http the command is started once and must print its Streamable HTTP
// endpoint URL as the first stdout line (within 10 s); every session then uses
// the SDK's StreamableHTTPClientTransport against it (one MCP session each),
// the server's HTTP response bodies (JSON or SSE) are tapped instead of
// stdout, and each session ends with DELETE (terminateSession) plus a check
// that its old session id then gets HTTP 404. If the server args contain
// --json (every POST answered with application/json), notifications of a call
// travel on the GET stream and may arrive up to 500 ms after its result.
//
// Part 1: the SDK's high-level Client (negotiates the SDK's latest version,
// 2025-11-25) with capabilities sampling, elicitation and roots, and request
// handlers for sampling/createMessage, elicitation/create and roots/list:
// tools (echo, add, long_task with progress and cancellation, sample, confirm,
// list_roots, emit_logs with logging/setLevel, media, toggle_bonus, touch,
// fail, unknown tool, invalid arguments), resources (paged list, read, blob,
// templates, unknown URI, subscribe/unsubscribe), prompts, completion, ping.
// Part 2, for each of 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25: a fresh
// server driven at transport level (initialize offering that version, own
// request ids): tools/list, add and media, checking the per-version shape.
//
// Every stdout line (HTTP: every message in a response body) of every session
// goes through an independent tap (SDK JSONRPCMessageSchema, no extra envelope
// keys); every response is validated
// with the SDK's result schema for its method, every server request with
// ServerRequestSchema and every server notification with
// ServerNotificationSchema.
//
// Output: one "ok - ..." / "not ok - ..." line per check, diagnostics as
// "# ..." lines, last line "N passed, M failed". Exit 0 iff M == 0.
// Shared helpers (reporting, raw stdout tap, RawClient, teardown): lib.mjs.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
    McpError,
    CallToolResultSchema,
    CompleteResultSchema,
    CreateMessageRequestSchema,
    ElicitRequestSchema,
    EmptyResultSchema,
    GetPromptResultSchema,
    InitializeResultSchema,
    LATEST_PROTOCOL_VERSION,
    ListPromptsResultSchema,
    ListResourcesResultSchema,
    ListResourceTemplatesResultSchema,
    ListRootsRequestSchema,
    ListToolsResultSchema,
    LoggingMessageNotificationSchema,
    ReadResourceResultSchema,
    ResourceUpdatedNotificationSchema,
    ServerNotificationSchema,
    ServerRequestSchema,
    ToolListChangedNotificationSchema
} from '@modelcontextprotocol/sdk/types.js';
import {
    REQUEST_TIMEOUT_MS,
    ok,
    notOk,
    check,
    diag,
    short,
    zodErr,
    failedCount,
    finish,
    startHarness,
    withTimeout,
    sleep,
    waitFor,
    makeSession,
    startHttpServer,
    stopHttpServer,
    httpServerAlive,
    makeHttpSession,
    closeHttpSession,
    RawClient,
    expectResult,
    schemaName,
    step,
    closeSession,
    sessionFinalChecks
} from './lib.mjs';

const SCRIPT_TIMEOUT_MS = 60_000;
const CLIENT_INFO = { name: 'caduceus-interop-ts-features', version: '0.1.0' };
const PAGE_SIZE = 10;
const VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const TOOLS = ['echo', 'add', 'long_task', 'sample', 'confirm', 'list_roots', 'emit_logs', 'media', 'toggle_bonus', 'touch', 'fail'];
const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const ROOTS = [
    { uri: 'file:///tmp/a', name: 'a' },
    { uri: 'file:///tmp/b', name: 'b' }
];
const NOTIFICATION_WAIT_MS = 2000; // deadline for an expected notification
const SILENCE_MS = 500; // window in which an unexpected notification must not arrive
const CANCEL_SILENCE_MS = 1000; // window in which a cancelled request must not be answered
const CANCEL_PROGRESS_GRACE_MS = 300; // progress already in flight when the cancel went out
const LATE_NOTIFICATION_MS = 500; // --json over HTTP: a call's notifications (GET stream) may trail its result by this much
const HTTP_URL_TIMEOUT_MS = 10_000; // the server's first stdout line (its URL)

// tool keys each revision defines (a tool entry must not carry others)
const TOOL_KEYS = {
    '2024-11-05': ['name', 'description', 'inputSchema'],
    '2025-03-26': ['name', 'description', 'inputSchema', 'annotations'],
    '2025-06-18': ['name', 'description', 'inputSchema', 'annotations', 'title', 'outputSchema', '_meta'],
    '2025-11-25': ['name', 'description', 'inputSchema', 'annotations', 'title', 'outputSchema', '_meta', 'icons', 'execution']
};
const vAtLeast = (v, min) => VERSIONS.indexOf(v) >= VERSIONS.indexOf(min);

// result schema per client request method (raw responses are validated with these)
const RESULT_SCHEMAS = {
    initialize: InitializeResultSchema,
    ping: EmptyResultSchema,
    'tools/list': ListToolsResultSchema,
    'tools/call': CallToolResultSchema,
    'resources/list': ListResourcesResultSchema,
    'resources/templates/list': ListResourceTemplatesResultSchema,
    'resources/read': ReadResourceResultSchema,
    'resources/subscribe': EmptyResultSchema,
    'resources/unsubscribe': EmptyResultSchema,
    'prompts/list': ListPromptsResultSchema,
    'prompts/get': GetPromptResultSchema,
    'completion/complete': CompleteResultSchema,
    'logging/setLevel': EmptyResultSchema
};

const {
    command: serverCommand,
    args: serverArgs,
    http: httpMode
} = startHarness({
    usage:
        'usage: node ts_client_features.mjs [--http] <server-command> [args...]\n' +
        '  e.g. build/bin/everything-server --stdio --page-size 10\n' +
        '       --http build/bin/everything-server --http 127.0.0.1:0 --page-size 10 [--json]',
    scriptTimeoutMs: SCRIPT_TIMEOUT_MS,
    allowHttp: true
});
// --json: the server answers every POST with application/json, so a call's
// progress and log notifications come on the GET stream, maybe after the result
const jsonMode = httpMode && serverArgs.includes('--json');
let httpServer; // HTTP mode: the one server process all sessions talk to

/** A fresh session: its own server process (stdio) or its own MCP session on the HTTP server. */
function newSession(tag) {
    return httpMode ? makeHttpSession(tag, httpServer, { jsonOnly: jsonMode }) : makeSession(tag);
}
/** Ends a session: stdio -> close stdin, expect the server to exit; HTTP -> DELETE, then 404 on the old id. */
function endSession(tag, s) {
    return httpMode ? closeHttpSession(tag, s) : closeSession(tag, s);
}

// ------------------------------------------------------------------ helpers
function texts(result) {
    return Array.isArray(result?.content) ? result.content.filter(c => c?.type === 'text').map(c => c.text) : [];
}
function allText(result) {
    return texts(result).join('\n');
}
function isBase64(s) {
    return typeof s === 'string' && s.length > 0 && s.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(s);
}
function sameJson(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
}
function toNumber(text) {
    if (typeof text !== 'string' || !/^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(text)) return NaN;
    return Number(text);
}
function closeTo(x, want) {
    return Number.isFinite(x) && Math.abs(x - want) <= 1e-9 * Math.max(1, Math.abs(want));
}
function opts(extra = {}) {
    return { timeout: REQUEST_TIMEOUT_MS, ...extra };
}
/** A high-level SDK call with an outer deadline (the SDK has its own per-request timeout too). */
function call(promise, what) {
    return withTimeout(promise, REQUEST_TIMEOUT_MS + 2000, what);
}
/** Expects `fn` to reject with an McpError carrying `code`. */
async function expectMcpError(tag, what, code, fn) {
    try {
        const r = await fn();
        notOk(`${tag} ${what} -> McpError ${code}`, `resolved instead: ${short(r)}`);
    } catch (e) {
        check(e instanceof McpError && e.code === code, `${tag} ${what} -> McpError ${code}`, () =>
            `got ${e?.constructor?.name}: code=${e?.code} ${short(e?.message)}`
        );
    }
}
/** The last request with `method` (and matching `pred`) the client wrote to the server. */
function lastSent(s, method, pred = () => true) {
    for (let i = s.sent.length - 1; i >= 0; i--) {
        const m = s.sent[i].msg;
        if (m.method === method && 'id' in m && pred(m)) return m;
    }
    return undefined;
}
/** Index in s.received of the response with `id`, or -1. */
function responseIndex(s, id) {
    return s.received.findIndex(r => !('method' in r.msg) && r.msg.id === id);
}
/** The progress notifications (raw tap entries) for `token`, in stdout order. */
function progressFor(s, token) {
    if (token === undefined) return [];
    return s.received.filter(x => x.msg.method === 'notifications/progress' && x.msg.params?.progressToken === token);
}
/** Walks a paged list; fetchPage(cursor) returns one page. */
async function listAll(what, fetchPage, key) {
    const items = [];
    const pages = [];
    let cursor;
    for (let i = 0; i < 50; i++) {
        const r = await fetchPage(cursor);
        pages.push(r[key].length);
        items.push(...r[key]);
        if (r.nextCursor === undefined) return { items, pages };
        cursor = r.nextCursor;
    }
    throw new Error(`${what}: more than 50 pages (cursor loop?)`);
}
function toolKeyProblems(tools, version) {
    const allowed = TOOL_KEYS[version];
    const problems = [];
    for (const t of tools) {
        const extra = Object.keys(t).filter(k => !allowed.includes(k));
        if (extra.length) problems.push(`${t.name}: ${extra.join(', ')}`);
    }
    return problems;
}
function toolsWith(tools, key) {
    return tools.filter(t => key in t).map(t => t.name);
}

// ------------------------------------------------------ high-level Client
async function runClientSuite() {
    const tag = '[Client]';
    const s = newSession(tag);
    s.failedAtStart = failedCount();
    const t = s.transport;
    t.onmessage = () => {
        s.sdkCount++;
    };
    t.onerror = err => {
        s.transportErrors.push(err?.message ?? String(err));
    };
    t.onclose = () => {
        if (!s.closedByUs) s.unexpectedClose = true;
    };

    const client = new Client(CLIENT_INFO, {
        capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } }
    });
    const lateProgress = [];
    client.onerror = err => {
        const m = err?.message ?? String(err);
        // progress that was in flight when a request was cancelled: judged by the cancel check
        if (/progress notification for an unknown token/.test(m)) lateProgress.push(m);
        else s.transportErrors.push(`Client.onerror: ${m}`);
    };
    s.onChildExit = () => {
        client.close().catch(() => {});
    };
    // The SDK transport drops a line its JSONRPCMessageSchema rejects (and says so
    // via onerror); fail the waiting request at once instead of letting it time out.
    s.onRejectedResponse = (id, why) => {
        client._onresponse?.({ jsonrpc: '2.0', id, error: { code: -32603, message: `response rejected by the SDK's JSONRPCMessageSchema: ${why}` } });
    };

    // what the server sends us, as the SDK delivers it
    const logs = [];
    const updated = [];
    let toolListChanged = 0;
    const samplingRequests = [];
    const elicitRequests = [];
    let rootsRequests = 0;
    let samplingPrompt = '';
    client.setNotificationHandler(LoggingMessageNotificationSchema, n => {
        logs.push(n.params);
    });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, n => {
        updated.push(n.params.uri);
    });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        toolListChanged++;
    });
    client.setRequestHandler(CreateMessageRequestSchema, req => {
        samplingRequests.push(req);
        return { role: 'assistant', content: { type: 'text', text: `pong:${samplingPrompt}` }, model: 'test-model' };
    });
    client.setRequestHandler(ElicitRequestSchema, req => {
        elicitRequests.push(req);
        return { action: 'accept', content: { confirm: true } };
    });
    client.setRequestHandler(ListRootsRequestSchema, () => {
        rootsRequests++;
        return { roots: ROOTS };
    });

    const callTool = (name, args, extra) =>
        call(client.callTool(args === undefined ? { name } : { name, arguments: args }, CallToolResultSchema, opts(extra)), `tools/call ${name}`);
    const listAllTools = () => listAll('tools/list', c => call(client.listTools(c ? { cursor: c } : undefined, opts()), 'tools/list'), 'tools');
    let died = false;
    const alive = () => {
        if (s.unexpectedClose && !died) {
            died = true;
            notOk(`${tag} server still running for the remaining checks`, s.exitInfo && `exit ${s.exitInfo}`);
        }
        return !s.unexpectedClose;
    };
    let cancelledId;

    try {
        const connected = await step(tag, 'connect', async () => {
            await withTimeout(client.connect(t, opts()), REQUEST_TIMEOUT_MS + 1000, 'Client.connect');
            ok(`${tag} connect (initialize offering ${LATEST_PROTOCOL_VERSION}, sampling+elicitation+roots)`);
            return true;
        });
        if (!connected) return;
        if (httpMode) {
            // the SDK opens the GET stream (not awaited) once notifications/initialized got 202
            const get = await waitFor(() => s.http.some(r => r.method === 'GET' && r.status === 200), NOTIFICATION_WAIT_MS);
            check(get, `${tag} the SDK's GET SSE stream is open after initialize`, () => short(s.http.filter(r => r.method === 'GET')));
        }

        // ---- initialize
        const init = s.rawById.get(0)?.result; // Client numbers requests from 0
        check(init?.protocolVersion === LATEST_PROTOCOL_VERSION, `${tag} negotiated protocolVersion ${LATEST_PROTOCOL_VERSION}`, () =>
            `got ${short(init?.protocolVersion)}`
        );
        const caps = client.getServerCapabilities() ?? {};
        check(caps.tools?.listChanged === true, `${tag} capabilities.tools.listChanged is true`, () => short(caps));
        check(caps.resources?.subscribe === true, `${tag} capabilities.resources.subscribe is true`, () => short(caps));
        check(caps.prompts !== undefined, `${tag} capabilities.prompts declared`, () => short(caps));
        check(caps.logging !== undefined, `${tag} capabilities.logging declared`, () => short(caps));
        check(caps.completions !== undefined, `${tag} capabilities.completions declared`, () => short(caps));
        diag(`${tag} serverInfo: ${short(client.getServerVersion())}`);

        // ---- ping
        await step(tag, 'ping', async () => {
            await call(client.ping(opts()), 'ping');
            const raw = s.rawById.get(lastSent(s, 'ping').id);
            check(raw?.result && Object.keys(raw.result).length === 0, `${tag} ping -> exactly {}`, () => short(raw));
        });

        // ---- tools/list
        let tools = [];
        await step(tag, 'tools/list', async () => {
            const { items, pages } = await listAllTools();
            tools = items;
            diag(`${tag} tools/list pages: ${pages.join('+')}`);
            client.cacheToolMetadata(items); // the SDK caches only the last page; callTool checks outputSchema with this
            const names = items.map(x => x.name);
            const missing = TOOLS.filter(n => !names.includes(n));
            check(missing.length === 0, `${tag} tools/list has ${TOOLS.join(', ')}`, () => `missing ${missing.join(', ')}; got ${names.join(', ')}`);
            check(new Set(names).size === names.length, `${tag} tools/list names are unique across pages`, () => names.join(', '));
            const by = n => items.find(x => x.name === n);
            const echo = by('echo');
            check(
                echo?.inputSchema?.properties?.text?.type === 'string' && echo.inputSchema.required?.includes('text'),
                `${tag} echo inputSchema: required string property text`,
                () => short(echo?.inputSchema)
            );
            const add = by('add');
            check(
                add?.inputSchema?.properties?.a?.type === 'number' &&
                    add.inputSchema.properties.b?.type === 'number' &&
                    ['a', 'b'].every(k => add.inputSchema.required?.includes(k)),
                `${tag} add inputSchema: required number properties a, b`,
                () => short(add?.inputSchema)
            );
            check(add?.outputSchema?.properties?.sum?.type === 'number', `${tag} add outputSchema: property sum of type number`, () =>
                short(add?.outputSchema)
            );
            const lt = by('long_task');
            check(
                lt?.inputSchema?.properties?.steps?.type === 'integer' && lt.inputSchema.properties.step_ms?.type === 'integer',
                `${tag} long_task inputSchema: integer properties steps, step_ms`,
                () => short(lt?.inputSchema)
            );
            const bad = toolKeyProblems(items, '2025-11-25');
            check(bad.length === 0, `${tag} tool entries carry only keys defined by 2025-11-25`, () => bad.join('\n'));
        });

        // ---- echo
        if (alive())
            await step(tag, 'echo', async () => {
                const text = 'hello \u2713 "quoted" \\ back\nslash\ttab \u{1F600}';
                const r = await callTool('echo', { text });
                check(
                    r.isError !== true && r.content.length === 1 && r.content[0].type === 'text' && r.content[0].text === text,
                    `${tag} echo -> exactly one text block with the same text (unicode, quotes, control chars)`,
                    () => `got ${short(r)}`
                );
            });
        for (const [desc, args] of [
            ['without text', {}],
            ['with text: 42 (wrong type)', { text: 42 }]
        ]) {
            if (!alive()) break;
            await step(tag, `echo ${desc}`, async () => {
                const r = await callTool('echo', args);
                check(r.isError === true && /\btext\b/.test(allText(r)), `${tag} echo ${desc} -> result isError:true whose text names "text"`, () =>
                    `got ${short(r)}`
                );
            });
        }

        // ---- add
        for (const [a, b] of [
            [2, 3.5],
            [-7, 0.25]
        ]) {
            if (!alive()) break;
            await step(tag, `add ${a} ${b}`, async () => {
                const r = await callTool('add', { a, b }); // the SDK also validates structuredContent against outputSchema
                const tx = texts(r);
                check(r.isError !== true && tx.length === 1 && closeTo(toNumber(tx[0]), a + b), `${tag} add {a:${a},b:${b}} -> text block numerically ${a + b}`, () =>
                    `got ${short(r)}`
                );
                check(sameJson(r.structuredContent, { sum: a + b }), `${tag} add {a:${a},b:${b}} -> structuredContent {"sum":${a + b}}`, () =>
                    `got ${short(r.structuredContent)}`
                );
            });
        }

        // ---- long_task: progress
        for (const [desc, args, steps] of [
            ['{steps:3,step_ms:20}', { steps: 3, step_ms: 20 }, 3],
            ['{} (defaults 5 x 100 ms)', {}, 5]
        ]) {
            if (!alive()) break;
            await step(tag, `long_task ${desc}`, async () => {
                const progress = [];
                const r = await callTool('long_task', args, { onprogress: p => progress.push(p) });
                check(allText(r) === `completed ${steps} steps` && r.isError !== true, `${tag} long_task ${desc} -> "completed ${steps} steps"`, () =>
                    `got ${short(r)}`
                );
                // Counted on the raw tap: SDK 1.32.2 dispatches notifications a microtask
                // later than responses, so a progress notification that arrives in the
                // same chunk as the result never reaches onprogress
                // (modelcontextprotocol/typescript-sdk#2580).
                const req = lastSent(s, 'tools/call', m => m.params?.name === 'long_task');
                const token = req?.params?._meta?.progressToken;
                if (jsonMode) await waitFor(() => progressFor(s, token).length >= steps, LATE_NOTIFICATION_MS);
                const respIdx = responseIndex(s, req?.id);
                const raw = progressFor(s, token);
                const want = Array.from({ length: steps }, (_, i) => ({ progress: i + 1, total: steps }));
                const got = raw.map(x => ({ progress: x.msg.params.progress, total: x.msg.params.total }));
                check(sameJson(got, want), `${tag} long_task ${desc}: progress 1..${steps} with total ${steps} for our progressToken`, () =>
                    `got ${short(raw.map(x => x.msg.params))}`
                );
                check(progress.length >= 1, `${tag} long_task ${desc}: the SDK delivered progress to onprogress`);
                diag(`${tag} onprogress got ${progress.length} of ${raw.length}`);
                const after = raw.filter(x => s.received.indexOf(x) > respIdx);
                if (jsonMode) {
                    const respT = s.received[respIdx]?.t;
                    const late = raw.filter(x => x.t > respT + LATE_NOTIFICATION_MS);
                    diag(`${tag} long_task ${desc}: ${after.length} progress notification(s) (GET stream) after the JSON result`);
                    check(
                        token !== undefined && respIdx >= 0 && late.length === 0,
                        `${tag} long_task ${desc}: every progress notification arrives by ${LATE_NOTIFICATION_MS} ms after the result`,
                        () => `token ${short(token)}, ${late.length} later`
                    );
                } else
                    check(token !== undefined && respIdx >= 0 && after.length === 0, `${tag} long_task ${desc}: every progress notification precedes the result`, () =>
                        `token ${short(token)}, ${after.length} after the response`
                    );
            });
        }

        // ---- long_task: cancellation
        if (alive())
            await step(tag, 'long_task cancelled', async () => {
                const ac = new AbortController();
                const p = callTool('long_task', { steps: 50, step_ms: 50 }, { signal: ac.signal, onprogress: () => {} });
                let settled;
                p.then(
                    v => (settled = { v }),
                    e => (settled = { e })
                );
                const req = lastSent(s, 'tools/call', m => m.params?.name === 'long_task');
                const id = req?.id;
                const token = req?.params?._meta?.progressToken;
                const started = await waitFor(() => progressFor(s, token).length > 0 || settled, 5000);
                if (!check(started && !settled, `${tag} long_task {steps:50,step_ms:50} reports progress before it is cancelled`, () =>
                    settled ? `settled early: ${short(settled.v ?? settled.e?.message)}` : 'no progress within 5 s'
                ))
                    return;
                const tCancel = Date.now();
                cancelledId = id;
                ac.abort('interop test cancels long_task');
                await waitFor(() => settled, 2000);
                check(settled?.e !== undefined, `${tag} cancelled callTool rejects on the client`, () => short(settled));
                const cancel = s.sent.find(x => x.msg.method === 'notifications/cancelled' && x.msg.params?.requestId === id);
                check(cancel !== undefined, `${tag} SDK sent notifications/cancelled for the request (id ${id})`);
                await sleep(CANCEL_SILENCE_MS);
                check(!s.rawById.has(id), `${tag} no response to the cancelled request within ${CANCEL_SILENCE_MS} ms`, () =>
                    `got ${short(s.rawById.get(id))}`
                );
                const lateProg = progressFor(s, token).filter(x => x.t > tCancel + CANCEL_PROGRESS_GRACE_MS);
                check(lateProg.length === 0, `${tag} no progress for the cancelled request later than ${CANCEL_PROGRESS_GRACE_MS} ms after the cancel`, () =>
                    `${lateProg.length} late: ${short(lateProg.map(x => x.msg.params))}`
                );
                await call(client.ping(opts()), 'ping after cancel');
                ok(`${tag} ping succeeds after the cancellation`);
            });

        // ---- sampling
        if (alive())
            await step(tag, 'sample', async () => {
                samplingPrompt = 'what is 6 x 7?';
                const before = samplingRequests.length;
                const r = await callTool('sample', { prompt: samplingPrompt });
                const reqs = samplingRequests.slice(before);
                if (check(reqs.length === 1, `${tag} sample -> exactly one sampling/createMessage request`, () => `got ${reqs.length}`)) {
                    const msgs = reqs[0].params?.messages ?? [];
                    const found = msgs.some(m => {
                        const blocks = Array.isArray(m.content) ? m.content : [m.content];
                        return blocks.some(b => b?.type === 'text' && b.text.includes(samplingPrompt));
                    });
                    check(found, `${tag} sampling/createMessage messages contain the prompt`, () => short(reqs[0].params));
                    check(Number.isInteger(reqs[0].params?.maxTokens) && reqs[0].params.maxTokens > 0, `${tag} sampling/createMessage has a positive integer maxTokens`, () =>
                        short(reqs[0].params)
                    );
                }
                check(r.isError !== true && allText(r).includes(`pong:${samplingPrompt}`), `${tag} sample result text contains "pong:${samplingPrompt}"`, () =>
                    `got ${short(r)}`
                );
            });

        // ---- elicitation
        if (alive())
            await step(tag, 'confirm', async () => {
                const question = 'Proceed with the test?';
                const before = elicitRequests.length;
                const r = await callTool('confirm', { question });
                const reqs = elicitRequests.slice(before);
                if (check(reqs.length === 1, `${tag} confirm -> exactly one elicitation/create request`, () => `got ${reqs.length}`)) {
                    const params = reqs[0].params ?? {};
                    check(params.message === question, `${tag} elicitation/create message is the question`, () => short(params));
                    check((params.mode ?? 'form') === 'form', `${tag} elicitation/create is form mode`, () => short(params.mode));
                    const rs = params.requestedSchema;
                    check(rs?.type === 'object' && rs.properties?.confirm?.type === 'boolean', `${tag} elicitation requestedSchema: object with boolean property confirm`, () =>
                        short(rs)
                    );
                }
                const tx = allText(r);
                check(r.isError !== true && tx.includes('action=accept') && tx.includes('confirm=true'), `${tag} confirm result text contains action=accept and confirm=true`, () =>
                    `got ${short(r)}`
                );
            });

        // ---- roots
        if (alive())
            await step(tag, 'list_roots', async () => {
                const before = rootsRequests;
                const r = await callTool('list_roots', {});
                check(rootsRequests > before, `${tag} list_roots -> server sent roots/list`);
                const tx = allText(r);
                check(r.isError !== true && ROOTS.every(x => tx.includes(x.uri)), `${tag} list_roots result text contains ${ROOTS.map(x => x.uri).join(' and ')}`, () =>
                    `got ${short(r)}`
                );
                await call(client.sendRootsListChanged(), 'notifications/roots/list_changed');
                await call(client.ping(opts()), 'ping after roots/list_changed');
                ok(`${tag} server still answers after notifications/roots/list_changed`);
            });

        // ---- logging
        for (const [level, expected, onlyOurs] of [
            ['warning', LEVELS.slice(3), false],
            ['debug', LEVELS, true]
        ]) {
            if (!alive()) break;
            await step(tag, `emit_logs at level ${level}`, async () => {
                await call(client.setLoggingLevel(level, opts()), 'logging/setLevel');
                const raw = s.rawById.get(lastSent(s, 'logging/setLevel').id);
                check(raw?.result && Object.keys(raw.result).length === 0, `${tag} logging/setLevel ${level} -> {}`, () => short(raw));
                const first = logs.length;
                const rxStart = s.received.length;
                const r = await callTool('emit_logs', {});
                check(allText(r) === 'emitted' && r.isError !== true, `${tag} emit_logs -> "emitted"`, () => `got ${short(r)}`);
                if (jsonMode) await waitFor(() => logs.slice(first).filter(l => l.logger === 'everything').length >= expected.length, LATE_NOTIFICATION_MS);
                await sleep(200); // anything late would show up here
                let got = logs.slice(first);
                if (onlyOurs) got = got.filter(l => l.logger === 'everything');
                check(
                    sameJson(
                        got.map(l => l.level),
                        expected
                    ),
                    `${tag} level ${level}: exactly ${expected.join(', ')} arrive, in that order`,
                    () => `got ${short(got)}`
                );
                check(got.every(l => l.data === l.level && l.logger === 'everything'), `${tag} level ${level}: each message has data = its level name, logger "everything"`, () =>
                    short(got)
                );
                const id = lastSent(s, 'tools/call', m => m.params?.name === 'emit_logs')?.id;
                const respIdx = responseIndex(s, id);
                const after = s.received.slice(rxStart).filter((x, i) => x.msg.method === 'notifications/message' && rxStart + i > respIdx);
                if (jsonMode) {
                    const respT = s.received[respIdx]?.t;
                    const late = after.filter(x => x.t > respT + LATE_NOTIFICATION_MS);
                    diag(`${tag} level ${level}: ${after.length} log message(s) (GET stream) after the JSON result`);
                    check(respIdx >= 0 && late.length === 0, `${tag} level ${level}: all log messages arrive by ${LATE_NOTIFICATION_MS} ms after the emit_logs result`, () =>
                        `${late.length} later`
                    );
                } else
                    check(respIdx >= 0 && after.length === 0, `${tag} level ${level}: all log messages precede the emit_logs result`, () =>
                        `${after.length} after it`
                    );
            });
        }

        // ---- media
        if (alive())
            await step(tag, 'media', async () => {
                const r = await callTool('media', {});
                const c = r.content;
                check(
                    sameJson(
                        c.map(b => b.type),
                        ['image', 'audio', 'resource_link', 'resource']
                    ),
                    `${tag} media content types: image, audio, resource_link, resource`,
                    () => `got ${short(c.map(b => b.type))}`
                );
                const [img, aud, link, res] = c;
                check(img?.mimeType === 'image/png' && isBase64(img.data), `${tag} media image: image/png with base64 data`, () => short(img));
                check(aud?.mimeType === 'audio/wav' && isBase64(aud.data), `${tag} media audio: audio/wav with base64 data`, () => short(aud));
                check(link?.uri === 'demo://readme' && typeof link.name === 'string', `${tag} media resource_link: uri demo://readme (with name)`, () => short(link));
                check(
                    typeof res?.resource?.uri === 'string' && typeof res.resource.text === 'string',
                    `${tag} media embedded resource: text resource with uri`,
                    () => short(res)
                );
            });

        // ---- toggle_bonus
        if (alive())
            await step(tag, 'toggle_bonus', async () => {
                let present = (await listAllTools()).items.some(x => x.name === 'bonus');
                diag(`${tag} bonus initially ${present ? 'present' : 'absent'}`);
                for (let round = 1; round <= 2; round++) {
                    const before = toolListChanged;
                    await callTool('toggle_bonus', {});
                    const notified = await waitFor(() => toolListChanged > before, NOTIFICATION_WAIT_MS);
                    check(notified, `${tag} toggle_bonus #${round} -> notifications/tools/list_changed`);
                    const now = (await listAllTools()).items.some(x => x.name === 'bonus');
                    check(now === !present, `${tag} toggle_bonus #${round}: next tools/list ${present ? 'lacks' : 'has'} bonus`, () =>
                        `bonus ${now ? 'present' : 'absent'}`
                    );
                    present = now;
                    if (!present) await expectMcpError(tag, `tools/call bonus after removal`, -32602, () => callTool('bonus', {}));
                }
            });

        // ---- subscriptions
        if (alive())
            await step(tag, 'subscriptions', async () => {
                const readme = 'demo://readme';
                await call(client.subscribeResource({ uri: readme }, opts()), 'resources/subscribe');
                const rawSub = s.rawById.get(lastSent(s, 'resources/subscribe').id);
                check(rawSub?.result && Object.keys(rawSub.result).length === 0, `${tag} resources/subscribe ${readme} -> {}`, () => short(rawSub));
                const first = updated.length;
                await callTool('touch', { uri: 'demo://items/1' });
                await callTool('touch', { uri: readme });
                const got = await waitFor(() => updated.slice(first).includes(readme), NOTIFICATION_WAIT_MS);
                check(got, `${tag} touch ${readme} while subscribed -> notifications/resources/updated for it`, () => `got ${short(updated.slice(first))}`);
                await sleep(200);
                check(
                    sameJson(updated.slice(first), [readme]),
                    `${tag} exactly one resources/updated (none for the unsubscribed demo://items/1)`,
                    () => `got ${short(updated.slice(first))}`
                );
                await call(client.unsubscribeResource({ uri: readme }, opts()), 'resources/unsubscribe');
                const rawUnsub = s.rawById.get(lastSent(s, 'resources/unsubscribe').id);
                check(rawUnsub?.result && Object.keys(rawUnsub.result).length === 0, `${tag} resources/unsubscribe ${readme} -> {}`, () => short(rawUnsub));
                const second = updated.length;
                await callTool('touch', { uri: readme });
                await sleep(SILENCE_MS);
                check(updated.length === second, `${tag} touch after unsubscribe -> no resources/updated within ${SILENCE_MS} ms`, () =>
                    `got ${short(updated.slice(second))}`
                );
            });

        // ---- fail, unknown tool
        if (alive())
            await step(tag, 'fail', async () => {
                const r = await callTool('fail', {});
                check(r.isError === true && texts(r).some(x => x.length > 0), `${tag} fail -> result isError:true with a text block`, () => `got ${short(r)}`);
            });
        if (alive()) await expectMcpError(tag, 'tools/call of an unknown tool', -32602, () => callTool('no_such_tool', {}));

        // ---- resources
        if (alive())
            await step(tag, 'resources/list', async () => {
                const { items, pages } = await listAll(
                    'resources/list',
                    c => call(client.listResources(c ? { cursor: c } : undefined, opts()), 'resources/list'),
                    'resources'
                );
                diag(`${tag} resources/list pages: ${pages.join('+')}`);
                check(pages.every(n => n <= PAGE_SIZE), `${tag} resources/list pages hold at most ${PAGE_SIZE} each`, () => pages.join('+'));
                check(pages.length >= 3, `${tag} resources/list is paged (27 resources -> at least 3 pages)`, () => pages.join('+'));
                const uris = items.map(x => x.uri);
                const want = ['demo://readme', 'demo://logo.png', ...Array.from({ length: 25 }, (_, i) => `demo://items/${i + 1}`)];
                check(uris.length === 27 && new Set(uris).size === 27, `${tag} resources/list: 27 distinct URIs over all pages`, () =>
                    `${uris.length} URIs, ${new Set(uris).size} distinct`
                );
                const missing = want.filter(u => !uris.includes(u));
                check(missing.length === 0, `${tag} resources/list: demo://readme, demo://logo.png, demo://items/1..25`, () => `missing ${missing.join(', ')}`);
                const mime = u => items.find(x => x.uri === u)?.mimeType;
                check(
                    mime('demo://readme') === 'text/markdown' && mime('demo://logo.png') === 'image/png' && mime('demo://items/13') === 'text/plain',
                    `${tag} resources/list mimeTypes: readme text/markdown, logo.png image/png, items text/plain`,
                    () => short(items.filter(x => ['demo://readme', 'demo://logo.png', 'demo://items/13'].includes(x.uri)))
                );
            });
        if (alive())
            await expectMcpError(tag, 'resources/list with a bogus cursor', -32602, () =>
                call(client.listResources({ cursor: 'bogus-cursor-!!' }, opts()), 'resources/list bogus cursor')
            );
        if (alive())
            await step(tag, 'resources/templates/list', async () => {
                const { items } = await listAll(
                    'resources/templates/list',
                    c => call(client.listResourceTemplates(c ? { cursor: c } : undefined, opts()), 'resources/templates/list'),
                    'resourceTemplates'
                );
                const tpl = items.find(x => x.uriTemplate === 'demo://users/{id}');
                check(tpl?.name === 'user' && tpl.mimeType === 'application/json', `${tag} template demo://users/{id} named user, application/json`, () =>
                    short(items)
                );
            });
        const reads = [
            [
                'demo://readme',
                c => c.mimeType === 'text/markdown' && typeof c.text === 'string' && c.text.length > 0,
                'text/markdown, non-empty text'
            ],
            ['demo://logo.png', c => c.mimeType === 'image/png' && isBase64(c.blob) && !('text' in c), 'image/png, base64 blob'],
            ['demo://items/1', c => c.mimeType === 'text/plain' && c.text === 'item 1', 'text/plain "item 1"'],
            ['demo://items/25', c => c.mimeType === 'text/plain' && c.text === 'item 25', 'text/plain "item 25"'],
            [
                'demo://users/42',
                c => {
                    try {
                        return c.mimeType === 'application/json' && sameJson(JSON.parse(c.text), { id: '42', name: 'User 42' });
                    } catch {
                        return false;
                    }
                },
                'application/json {"id":"42","name":"User 42"}'
            ]
        ];
        for (const [uri, pred, desc] of reads) {
            if (!alive()) break;
            await step(tag, `resources/read ${uri}`, async () => {
                const r = await call(client.readResource({ uri }, opts()), `resources/read ${uri}`);
                const c = r.contents;
                check(c.length === 1 && c[0].uri === uri && pred(c[0]), `${tag} resources/read ${uri} -> one content, same uri, ${desc}`, () =>
                    `got ${short(r)}`
                );
            });
        }
        if (alive())
            await expectMcpError(tag, 'resources/read demo://nope', -32002, () => call(client.readResource({ uri: 'demo://nope' }, opts()), 'read nope'));

        // ---- prompts
        if (alive())
            await step(tag, 'prompts/list', async () => {
                const { items } = await listAll('prompts/list', c => call(client.listPrompts(c ? { cursor: c } : undefined, opts()), 'prompts/list'), 'prompts');
                const g = items.find(x => x.name === 'greeting');
                const arg = n => g?.arguments?.find(a => a.name === n);
                check(arg('name')?.required === true && arg('style') !== undefined && arg('style').required !== true, `${tag} prompt greeting: name required, style optional`, () =>
                    short(g)
                );
                check(items.some(x => x.name === 'with_image'), `${tag} prompts/list has with_image`, () => short(items.map(x => x.name)));
            });
        for (const [args, want] of [
            [{ name: 'Ada' }, 'Hello, Ada!'],
            [{ name: 'Ada', style: 'pirate' }, 'Ahoy, Ada!'],
            [{ name: 'Ada', style: 'formal' }, 'Good day, Ada.']
        ]) {
            if (!alive()) break;
            await step(tag, `prompts/get greeting ${short(args)}`, async () => {
                const r = await call(client.getPrompt({ name: 'greeting', arguments: args }, opts()), 'prompts/get');
                const m = r.messages;
                check(
                    m.length === 1 && m[0].role === 'user' && m[0].content?.type === 'text' && m[0].content.text === want,
                    `${tag} prompts/get greeting ${short(args)} -> one user message "${want}"`,
                    () => `got ${short(r)}`
                );
            });
        }
        if (alive())
            await expectMcpError(tag, 'prompts/get greeting without name', -32602, () =>
                call(client.getPrompt({ name: 'greeting', arguments: { style: 'pirate' } }, opts()), 'prompts/get')
            );
        if (alive())
            await step(tag, 'prompts/get with_image', async () => {
                const r = await call(client.getPrompt({ name: 'with_image' }, opts()), 'prompts/get with_image');
                const m = r.messages;
                check(
                    m.length === 2 &&
                        m[0].role === 'user' &&
                        m[0].content?.type === 'image' &&
                        isBase64(m[0].content.data) &&
                        typeof m[0].content.mimeType === 'string' &&
                        m[1].role === 'user' &&
                        m[1].content?.type === 'text',
                    `${tag} prompts/get with_image -> user image message, then user text message`,
                    () => `got ${short(r)}`
                );
            });

        // ---- completion
        const completions = [
            [{ type: 'ref/prompt', name: 'greeting' }, 'style', 'p', ['pirate']],
            [{ type: 'ref/prompt', name: 'greeting' }, 'style', '', ['casual', 'formal', 'pirate']],
            [{ type: 'ref/resource', uri: 'demo://users/{id}' }, 'id', '4', ['4', '40', '41', '42', '43', '44', '45', '46', '47', '48', '49'], 11]
        ];
        for (const [ref, name, value, want, total] of completions) {
            if (!alive()) break;
            const what = `completion/complete ${ref.type} ${ref.name ?? ref.uri} ${name}="${value}"`;
            await step(tag, what, async () => {
                const r = await call(client.complete({ ref, argument: { name, value } }, opts()), what);
                check(sameJson(r.completion.values, want), `${tag} ${what} -> values ${short(want)}`, () => `got ${short(r.completion)}`);
                if (total !== undefined)
                    check(r.completion.total === total && r.completion.hasMore === false, `${tag} ${what} -> total ${total}, hasMore false`, () =>
                        `got ${short(r.completion)}`
                    );
            });
        }

        if (alive())
            await step(tag, 'final ping', async () => {
                await call(client.ping(opts()), 'final ping');
                ok(`${tag} final ping`);
            });

        // ---- whole-session checks on the raw messages
        let responses = 0;
        const respProblems = [];
        for (const { msg } of s.sent) {
            if (!('method' in msg) || !('id' in msg)) continue;
            const raw = s.rawById.get(msg.id);
            if (msg.id === cancelledId) continue;
            if (!raw) {
                if (!s.unexpectedClose) respProblems.push(`no response to ${msg.method} id ${msg.id}`);
                continue;
            }
            responses++;
            if (!('result' in raw)) continue;
            const schema = RESULT_SCHEMAS[msg.method];
            if (!schema) continue;
            const r = schema.safeParse(raw.result);
            if (!r.success) respProblems.push(`${msg.method} id ${msg.id}: ${schemaName(schema)}:\n${zodErr(r.error)}\nresult: ${short(raw.result)}`);
            if (msg.method === 'tools/call' && !Array.isArray(raw.result.content)) respProblems.push(`tools/call id ${msg.id}: no content array`);
        }
        check(respProblems.length === 0, `${tag} every request got one response; each result matches its method's schema (${responses} responses)`, () =>
            respProblems.join('\n')
        );
        if (cancelledId !== undefined)
            check(!s.rawById.has(cancelledId), `${tag} the cancelled request (id ${cancelledId}) was never answered during the session`, () =>
                short(s.rawById.get(cancelledId))
            );
        const serverMsgProblems = [];
        let nReq = 0;
        let nNote = 0;
        for (const { msg } of s.received) {
            if (!('method' in msg)) continue;
            const isReq = 'id' in msg;
            isReq ? nReq++ : nNote++;
            const schema = isReq ? ServerRequestSchema : ServerNotificationSchema;
            const r = schema.safeParse(msg);
            if (!r.success) serverMsgProblems.push(`${schemaName(schema)} rejected ${short(msg)}\n${zodErr(r.error)}`);
        }
        check(
            serverMsgProblems.length === 0,
            `${tag} every server request (${nReq}) matches ServerRequestSchema, every notification (${nNote}) ServerNotificationSchema`,
            () => serverMsgProblems.join('\n')
        );
        if (lateProgress.length)
            diag(`${tag} the SDK dropped ${lateProgress.length} progress notification(s) that arrived with or after their result (typescript-sdk#2580)`);
    } finally {
        s.onChildExit = undefined;
        await endSession(tag, s);
        sessionFinalChecks(tag, s);
    }
}

// -------------------------------------------- per-version transport level
async function runVersion(version) {
    const tag = `[${version}]`;
    const s = newSession(tag);
    s.failedAtStart = failedCount();
    const c = new RawClient(s);
    try {
        try {
            await withTimeout(s.transport.start(), REQUEST_TIMEOUT_MS, 'spawn');
        } catch (e) {
            notOk(`${tag} ${httpMode ? 'transport started' : 'server process spawned'}`, e.message);
            return;
        }
        const init = await step(tag, 'initialize', async () => {
            const raw = await c.request('initialize', { protocolVersion: version, capabilities: {}, clientInfo: CLIENT_INFO });
            return expectResult(tag, 'initialize', raw, InitializeResultSchema);
        });
        if (!init) return;
        if (!check(init.protocolVersion === version, `${tag} initialize result protocolVersion equals offered ${version}`, () => `got ${short(init.protocolVersion)}`))
            return;
        // as the SDK Client does: from now on every HTTP request carries MCP-Protocol-Version
        if (httpMode) s.transport.setProtocolVersion(version);
        if (!(await step(tag, 'notifications/initialized sent', async () => (await c.notify('notifications/initialized'), true)))) return;

        // tools/list
        await step(tag, 'tools/list', async () => {
            let n = 0;
            const { items } = await listAll(
                'tools/list',
                async cursor => {
                    const raw = await c.request('tools/list', cursor === undefined ? undefined : { cursor });
                    const r = expectResult(tag, `tools/list page ${++n}`, raw, ListToolsResultSchema);
                    if (!r) throw new Error('tools/list page rejected');
                    return raw.result; // the raw JSON: the key checks must see what the server wrote
                },
                'tools'
            );
            const names = items.map(x => x.name);
            const missing = TOOLS.filter(x => !names.includes(x));
            check(missing.length === 0, `${tag} tools/list has all ${TOOLS.length} contract tools`, () => `missing ${missing.join(', ')}`);
            const before = (min, key) => {
                if (vAtLeast(version, min)) return;
                const w = toolsWith(items, key);
                check(w.length === 0, `${tag} no tool has ${key} (before ${min})`, () => `on ${w.join(', ')}`);
            };
            before('2025-06-18', 'title');
            before('2025-06-18', 'outputSchema');
            before('2025-03-26', 'annotations');
            before('2025-11-25', 'icons');
            const bad = toolKeyProblems(items, version);
            check(bad.length === 0, `${tag} tool entries carry only keys defined by ${version} (${TOOL_KEYS[version].join(', ')})`, () => bad.join('\n'));
            if (vAtLeast(version, '2025-06-18')) {
                const add = items.find(x => x.name === 'add');
                check(add?.outputSchema?.properties?.sum?.type === 'number', `${tag} add has outputSchema with number property sum`, () => short(add));
            }
        });

        // add
        await step(tag, 'tools/call add', async () => {
            const raw = await c.request('tools/call', { name: 'add', arguments: { a: 2, b: 3.5 } });
            const r = expectResult(tag, 'tools/call add', raw, CallToolResultSchema);
            if (!r) return;
            const tx = texts(raw.result);
            check(Array.isArray(raw.result.content) && tx.length === 1 && closeTo(toNumber(tx[0]), 5.5), `${tag} add {a:2,b:3.5} -> text block numerically 5.5`, () =>
                `got ${short(raw.result)}`
            );
            if (vAtLeast(version, '2025-06-18'))
                check(sameJson(raw.result.structuredContent, { sum: 5.5 }), `${tag} add -> structuredContent {"sum":5.5}`, () => `got ${short(raw.result)}`);
            else check(!('structuredContent' in raw.result), `${tag} add -> no structuredContent (before 2025-06-18)`, () => `got ${short(raw.result)}`);
        });

        // media
        await step(tag, 'tools/call media', async () => {
            const raw = await c.request('tools/call', { name: 'media', arguments: {} });
            const r = expectResult(tag, 'tools/call media', raw, CallToolResultSchema);
            if (!r) return;
            const content = Array.isArray(raw.result.content) ? raw.result.content : [];
            const want = [
                'image',
                vAtLeast(version, '2025-03-26') ? 'audio' : 'text',
                vAtLeast(version, '2025-06-18') ? 'resource_link' : 'text',
                'resource'
            ];
            check(
                sameJson(
                    content.map(b => b.type),
                    want
                ),
                `${tag} media content types: ${want.join(', ')}`,
                () => `got ${short(content.map(b => b.type))}`
            );
            if (!vAtLeast(version, '2025-03-26'))
                check(content[1]?.type === 'text' && content[1].text.length > 0, `${tag} media: audio became a non-empty text block`, () => short(content[1]));
            if (!vAtLeast(version, '2025-06-18'))
                check(content[2]?.type === 'text' && content[2].text.includes('demo://readme'), `${tag} media: resource_link became a text block naming demo://readme`, () =>
                    short(content[2])
                );
        });
    } finally {
        await endSession(tag, s);
        sessionFinalChecks(tag, s);
    }
}

// -------------------------------------------------------------------- main
diag(`TS SDK client (features) vs: ${[serverCommand, ...serverArgs].join(' ')}${httpMode ? ` (Streamable HTTP${jsonMode ? ', JSON responses' : ''})` : ''}`);
const t0 = Date.now();
try {
    if (httpMode) {
        try {
            httpServer = await startHttpServer(serverCommand, serverArgs, { urlTimeoutMs: HTTP_URL_TIMEOUT_MS });
            ok(`[http] server printed its endpoint URL as the first stdout line`);
            diag(`[http] endpoint ${httpServer.url}`);
        } catch (e) {
            notOk(`[http] server printed its endpoint URL within ${HTTP_URL_TIMEOUT_MS / 1000} s`, e?.message ?? String(e));
        }
    }
    if (!httpMode || httpServer) {
        await runClientSuite();
        for (const v of VERSIONS) {
            if (httpServer && !httpServerAlive(httpServer)) {
                notOk(`[${v}] not run: the HTTP server is gone`, `exit ${httpServer.exitInfo}`);
                continue;
            }
            await runVersion(v);
        }
        if (httpServer) await stopHttpServer('[http]', httpServer);
    }
} catch (e) {
    notOk('harness ran without internal error', e?.stack ?? String(e));
} finally {
    diag(`took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    finish();
}
