#!/usr/bin/env node
// Interop test: the TS SDK v2 client (@modelcontextprotocol/client, pinned in
// package.json) against a server that serves both protocol eras, our
// conformance-server (its fixtures: examples/conformance_fixtures*.cpp).
//
//   node ts2_client.mjs --http  <server-command> [args...]   # prints its URL first, e.g. conformance-server --port 0
//   node ts2_client.mjs --stdio <server-command> [args...]   # e.g. conformance-server --stdio
//
// Three clients, one after the other (over HTTP all on ONE server process;
// over stdio one process per connection):
//   modern  versionNegotiation {pin: 2026-07-28}: server/discover, lists,
//           calls, reads, prompts, multi-round requests (input_required)
//           answered by the client's elicitation handler, subscriptions/listen;
//   legacy  the default 2025 connect (initialize, 2025-11-25): the same calls,
//           elicitation as real server->client requests to the same handler,
//           tools/list_changed as an unsolicited notification; it stays
//           connected while
//   auto    versionNegotiation {mode: 'auto'} must pick 2026-07-28;
// then the legacy client pings once more and ends its session.
//
// Everything both ways is tapped below the SDK (transport.send/onmessage, and
// the HTTP exchanges through the transport's fetch), because the SDK hides
// the wire: it strips `resultType` and does the input_required rounds inside
// one callTool(). Output: "ok - ..." / "not ok - ..." per check, "# ..."
// diagnostics, last line "N passed, M failed"; exit 0 iff nothing failed
// (2 on a usage error). Every wait is bounded (10 s a request, 5 s for a
// notification, 120 s for the script); the server processes are killed on
// every exit path (lib.mjs).

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
    ok,
    notOk,
    check,
    diag,
    short,
    failedCount,
    finish,
    startHarness,
    withTimeout,
    waitFor,
    sleep,
    liveTransports,
    startHttpServer,
    stopHttpServer,
    httpServerAlive
} from './lib.mjs';

const SCRIPT_TIMEOUT_MS = 120_000;
const REQUEST_TIMEOUT_MS = 10_000;
const NOTIFICATION_WAIT_MS = 5_000;
const QUIET_WAIT_MS = 700; // how long nothing may arrive where nothing must
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const RO = { timeout: REQUEST_TIMEOUT_MS };
const CLIENT_INFO = { name: 'caduceus-interop-ts2-client', version: '0.1.0' };
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

// What the elicitation handler answers, per requested field.
const ANSWERS = { name: 'Ada', color: 'blue', context: 'interop' };
// The fixtures (examples/conformance_fixtures.cpp, conformance_fixtures_2026.cpp).
const SIMPLE_TEXT = 'This is a simple text response for testing.';
const STATIC_TEXT = 'This is the content of the static text resource.';
const SIMPLE_PROMPT = 'This is a simple prompt for testing.';
const EXPECTED_TOOLS = [
    'test_simple_text',
    'test_input_required_result_elicitation',
    'test_input_required_result_multi_round',
    'test_trigger_tool_change'
];

// ------------------------------------------------------------- command line
const USAGE = 'usage: node ts2_client.mjs --http|--stdio <server-command> [args...]';
const mode = process.argv[2] === '--http' ? 'http' : process.argv[2] === '--stdio' ? 'stdio' : undefined;
if (!mode) {
    console.error(USAGE);
    process.exit(2);
}
process.argv.splice(2, 1);
const { command, args } = startHarness({ usage: USAGE, scriptTimeoutMs: SCRIPT_TIMEOUT_MS });
let srv; // the HTTP server process (http mode)

// ------------------------------------------------------------------ helpers
const textOf = result =>
    Array.isArray(result?.content) ? result.content.filter(c => c?.type === 'text').map(c => c.text).join('\n') : undefined;
const promptText = result =>
    Array.isArray(result?.messages) ? result.messages.map(m => (m?.content?.type === 'text' ? m.content.text : '')).join('\n') : undefined;
const isRequest = m => m && typeof m.method === 'string' && m.id !== undefined;
const isNotification = m => m && typeof m.method === 'string' && m.id === undefined;
const isResponse = m => m && m.method === undefined && m.id !== undefined;

