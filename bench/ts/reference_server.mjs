// The reference server of the benchmarks: everything-server's tools echo and
// add, written with the official TypeScript SDK (pinned in package.json) the
// way its own examples are (McpServer, createMcpExpressApp, one transport and
// server per session; per request when stateless), with everything-server's
// flags:
//
//   node reference_server.mjs [--stdio | --http [HOST:]PORT [--json] [--stateless]]
//
// Over HTTP it prints its endpoint URL as the first line of stdout.

import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';
import { parseServerArgs } from './server_args.mjs';


function makeServer() {
    const server = new McpServer({ name: 'ts-reference-server', version: '1.0.0' });
    server.registerTool(
        'echo',
        { description: 'Echoes the text back', inputSchema: { text: z.string() } },
        async ({ text }) => ({ content: [{ type: 'text', text }] })
    );
    server.registerTool(
        'add',
        { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } },
        async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } })
    );
    return server;
}

function jsonRpcError(res, status, message) {
    res.status(status).json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}

// One transport (and server) per session, found by its Mcp-Session-Id.
function serveStateful(app, json) {
    const transports = new Map();
    const handle = async (req, res) => {
        const sessionId = req.headers['mcp-session-id'];
        let transport = sessionId ? transports.get(sessionId) : undefined;
        if (!transport) {
            if (sessionId) return jsonRpcError(res, 404, 'Session not found');
            if (req.method !== 'POST' || !isInitializeRequest(req.body)) return jsonRpcError(res, 400, 'No valid session ID');
            transport = new StreamableHTTPServerTransport({
                sessionIdGenerator: () => randomUUID(),
                enableJsonResponse: json,
                onsessioninitialized: id => transports.set(id, transport)
            });
            transport.onclose = () => transports.delete(transport.sessionId);
            await makeServer().connect(transport);
        }
        await transport.handleRequest(req, res, req.body);
    };
    app.post('/mcp', handle);
    app.get('/mcp', handle);
    app.delete('/mcp', handle);
}

// A new server and transport for every request, closed with its response.
function serveStateless(app, json) {
    app.post('/mcp', async (req, res) => {
        const server = makeServer();
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: json });
        res.on('close', () => {
            transport.close();
            server.close();
        });
        await server.connect(transport);
        await transport.handleRequest(req, res, req.body);
    });
    const notAllowed = (req, res) => jsonRpcError(res, 405, 'Method not allowed');
    app.get('/mcp', notAllowed);
    app.delete('/mcp', notAllowed);
}

const opts = parseServerArgs(process.argv.slice(2), 'reference_server.mjs');
if (!opts.http) {
    await makeServer().connect(new StdioServerTransport());
} else {
    const app = createMcpExpressApp({ host: opts.http.host });
    (opts.stateless ? serveStateless : serveStateful)(app, opts.json);
    const listener = app.listen(opts.http.port, opts.http.host, () => {
        console.log(`http://${opts.http.host}:${listener.address().port}/mcp`);
    });
    process.on('SIGTERM', () => process.exit(0));
    process.on('SIGINT', () => process.exit(0));
}
