#!/usr/bin/env node
// Interop test: the official TypeScript MCP SDK (pinned in package.json) as a
// client of a stdio MCP server (Caduceus' counter-server).
//
//   node ts_client_stdio.mjs <server-command> [args...]
//
// Part 1 (once per protocol version 2024-11-05, 2025-03-26, 2025-06-18,
// 2025-11-25, plus one unsupported version): a fresh server process driven at
// the transport level (StdioClientTransport) so the offered protocolVersion can
// be chosen. Every line the server writes to stdout is checked to be a JSON-RPC
// message (SDK JSONRPCMessageSchema + no extra envelope keys) and every response
// is validated against the SDK's result schema for its method.
// Part 2: the high-level SDK Client (negotiates the SDK's latest version).
//
// Output: one "ok - ..." / "not ok - ..." line per check, diagnostics as
// "# ..." lines, last line "N passed, M failed". Exit 0 iff M == 0.
// Shared helpers (reporting, raw stdout tap, RawClient, teardown): lib.mjs.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
    InitializeResultSchema,
    EmptyResultSchema,
    ListToolsResultSchema,
    CallToolResultSchema,
    LATEST_PROTOCOL_VERSION,
    SUPPORTED_PROTOCOL_VERSIONS
} from '@modelcontextprotocol/sdk/types.js';
import {
    REQUEST_TIMEOUT_MS,
    ok,
    notOk,
    check,
    diag,
    short,
    failedCount,
    liveTransports,
    finish,
    startHarness,
    withTimeout,
    makeSession,
    RawClient,
    expectResult,
    step,
    closeSession,
    sessionFinalChecks
} from './lib.mjs';

const SCRIPT_TIMEOUT_MS = 60_000;
const VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const UNSUPPORTED_VERSION = '1999-01-01';
const SERVER_LATEST = '2025-11-25';
const CLIENT_INFO = { name: 'caduceus-interop-ts-client', version: '0.1.0' };

const { command: serverCommand, args: serverArgs } = startHarness({
    usage: 'usage: node ts_client_stdio.mjs <server-command> [args...]',
    scriptTimeoutMs: SCRIPT_TIMEOUT_MS
});

function counterText(result) {
    if (!Array.isArray(result?.content)) return undefined;
    const texts = result.content.filter(c => c?.type === 'text').map(c => c.text);
    return texts.length === 1 ? texts[0] : JSON.stringify(texts);
}


async function runVersion(offered) {
    const unsupported = !VERSIONS.includes(offered);
    const expected = unsupported ? SERVER_LATEST : offered;
    const tag = `[${offered}]`;
    const s = makeSession(tag);
    s.failedAtStart = failedCount();
    const c = new RawClient(s);
    try {
        try {
            await withTimeout(s.transport.start(), REQUEST_TIMEOUT_MS, 'spawn');
            ok(`${tag} server process spawned`);
        } catch (e) {
            notOk(`${tag} server process spawned`, e.message);
            return;
        }

        // initialize
        const init = await step(tag, 'initialize', async () => {
            const raw = await c.request('initialize', { protocolVersion: offered, capabilities: {}, clientInfo: CLIENT_INFO });
            return expectResult(tag, 'initialize', raw, InitializeResultSchema);
        });
        if (!init) return;
        check(
            init.protocolVersion === expected,
            unsupported
                ? `${tag} unsupported version answered with server latest ${expected}`
                : `${tag} initialize result protocolVersion equals offered ${offered}`,
            () => `got ${short(init.protocolVersion)}`
        );
        check(init.capabilities?.tools !== undefined, `${tag} server declares the tools capability`, () => `capabilities: ${short(init.capabilities)}`);
        if (!(await step(tag, 'notifications/initialized sent', async () => (await c.notify('notifications/initialized'), true)))) return;
        if (unsupported) return; // only the negotiation is of interest here

        // ping
        await step(tag, 'ping', async () => {
            const raw = await c.request('ping');
            const r = expectResult(tag, 'ping', raw, EmptyResultSchema);
            if (r) check(Object.keys(raw.result).length === 0, `${tag} ping result is exactly {}`, () => short(raw.result));
        });

        // tools/list
        await step(tag, 'tools/list', async () => {
            const raw = await c.request('tools/list');
            const r = expectResult(tag, 'tools/list', raw, ListToolsResultSchema);
            if (!r) return;
            const counter = r.tools.find(t => t.name === 'counter');
            if (check(counter, `${tag} tools/list contains counter`, () => `tools: ${r.tools.map(t => t.name).join(', ')}`)) {
                check(
                    counter.inputSchema?.properties?.increment?.type === 'boolean',
                    `${tag} counter inputSchema has boolean property increment`,
                    () => short(counter.inputSchema)
                );
            }
        });

        // tools/call counter x3
        const calls = [
            [{ name: 'counter', arguments: { increment: true } }, 'Counter value: 1', '{"increment":true}'],
            [{ name: 'counter', arguments: { increment: true } }, 'Counter value: 2', '{"increment":true}'],
            [{ name: 'counter' }, 'Counter value: 2', 'without arguments']
        ];
        for (const [params, want, desc] of calls) {
            await step(tag, `tools/call counter ${desc}`, async () => {
                const raw = await c.request('tools/call', params);
                const r = expectResult(tag, `tools/call counter ${desc}`, raw, CallToolResultSchema);
                if (!r) return;
                // CallToolResultSchema defaults a missing content to [], so check the raw JSON
                check(Array.isArray(raw.result.content), `${tag} tools/call counter ${desc}: result has a content array`, () => short(raw.result));
                check(
                    counterText(r) === want && r.isError !== true,
                    `${tag} tools/call counter ${desc} -> "${want}"`,
                    () => `got ${short(raw.result)}`
                );
            });
        }

        // unknown method
        await step(tag, 'unknown method', async () => {
            const raw = await c.request('caduceus/no_such_method', {});
            check(
                'error' in raw && raw.error?.code === -32601,
                `${tag} unknown method -> JSON-RPC error -32601`,
                () => `got ${short(raw)}`
            );
        });

        // unknown tool
        await step(tag, 'unknown tool', async () => {
            const raw = await c.request('tools/call', { name: 'no_such_tool_xyz', arguments: {} });
            if ('error' in raw) {
                check(Number.isInteger(raw.error?.code), `${tag} unknown tool rejected (JSON-RPC error ${raw.error?.code}: ${short(raw.error?.message, 80)})`, () => short(raw));
            } else {
                const r = expectResult(tag, 'unknown tool', raw, CallToolResultSchema);
                if (r) check(r.isError === true, `${tag} unknown tool rejected (result with isError:true)`, () => `got ${short(raw.result)}`);
            }
        });

        // still alive and consistent after the errors
        await step(tag, 'tools/call counter after errors', async () => {
            const raw = await c.request('tools/call', { name: 'counter', arguments: {} });
            const r = expectResult(tag, 'tools/call counter {} after errors', raw, CallToolResultSchema);
            if (r) check(counterText(r) === 'Counter value: 2', `${tag} tools/call counter {} after errors -> "Counter value: 2"`, () => `got ${short(raw.result)}`);
        });
    } finally {
        await closeSession(tag, s);
        sessionFinalChecks(tag, s);
    }
}