/** A client with its taps: every message both ways, every HTTP exchange, every elicitation, every tools/list_changed. */
function makePhase(tag, versionNegotiation) {
    const ph = { tag, tx: [], rx: [], http: [], elicitations: [], listChanged: [], errors: [], stderr: '', child: undefined, failedAtStart: failedCount() };
    ph.client = new Client(CLIENT_INFO, { capabilities: { elicitation: {} }, ...(versionNegotiation && { versionNegotiation }) });
    ph.client.onerror = e => ph.errors.push(e);
    ph.client.setRequestHandler('elicitation/create', async req => {
        ph.elicitations.push(req.params);
        const content = {};
        for (const field of Object.keys(req.params?.requestedSchema?.properties ?? {})) content[field] = ANSWERS[field] ?? `answer-${field}`;
        return { action: 'accept', content };
    });
    ph.client.setNotificationHandler('notifications/tools/list_changed', n => ph.listChanged.push(n));

    let t;
    if (mode === 'http') {
        t = new StreamableHTTPClientTransport(new URL(srv.url), { fetch: (url, init) => tapFetch(ph, url, init) });
    } else {
        t = new StdioClientTransport({ command, args, stderr: 'pipe' });
        t.stderr?.on('data', chunk => {
            ph.stderr += chunk.toString('utf8');
            if (ph.stderr.length > 20000) ph.stderr = ph.stderr.slice(-20000);
        });
        liveTransports.add(t); // killed by lib.mjs on every exit path
    }
    const send = t.send.bind(t);
    t.send = (msg, opts) => {
        ph.tx.push(msg);
        return send(msg, opts);
    };
    let handler;
    const tapped = (msg, extra) => {
        ph.rx.push(msg);
        handler?.(msg, extra);
    };
    Object.defineProperty(t, 'onmessage', {
        configurable: true,
        get: () => handler && tapped,
        set: fn => {
            handler = fn;
        }
    });
    ph.transport = t;
    return ph;
}

async function tapFetch(ph, url, init = {}) {
    let body;
    try {
        body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    } catch {
        /* not JSON: not ours to judge */
    }
    const headers = new Headers(init.headers);
    const rec = { method: (init.method ?? 'GET').toUpperCase(), body, mcpMethod: body?.method, headers };
    ph.http.push(rec);
    const res = await fetch(url, init);
    rec.status = res.status;
    rec.ctype = res.headers.get('content-type');
    rec.sessionId = res.headers.get('mcp-session-id');
    return res;
}

/** Connects, as a check. */
async function connect(ph) {
    try {
        await withTimeout(ph.client.connect(ph.transport, RO), REQUEST_TIMEOUT_MS + 2000, 'connect');
        ok(`${ph.tag} connected`);
        if (mode === 'stdio') {
            ph.child = ph.transport._process; // private field: to see how the server ends
            ph.child?.once('exit', (code, signal) => (ph.exit = { code, signal, t: Date.now() }));
        }
        return true;
    } catch (e) {
        notOk(`${ph.tag} connected`, errText(ph, e));
        return false;
    }
}

function errText(ph, e) {
    // an SDK error (ProtocolError, SdkError) says enough without its stack
    let s = e?.code !== undefined ? `${e.name}: ${e.message} (code ${e.code})` : (e?.stack ?? String(e));
    if (e?.data !== undefined) s += `\ndata: ${short(e.data)}`;
    if (ph.stderr.trim()) s += `\nserver stderr (tail):\n${ph.stderr.trimEnd().split('\n').slice(-15).join('\n')}`;
    if (srv?.stderr?.trim()) s += `\nserver stderr (tail):\n${srv.stderr.trimEnd().split('\n').slice(-15).join('\n')}`;
    return s;
}

/** Runs one SDK call as a check (bounded); resolves to its result, or undefined after a failure. */
async function step(ph, what, fn) {
    try {
        const r = await withTimeout(fn(), REQUEST_TIMEOUT_MS + 2000, what);
        ok(`${ph.tag} ${what}`);
        return r;
    } catch (e) {
        notOk(`${ph.tag} ${what}`, errText(ph, e));
        return undefined;
    }
}

