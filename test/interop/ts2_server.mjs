#!/usr/bin/env node
// A reference MCP server built with the TS SDK v2 (@modelcontextprotocol/server
// 2.4.0 + @modelcontextprotocol/node 2.1.2, pinned in package.json) that serves
// BOTH protocol eras, for our client to be tested against.
//
//   node ts2_server.mjs [--port N]     # Streamable HTTP on 127.0.0.1:N/mcp (N = 0, the default: a free port);
//                                      # the first stdout line is the URL, http://127.0.0.1:PORT/mcp
//   node ts2_server.mjs --stdio        # stdio (the era is picked by the client's first message)
//   node ts2_server.mjs --self-test    # runs the TS v2 client against both modes of this server (see the README)
//
// HTTP: one endpoint, /mcp. A request carrying the 2026-07-28 `_meta` envelope
// (classified with the SDK's own isLegacyRequest) goes to createMcpHandler
// (`legacy: 'reject'`, one McpServer per request, subscriptions/listen on its
// event bus); everything else (initialize, Mcp-Session-Id, GET, DELETE) goes to
// a stateful NodeStreamableHTTPServerTransport per 2025 session, so the
// server can push requests (elicitation) and notifications to a 2025 client.
// Host and Origin must be localhost (403 otherwise); POSTs must be
// application/json (415). SIGTERM/SIGINT end it.
//
// Fixtures (the same factory serves both eras):
//   tools     echo {text: string} -> the same text
//             add {a: number, b: number} -> the sum as text ("5" for 2 + 3)
//             ask_name {} -> asks elicitation key `user_name` {name: string}
//                        (2026: an input_required result; 2025: an
//                        elicitation/create request, the SDK's legacy shim),
//                        then "Hello, <name>!"
//             trigger_tool_change {} -> sends notifications/tools/list_changed
//                        (2026: to the listen streams that asked for it; 2025:
//                        to every open session) and answers "Tool list change sent"
//   resource  test://hello (text/plain) -> "hello"
//   prompt    greet {name} -> one user message "Hello, <name>!"

import http from 'node:http';
import { randomUUID } from 'node:crypto';
import {
    McpServer,
    createMcpHandler,
    isLegacyRequest,
    isInitializeRequest,
    isJsonContentType,
    fromJsonSchema,
    inputRequired,
    acceptedContent
} from '@modelcontextprotocol/server';
import {
    NodeStreamableHTTPServerTransport,
    toNodeHandler,
    toWebRequest,
    localhostHostValidation,
    localhostOriginValidation
} from '@modelcontextprotocol/node';

const SERVER_INFO = { name: 'caduceus-interop-ts2-server', version: '0.1.0' };
const MAX_BODY = 4 * 1024 * 1024;
const log = (...a) => console.error('[ts2_server]', ...a);

const NAME_FORM = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

/**
 * One McpServer with every fixture. `toolsChanged(server)` announces a tool
 * list change the way the serving mode delivers it.
 */
