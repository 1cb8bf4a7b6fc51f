// The second reference server of the benchmarks: everything-server's tools
// echo and add, written with the TypeScript SDK v2 (@modelcontextprotocol/server
// 2.4.0, pinned in package.json) the way its own guides and examples are, with
// everything-server's flags:
//
//   node reference_server_v2.mjs [--stdio | --http [HOST:]PORT [--json] [--stateless]]
//
// Both eras are served, as the SDK serves them:
// - stdio: serveStdio(factory); the opening request picks the era of the
//   connection (initialize: 2025; a request with the _meta envelope: 2026-07-28).
// - HTTP: createMcpHandler(factory), a fresh server per request, for 2026-07-28
//   requests (server/discover, subscriptions/listen, tools/call with _meta).
//   2025-era requests (no envelope) go, as in the SDK's legacy-routing example,
//   through isLegacyRequest to a NodeStreamableHTTPServerTransport: one
//   transport and server per session, or per request with --stateless.
// --json: JSON replies on both eras (the handler's responseMode 'json', the
// transport's enableJsonResponse); without it, SSE.
//
// Over HTTP it prints its endpoint URL as the first line of stdout.

import { randomUUID } from 'node:crypto';
import { createMcpExpressApp } from '@modelcontextprotocol/express';
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { createMcpHandler, isInitializeRequest, isLegacyRequest, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod/v4';
import { parseServerArgs } from './server_args.mjs';


function makeServer() {
    const server = new McpServer({ name: 'ts-v2-reference-server', version: '1.0.0' });
    server.registerTool(
        'echo',
        { description: 'Echoes the text back', inputSchema: z.object({ text: z.string() }) },
        async ({ text }) => ({ content: [{ type: 'text', text }] })
    );
    server.registerTool(
        'add',
        {
            description: 'Adds two numbers',
            inputSchema: z.object({ a: z.number(), b: z.number() }),
            outputSchema: z.object({ sum: z.number() })
        },
        async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } })
    );
    return server;
}

function jsonRpcError(res, status, code, message) {
    res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

// 2025 era with sessions: one transport (and server) per session, found by its Mcp-Session-Id.
function sessionfulLegacy(json) {
    const sessions = new Map();
    return async (req, res) => {
        const sessionId = req.headers['mcp-session-id'];
        let transport = sessionId ? sessions.get(sessionId) : undefined;
        if (!transport) {
            if (sessionId) return jsonRpcError(res, 404, -32001, 'Session not found');
            if (req.method !== 'POST' || !isInitializeRequest(req.body)) {
                return jsonRpcError(res, 400, -32000, 'Bad Request: Session ID required');
            }
            transport = new NodeStreamableHTTPServerTransport({
                sessionIdGenerator: () => randomUUID(),
                enableJsonResponse: json,
                onsessioninitialized: id => sessions.set(id, transport)
            });
            transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
            await makeServer().connect(transport);
        }
        await transport.handleRequest(req, res, req.body);
    };
}

// 2025 era without sessions: a new server and transport for every request, closed with its response.
function statelessLegacy(json) {
    return async (req, res) => {
        if (req.method !== 'POST') return jsonRpcError(res, 405, -32000, 'Method not allowed.');
        const server = makeServer();
        const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: json });
        res.on('close', () => {
            transport.close();
            server.close();
        });
        await server.connect(transport);
        await transport.handleRequest(req, res, req.body);
    };
}

function serveHttp(app, opts) {
    const modern = toNodeHandler(createMcpHandler(makeServer, { legacy: 'reject', responseMode: opts.json ? 'json' : 'sse' }));
    const legacy = (opts.stateless ? statelessLegacy : sessionfulLegacy)(opts.json);
    app.post('/mcp', async (req, res) => {
        const isLegacy = await isLegacyRequest(await toWebRequest(req, req.body), req.body);
        await (isLegacy ? legacy(req, res) : modern(req, res, req.body));
    });
    // GET (the standalone SSE stream) and DELETE (end of session) are 2025-era only.
    app.get('/mcp', legacy);
    app.delete('/mcp', legacy);
}

const opts = parseServerArgs(process.argv.slice(2), 'reference_server_v2.mjs');
if (!opts.http) {
    serveStdio(makeServer);
} else {
    const app = createMcpExpressApp({ host: opts.http.host });
    serveHttp(app, opts);
    const listener = app.listen(opts.http.port, opts.http.host, () => {
        console.log(`http://${opts.http.host}:${listener.address().port}/mcp`);
    });
    process.on('SIGTERM', () => process.exit(0));
    process.on('SIGINT', () => process.exit(0));
}