/** The requests of `method` sent since tx index `mark`, each with the response the server sent to it. */
function exchanges(ph, method, mark) {
    return ph.tx
        .slice(mark)
        .filter(m => isRequest(m) && m.method === method)
        .map(req => ({ req, res: ph.rx.find(m => isResponse(m) && m.id === req.id) }));
}
/** Server->client requests received since rx index `mark`. */
const serverRequests = (ph, mark) => ph.rx.slice(mark).filter(isRequest);
const resultTypes = exs => exs.map(x => x.res?.result?.resultType ?? (x.res?.error ? `error ${x.res.error.code}` : x.res ? '(none)' : '(no response)'));
const wire = exs => exs.map(x => `> ${short(x.req, 600)}\n< ${short(x.res, 600)}`).join('\n');

/** The checks every modern result shares: resultType "complete", and ttlMs/cacheScope when cacheable. */
function checkModernResult(ph, what, ex, { cacheable = false } = {}) {
    const r = ex?.res?.result;
    check(r?.resultType === 'complete', `${ph.tag} ${what} result carries resultType "complete"`, () => wire(ex ? [ex] : []));
    if (cacheable) {
        check(
            Number.isInteger(r?.ttlMs) && r.ttlMs >= 0 && ['public', 'private'].includes(r?.cacheScope),
            `${ph.tag} ${what} result carries ttlMs (integer >= 0) and cacheScope`,
            () => `ttlMs ${short(r?.ttlMs)}, cacheScope ${short(r?.cacheScope)}`
        );
    }
}
function checkLegacyResult(ph, what, ex) {
    const r = ex?.res?.result;
    const extra = ['resultType', 'ttlMs', 'cacheScope', 'inputRequests', 'requestState'].filter(k => r && k in r);
    check(r && extra.length === 0, `${ph.tag} ${what} result has no 2026-07-28 fields`, () => `got ${extra.join(', ') || 'no result'}: ${short(ex?.res)}`);
}

// ------------------------------------------------------------ the calls both eras make
async function commonCalls(ph, era) {
    const modern = era === 'modern';
    const c = ph.client;

    // tools/list
    let mark = ph.tx.length;
    const tools = await step(ph, 'tools/list', () => c.listTools(undefined, { ...RO, cacheMode: 'refresh' }));
    if (tools) {
        const names = tools.tools.map(t => t.name);
        const missing = EXPECTED_TOOLS.filter(n => !names.includes(n));
        check(missing.length === 0, `${ph.tag} tools/list has ${EXPECTED_TOOLS.join(', ')}`, () => `missing ${missing.join(', ')}; got ${names.join(', ')}`);
        const ex = exchanges(ph, 'tools/list', mark);
        if (modern) {
            checkModernResult(ph, 'tools/list', ex[0], { cacheable: true });
            check(ex.every(x => x.res?.result?.resultType === 'complete'), `${ph.tag} tools/list never answers input_required`, () => wire(ex));
        } else checkLegacyResult(ph, 'tools/list', ex[0]);
    }

    // tools/call test_simple_text
    mark = ph.tx.length;
    const simple = await step(ph, 'tools/call test_simple_text', () => c.callTool({ name: 'test_simple_text', arguments: {} }, RO));
    if (simple) {
        check(textOf(simple) === SIMPLE_TEXT && simple.isError !== true, `${ph.tag} test_simple_text answers "${SIMPLE_TEXT}"`, () => short(simple));
        const ex = exchanges(ph, 'tools/call', mark);
        check(ex.length === 1, `${ph.tag} test_simple_text took one round`, () => wire(ex));
        if (modern) checkModernResult(ph, 'tools/call test_simple_text', ex[0]);
        else checkLegacyResult(ph, 'tools/call test_simple_text', ex[0]);
    }

    // resources/read test://static-text
    mark = ph.tx.length;
    const read = await step(ph, 'resources/read test://static-text', () => c.readResource({ uri: 'test://static-text' }, { ...RO, cacheMode: 'refresh' }));
    if (read) {
        const first = read.contents?.[0];
        check(
            read.contents?.length === 1 && first?.uri === 'test://static-text' && first?.text === STATIC_TEXT && first?.mimeType === 'text/plain',
            `${ph.tag} test://static-text reads "${STATIC_TEXT}" (text/plain)`,
            () => short(read)
        );
        const ex = exchanges(ph, 'resources/read', mark);
        if (modern) checkModernResult(ph, 'resources/read', ex[0], { cacheable: true });
        else checkLegacyResult(ph, 'resources/read', ex[0]);
    }

    // prompts/get test_simple_prompt
    mark = ph.tx.length;
    const prompt = await step(ph, 'prompts/get test_simple_prompt', () => c.getPrompt({ name: 'test_simple_prompt' }, RO));
    if (prompt) {
        check(
            prompt.messages?.length === 1 && prompt.messages[0].role === 'user' && promptText(prompt) === SIMPLE_PROMPT,
            `${ph.tag} test_simple_prompt is one user message "${SIMPLE_PROMPT}"`,
            () => short(prompt)
        );
        const ex = exchanges(ph, 'prompts/get', mark);
        if (modern) checkModernResult(ph, 'prompts/get', ex[0]);
        else checkLegacyResult(ph, 'prompts/get', ex[0]);
    }

    await inputRounds(ph, era, {
        what: 'tools/call test_input_required_result_elicitation',
        method: 'tools/call',
        call: () => c.callTool({ name: 'test_input_required_result_elicitation', arguments: {} }, RO),
        result: textOf,
        expected: 'Hello, Ada!',
        rounds: [{ key: 'user_name', message: 'What is your name?', field: 'name', state: false }]
    });
    await inputRounds(ph, era, {
        what: 'tools/call test_input_required_result_multi_round',
        method: 'tools/call',
        call: () => c.callTool({ name: 'test_input_required_result_multi_round', arguments: {} }, RO),
        result: textOf,
        expected: 'Ada likes blue',
        rounds: [
            { key: 'step1', message: 'Step 1: What is your name?', field: 'name', state: true },
            { key: 'step2', message: 'Step 2: What is your favorite color?', field: 'color', state: true }
        ]
    });
    await inputRounds(ph, era, {
        what: 'prompts/get test_input_required_result_prompt',
        method: 'prompts/get',
        call: () => c.getPrompt({ name: 'test_input_required_result_prompt' }, RO),
        result: promptText,
        expected: 'Use this context: interop',
        rounds: [{ key: 'user_context', message: 'What context should the prompt use?', field: 'context', state: false }]
    });
}

