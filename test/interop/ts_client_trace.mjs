#!/usr/bin/env node
// Interop test: trace context from the official TypeScript MCP SDK client
// (pinned in package.json), traced with the OpenTelemetry JS SDK, into our
// server (ts_client_trace_test.cpp starts otlp_receiver.mjs and `caduceus
// serve-demo --otlp-endpoint`, then runs this script).
//
//   node ts_client_trace.mjs <MCP server URL> <OTLP receiver base URL>
//
// Makes a CLIENT span for each of two tools/call echo over Streamable HTTP
// and sends its context, written by @opentelemetry/core's W3C propagator,
// one way each: in params._meta (callTool's _meta: traceparent) and in the
// POST's traceparent and tracestate headers (the transport's fetch). The
// spans carry `test.propagation` = meta or header. Then it posts its spans,
// encoded by @opentelemetry/otlp-transformer, to the receiver, which prints
// them beside our server's.
//
// Output: "client-span <meta|header> <traceparent>" per call, then "done";
// on failure a line "failed: <why>" and exit 1.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ROOT_CONTEXT, SpanKind, defaultTextMapSetter, trace } from '@opentelemetry/api';
import { TraceState, W3CTraceContextPropagator } from '@opentelemetry/core';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

const [serverUrl, receiverUrl] = process.argv.slice(2);
if (!serverUrl || !receiverUrl) {
    console.error('usage: node ts_client_trace.mjs SERVER_URL RECEIVER_URL');
    process.exit(2);
}
setTimeout(() => {
    console.log('failed: the script did not finish within 30 s');
    process.exit(1);
}, 30_000).unref();

const spans = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const tracer = provider.getTracer('ts-client-trace');
const propagator = new W3CTraceContextPropagator();

// The header path: the trace context the next tools/call POST carries as headers.
let headerContext;
const transport = new StreamableHTTPClientTransport(new URL(serverUrl), {
    fetch: (input, init) => {
        if (!headerContext || !String(init?.body ?? '').includes('"tools/call"')) return fetch(input, init);
        const headers = new Headers(init.headers);
        for (const [name, value] of Object.entries(headerContext)) headers.set(name, value);
        return fetch(input, { ...init, headers });
    },
});
const client = new Client({ name: 'ts-trace-client', version: '1.0.0' }, { capabilities: {} });

// A CLIENT span around tools/call echo, its context sent `how`. The header
// path's span continues an upstream trace with a tracestate, to show that
// the tracestate goes along too.
async function tracedEcho(how) {
    let parent = ROOT_CONTEXT;
    if (how === 'header')
        parent = trace.setSpanContext(ROOT_CONTEXT, {
            traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1, isRemote: true,
            traceState: new TraceState('congo=t61rcWkgMzE'),
        });
    const span = tracer.startSpan('tools/call echo', {
        kind: SpanKind.CLIENT,
        attributes: { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'echo', 'test.propagation': how },
    }, parent);
    const carrier = {};
    propagator.inject(trace.setSpan(parent, span), carrier, defaultTextMapSetter);
    let result;
    try {
        if (how === 'meta') {
            result = await client.callTool({ name: 'echo', arguments: { text: how }, _meta: carrier });
        } else {
            headerContext = carrier;
            try {
                result = await client.callTool({ name: 'echo', arguments: { text: how } });
            } finally {
                headerContext = undefined;
            }
        }
    } finally {
        span.end();
    }
    if (result.content?.[0]?.text !== how) throw new Error(`echo answered ${JSON.stringify(result)}`);
    console.log(`client-span ${how} ${carrier.traceparent}`);
}

try {
    await client.connect(transport);
    await tracedEcho('meta');
    await tracedEcho('header');
    await client.close();
    const body = JsonTraceSerializer.serializeRequest(spans.getFinishedSpans());
    const response = await fetch(new URL('/v1/traces', receiverUrl), {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body,
    });
    if (!response.ok) throw new Error(`the receiver answered ${response.status}: ${await response.text()}`);
    console.log('done');
    process.exit(0);
} catch (e) {
    console.log(`failed: ${e?.stack ?? e}`);
    process.exit(1);
}
