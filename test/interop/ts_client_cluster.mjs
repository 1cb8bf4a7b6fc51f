#!/usr/bin/env node
// Interop test: the official TypeScript MCP SDK client (pinned in
// package.json) against replicas of everything-server behind HAProxy, each
// request of its one session balanced round robin over the nodes
// (cluster_ts_client_test.cpp starts them and runs this script).
//
//   node ts_client_cluster.mjs <url through the load balancer>
//
// Connects (initialize, then the GET stream), lists the tools, calls echo 20
// times and a long_task with progress, and ends the session (DELETE).
//
// Output: one "ok - ..." / "not ok - ..." line per check, diagnostics as
// "# ..." lines, last line "N passed, M failed". Exit 0 iff M == 0.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

let passed = 0;
let failed = 0;
function check(cond, name, detail) {
    if (cond) {
        passed++;
        console.log(`ok - ${name}`);
    } else {
        failed++;
        console.log(`not ok - ${name}`);
        if (detail !== undefined) for (const line of String(detail).split('\n')) console.log(`# ${line}`);
    }
}
function finish() {
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed === 0 ? 0 : 1);
}

const url = process.argv[2];
if (!url) {
    console.error('usage: node ts_client_cluster.mjs URL');
    process.exit(2);
}
// Every run is bounded.
setTimeout(() => {
    check(false, 'the script finished within 60 s');
    finish();
}, 60_000).unref();

const text = r => (r.content && r.content[0] && r.content[0].text) || '';

try {
    const client = new Client({ name: 'ts-cluster-client', version: '1.0.0' }, { capabilities: {} });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    check(typeof transport.sessionId === 'string' && transport.sessionId.length > 0, 'connected, with a session id');

    const { tools } = await client.listTools();
    const names = tools.map(t => t.name);
    check(names.includes('echo') && names.includes('long_task'), 'tools/list names echo and long_task', names.join(' '));

    let right = 0;
    const wrong = [];
    for (let i = 0; i < 20; i++) {
        const r = await client.callTool({ name: 'echo', arguments: { text: `ts ${i}` } });
        if (text(r) === `ts ${i}`) right++;
        else wrong.push(JSON.stringify(r));
    }
    check(right === 20, '20 echo calls answered, each with its own text', wrong.join('\n'));

    const progress = [];
    const r = await client.callTool({ name: 'long_task', arguments: { steps: 8, step_ms: 50 } }, CallToolResultSchema, {
        onprogress: p => progress.push(p.progress),
        timeout: 20_000,
    });
    check(text(r) === 'completed 8 steps', 'long_task completed', JSON.stringify(r));
    // The last update may share a chunk with the result (the SDK then drops
    // it); what arrives comes once, in order.
    const inOrder = progress.every((p, i) => p === i + 1);
    check(progress.length >= 7 && inOrder, 'long_task progress arrived once each, in order', JSON.stringify(progress));

    await transport.terminateSession();
    check(true, 'session ended (DELETE)');
    await client.close();
} catch (e) {
    check(false, 'no exception', e && e.stack ? e.stack : String(e));
}
finish();