/**
 * A request the server answers only after asking the client (elicitation):
 * modern, rounds of input_required results the SDK fulfils with the
 * elicitation handler and retries; legacy, one request during which the
 * server sends elicitation/create requests to that same handler.
 */
async function inputRounds(ph, era, { what, method, call, result, expected, rounds }) {
    const modern = era === 'modern';
    const markTx = ph.tx.length;
    const markRx = ph.rx.length;
    const markElicit = ph.elicitations.length;
    const r = await step(ph, what, call);
    if (!r) return;
    check(result(r) === expected, `${ph.tag} ${what} answers "${expected}"`, () => short(r));
    const asked = ph.elicitations.slice(markElicit).map(p => p?.message);
    check(
        asked.length === rounds.length && rounds.every((round, i) => asked[i] === round.message),
        `${ph.tag} ${what}: the elicitation handler was asked ${rounds.map(x => `"${x.message}"`).join(', then ')}`,
        () => `asked ${short(asked)}`
    );
    const ex = exchanges(ph, method, markTx);
    if (modern) {
        check(ex.length === rounds.length + 1, `${ph.tag} ${what} took ${rounds.length + 1} requests (${rounds.length} retr${rounds.length === 1 ? 'y' : 'ies'})`, () => wire(ex));
        check(
            resultTypes(ex).join(',') === [...rounds.map(() => 'input_required'), 'complete'].join(','),
            `${ph.tag} ${what} result types: ${[...rounds.map(() => 'input_required'), 'complete'].join(', ')}`,
            () => `got ${resultTypes(ex).join(', ')}\n${wire(ex)}`
        );
        let prevState;
        rounds.forEach((round, i) => {
            const res = ex[i]?.res?.result;
            const retry = ex[i + 1]?.req;
            const ir = res?.inputRequests ?? {};
            const q = ir[round.key];
            check(
                Object.keys(ir).join(',') === round.key &&
                    q?.method === 'elicitation/create' &&
                    q?.params?.message === round.message &&
                    q?.params?.requestedSchema?.properties?.[round.field]?.type === 'string',
                `${ph.tag} ${what} round ${i + 1} asks exactly "${round.key}" (elicitation/create, field ${round.field})`,
                () => short(res, 800)
            );
            if (round.state) {
                check(
                    typeof res?.requestState === 'string' && res.requestState.length > 0 && res.requestState !== prevState,
                    `${ph.tag} ${what} round ${i + 1} carries a requestState${i > 0 ? ' different from the previous one' : ''}`,
                    () => `requestState ${short(res?.requestState)}, previous ${short(prevState)}`
                );
            } else {
                check(res && !('requestState' in res), `${ph.tag} ${what} round ${i + 1} carries no requestState`, () => short(res));
            }
            prevState = res?.requestState;
            // the client's side of the round, for the record (not the server's doing)
            if (retry) {
                const sameState = res?.requestState === undefined ? !('requestState' in retry.params) : retry.params.requestState === res.requestState;
                if (!(retry.params?.inputResponses?.[round.key]?.action === 'accept' && sameState && retry.id !== ex[i].req.id))
                    diag(`${ph.tag} NOTE: the SDK's retry ${i + 1} looks odd: ${short(retry, 600)}`);
            }
        });
        const pushed = serverRequests(ph, markRx);
        check(pushed.length === 0, `${ph.tag} ${what}: no server->client request on a 2026-07-28 connection`, () => short(pushed));
    } else {
        check(ex.length === 1, `${ph.tag} ${what} took one request`, () => wire(ex));
        const pushed = serverRequests(ph, markRx);
        check(
            pushed.length === rounds.length && pushed.every((m, i) => m.method === 'elicitation/create' && m.params?.message === rounds[i].message),
            `${ph.tag} ${what}: the server sent ${rounds.length} elicitation/create request${rounds.length === 1 ? '' : 's'} while the call ran`,
            () => short(pushed, 800)
        );
        const answered = pushed.filter(m => ph.tx.some(x => isResponse(x) && x.id === m.id && x.result?.action === 'accept'));
        check(answered.length === pushed.length, `${ph.tag} ${what}: the client answered each of them`, () => short(ph.tx.slice(markTx), 800));
        if (ex[0]) checkLegacyResult(ph, what, ex[0]);
    }
}

