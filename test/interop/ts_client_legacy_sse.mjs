#!/usr/bin/env node
// Interop test: the official TypeScript MCP SDK's legacy client transport
// (SSEClientTransport, the HTTP+SSE transport of 2024-11-05) against the
// legacy endpoints that Caduceus' HTTP server serves beside Streamable HTTP.
//
//   node ts_client_legacy_sse.mjs <server-command> [args...]
//   e.g. node ts_client_legacy_sse.mjs build/bin/everything-server --http 127.0.0.1:0
//
// The command runs as given; it must print its Streamable HTTP endpoint URL
// (http://HOST:PORT/mcp) as its first stdout line within 10 s. The legacy
// stream is then at http://HOST:PORT/sse. The server is started in a process
// group of its own, and that group is killed on every exit path.
//
// Part 1: the SDK's high-level Client over SSEClientTransport (it offers the
// SDK's latest version; the server must accept it over the legacy transport)
// with sampling and roots handlers: tools/list, echo, add, long_task with
// progress, sample (sampling/createMessage), list_roots (roots/list),
// emit_logs with logging/setLevel, resources list/read, prompts list/get,
// ping, then close(): the server must end the session (a POST to the old
// endpoint gets 404).
// Part 2: the same transport driven at message level offering 2024-11-05 (a
// client of that era): initialize negotiates 2024-11-05, tools/list carries
// only 2024-11-05 tool keys, add answers in text, without structuredContent.
//
// An independent tap (the transport's fetch) checks what the SDK does not:
// the GET is 200 text/event-stream, its first event is `endpoint` with a
// relative URI (/messages?sessionId=...), every later event is a `message`
// event without an id holding one valid JSON-RPC message (SDK
// JSONRPCMessageSchema, no extra envelope keys), every POST is answered 202,
// the SDK delivers every message the tap saw, and the SDK's EventSource never
// had to reconnect (one GET per session).
//
// Output: one "ok - ..." / "not ok - ..." line per check, diagnostics as
// "# ..." lines, last line "N passed, M failed". Exit 0 iff M == 0.

import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import {
    CallToolResultSchema,
    CreateMessageRequestSchema,
    LATEST_PROTOCOL_VERSION,
    ListRootsRequestSchema,
    LoggingMessageNotificationSchema,
    JSONRPCMessageSchema
} from '@modelcontextprotocol/sdk/types.js';
import {
    REQUEST_TIMEOUT_MS,
    killGroup,
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
    ENVELOPE_KEYS,
    envelopeKind,
    SseParser,
    step
} from './lib.mjs';

const SCRIPT_TIMEOUT_MS = 60_000;
const URL_TIMEOUT_MS = 10_000;
const SESSION_END_MS = 3000; // after close(), the old endpoint must answer 404 by then
const STOP_MS = 3000; // SIGTERM -> exit
const CLIENT_INFO = { name: 'caduceus-interop-ts-legacy-sse', version: '0.1.0' };
const TOOLS = ['echo', 'add', 'long_task', 'sample', 'confirm', 'list_roots', 'emit_logs', 'media', 'toggle_bonus', 'touch', 'fail'];
const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const ROOTS = [
    { uri: 'file:///tmp/legacy-a', name: 'a' },
    { uri: 'file:///tmp/legacy-b', name: 'b' }
];
const TOOL_KEYS_2024 = ['name', 'description', 'inputSchema'];

const { command: serverCommand, args: serverArgs } = startHarness({
    usage: 'usage: node ts_client_legacy_sse.mjs <server-command> [args...]\n  e.g. build/bin/everything-server --http 127.0.0.1:0',
    scriptTimeoutMs: SCRIPT_TIMEOUT_MS
});

// ------------------------------------------------------------ the server
// In a process group of its own: the whole group is killed on every exit
// path (finish() of lib.mjs ends in process.exit, which runs 'exit').
const srv = { child: undefined, url: undefined, stderr: '', extraStdout: '', exitInfo: undefined };

