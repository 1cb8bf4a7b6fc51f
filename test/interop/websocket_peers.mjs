#!/usr/bin/env node
// Interop test: MCP over WebSocket (our own binding, docs/transports.md)
// against peers we did not write, on everything-server --websocket.
//
//   node websocket_peers.mjs <server-command> [args...]
//   e.g. node websocket_peers.mjs build/bin/everything-server --http 127.0.0.1:0 --websocket
//
// The command must print its endpoint URL (http://HOST:PORT/mcp) as its first
// stdout line; the WebSocket URL is the same with ws://.
//
// Part 1, the `ws` package (pinned in package.json) driving raw JSON-RPC,
// 2025 era: the upgrade is answered with the mcp subprotocol; initialize,
// tools/list, tools/call echo, long_task with progress notifications before
// its result, sample (a sampling/createMessage request from the server,
// answered on the socket), ping; every message is one text frame holding one
// JSON-RPC message; invalid JSON gets -32700.
// Part 2, `ws`, 2026-07-28 era on a new socket: server/discover and
// tools/call with the _meta envelope, no initialize.
// Part 3, the rules: no mcp subprotocol -> 400, a foreign Origin -> 403,
// a binary message -> close 1003, a message over the size bound -> close 1009.
// Part 4, the TypeScript SDK 1.32.2 WebSocketClientTransport with its Client
// (ws as the global WebSocket, which Node 20 lacks): connect (initialize),
// tools/list, echo, add, long_task with progress, sample through its sampling
// handler, ping, close.
// Part 5, shutdown: SIGTERM while a `ws` socket is open: the socket is closed
// with 1001 (going away), and the server exits.
//
// Output: one "ok - ..." / "not ok - ..." line per check, diagnostics as
// "# ..." lines, last line "N passed, M failed". Exit 0 iff M == 0.

import WebSocket from 'ws';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import { CallToolResultSchema, CreateMessageRequestSchema, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { check, diag, finish, notOk, ok, short, sleep, startHarness, startHttpServer, step, withTimeout } from './lib.mjs';

const SCRIPT_TIMEOUT_MS = 60_000;
const STEP_MS = 5000;
const CLIENT_INFO = { name: 'caduceus-interop-websocket', version: '0.1.0' };
const MAX_BODY = 4 * 1024 * 1024; // the server's max_body_size (default)

startHarness({
    usage: 'usage: node websocket_peers.mjs <server-command> [args...]\n  e.g. build/bin/everything-server --http 127.0.0.1:0 --websocket',
    scriptTimeoutMs: SCRIPT_TIMEOUT_MS
});

// ------------------------------------------------------- a raw ws session
/** A `ws` socket speaking JSON-RPC by hand: requests by id, the rest recorded. */
function openRaw(url, { protocols = ['mcp'], headers = {} } = {}) {
    const s = { frames: [], binaryFrames: 0, problems: [], pending: new Map(), onRequest: undefined, notes: [] };
    s.ws = new WebSocket(url, protocols, { headers });
    s.opened = new Promise((resolve, reject) => {
        s.ws.once('open', () => resolve());
        s.ws.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode })));
        s.ws.once('error', reject);
    });
    s.closed = new Promise(resolve => s.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    s.ws.on('message', (data, isBinary) => {
        if (isBinary) {
            s.binaryFrames++;
            return;
        }
        const text = data.toString('utf8');
        s.frames.push(text);
        let msg;
        try {
            msg = JSON.parse(text);
        } catch (e) {
            s.problems.push(`a frame that is not JSON: ${short(text)}`);
            return;
        }
        // (JSON-RPC 2.0 answers a parse error with id null, which the SDK's
        // schema does not take: judged on its own.)
        const parseError = msg?.id === null && msg?.error !== undefined && !('method' in msg);
        if (Array.isArray(msg) || (!parseError && !JSONRPCMessageSchema.safeParse(msg).success)) {
            s.problems.push(`a frame that is not one JSON-RPC message: ${short(text)}`);
            return;
        }
        if ('id' in msg && !('method' in msg)) {
            const waiter = s.pending.get(msg.id);
            if (waiter) {
                s.pending.delete(msg.id);
                waiter(msg);
            } else s.problems.push(`a response nobody waits for: ${short(text)}`);
        } else if ('method' in msg && 'id' in msg) {
            s.onRequest?.(msg);
        } else s.notes.push(msg);
    });
    let next = 1;
    s.request = (method, params) => {
        const id = next++;
        const answered = new Promise(resolve => s.pending.set(id, resolve));
        const msg = { jsonrpc: '2.0', id, method };
        if (params !== undefined) msg.params = params;
        s.ws.send(JSON.stringify(msg));
        return withTimeout(answered, STEP_MS, `${method} (id ${id})`);
    };
    s.notify = (method, params) => s.ws.send(JSON.stringify(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }));
    s.answer = (id, result) => s.ws.send(JSON.stringify({ jsonrpc: '2.0', id, result }));
    return s;
}