function buildServer(toolsChanged) {
    const server = new McpServer(SERVER_INFO, {
        capabilities: { tools: { listChanged: true }, resources: { listChanged: true }, prompts: { listChanged: true } }
    });
    server.registerTool(
        'echo',
        {
            description: 'Echoes the text back',
            inputSchema: fromJsonSchema({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] })
        },
        async ({ text }) => ({ content: [{ type: 'text', text }] })
    );
    server.registerTool(
        'add',
        {
            description: 'Adds two numbers',
            inputSchema: fromJsonSchema({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] })
        },
        async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] })
    );
    server.registerTool(
        'ask_name',
        { description: "Asks the user's name (elicitation), then greets", inputSchema: fromJsonSchema({ type: 'object', properties: {} }) },
        async (_args, ctx) => {
            const answer = acceptedContent(ctx.mcpReq.inputResponses, 'user_name');
            if (typeof answer?.name !== 'string') {
                return inputRequired({
                    inputRequests: { user_name: inputRequired.elicit({ message: 'What is your name?', requestedSchema: NAME_FORM }) }
                });
            }
            return { content: [{ type: 'text', text: `Hello, ${answer.name}!` }] };
        }
    );
    server.registerTool(
        'trigger_tool_change',
        { description: 'Sends notifications/tools/list_changed', inputSchema: fromJsonSchema({ type: 'object', properties: {} }) },
        async () => {
            toolsChanged(server);
            return { content: [{ type: 'text', text: 'Tool list change sent' }] };
        }
    );
    server.registerResource('hello', 'test://hello', { title: 'Hello', description: 'The text "hello"', mimeType: 'text/plain' }, async uri => ({
        contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'hello' }]
    }));
    server.registerPrompt(
        'greet',
        {
            description: 'Greets someone',
            argsSchema: fromJsonSchema({ type: 'object', properties: { name: { type: 'string', description: 'Who to greet' } }, required: ['name'] })
        },
        async ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${name}!` } }] })
    );
    return server;
}

// ---------------------------------------------------------------------- stdio
async function serveOnStdio() {
    const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
    // The pinned instance's own notification: on a 2026 connection serveStdio
    // routes it to the matching listen subscriptions, on a 2025 one it goes out as is.
    serveStdio(() => buildServer(server => server.sendToolListChanged()), { onerror: e => log('error:', e?.message ?? e) });
}

// ----------------------------------------------------------------------- HTTP
function jsonError(res, status, code, message, id = null) {
    if (res.headersSent) return res.end();
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }));
}

async function readBody(req) {
    const chunks = [];
    let size = 0;
    for await (const chunk of req) {
        size += chunk.length;
        if (size > MAX_BODY) return { tooLarge: true };
        chunks.push(chunk);
    }
    return { text: Buffer.concat(chunks).toString('utf8') };
}

async function serveOnHttp(port) {
    const sessions = new Map(); // session id -> { transport, server } (2025 era)
    const toolsChanged = () => {
        modern.notify.toolsChanged();
        for (const { server } of sessions.values()) server.sendToolListChanged();
    };
    const modern = createMcpHandler(() => buildServer(toolsChanged), { legacy: 'reject', onerror: e => log('modern:', e?.message ?? e) });
    const modernNode = toNodeHandler(modern, { onerror: e => log('modern:', e?.message ?? e) });
    const validateHost = localhostHostValidation();
    const validateOrigin = localhostOriginValidation();

    async function legacy(req, res, body) {
        const sid = req.headers['mcp-session-id'];
        if (typeof sid === 'string') {
            const entry = sessions.get(sid);
            if (!entry) return jsonError(res, 404, -32001, 'Session not found');
            return entry.transport.handleRequest(req, res, body);
        }
        const isInit = Array.isArray(body) ? body.some(m => isInitializeRequest(m)) : isInitializeRequest(body);
        if (req.method !== 'POST' || !isInit) return jsonError(res, 400, -32000, 'Bad Request: No valid session ID provided');
        const server = buildServer(toolsChanged);
        const transport = new NodeStreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: id => {
                sessions.set(id, { transport, server });
            },
            onsessionclosed: id => {
                sessions.delete(id);
            }
        });
        transport.onclose = () => {
            if (transport.sessionId) sessions.delete(transport.sessionId);
        };
        await server.connect(transport);
        return transport.handleRequest(req, res, body);
    }

    const httpServer = http.createServer(async (req, res) => {
        try {
            const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
            if (path !== '/mcp') return jsonError(res, 404, -32600, `Not found: ${path}`);
            if (!validateHost(req, res) || !validateOrigin(req, res)) return;
            let body;
            if (req.method === 'POST') {
                if (!isJsonContentType(req.headers['content-type'])) return jsonError(res, 415, -32600, 'Unsupported Media Type: Content-Type must be application/json');
                const read = await readBody(req);
                if (read.tooLarge) return jsonError(res, 413, -32600, 'Request body too large');
                try {
                    body = JSON.parse(read.text);
                } catch {
                    return jsonError(res, 400, -32700, 'Parse error');
                }
            }
            const webRequest = await toWebRequest(req, body);
            if (await isLegacyRequest(webRequest, body)) await legacy(req, res, body);
            else await modernNode(req, res, body);
        } catch (e) {
            log('request failed:', e?.stack ?? e);
            jsonError(res, 500, -32603, 'Internal error');
        }
    });

    let stopping = false;
    const stop = async () => {
        if (stopping) return;
        stopping = true;
        setTimeout(() => process.exit(0), 2000).unref();
        for (const { transport } of sessions.values()) await transport.close().catch(() => {});
        await modern.close().catch(() => {});
        httpServer.closeAllConnections?.();
        httpServer.close(() => process.exit(0));
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);

    await new Promise((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, '127.0.0.1', resolve);
    });
    process.stdout.write(`http://127.0.0.1:${httpServer.address().port}/mcp\n`);
}