// The whole group of the server, with lib.mjs's killGroup.
const killServer = (signal) => killGroup(srv.child, signal);
process.on('exit', () => killServer('SIGKILL'));
process.on('SIGHUP', () => {
    notOk('interrupted by SIGHUP');
    finish();
});

function serverAlive() {
    return srv.child !== undefined && srv.child.exitCode === null && srv.child.signalCode === null;
}

function startServer() {
    return new Promise((resolve, reject) => {
        let child;
        try {
            child = spawn(serverCommand, serverArgs, { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
        } catch (e) {
            reject(new Error(`cannot start ${serverCommand}: ${e.message}`));
            return;
        }
        srv.child = child;
        let out = '';
        let settled = false;
        const settle = (err, url) => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            if (err) {
                killServer('SIGKILL');
                reject(new Error(`${err}${srv.stderr.trim() ? `\nserver stderr:\n${srv.stderr.trimEnd()}` : ''}`));
            } else resolve(url);
        };
        const timer = setTimeout(() => settle(`no URL line on stdout within ${URL_TIMEOUT_MS} ms (got ${short(out)})`), URL_TIMEOUT_MS);
        child.stdin.on('error', () => {});
        child.stderr.on('data', d => {
            srv.stderr += d.toString('utf8');
            if (srv.stderr.length > 20000) srv.stderr = srv.stderr.slice(-20000);
        });
        child.once('error', e => settle(`cannot start ${serverCommand}: ${e.message}`));
        child.on('exit', (code, signal) => {
            srv.exitInfo = `code=${code} signal=${signal}`;
            settle(`server exited (${srv.exitInfo}) before printing its URL`);
        });
        child.stdout.on('data', d => {
            if (settled) {
                srv.extraStdout += d.toString('utf8');
                return;
            }
            out += d.toString('utf8');
            const nl = out.indexOf('\n');
            if (nl === -1) return;
            const line = out.slice(0, nl).replace(/\r$/, '');
            srv.extraStdout = out.slice(nl + 1);
            if (!/^https?:\/\/\S+$/.test(line)) settle(`first stdout line is not a URL: ${short(line)}`);
            else settle(undefined, line);
        });
    });
}

async function stopServer(tag) {
    check(serverAlive(), `${tag} server still running after all sessions`, () => `exit ${srv.exitInfo}`);
    if (serverAlive()) {
        const exited = new Promise(resolve => srv.child.once('exit', resolve));
        killServer('SIGTERM');
        const ended = await Promise.race([exited.then(() => true), sleep(STOP_MS).then(() => false)]);
        check(ended, `${tag} server ended within ${STOP_MS / 1000} s of SIGTERM`);
        if (!ended) killServer('SIGKILL');
    }
    check(srv.extraStdout === '', `${tag} server printed nothing on stdout after its URL line`, () => `got ${short(srv.extraStdout)}`);
}

// ------------------------------------------------------ the session and its tap
/**
 * An SSEClientTransport on `sseUrl` whose fetch (used by the SDK for the
 * EventSource GET and for every POST) is tapped: the GET's event stream is
 * split into events by our own parser and checked, POST statuses recorded.
 */
function makeSession(tag, sseUrl) {
    const s = {
        tag,
        gets: [], // { status, ctype, t, ended }
        posts: [], // { what, status, t }
        endpoint: undefined, // data of the endpoint event
        events: 0,
        received: [], // { msg, t } per message event, in stream order
        rawById: new Map(),
        problems: [],
        sdkCount: 0,
        errors: [],
        ignoredErrors: [],
        closedByUs: false
    };
    const tapFetch = async (url, init = {}) => {
        const method = (init.method ?? 'GET').toUpperCase();
        if (method === 'POST') {
            let what = 'POST';
            try {
                const b = JSON.parse(init.body);
                what = b.method ?? ('result' in b ? `result for ${b.id}` : 'error');
            } catch {
                /* not ours to judge */
            }
            const rec = { what, t: Date.now() };
            s.posts.push(rec);
            const res = await fetch(url, init);
            rec.status = res.status;
            if (res.status !== 202) s.problems.push(`POST ${what} answered HTTP ${res.status} (want 202)`);
            return res;
        }
        const res = await fetch(url, init);
        const ctype = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
        const rec = { status: res.status, ctype, t: Date.now(), ended: false };
        s.gets.push(rec);
        if (res.status !== 200 || ctype !== 'text/event-stream' || !res.body) return res;
        let first = true;
        const parser = new SseParser(ev => {
            if (first) {
                first = false;
                if (ev.event !== 'endpoint') s.problems.push(`first event is "${ev.event}", not "endpoint": ${short(ev.data)}`);
                else s.endpoint = ev.data;
                return;
            }
            s.events++;
            if (ev.event !== 'message') s.problems.push(`event of type "${ev.event}" (want "message"): ${short(ev.data)}`);
            if (ev.id !== undefined) s.problems.push(`event with an id (${short(ev.id)}): the legacy stream has none`);
            onMessageText(s, ev.data);
        });
        const decoder = new TextDecoder();
        const tap = new TransformStream({
            transform(chunk, controller) {
                parser.push(decoder.decode(chunk, { stream: true }));
                controller.enqueue(chunk);
            },
            flush() {
                rec.ended = true;
                parser.push(decoder.decode(), true);
            }
        });
        return new Response(res.body.pipeThrough(tap), { status: res.status, statusText: res.statusText, headers: res.headers });
    };
    s.transport = new SSEClientTransport(new URL(sseUrl), { fetch: tapFetch });
    return s;
}

function onMessageText(s, text) {
    let msg;
    try {
        msg = JSON.parse(text);
    } catch (e) {
        s.problems.push(`event data is not JSON (${e.message}): ${short(text)}`);
        return;
    }
    if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) {
        s.problems.push(`event data is not a JSON object: ${short(text)}`);
        return;
    }
    s.received.push({ msg, t: Date.now() });
    const parsed = JSONRPCMessageSchema.safeParse(msg);
    if (!parsed.success) s.problems.push(`JSONRPCMessageSchema rejected ${short(text)}\n${zodErr(parsed.error)}`);
    const kind = envelopeKind(msg);
    if (!kind) s.problems.push(`neither request, notification, result nor error: ${short(text)}`);
    else {
        const extra = Object.keys(msg).filter(k => !ENVELOPE_KEYS[kind].includes(k));
        if (extra.length) s.problems.push(`unexpected envelope key(s) ${extra.join(', ')} on ${kind}: ${short(text)}`);
    }
    if ((kind === 'result' || kind === 'error') && msg.id !== undefined && msg.id !== null) {
        if (s.rawById.has(msg.id)) s.problems.push(`duplicate response for id ${short(msg.id)}`);
        s.rawById.set(msg.id, msg);
    }
}