const texts = result => (Array.isArray(result?.content) ? result.content.filter(c => c?.type === 'text').map(c => c.text).join('\n') : '');

async function rawLegacy(url) {
    const tag = '[ws 2025-11-25]';
    const s = openRaw(url);
    await withTimeout(s.opened, STEP_MS, 'the upgrade');
    check(s.ws.protocol === 'mcp', `${tag} the upgrade is answered with the mcp subprotocol`, () => `got ${short(s.ws.protocol)}`);
    const init = await s.request('initialize', { protocolVersion: '2025-11-25', capabilities: { sampling: {} }, clientInfo: CLIENT_INFO });
    check(init.result?.protocolVersion === '2025-11-25' && init.result?.serverInfo?.name === 'everything-server', `${tag} initialize -> 2025-11-25, everything-server`, () => short(init));
    s.notify('notifications/initialized');
    const list = await s.request('tools/list');
    const names = (list.result?.tools ?? []).map(t => t.name);
    check(['echo', 'add', 'long_task', 'sample'].every(n => names.includes(n)), `${tag} tools/list has echo, add, long_task, sample`, () => names.join(', '));
    const echo = await s.request('tools/call', { name: 'echo', arguments: { text: 'over ws' } });
    check(texts(echo.result) === 'over ws', `${tag} tools/call echo -> "over ws"`, () => short(echo));

    const before = s.notes.length;
    const lt = await s.request('tools/call', { name: 'long_task', arguments: { steps: 3, step_ms: 10 }, _meta: { progressToken: 'p1' } });
    const progress = s.notes.slice(before).filter(n => n.method === 'notifications/progress' && n.params?.progressToken === 'p1');
    check(texts(lt.result) === 'completed 3 steps' && progress.length === 3, `${tag} long_task: 3 progress notifications, then "completed 3 steps"`, () =>
        `${short(lt)}; progress ${short(progress.map(n => n.params))}`
    );

    let sampled = 0;
    s.onRequest = msg => {
        if (msg.method !== 'sampling/createMessage') return;
        sampled++;
        s.answer(msg.id, { role: 'assistant', content: { type: 'text', text: 'pong:ws' }, model: 'ws-test-model' });
    };
    const sample = await s.request('tools/call', { name: 'sample', arguments: { prompt: 'what is 6 x 7?' } });
    check(sampled === 1 && texts(sample.result).includes('pong:ws'), `${tag} sample: the server's sampling/createMessage is answered on the socket and reaches the tool`, () =>
        `${sampled} requests; ${short(sample)}`
    );
    const ping = await s.request('ping');
    check(ping.result !== undefined && Object.keys(ping.result).length === 0, `${tag} ping -> {}`, () => short(ping));

    // Invalid JSON: a parse error, id null, and the connection goes on.
    const parseError = new Promise(resolve => s.pending.set(null, resolve));
    s.ws.send('{"jsonrpc": "2.0", "id": 7, "method": ');
    const pe = await withTimeout(parseError, STEP_MS, 'the parse error');
    check(pe.error?.code === -32700 && pe.id === null, `${tag} invalid JSON -> -32700 with id null`, () => short(pe));
    const again = await s.request('tools/call', { name: 'add', arguments: { a: 2, b: 3 } });
    check(texts(again.result) === '5', `${tag} the connection goes on after a parse error: add -> 5`, () => short(again));

    check(s.binaryFrames === 0 && s.problems.length === 0, `${tag} every message was one text frame with one valid JSON-RPC message`, () => s.problems.join('\n'));
    s.ws.close(1000);
    const closed = await withTimeout(s.closed, STEP_MS, 'the close');
    check(closed.code === 1000, `${tag} close 1000 answered`, () => short(closed));
}