// ------------------------------------------------------------------ phases
async function modernPhase() {
    const ph = makePhase('[modern]', { mode: { pin: MODERN } });
    if (!(await connect(ph))) return endPhase(ph);
    const c = ph.client;
    check(c.getProtocolEra() === 'modern' && c.getNegotiatedProtocolVersion() === MODERN, `${ph.tag} negotiated ${MODERN} (era modern)`, () =>
        `era ${c.getProtocolEra()}, version ${c.getNegotiatedProtocolVersion()}`
    );
    check(!ph.tx.some(m => m.method === 'initialize'), `${ph.tag} no initialize was sent`);

    // server/discover, explicitly
    const mark = ph.tx.length;
    const d = await step(ph, 'server/discover', () => c.discover(RO));
    if (d) {
        check(Array.isArray(d.supportedVersions) && d.supportedVersions.includes(MODERN), `${ph.tag} discover: supportedVersions has ${MODERN}`, () => short(d.supportedVersions));
        check(
            d.supportedVersions?.every(v => v >= '2026-07-28'),
            `${ph.tag} discover: supportedVersions lists no 2025-era version`,
            () => short(d.supportedVersions)
        );
        const caps = d.capabilities ?? {};
        check(caps.tools?.listChanged === true && caps.resources && caps.prompts, `${ph.tag} discover: tools {listChanged}, resources and prompts capabilities`, () => short(caps));
        const info = d._meta?.[SERVER_INFO];
        check(typeof info?.name === 'string' && typeof info?.version === 'string', `${ph.tag} discover: serverInfo in _meta`, () => short(d._meta));
        checkModernResult(ph, 'server/discover', exchanges(ph, 'server/discover', mark)[0], { cacheable: true });
    }

    await commonCalls(ph, 'modern');
    await listenChecks(ph);

    // every response on this connection: a result with a resultType, or an error
    const bad = ph.rx.filter(m => isResponse(m) && m.result !== undefined && !['complete', 'input_required'].includes(m.result.resultType));
    check(bad.length === 0, `${ph.tag} every result on the connection carries resultType complete|input_required`, () => short(bad, 800));
    httpEraChecks(ph, 'modern');
    await endPhase(ph);
}