/** The endpoint event: a relative URI on this server naming the session. */
function checkEndpoint(s, sseUrl) {
    const tag = s.tag;
    const get = s.gets[0];
    check(get?.status === 200 && get.ctype === 'text/event-stream', `${tag} GET /sse -> 200 text/event-stream`, () => short(s.gets));
    check(/^\/messages\?sessionId=[\x21-\x7e]{16,}$/.test(s.endpoint ?? ''), `${tag} first event is "endpoint" with the relative URI /messages?sessionId=<id>`, () =>
        `got ${short(s.endpoint)}`
    );
    const resolved = s.endpoint ? new URL(s.endpoint, sseUrl) : undefined;
    check(resolved?.origin === new URL(sseUrl).origin, `${tag} the endpoint resolves to the stream's origin`, () => short(resolved?.href));
    return resolved;
}

/** After close(): the server ends the session, so a POST to its endpoint gets 404. */
async function checkSessionEnds(s, endpointUrl) {
    const tag = s.tag;
    if (!endpointUrl) return;
    let last;
    const gone = await waitForAsync(async () => {
        try {
            const res = await fetch(endpointUrl, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ jsonrpc: '2.0', id: 'after-close', method: 'ping' }),
                signal: AbortSignal.timeout(2000)
            });
            await res.text().catch(() => '');
            last = `HTTP ${res.status}`;
            return res.status === 404;
        } catch (e) {
            last = e?.message ?? String(e);
            return false;
        }
    }, SESSION_END_MS);
    check(gone, `${tag} after close() the session ends: a POST to its endpoint gets 404 within ${SESSION_END_MS / 1000} s`, () => `last: ${last}`);
}

