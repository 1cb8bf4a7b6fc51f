// The reference client of the benchmarks: bench-client's scenarios (bench/client/
// options.hpp) written with the official TypeScript SDK (pinned in package.json)
// the way its examples are (Client, StdioClientTransport,
// StreamableHTTPClientTransport; a pool is N clients taken in turn, the SDK
// having none), with bench-client's flags and its line of JSON:
//
//   node reference_client.mjs stdio [--window N] [LIMITS] -- COMMAND [ARGS...]
//   node reference_client.mjs http --url URL [--window N] [--pool N] [--server-pid PID] [LIMITS]
//
//   LIMITS: [--warmup S] [--duration S] [--max-count N] [--grace S]
//
// `window` callers each call `tools/call echo` with a text of its own, one call
// after the other, and check the result (one text block, the text sent). A
// warm-up, then a window bounded in time and count, then a grace period after
// which the clients are closed and what is unanswered is an error. CPU is this
// process's own, from process.cpuUsage() over the window.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const KEPT_ERROR_SAMPLES = 5;

function usage(problem) {
    console.error(`reference_client: ${problem} (see bench/ts/reference_client.mjs)`);
    process.exit(2);
}

function parseArgs(argv) {
    const o = { transport: argv[0], url: '', window: 1, pool: 0, warmup: 0, duration: 1, maxCount: Infinity,
                grace: 5, serverPid: 0, command: [] };
    if (o.transport !== 'stdio' && o.transport !== 'http') usage(`unknown transport ${o.transport}`);
    for (let i = 1; i < argv.length; ++i) {
        const flag = argv[i];
        if (flag === '--') {
            o.command = argv.slice(i + 1);
            break;
        }
        if (i + 1 >= argv.length) usage(`missing value after ${flag}`);
        const value = argv[++i];
        if (flag === '--url') o.url = value;
        else if (flag === '--window') o.window = Number(value);
        else if (flag === '--pool') o.pool = Number(value);
        else if (flag === '--warmup') o.warmup = Number(value);
        else if (flag === '--duration') o.duration = Number(value);
        else if (flag === '--grace') o.grace = Number(value);
        else if (flag === '--max-count') o.maxCount = Number(value);
        else if (flag === '--server-pid') o.serverPid = Number(value);
        else usage(`unknown option ${flag}`);
    }
    if (o.transport === 'http' && !o.url) usage('http needs --url');
    if (o.transport === 'stdio' && o.command.length === 0) usage('stdio needs -- COMMAND');
    if (o.transport === 'stdio' && o.pool > 0) usage('--pool is for http');
    if (!(o.window >= 1)) usage('--window must be at least 1');
    return o;
}

const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

// utime + stime of a process, all its threads, in µs (/proc/PID/stat).
function processCpuUs(pid) {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');  // from field 3, state
    return (Number(fields[11]) + Number(fields[12])) * 1e6 / ticksPerSecond;
}

function ownCpuUs() {
    const { user, system } = process.cpuUsage();
    return user + system;
}

function percentileUs(latencies, q) {
    if (latencies.length === 0) return 0;
    const sorted = Float64Array.from(latencies).sort();
    return sorted[Math.floor(q * (sorted.length - 1) + 0.5)];
}

// The bookkeeping of bench-client's run (bench/loadgen/load_run.hpp): phases,
// counts, latencies, CPU over the window.
class LoadRun {
    constructor(o, abort) {
        Object.assign(this, { o, abort, phase: 'idle', sent: 0, checked: 0, errors: 0, measured: 0 });
        this.samples = [];
        this.latencies = [];
    }

    issuing() { return this.phase === 'warmup' || this.phase === 'measuring'; }

    start() {
        if (this.o.warmup <= 0) return this.beginWindow();
        this.phase = 'warmup';
        this.timer = setTimeout(() => this.beginWindow(), this.o.warmup * 1000);
    }

    beginWindow() {
        this.phase = 'measuring';
        this.serverCpuStart = this.o.serverPid ? processCpuUs(this.o.serverPid) : 0;
        this.ownCpuStart = ownCpuUs();
        this.windowStart = process.hrtime.bigint();
        this.timer = setTimeout(() => this.endWindow(), this.o.duration * 1000);
    }