async function listenChecks(ph) {
    const c = ph.client;
    let mark = ph.tx.length;
    let markRx = ph.rx.length;
    const sub = await step(ph, 'subscriptions/listen {toolsListChanged}', () => c.listen({ toolsListChanged: true }, RO));
    if (!sub) return;
    check(sub.honoredFilter?.toolsListChanged === true, `${ph.tag} listen: toolsListChanged acknowledged`, () => short(sub.honoredFilter));
    const lid = ph.tx.slice(mark).find(m => m.method === 'subscriptions/listen')?.id;
    const onSub = (id, from) => ph.rx.slice(from).filter(m => isNotification(m) && m.params?._meta?.[SUBSCRIPTION_ID] === id);
    const first = onSub(lid, markRx)[0];
    check(
        first?.method === 'notifications/subscriptions/acknowledged' && first.params?.notifications?.toolsListChanged === true,
        `${ph.tag} listen: the first message of subscription ${short(lid)} is notifications/subscriptions/acknowledged`,
        () => short(ph.rx.slice(markRx), 800)
    );
    if (mode === 'http') {
        const post = ph.http.find(x => x.body?.id === lid);
        check(post?.status === 200 && /^text\/event-stream/i.test(post?.ctype ?? ''), `${ph.tag} listen: answered 200 text/event-stream`, () => `HTTP ${post?.status} ${post?.ctype}`);
    }
    // a second subscription that wants only prompt changes
    mark = ph.tx.length;
    const other = await step(ph, 'subscriptions/listen {promptsListChanged}', () => c.listen({ promptsListChanged: true }, RO));
    const lid2 = ph.tx.slice(mark).find(m => m.method === 'subscriptions/listen')?.id;

    markRx = ph.rx.length;
    const before = ph.listChanged.length;
    const trig = await step(ph, 'tools/call test_trigger_tool_change', () => c.callTool({ name: 'test_trigger_tool_change', arguments: {} }, RO));
    if (trig) check(textOf(trig) === 'Tool list change announced', `${ph.tag} test_trigger_tool_change answers "Tool list change announced"`, () => short(trig));
    const arrived = await waitFor(() => ph.listChanged.length > before, NOTIFICATION_WAIT_MS);
    check(arrived, `${ph.tag} notifications/tools/list_changed arrived on the listen stream within ${NOTIFICATION_WAIT_MS / 1000} s`, () =>
        `received since the trigger: ${short(ph.rx.slice(markRx), 800)}`
    );
    if (arrived) {
        const n = ph.rx.slice(markRx).find(m => m.method === 'notifications/tools/list_changed');
        check(n?.params?._meta?.[SUBSCRIPTION_ID] === lid, `${ph.tag} the notification carries subscriptionId ${short(lid)}`, () => short(n));
    }
    if (other) {
        await sleep(QUIET_WAIT_MS);
        const leaked = onSub(lid2, markRx).filter(m => m.method !== 'notifications/subscriptions/acknowledged');
        check(leaked.length === 0, `${ph.tag} the promptsListChanged-only subscription got no tools change`, () => short(leaked));
        await step(ph, 'close of the second subscription', async () => {
            await other.close();
            return withTimeout(other.closed, NOTIFICATION_WAIT_MS, 'closed');
        });
    }

    const closed = await step(ph, 'close of the subscription', async () => {
        await sub.close();
        return withTimeout(sub.closed, NOTIFICATION_WAIT_MS, 'closed');
    });
    if (closed !== undefined) check(closed === 'local', `${ph.tag} the subscription ended 'local'`, () => `got ${closed}`);
    // the server must stop delivering to a closed subscription
    await sleep(200);
    markRx = ph.rx.length;
    const again = await step(ph, 'tools/call test_trigger_tool_change after the close', () => c.callTool({ name: 'test_trigger_tool_change', arguments: {} }, RO));
    if (again) {
        await sleep(QUIET_WAIT_MS);
        const late = ph.rx.slice(markRx).filter(m => m.method === 'notifications/tools/list_changed');
        check(late.length === 0, `${ph.tag} no tools/list_changed after the subscriptions were closed`, () => short(late));
    }
}