async function waitForAsync(pred, ms) {
    const end = Date.now() + ms;
    for (;;) {
        if (await pred()) return true;
        if (Date.now() >= end) return false;
        await sleep(50);
    }
}

function sessionFinalChecks(s) {
    const tag = s.tag;
    check(s.problems.length === 0, `${tag} every POST answered 202; every stream event a "message" without id holding one valid JSON-RPC message`, () =>
        s.problems.join('\n')
    );
    check(s.sdkCount === s.events, `${tag} the SDK delivered every message of the stream (${s.sdkCount}/${s.events})`);
    check(s.gets.length === 1, `${tag} one GET for the whole session (the EventSource never reconnected)`, () => short(s.gets));
    check(s.errors.length === 0, `${tag} SDK reported no errors (onerror)`, () => s.errors.join('\n'));
    if (s.ignoredErrors.length) diag(`${tag} ignored SDK error report(s): ${short(s.ignoredErrors.join(' | '))}`);
    diag(`${tag} ${s.posts.length} POSTs, ${s.events} message events`);
}

// ------------------------------------------------------------------ helpers
function texts(result) {
    return Array.isArray(result?.content) ? result.content.filter(c => c?.type === 'text').map(c => c.text) : [];
}
const allText = result => texts(result).join('\n');
const sameJson = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const opts = (extra = {}) => ({ timeout: REQUEST_TIMEOUT_MS, ...extra });
/** A high-level SDK call with an outer deadline (the SDK has its own per-request timeout too). */
const call = (promise, what) => withTimeout(promise, REQUEST_TIMEOUT_MS + 2000, what);
function lastSentId(s, method, pred = () => true) {
    return s.sent.filter(m => m.method === method && 'id' in m && pred(m)).pop()?.id;
}
function responseIndex(s, id) {
    return s.received.findIndex(r => !('method' in r.msg) && r.msg.id === id);
}
async function listAll(fetchPage, key) {
    const items = [];
    let cursor;
    for (let i = 0; i < 50; i++) {
        const r = await fetchPage(cursor);
        items.push(...r[key]);
        if (r.nextCursor === undefined) return items;
        cursor = r.nextCursor;
    }
    throw new Error(`more than 50 pages of ${key}`);
}