async function rawModern(url) {
    const tag = '[ws 2026-07-28]';
    const s = openRaw(url);
    await withTimeout(s.opened, STEP_MS, 'the upgrade');
    const meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
        'io.modelcontextprotocol/clientCapabilities': {}
    };
    const discover = await s.request('server/discover', { _meta: meta });
    const versions = discover.result?.supportedVersions ?? [];
    check(versions.includes('2026-07-28') && discover.result?.capabilities?.tools !== undefined, `${tag} server/discover, no initialize: supportedVersions has 2026-07-28, tools offered`, () =>
        short(discover)
    );
    const echo = await s.request('tools/call', { _meta: meta, name: 'echo', arguments: { text: 'modern over ws' } });
    check(texts(echo.result) === 'modern over ws' && echo.result?.resultType === 'complete', `${tag} tools/call echo with the _meta envelope -> "modern over ws", resultType complete`, () =>
        short(echo)
    );
    const list = await s.request('tools/list', { _meta: meta });
    check((list.result?.tools ?? []).some(t => t.name === 'echo'), `${tag} tools/list`, () => short(list));
    check(s.problems.length === 0, `${tag} every message valid`, () => s.problems.join('\n'));
    s.ws.close(1000);
    await withTimeout(s.closed, STEP_MS, 'the close');
}

async function rules(url, origin) {
    const tag = '[ws rules]';
    // No mcp subprotocol: refused before the upgrade.
    const noMcp = openRaw(url, { protocols: ['chat'] });
    const refused = await noMcp.opened.then(() => 101, e => e.status);
    check(refused === 400, `${tag} a socket without the mcp subprotocol -> 400`, () => `got ${refused}`);
    // A foreign Origin: 403.
    const foreign = openRaw(url, { headers: { Origin: 'https://evil.example' } });
    const forbidden = await foreign.opened.then(() => 101, e => e.status);
    check(forbidden === 403, `${tag} a foreign Origin -> 403`, () => `got ${forbidden}`);
    check(origin.startsWith('http://127.0.0.1'), `${tag} (the server listens on loopback)`, () => origin);

    // A binary message closes the connection with 1003.
    const bin = openRaw(url);
    await withTimeout(bin.opened, STEP_MS, 'the upgrade');
    bin.ws.send(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}'), { binary: true });
    const binClosed = await withTimeout(bin.closed, STEP_MS, 'the close after a binary message');
    check(binClosed.code === 1003, `${tag} a binary message -> close 1003`, () => short(binClosed));

    // A message over the bound closes with 1009.
    const big = openRaw(url);
    await withTimeout(big.opened, STEP_MS, 'the upgrade');
    big.ws.on('error', () => {}); // the server may reset what it did not read
    big.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(MAX_BODY) } }));
    const bigClosed = await withTimeout(big.closed, STEP_MS, 'the close after a big message');
    check(bigClosed.code === 1009, `${tag} a message over 4 MiB -> close 1009`, () => short(bigClosed));
}