async function legacyPhase() {
    const ph = makePhase('[legacy]');
    if (!(await connect(ph))) {
        await endPhase(ph);
        return undefined;
    }
    const c = ph.client;
    check(c.getProtocolEra() === 'legacy' && c.getNegotiatedProtocolVersion() === LEGACY, `${ph.tag} negotiated ${LEGACY} (era legacy)`, () =>
        `era ${c.getProtocolEra()}, version ${c.getNegotiatedProtocolVersion()}`
    );
    const init = exchanges(ph, 'initialize', 0)[0];
    check(init?.req?.params?.protocolVersion === LEGACY && init?.res?.result?.protocolVersion === LEGACY, `${ph.tag} initialize offered and got ${LEGACY}`, () => wire(init ? [init] : []));
    check(typeof c.getServerVersion()?.name === 'string', `${ph.tag} initialize result has serverInfo`, () => short(c.getServerVersion()));
    check(!ph.tx.some(m => m.method === 'server/discover'), `${ph.tag} no server/discover was sent`);
    if (mode === 'http') {
        const post = ph.http.find(x => x.mcpMethod === 'initialize');
        check(typeof post?.sessionId === 'string' && post.sessionId.length > 0, `${ph.tag} initialize answered with an Mcp-Session-Id`, () => `got ${short(post?.sessionId)}`);
    }
    const ping = await step(ph, 'ping', () => c.ping(RO));
    if (ping) check(Object.keys(ping).length === 0, `${ph.tag} ping result is {}`, () => short(ping));

    await commonCalls(ph, 'legacy');

    // tools/list_changed as an unsolicited 2025 notification
    const markRx = ph.rx.length;
    const before = ph.listChanged.length;
    const trig = await step(ph, 'tools/call test_trigger_tool_change', () => c.callTool({ name: 'test_trigger_tool_change', arguments: {} }, RO));
    if (trig) check(textOf(trig) === 'Tool list change announced', `${ph.tag} test_trigger_tool_change answers "Tool list change announced"`, () => short(trig));
    const arrived = await waitFor(() => ph.listChanged.length > before, NOTIFICATION_WAIT_MS);
    check(arrived, `${ph.tag} notifications/tools/list_changed arrived within ${NOTIFICATION_WAIT_MS / 1000} s`, () => short(ph.rx.slice(markRx), 800));
    if (arrived) {
        const n = ph.rx.slice(markRx).find(m => m.method === 'notifications/tools/list_changed');
        check(n?.params?._meta?.[SUBSCRIPTION_ID] === undefined, `${ph.tag} the notification carries no subscriptionId`, () => short(n));
    }
    httpEraChecks(ph, 'legacy');
    return ph; // stays connected through the auto phase
}

async function legacyEnd(ph) {
    const ping = await step(ph, 'ping after the auto client came and went', () => ph.client.ping(RO));
    if (ping) check(Object.keys(ping).length === 0, `${ph.tag} ping result is {}`, () => short(ping));
    if (mode === 'http') {
        const sid = ph.transport.sessionId;
        const del = await step(ph, 'session ended (DELETE)', () => ph.transport.terminateSession());
        if (del !== undefined || sid) {
            const rec = ph.http.filter(x => x.method === 'DELETE').at(-1);
            check(rec && rec.status >= 200 && rec.status < 300, `${ph.tag} DELETE answered 2xx`, () => `HTTP ${rec?.status}`);
        }
    }
    await endPhase(ph);
}