// ------------------------------------------------------ part 1: the Client
async function runClient(sseUrl) {
    const tag = '[Client]';
    const s = makeSession(tag, sseUrl);
    s.sent = [];
    const t = s.transport;
    const origSend = t.send.bind(t);
    t.send = msg => {
        s.sent.push(msg);
        return origSend(msg);
    };
    t.onmessage = () => {
        s.sdkCount++; // Client.connect chains its own handler after this one
    };
    const client = new Client(CLIENT_INFO, { capabilities: { sampling: {}, roots: { listChanged: true } } });
    client.onerror = err => {
        const m = err?.message ?? String(err);
        if (s.closedByUs) s.ignoredErrors.push(m);
        // SDK 1.32.2 dispatches notifications a microtask after responses, so a
        // progress notification read together with its result finds its
        // handler gone (typescript-sdk#2580); progress is counted on the tap.
        else if (/progress notification for an unknown token/.test(m)) s.ignoredErrors.push(m);
        else s.errors.push(m);
    };
    const logs = [];
    const samplingRequests = [];
    let rootsRequests = 0;
    client.setNotificationHandler(LoggingMessageNotificationSchema, n => {
        logs.push(n.params);
    });
    client.setRequestHandler(CreateMessageRequestSchema, req => {
        samplingRequests.push(req);
        const prompt = texts({ content: req.params.messages.map(m => m.content) }).join(' ');
        return { role: 'assistant', content: { type: 'text', text: `pong:${prompt}` }, model: 'legacy-test-model' };
    });
    client.setRequestHandler(ListRootsRequestSchema, () => {
        rootsRequests++;
        return { roots: ROOTS };
    });
    const callTool = (name, args, extra) => call(client.callTool({ name, arguments: args }, CallToolResultSchema, opts(extra)), `tools/call ${name}`);
    const alive = () => serverAlive();
    let endpointUrl;

    try {
        const connected = await step(tag, 'connect', async () => {
            await withTimeout(client.connect(t, opts()), REQUEST_TIMEOUT_MS + 1000, 'Client.connect over SSEClientTransport');
            ok(`${tag} connect over SSEClientTransport (initialize offering ${LATEST_PROTOCOL_VERSION}, sampling+roots)`);
            return true;
        });
        endpointUrl = checkEndpoint(s, sseUrl);
        if (!connected) return;

        const init = s.rawById.get(0)?.result; // the Client numbers requests from 0
        check(init?.protocolVersion === LATEST_PROTOCOL_VERSION, `${tag} negotiated protocolVersion ${LATEST_PROTOCOL_VERSION} over the legacy transport`, () =>
            `got ${short(init?.protocolVersion)}`
        );
        check(client.getServerVersion()?.name === 'everything-server', `${tag} serverInfo.name is everything-server`, () => short(client.getServerVersion()));
        const caps = client.getServerCapabilities() ?? {};
        check(caps.tools && caps.resources && caps.prompts && caps.logging, `${tag} capabilities: tools, resources, prompts, logging`, () => short(caps));

        await step(tag, 'ping', async () => {
            await call(client.ping(opts()), 'ping');
            ok(`${tag} ping`);
        });

        await step(tag, 'tools/list', async () => {
            const items = await listAll(c => call(client.listTools(c ? { cursor: c } : undefined, opts()), 'tools/list'), 'tools');
            client.cacheToolMetadata?.(items);
            const names = items.map(x => x.name);
            const missing = TOOLS.filter(n => !names.includes(n));
            check(missing.length === 0, `${tag} tools/list has ${TOOLS.join(', ')}`, () => `missing ${missing.join(', ')}; got ${names.join(', ')}`);
        });

        if (alive())
            await step(tag, 'echo', async () => {
                const text = 'hello over legacy SSE \u2713 "quoted"\nsecond line \u{1F600}';
                const r = await callTool('echo', { text });
                check(r.isError !== true && r.content.length === 1 && r.content[0].text === text, `${tag} echo -> the same text (unicode, quotes, newline)`, () =>
                    `got ${short(r)}`
                );
            });

        if (alive())
            await step(tag, 'add', async () => {
                const r = await callTool('add', { a: 2, b: 3.5 });
                check(r.isError !== true && allText(r) === '5.5', `${tag} add {a:2,b:3.5} -> "5.5"`, () => `got ${short(r)}`);
                check(sameJson(r.structuredContent, { sum: 5.5 }), `${tag} add -> structuredContent {"sum":5.5}`, () => `got ${short(r.structuredContent)}`);
            });

        if (alive())
            await step(tag, 'long_task', async () => {
                const progress = [];
                const r = await callTool('long_task', { steps: 4, step_ms: 30 }, { onprogress: p => progress.push(p) });
                check(r.isError !== true && allText(r) === 'completed 4 steps', `${tag} long_task {steps:4,step_ms:30} -> "completed 4 steps"`, () => `got ${short(r)}`);
                const id = lastSentId(s, 'tools/call', m => m.params?.name === 'long_task');
                const token = s.sent.find(m => m.id === id)?.params?._meta?.progressToken;
                const raw = s.received.filter(x => x.msg.method === 'notifications/progress' && x.msg.params?.progressToken === token);
                const got = raw.map(x => ({ progress: x.msg.params.progress, total: x.msg.params.total }));
                const want = [1, 2, 3, 4].map(progress => ({ progress, total: 4 }));
                check(token !== undefined && sameJson(got, want), `${tag} long_task: progress 1..4 of 4 for the SDK's progressToken, on the stream`, () =>
                    `token ${short(token)}, got ${short(raw.map(x => x.msg.params))}`
                );
                const respIdx = responseIndex(s, id);
                check(respIdx >= 0 && raw.every(x => s.received.indexOf(x) < respIdx), `${tag} long_task: every progress notification precedes the result`);
                check(progress.length >= 1, `${tag} long_task: onprogress got progress (${progress.length} of ${raw.length})`);
            });

        if (alive())
            await step(tag, 'sample', async () => {
                const before = samplingRequests.length;
                const r = await callTool('sample', { prompt: 'what is 6 x 7?' });
                check(samplingRequests.length === before + 1, `${tag} sample -> one sampling/createMessage request to the client`, () =>
                    `got ${samplingRequests.length - before}`
                );
                check(r.isError !== true && allText(r).includes('pong:what is 6 x 7?'), `${tag} sample -> the result carries the client's answer`, () => `got ${short(r)}`);
                // the POST's response may come after the result has arrived on the stream
                const answer = s.posts.filter(p => p.what.startsWith('result for')).pop();
                await waitFor(() => answer?.status !== undefined, 2000);
                check(answer?.status === 202, `${tag} the client's answer POSTed to the endpoint -> 202`, () => short(answer));
            });

        if (alive())
            await step(tag, 'list_roots', async () => {
                const before = rootsRequests;
                const r = await callTool('list_roots', {});
                check(rootsRequests === before + 1, `${tag} list_roots -> one roots/list request to the client`, () => `got ${rootsRequests - before}`);
                const tx = allText(r);
                check(r.isError !== true && ROOTS.every(x => tx.includes(x.uri)), `${tag} list_roots -> the result lists the client's roots`, () => `got ${short(r)}`);
            });

        if (alive())
            await step(tag, 'emit_logs', async () => {
                await call(client.setLoggingLevel('debug', opts()), 'logging/setLevel');
                const first = logs.length;
                const r = await callTool('emit_logs', {});
                check(allText(r) === 'emitted', `${tag} emit_logs -> "emitted"`, () => `got ${short(r)}`);
                await waitFor(() => logs.length - first >= LEVELS.length, 1000);
                const got = logs.slice(first).filter(l => l.logger === 'everything');
                check(
                    sameJson(
                        got.map(l => l.level),
                        LEVELS
                    ),
                    `${tag} emit_logs: notifications/message at every level, in order`,
                    () => `got ${short(got)}`
                );
                const id = lastSentId(s, 'tools/call', m => m.params?.name === 'emit_logs');
                const respIdx = responseIndex(s, id);
                const raw = s.received.filter(x => x.msg.method === 'notifications/message' && x.msg.params?.logger === 'everything');
                check(respIdx >= 0 && raw.slice(-LEVELS.length).every(x => s.received.indexOf(x) < respIdx), `${tag} emit_logs: every log message precedes the result`);

                await call(client.setLoggingLevel('error', opts()), 'logging/setLevel error');
                const second = logs.length;
                await callTool('emit_logs', {});
                await sleep(200);
                const filtered = logs.slice(second).map(l => l.level);
                check(sameJson(filtered, LEVELS.slice(4)), `${tag} logging/setLevel error -> only error and above`, () => `got ${short(filtered)}`);
            });

        if (alive())
            await step(tag, 'resources', async () => {
                const items = await listAll(c => call(client.listResources(c ? { cursor: c } : undefined, opts()), 'resources/list'), 'resources');
                const uris = items.map(x => x.uri);
                const want = ['demo://readme', 'demo://logo.png', ...Array.from({ length: 25 }, (_, i) => `demo://items/${i + 1}`)];
                const missing = want.filter(u => !uris.includes(u));
                check(missing.length === 0 && uris.length === 27, `${tag} resources/list: demo://readme, demo://logo.png, demo://items/1..25`, () =>
                    `missing ${missing.join(', ')}; ${uris.length} URIs`
                );
                const readme = await call(client.readResource({ uri: 'demo://readme' }, opts()), 'resources/read readme');
                const c = readme.contents?.[0];
                check(
                    readme.contents?.length === 1 && c.uri === 'demo://readme' && c.mimeType === 'text/markdown' && c.text?.startsWith('# everything-server'),
                    `${tag} resources/read demo://readme -> its markdown`,
                    () => short(readme)
                );
                const user = await call(client.readResource({ uri: 'demo://users/42' }, opts()), 'resources/read users/42');
                let parsed;
                try {
                    parsed = JSON.parse(user.contents?.[0]?.text);
                } catch {
                    /* judged below */
                }
                check(sameJson(parsed, { id: '42', name: 'User 42' }), `${tag} resources/read demo://users/42 (template) -> {"id":"42","name":"User 42"}`, () => short(user));
            });

        if (alive())
            await step(tag, 'prompts', async () => {
                const prompts = await listAll(c => call(client.listPrompts(c ? { cursor: c } : undefined, opts()), 'prompts/list'), 'prompts');
                const names = prompts.map(p => p.name);
                check(['greeting', 'with_image'].every(n => names.includes(n)), `${tag} prompts/list has greeting and with_image`, () => names.join(', '));
                const r = await call(client.getPrompt({ name: 'greeting', arguments: { name: 'Ada', style: 'pirate' } }, opts()), 'prompts/get greeting');
                check(
                    r.messages?.length === 1 && r.messages[0].role === 'user' && r.messages[0].content?.text === 'Ahoy, Ada!',
                    `${tag} prompts/get greeting {name:Ada,style:pirate} -> "Ahoy, Ada!"`,
                    () => short(r)
                );
            });

        if (alive())
            await step(tag, 'unknown tool', async () => {
                try {
                    const r = await callTool('no_such_tool', {});
                    notOk(`${tag} tools/call of an unknown tool -> JSON-RPC error -32602`, `resolved: ${short(r)}`);
                } catch (e) {
                    check(e?.code === -32602, `${tag} tools/call of an unknown tool -> JSON-RPC error -32602`, () => `got ${e?.code} ${short(e?.message)}`);
                }
            });
    } finally {
        s.closedByUs = true;
        try {
            await withTimeout(client.close(), 5000, 'Client.close()');
            ok(`${tag} close()`);
        } catch (e) {
            notOk(`${tag} close()`, e?.message ?? String(e));
        }
        await checkSessionEnds(s, endpointUrl);
        sessionFinalChecks(s);
    }
}