async function tsSdk(url) {
    const tag = '[TS SDK 1.32.2 WebSocketClientTransport]';
    const hadGlobal = 'WebSocket' in globalThis;
    if (!hadGlobal) globalThis.WebSocket = WebSocket; // Node 20 has it only behind --experimental-websocket
    const transport = new WebSocketClientTransport(new URL(url));
    const client = new Client(CLIENT_INFO, { capabilities: { sampling: {} } });
    const errors = [];
    client.onerror = err => {
        const m = err?.message ?? String(err);
        // SDK 1.32.2 dispatches notifications a microtask after responses, so a
        // progress notification read together with its result finds its
        // handler gone (typescript-sdk#2580).
        if (!/progress notification for an unknown token/.test(m)) errors.push(m);
    };
    let sampled = 0;
    client.setRequestHandler(CreateMessageRequestSchema, () => {
        sampled++;
        return { role: 'assistant', content: { type: 'text', text: 'pong:ts' }, model: 'ts-test-model' };
    });
    const opts = { timeout: STEP_MS };
    await withTimeout(client.connect(transport, opts), STEP_MS, 'Client.connect');
    ok(`${tag} connect: initialize over the socket`);
    check(client.getServerVersion()?.name === 'everything-server', `${tag} serverInfo.name is everything-server`, () => short(client.getServerVersion()));
    const tools = await client.listTools(undefined, opts);
    check(tools.tools.some(t => t.name === 'echo'), `${tag} tools/list has echo`, () => short(tools.tools.map(t => t.name)));
    const echo = await client.callTool({ name: 'echo', arguments: { text: 'from the TS SDK' } }, CallToolResultSchema, opts);
    check(texts(echo) === 'from the TS SDK', `${tag} echo -> "from the TS SDK"`, () => short(echo));
    const add = await client.callTool({ name: 'add', arguments: { a: 2.5, b: 3 } }, CallToolResultSchema, opts);
    check(texts(add) === '5.5', `${tag} add {a:2.5,b:3} -> 5.5`, () => short(add));
    const progress = [];
    const lt = await client.callTool({ name: 'long_task', arguments: { steps: 3, step_ms: 20 } }, CallToolResultSchema, {
        ...opts,
        onprogress: p => progress.push(p)
    });
    check(texts(lt) === 'completed 3 steps' && progress.length >= 1, `${tag} long_task -> "completed 3 steps", with progress`, () => `${short(lt)}; ${progress.length} updates`);
    const sample = await client.callTool({ name: 'sample', arguments: { prompt: 'hi' } }, CallToolResultSchema, opts);
    check(sampled === 1 && texts(sample).includes('pong:ts'), `${tag} sample: the SDK's sampling handler answers the server`, () => `${sampled}; ${short(sample)}`);
    await client.ping(opts);
    ok(`${tag} ping`);
    await withTimeout(client.close(), STEP_MS, 'Client.close');
    ok(`${tag} close`);
    check(errors.length === 0, `${tag} no errors reported by the SDK`, () => errors.join('\n'));
    if (!hadGlobal) delete globalThis.WebSocket;
}

async function shutdown(srv, url) {
    const tag = '[shutdown]';
    const s = openRaw(url);
    await withTimeout(s.opened, STEP_MS, 'the upgrade');
    const init = await s.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO });
    check(init.result?.protocolVersion === '2025-11-25', `${tag} a session is open`, () => short(init));
    const exited = new Promise(resolve => srv.child.once('exit', (code, signal) => resolve({ code, signal })));
    srv.child.kill('SIGTERM');
    const closed = await withTimeout(s.closed, STEP_MS, 'the close on shutdown');
    check(closed.code === 1001, `${tag} SIGTERM: the socket is closed with 1001 (going away)`, () => short(closed));
    const end = await withTimeout(exited, STEP_MS, 'the server exit');
    check(end.code === 0, `${tag} the server exits with 0`, () => short(end));
}

// -------------------------------------------------------------------- main
const t0 = Date.now();
try {
    const srv = await startHttpServer();
    ok('[http] server printed its endpoint URL as the first stdout line');
    const url = srv.url.replace(/^http/, 'ws');
    diag(`WebSocket endpoint ${url}`);
    await step('[ws 2025-11-25]', 'raw JSON-RPC', () => rawLegacy(url));
    await step('[ws 2026-07-28]', 'raw JSON-RPC', () => rawModern(url));
    await step('[ws rules]', 'refusals and closes', () => rules(url, srv.url));
    await step('[TS SDK]', 'WebSocketClientTransport', () => tsSdk(url));
    await step('[shutdown]', 'SIGTERM', () => shutdown(srv, url));
    if (srv.stderr.trim()) diag(`server stderr:\n${srv.stderr.trimEnd().split('\n').slice(-10).join('\n')}`);
} catch (e) {
    notOk('harness ran without internal error', e?.stack ?? String(e));
} finally {
    diag(`took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    await sleep(0);
    finish();
}