    endWindow() {
        if (this.phase !== 'measuring') return;
        this.windowEnd = process.hrtime.bigint();
        this.ownCpuEnd = ownCpuUs();
        this.serverCpuEnd = this.o.serverPid ? processCpuUs(this.o.serverPid) : 0;
        this.phase = 'draining';
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.abort(), this.o.grace * 1000);
    }

    replied(sentAt) {
        ++this.checked;
        if (this.phase !== 'measuring') return;
        this.latencies.push(Number(process.hrtime.bigint() - sentAt) / 1000);
        if (++this.measured >= this.o.maxCount) this.endWindow();
    }

    failed(problem, wasChecked = true) {
        ++this.errors;
        if (wasChecked) ++this.checked;
        if (this.samples.length < KEPT_ERROR_SAMPLES) this.samples.push(problem);
    }

    finished() {
        if (this.phase === 'warmup') this.beginWindow();  // every caller gave up during the warm-up
        this.endWindow();
        this.phase = 'over';
        clearTimeout(this.timer);
    }

    result(protocol) {
        const seconds = Number(this.windowEnd - this.windowStart) / 1e9;
        const count = this.measured || 1;
        const ownCpu = this.ownCpuEnd - this.ownCpuStart;
        const line = { sent: this.sent, checked: this.checked, errors: this.errors, error_samples: this.samples,
                       measured: this.measured, seconds, per_second: seconds > 0 ? this.measured / seconds : 0,
                       p50_us: percentileUs(this.latencies, 0.5), p99_us: percentileUs(this.latencies, 0.99) };
        if (this.o.serverPid) line.server_cpu_us_each = (this.serverCpuEnd - this.serverCpuStart) / count;
        Object.assign(line, { client_busy: seconds > 0 ? ownCpu / (seconds * 1e6) : 0,
                              client_cpu_us_each: ownCpu / count, protocol });
        return line;
    }
}

function makeTransport(o) {
    if (o.transport === 'http') return new StreamableHTTPClientTransport(new URL(o.url));
    const transport = new StdioClientTransport({ command: o.command[0], args: o.command.slice(1) });
    // Client.connect hands the negotiated version to a transport that takes it;
    // the stdio one does not, so it is kept here for the report.
    transport.setProtocolVersion = version => { transport.protocolVersion = version; };
    return transport;
}

async function connect(o) {
    const clients = [];
    for (let i = 0; i < Math.max(o.pool, 1); ++i) {
        const client = new Client({ name: 'ts-reference-client', version: '1.0.0' });
        const transport = makeTransport(o);
        await client.connect(transport);
        clients.push({ client, transport });
    }
    return clients;
}

function problemWith(result, text) {
    const block = result.content?.length === 1 ? result.content[0] : undefined;
    if (result.isError || block?.type !== 'text' || block.text !== text)
        return `not the text sent (${text}): ${JSON.stringify(result).slice(0, 200)}`;
    return undefined;
}

async function caller(clients, run, texts) {
    while (run.issuing()) {
        const n = texts.next++;
        const text = `echo-${n}`;
        const { client } = clients[n % clients.length];  // round-robin over the pool
        const sentAt = process.hrtime.bigint();
        ++run.sent;
        try {
            const result = await client.callTool({ name: 'echo', arguments: { text } });
            const problem = problemWith(result, text);
            if (problem) run.failed(problem);
            else run.replied(sentAt);
        } catch (error) {
            run.failed(`no result: ${error.message}`, false);
            break;  // its connection is likely gone
        }
    }
}

async function main() {
    const o = parseArgs(process.argv.slice(2));
    let clients;
    try {
        clients = await connect(o);
    } catch (error) {
        console.error(`reference_client: could not connect: ${error.message}`);
        process.exit(1);
    }
    const protocol = clients[0].transport.protocolVersion;
    let closing;
    const close = () => (closing ??= Promise.all(clients.map(({ client }) => client.close())));
    const run = new LoadRun(o, close);
    const texts = { next: 0 };
    run.start();
    await Promise.all(Array.from({ length: o.window }, () => caller(clients, run, texts)));
    run.finished();
    await close();
    console.log(JSON.stringify(run.result(protocol)));
}

await main();