// ------------------------------------- part 2: a 2024-11-05 client, message level
async function runLegacyVersion(sseUrl) {
    const version = '2024-11-05';
    const tag = `[${version}]`;
    const s = makeSession(tag, sseUrl);
    const t = s.transport;
    const pending = new Map();
    t.onmessage = msg => {
        s.sdkCount++;
        if ('id' in msg && !('method' in msg)) {
            const p = pending.get(msg.id);
            if (p) {
                pending.delete(msg.id);
                p(msg);
            } else s.problems.push(`response with an unknown id: ${short(msg)}`);
        } else if ('method' in msg && 'id' in msg) {
            t.send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'not supported by this test client' } }).catch(() => {});
        }
    };
    t.onerror = err => {
        const m = err?.message ?? String(err);
        if (s.closedByUs) s.ignoredErrors.push(m);
        else s.errors.push(m);
    };
    let nextId = 1;
    const request = async (method, params) => {
        const id = nextId++;
        const answered = new Promise(resolve => pending.set(id, resolve));
        const msg = { jsonrpc: '2.0', id, method };
        if (params !== undefined) msg.params = params;
        try {
            await withTimeout(Promise.all([t.send(msg), answered]), REQUEST_TIMEOUT_MS, `${method} (id ${id})`);
        } finally {
            pending.delete(id);
        }
        return s.rawById.get(id);
    };
    let endpointUrl;
    try {
        const started = await step(tag, 'start', async () => {
            await withTimeout(t.start(), REQUEST_TIMEOUT_MS, 'SSEClientTransport.start()');
            return true;
        });
        endpointUrl = checkEndpoint(s, sseUrl);
        if (!started) return;
        await step(tag, 'session', async () => {
            const init = await request('initialize', { protocolVersion: version, capabilities: {}, clientInfo: CLIENT_INFO });
            check(init?.result?.protocolVersion === version, `${tag} initialize offering ${version} -> ${version}`, () => short(init));
            t.setProtocolVersion(version);
            await withTimeout(t.send({ jsonrpc: '2.0', method: 'notifications/initialized' }), REQUEST_TIMEOUT_MS, 'notifications/initialized');
            const list = await request('tools/list');
            const tools = list?.result?.tools ?? [];
            const extra = tools.flatMap(x => Object.keys(x).filter(k => !TOOL_KEYS_2024.includes(k)).map(k => `${x.name}.${k}`));
            check(tools.length >= TOOLS.length && extra.length === 0, `${tag} tools/list: every tool, with only the keys 2024-11-05 defines`, () =>
                `${tools.length} tools; extra keys ${extra.join(', ')}`
            );
            const add = await request('tools/call', { name: 'add', arguments: { a: 40, b: 2 } });
            check(allText(add?.result) === '42' && !('structuredContent' in (add?.result ?? {})), `${tag} add {a:40,b:2} -> "42", no structuredContent`, () => short(add));
            const progressToken = 'legacy-progress';
            const lt = await request('tools/call', { name: 'long_task', arguments: { steps: 2, step_ms: 10 }, _meta: { progressToken } });
            const notes = s.received.filter(x => x.msg.method === 'notifications/progress' && x.msg.params?.progressToken === progressToken);
            check(
                allText(lt?.result) === 'completed 2 steps' && notes.length === 2 && notes.every(x => !('message' in x.msg.params)),
                `${tag} long_task -> 2 progress notifications (without "message", which 2024-11-05 lacks), then the result`,
                () => `result ${short(lt)}; progress ${short(notes.map(x => x.msg.params))}`
            );
        });
    } finally {
        s.closedByUs = true;
        try {
            await withTimeout(t.close(), 5000, 'SSEClientTransport.close()');
        } catch (e) {
            notOk(`${tag} close()`, e?.message ?? String(e));
        }
        await checkSessionEnds(s, endpointUrl);
        sessionFinalChecks(s);
    }
}

// -------------------------------------------------------------------- main
diag(`TS SDK legacy SSE client vs: ${[serverCommand, ...serverArgs].join(' ')}`);
const t0 = Date.now();
try {
    let url;
    try {
        url = await startServer();
        ok('[http] server printed its endpoint URL as the first stdout line');
    } catch (e) {
        notOk(`[http] server printed its endpoint URL within ${URL_TIMEOUT_MS / 1000} s`, e?.message ?? String(e));
    }
    if (url) {
        const sseUrl = new URL('/sse', url).href;
        diag(`[http] legacy stream ${sseUrl}`);
        await runClient(sseUrl);
        if (serverAlive()) await runLegacyVersion(sseUrl);
        else notOk(`[2024-11-05] not run: the server is gone`, `exit ${srv.exitInfo}`);
        await stopServer('[http]');
        if (!serverAlive() && srv.stderr.trim() && failedCount() > 0) diag(`server stderr:\n${srv.stderr.trimEnd().split('\n').slice(-20).join('\n')}`);
    }
} catch (e) {
    notOk('harness ran without internal error', e?.stack ?? String(e));
} finally {
    diag(`took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    finish();
}