// ------------------------------------------------------------------ self-test
// The TS v2 client against this server: over HTTP (one server process; a
// pinned 2026-07-28 client, a 2025-11-25 client, an 'auto' client) and over
// stdio (a process per client). Same reporting as the other scripts.
async function selfTest() {
    const lib = await import('./lib.mjs');
    const { ok, notOk, check, short, withTimeout, waitFor, finish, startHttpServer, stopHttpServer, liveTransports } = lib;
    const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
    const RO = { timeout: 10_000 };
    const self = process.argv[1];
    const deadline = setTimeout(() => {
        notOk('self-test finished within 60 s');
        finish();
    }, 60_000);
    const text = r => r?.content?.map(c => c.text).join('\n');

    async function run(tag, makeTransport, negotiation, expectEra) {
        const elicited = [];
        const changed = [];
        const client = new Client({ name: 'ts2-server-self-test', version: '0.1.0' }, { capabilities: { elicitation: {} }, ...(negotiation && { versionNegotiation: negotiation }) });
        client.setRequestHandler('elicitation/create', async req => (elicited.push(req.params), { action: 'accept', content: { name: 'Ada' } }));
        client.setNotificationHandler('notifications/tools/list_changed', n => changed.push(n));
        const transport = makeTransport();
        const step = async (what, fn) => {
            try {
                const r = await withTimeout(fn(), 12_000, what);
                ok(`${tag} ${what}`);
                return r;
            } catch (e) {
                notOk(`${tag} ${what}`, e?.message ?? String(e));
                return undefined;
            }
        };
        if (!(await step('connect', async () => (await client.connect(transport, RO), true)))) return;
        check(client.getProtocolEra() === expectEra, `${tag} era ${expectEra} (${client.getNegotiatedProtocolVersion()})`, () => `got ${client.getProtocolEra()}`);
        const tools = await step('tools/list', () => client.listTools(undefined, RO));
        if (tools) check(['echo', 'add', 'ask_name', 'trigger_tool_change'].every(n => tools.tools.some(t => t.name === n)), `${tag} tools echo, add, ask_name, trigger_tool_change`, () => short(tools.tools.map(t => t.name)));
        const echo = await step('echo', () => client.callTool({ name: 'echo', arguments: { text: 'hi there' } }, RO));
        if (echo) check(text(echo) === 'hi there', `${tag} echo answers "hi there"`, () => short(echo));
        const add = await step('add', () => client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }, RO));
        if (add) check(text(add) === '5', `${tag} add 2 + 3 answers "5"`, () => short(add));
        const ask = await step('ask_name', () => client.callTool({ name: 'ask_name', arguments: {} }, RO));
        if (ask) check(text(ask) === 'Hello, Ada!' && elicited.length === 1 && elicited[0].message === 'What is your name?', `${tag} ask_name elicits once, answers "Hello, Ada!"`, () => `${short(ask)} elicited ${short(elicited)}`);
        const read = await step('resources/read test://hello', () => client.readResource({ uri: 'test://hello' }, RO));
        if (read) check(read.contents?.[0]?.text === 'hello', `${tag} test://hello reads "hello"`, () => short(read));
        const prompt = await step('prompts/get greet', () => client.getPrompt({ name: 'greet', arguments: { name: 'Bob' } }, RO));
        if (prompt) check(prompt.messages?.[0]?.content?.text === 'Hello, Bob!', `${tag} greet {name: Bob} is "Hello, Bob!"`, () => short(prompt));
        let sub;
        if (expectEra === 'modern') sub = await step('listen {toolsListChanged}', () => client.listen({ toolsListChanged: true }, RO));
        const trig = await step('trigger_tool_change', () => client.callTool({ name: 'trigger_tool_change', arguments: {} }, RO));
        if (trig) check(await waitFor(() => changed.length > 0, 5000), `${tag} tools/list_changed arrived within 5 s`);
        if (sub) await step('listen closed', async () => (await sub.close(), true));
        await withTimeout(client.close(), 8000, 'close').catch(e => notOk(`${tag} close`, e.message));
    }

    let srv;
    try {
        srv = await startHttpServer(process.execPath, [self, '--port', '0']);
        ok(`[http] server printed its URL ${srv.url}`);
    } catch (e) {
        notOk('[http] server printed its URL', e.message);
    }
    if (srv) {
        const url = new URL(srv.url);
        check(url.hostname === '127.0.0.1', '[http] listens on 127.0.0.1', () => srv.url);
        await run('[http modern]', () => new StreamableHTTPClientTransport(url), { mode: { pin: '2026-07-28' } }, 'modern');
        await run('[http legacy]', () => new StreamableHTTPClientTransport(url), undefined, 'legacy');
        await run('[http auto]', () => new StreamableHTTPClientTransport(url), { mode: 'auto' }, 'modern');
        await stopHttpServer('[http]', srv);
    }
    const stdio = () => {
        const t = new StdioClientTransport({ command: process.execPath, args: [self, '--stdio'], stderr: 'pipe' });
        liveTransports.add(t);
        return t;
    };
    await run('[stdio modern]', stdio, { mode: { pin: '2026-07-28' } }, 'modern');
    await run('[stdio legacy]', stdio, undefined, 'legacy');
    await run('[stdio auto]', stdio, { mode: 'auto' }, 'modern');
    clearTimeout(deadline);
    finish();
}

// ----------------------------------------------------------------------- main
const argv = process.argv.slice(2);
const usage = 'usage: node ts2_server.mjs [--port N] | --stdio | --self-test';
if (argv[0] === '--stdio' && argv.length === 1) await serveOnStdio();
else if (argv[0] === '--self-test' && argv.length === 1) await selfTest();
else if (argv.length === 0 || (argv[0] === '--port' && argv.length === 2 && /^\d+$/.test(argv[1]) && Number(argv[1]) < 65536)) {
    await serveOnHttp(argv.length ? Number(argv[1]) : 0);
} else {
    console.error(usage);
    process.exit(2);
}