// ------------------------------------------------------ high-level Client
async function runHighLevelClient() {
    const tag = '[Client]';
    const s = makeSession(tag);
    s.failedAtStart = failedCount();
    const t = s.transport;
    // counted like in RawClient; Client.connect() chains these handlers
    t.onmessage = () => {
        s.sdkCount++;
    };
    t.onerror = err => {
        s.transportErrors.push(err?.message ?? String(err));
    };
    t.onclose = () => {
        if (!s.closedByUs) s.unexpectedClose = true;
    };
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    client.onerror = err => {
        // Protocol-level errors (e.g. response to unknown id) also count
        s.transportErrors.push(`Client.onerror: ${err?.message ?? String(err)}`);
    };
    const opts = { timeout: REQUEST_TIMEOUT_MS };
    try {
        const connected = await step(tag, 'connect (initialize with SDK latest version)', async () => {
            await withTimeout(client.connect(t, opts), REQUEST_TIMEOUT_MS + 1000, 'Client.connect');
            ok(`${tag} connect (initialize offering ${LATEST_PROTOCOL_VERSION})`);
            return true;
        });
        if (!connected) return;
        const initRaw = s.rawById.get(0); // Client numbers requests from 0
        if (initRaw?.result) {
            check(
                initRaw.result.protocolVersion === LATEST_PROTOCOL_VERSION,
                `${tag} negotiated protocolVersion ${LATEST_PROTOCOL_VERSION}`,
                () => `got ${short(initRaw.result.protocolVersion)}`
            );
        } else {
            notOk(`${tag} raw initialize response seen`, `rawById keys: ${[...s.rawById.keys()].join(',')}`);
        }
        diag(`${tag} serverInfo: ${short(client.getServerVersion())}`);

        await step(tag, 'listTools', async () => {
            const r = await client.listTools(undefined, opts);
            check(
                r.tools.some(x => x.name === 'counter'),
                `${tag} listTools contains counter`,
                () => `tools: ${r.tools.map(x => x.name).join(', ')}`
            );
        });
        await step(tag, 'callTool', async () => {
            const r = await client.callTool({ name: 'counter', arguments: { increment: true } }, CallToolResultSchema, opts);
            check(counterText(r) === 'Counter value: 1' && r.isError !== true, `${tag} callTool counter {"increment":true} -> "Counter value: 1"`, () =>
                `got ${short(r)}`
            );
        });
        await step(tag, 'ping', async () => {
            const r = await client.ping(opts);
            check(r && Object.keys(r).length === 0, `${tag} ping -> {}`, () => `got ${short(r)}`);
        });
    } finally {
        s.closedByUs = true;
        const child = s.child;
        try {
            await withTimeout(client.close(), 8000, 'Client.close()');
        } catch (e) {
            notOk(`${tag} Client.close()`, e.message);
        }
        liveTransports.delete(t);
        if (child && child.exitCode === null && child.signalCode === null) {
            try {
                child.kill('SIGKILL');
            } catch {
                /* ignore */
            }
        }
        sessionFinalChecks(tag, s);
    }
}

// -------------------------------------------------------------------- main
diag(`TS SDK client vs: ${[serverCommand, ...serverArgs].join(' ')}`);
diag(`SDK LATEST_PROTOCOL_VERSION=${LATEST_PROTOCOL_VERSION} SUPPORTED_PROTOCOL_VERSIONS=${SUPPORTED_PROTOCOL_VERSIONS.join(',')}`);
try {
    for (const v of VERSIONS) await runVersion(v);
    await runVersion(UNSUPPORTED_VERSION);
    await runHighLevelClient();
} catch (e) {
    notOk('harness ran without internal error', e?.stack ?? String(e));
} finally {
    finish();
}