async function autoPhase() {
    const ph = makePhase('[auto]', { mode: 'auto' });
    if (!(await connect(ph))) return endPhase(ph);
    const c = ph.client;
    check(c.getProtocolEra() === 'modern' && c.getNegotiatedProtocolVersion() === MODERN, `${ph.tag} picked ${MODERN} (era modern)`, () =>
        `era ${c.getProtocolEra()}, version ${c.getNegotiatedProtocolVersion()}`
    );
    check(c.getDiscoverResult()?.supportedVersions?.includes(MODERN), `${ph.tag} the probe's discover result offers ${MODERN}`, () => short(c.getDiscoverResult()));
    check(!ph.tx.some(m => m.method === 'initialize'), `${ph.tag} no initialize was sent`, () => short(ph.tx.map(m => m.method)));
    if (mode === 'http') {
        check(ph.http[0]?.mcpMethod === 'server/discover' && ph.http[0]?.status === 200, `${ph.tag} the first POST was server/discover, answered 200`, () =>
            `${ph.http[0]?.mcpMethod} -> HTTP ${ph.http[0]?.status}`
        );
    }
    const mark = ph.tx.length;
    const simple = await step(ph, 'tools/call test_simple_text', () => c.callTool({ name: 'test_simple_text', arguments: {} }, RO));
    if (simple) {
        check(textOf(simple) === SIMPLE_TEXT, `${ph.tag} test_simple_text answers "${SIMPLE_TEXT}"`, () => short(simple));
        checkModernResult(ph, 'tools/call test_simple_text', exchanges(ph, 'tools/call', mark)[0]);
    }
    await inputRounds(ph, 'modern', {
        what: 'tools/call test_input_required_result_elicitation',
        method: 'tools/call',
        call: () => c.callTool({ name: 'test_input_required_result_elicitation', arguments: {} }, RO),
        result: textOf,
        expected: 'Hello, Ada!',
        rounds: [{ key: 'user_name', message: 'What is your name?', field: 'name', state: false }]
    });
    httpEraChecks(ph, 'modern');
    await endPhase(ph);
}

/** Over HTTP: how the server answered each POST of this client. */
function httpEraChecks(ph, era) {
    if (mode !== 'http') return;
    const posts = ph.http.filter(x => x.method === 'POST');
    const badStatus = posts.filter(x => x.status !== (isRequest(x.body) ? 200 : 202));
    check(badStatus.length === 0, `${ph.tag} every POST answered 200 (202 for notifications/responses)`, () =>
        badStatus.map(x => `${x.mcpMethod ?? 'response'} -> HTTP ${x.status}`).join('\n')
    );
    if (era === 'modern') {
        const withSid = posts.filter(x => x.sessionId);
        check(withSid.length === 0, `${ph.tag} no Mcp-Session-Id on any 2026-07-28 response`, () => withSid.map(x => `${x.mcpMethod}: ${x.sessionId}`).join('\n'));
    }
}

/** Closes the client; over stdio the server must then exit by itself (stdin EOF) within 2 s. */
async function endPhase(ph) {
    const errors = ph.errors.map(e => e?.message ?? String(e));
    check(errors.length === 0, `${ph.tag} no client/transport errors`, () => errors.join('\n'));
    try {
        await withTimeout(ph.client.close(), 8000, 'client.close()');
    } catch (e) {
        diag(`${ph.tag} client.close(): ${e?.message ?? e}`);
    }
    if (mode === 'stdio' && ph.child) {
        await waitFor(() => ph.exit !== undefined, 5000);
        check(ph.exit && ph.exit.signal === null && ph.exit.code === 0, `${ph.tag} server exited (code 0) by itself when its stdin closed`, () => `exit ${short(ph.exit)}`);
        liveTransports.delete(ph.transport);
    }
    if (ph.failedAtStart !== undefined && failedCount() > ph.failedAtStart && ph.stderr.trim())
        diag(`${ph.tag} server stderr:\n${ph.stderr.trimEnd().split('\n').slice(-20).join('\n')}`);
}

// --------------------------------------------------------------------- main
async function main() {
    if (mode === 'http') {
        try {
            srv = await startHttpServer(command, args);
            ok(`server printed its URL ${srv.url}`);
        } catch (e) {
            notOk('server printed its URL', e.message);
            return;
        }
        check(new URL(srv.url).hostname === '127.0.0.1', 'server listens on 127.0.0.1', () => srv.url);
    }
    const start = failedCount();
    await modernPhase();
    const legacy = await legacyPhase();
    await autoPhase();
    if (legacy) await legacyEnd(legacy);
    if (mode === 'http') {
        if (failedCount() > start && srv.stderr.trim()) diag(`server stderr:\n${srv.stderr.trimEnd().split('\n').slice(-30).join('\n')}`);
        if (httpServerAlive(srv)) await stopHttpServer('[http]', srv);
        else notOk('[http] server still running after all clients', `exit ${srv.exitInfo}`);
    }
}

main()
    .catch(e => notOk('no unexpected exception', e?.stack ?? String(e)))
    .finally(finish);
