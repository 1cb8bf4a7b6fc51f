#!/usr/bin/env node
// Interop test: the official TypeScript SDK v1 client (@modelcontextprotocol/sdk,
// pinned in package.json) against conformance-server over Streamable HTTP, for
// what an adapter could get wrong between the endpoint and the client: a
// stream that the server lets go mid-call, resumed, and the DNS-rebinding rule.
//
//   node ts_client_resumption.mjs <server-command> [args...]
//   e.g. node ts_client_resumption.mjs build/bin/conformance-server --beast 0
//
// The command must print its endpoint URL as the first stdout line. It is run
// through the built-in listener (--port 0) and each adapter (--beast 0,
// --httplib 0, --civetweb 0).
//
// 1. Resumption (SEP-1699): the SDK's Client (2025-11-25) calls
//    test_reconnection, whose handler lets the POST's SSE stream go after its
//    priming event; the SDK resumes with a GET carrying Last-Event-ID (the
//    priming event's id) after the server's `retry`, and gets the result there.
//    Checked through a tap on the SDK's fetch: the POST's stream ended without
//    the result, the GET named the event id, the result came whole.
// 2. A foreign Origin (a browser page elsewhere): initialize is refused with
//    403, which the SDK reports as StreamableHTTPError code 403.
//
// Output: "ok - ..." / "not ok - ..." per check, "# ..." diagnostics, last
// line "N passed, M failed"; exit 0 iff M == 0. Every wait is bounded.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
    check,
    diag,
    finish,
    startHarness,
    withTimeout,
    liveTransports,
    startHttpServer,
    stopHttpServer
} from './lib.mjs';

const REQUEST_TIMEOUT_MS = 10_000;
const RECONNECTION_TEXT = 'Reconnection test completed successfully';

const server = startHarness({
    usage: 'usage: node ts_client_resumption.mjs <server-command> [args...]',
    scriptTimeoutMs: 60_000
});

// The SDK's fetch, with every exchange recorded: method, Last-Event-ID, status.
function tappedFetch(exchanges) {
    return async (url, init = {}) => {
        const headers = new Headers(init.headers);
        const exchange = { method: init.method ?? 'GET', lastEventId: headers.get('last-event-id'), status: undefined };
        exchanges.push(exchange);
        const res = await fetch(url, init);
        exchange.status = res.status;
        return res;
    };
}

async function resumption(srv) {
    const exchanges = [];
    const transport = new StreamableHTTPClientTransport(new URL(srv.url), {
        fetch: tappedFetch(exchanges),
        reconnectionOptions: { initialReconnectionDelay: 200, maxReconnectionDelay: 2000, reconnectionDelayGrowFactor: 1.5, maxRetries: 3 }
    });
    liveTransports.add(transport);
    const errors = [];
    const client = new Client({ name: 'caduceus-interop-resumption', version: '0.1.0' }, { capabilities: {} });
    client.onerror = e => errors.push(String(e?.message ?? e));
    await withTimeout(client.connect(transport), REQUEST_TIMEOUT_MS, 'connect');
    const result = await client.callTool({ name: 'test_reconnection', arguments: {} }, undefined, { timeout: REQUEST_TIMEOUT_MS });
    const text = result?.content?.[0]?.text ?? '';
    check(text.includes(RECONNECTION_TEXT), 'the call let go mid-stream completes, its result whole', () => JSON.stringify(result));
    const resumed = exchanges.filter(e => e.method === 'GET' && e.lastEventId);
    check(resumed.length >= 1, 'the SDK resumed the stream with a GET carrying Last-Event-ID', () => JSON.stringify(exchanges));
    check(resumed.every(e => e.status === 200), 'the endpoint answered the resumption with 200', () => JSON.stringify(resumed));
    if (errors.length) diag(`SDK errors: ${errors.join(' | ')}`);
    await withTimeout(client.close(), REQUEST_TIMEOUT_MS, 'close');
    liveTransports.delete(transport);
}

async function foreignOrigin(srv) {
    const transport = new StreamableHTTPClientTransport(new URL(srv.url), {
        requestInit: { headers: { Origin: 'https://evil.example' } }
    });
    liveTransports.add(transport);
    const client = new Client({ name: 'caduceus-interop-foreign-page', version: '0.1.0' }, { capabilities: {} });
    let refusal;
    try {
        await withTimeout(client.connect(transport), REQUEST_TIMEOUT_MS, 'connect');
    } catch (e) {
        refusal = e;
    }
    check(refusal instanceof StreamableHTTPError && refusal.code === 403, 'a foreign Origin is refused with 403',
        () => `got ${refusal ? `${refusal.name} ${refusal.code}: ${refusal.message}` : 'a connection'}`);
    await transport.close().catch(() => {});
    liveTransports.delete(transport);
}

try {
    const srv = await startHttpServer(server.command, server.args);
    diag(`server at ${srv.url}`);
    await resumption(srv);
    await foreignOrigin(srv);
    await stopHttpServer('[server]', srv);
} catch (e) {
    check(false, 'no unexpected failure', () => e?.stack ?? String(e));
}
finish();
