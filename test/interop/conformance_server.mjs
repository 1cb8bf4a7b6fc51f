// Runs every SERVER scenario of the official MCP conformance suite
// (@modelcontextprotocol/conformance, pinned in package.json) against an MCP
// server that speaks Streamable HTTP.
//
//   node conformance_server.mjs [options] [--] <server-command> [args...]
//
// The server command must listen on localhost (the dns-rebinding scenario
// needs a localhost / 127.0.0.1 / [::1] URL) and print its endpoint URL, e.g.
// `http://127.0.0.1:38123/mcp`, as the FIRST line of its stdout (within
// --startup-timeout); everything it prints afterwards is only kept for
// diagnostics. The scenario list comes from the suite (`list --server`; 32 in
// 0.1.16, the two "pending" ones included); each scenario runs in its own
// `conformance server --url URL --scenario NAME -o DIR` process with a hard
// timeout, and its DIR/**/checks.json is counted: SUCCESS = passed,
// FAILURE = failed, WARNING / INFO are not counted (as in the suite's own
// totals). A scenario without checks.json (crash, timeout), or whose CLI
// exits non-zero without a FAILURE check, counts as 1 failed.
//
// Output: one `ok|FAIL <scenario>: a passed, b failed[, w warnings]` line per
// scenario, followed by its failing checks (`    - id: message`) and warnings
// (`    ~ id: message`); diagnostics start with `#`; the last line is
// `conformance-server: N passed, M failed`. Exit 0 iff M == 0 and
// N >= --min-passed; 1 otherwise; 2 on a usage error. The server and any CLI
// child are killed on every exit path (their process groups).
//
// Options:
//   --min-passed K          minimum number of passed checks (default 47: all
//                           of them; the TypeScript reference server scores 44)
//   --scenario NAME         run only this scenario (repeatable)
//   --skip NAME             do not run this scenario (repeatable)
//   --scenario-timeout S    hard timeout per scenario (default 75: longer than
//                           the TS SDK's 60 s request timeout, so a hanging
//                           request is reported by the suite itself)
//   --total-timeout S       bound of the whole run (default 600); scenarios
//                           not run by then count as 1 failed each
//   --startup-timeout S     wait for the URL line (default 10)
//   --results DIR           keep the suite's output under DIR (default: a
//                           temporary folder, removed when everything passed)

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SUITE_CLI = path.join(HERE, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const COMPAT = path.join(HERE, 'lib', 'node20-compat.mjs');
const SUMMARY = 'conformance-server';

const USAGE = `usage: node conformance_server.mjs [--min-passed K] [--scenario NAME]... [--skip NAME]...
         [--scenario-timeout S] [--total-timeout S] [--startup-timeout S] [--results DIR]
         [--] <server-command> [args...]
The server must print its URL (e.g. http://127.0.0.1:PORT/mcp) as the first line of stdout.`;

// ------------------------------------------------------------------ options
function usageError(msg) {
    console.error(`conformance_server.mjs: ${msg}`);
    console.error(USAGE);
    process.exit(2);
}

function parseArgs(argv) {
    const o = {
        minPassed: 47,
        only: [],
        skip: [],
        scenarioTimeout: 75,
        totalTimeout: 600,
        startupTimeout: 10,
        results: undefined,
        command: undefined,
        args: []
    };
    const num = (name, v) => {
        const n = Number(v);
        if (v === undefined || !Number.isFinite(n) || n < 0) usageError(`${name} needs a non-negative number`);
        return n;
    };
    let i = 0;
    for (; i < argv.length; i++) {
        const a = argv[i];
        const val = () => {
            if (i + 1 >= argv.length) usageError(`${a} needs a value`);
            return argv[++i];
        };
        if (a === '--') {
            i++;
            break;
        } else if (a === '--min-passed') o.minPassed = num(a, val());
        else if (a === '--scenario') o.only.push(val());
        else if (a === '--skip') o.skip.push(val());
        else if (a === '--scenario-timeout') o.scenarioTimeout = num(a, val());
        else if (a === '--total-timeout') o.totalTimeout = num(a, val());
        else if (a === '--startup-timeout') o.startupTimeout = num(a, val());
        else if (a === '--results') o.results = path.resolve(val());
        else if (a === '-h' || a === '--help') {
            console.log(USAGE);
            process.exit(0);
        } else if (a.startsWith('--')) usageError(`unknown option ${a}`);
        else break;
    }
    if (i >= argv.length) usageError('missing <server-command>');
    o.command = argv[i];
    o.args = argv.slice(i + 1);
    return o;
}

const opts = parseArgs(process.argv.slice(2));
if (!fs.existsSync(SUITE_CLI)) {
    console.error(`conformance_server.mjs: ${SUITE_CLI} is missing: run (cd ${HERE} && npm ci)`);
    process.exit(2);
}

// ------------------------------------------------------------ bookkeeping
let passed = 0;
let failed = 0;
let finished = false;
const children = new Set(); // live child processes (each leads its own process group)
let server; // { child, exited, exitInfo, stderrTail, stdoutTail }
let resultsDir;
let removeResultsOnSuccess = false;
const startedAt = Date.now();
const deadline = startedAt + opts.totalTimeout * 1000;

function diag(text) {
    for (const line of String(text).split('\n')) console.log(`# ${line}`);
}

const stripAnsi = s => s.replace(/\x1b\[[0-9;?]*[ -\/]*[@-~]/g, '');

/** Keeps the last `max` lines written to a stream. */
class Tail {
    constructor(max = 40) {
        this.max = max;
        this.lines = [];
        this.partial = '';
    }
    push(chunk) {
        const parts = (this.partial + chunk.toString('utf8')).split('\n');
        this.partial = parts.pop();
        if (this.partial.length > 4000) this.partial = this.partial.slice(-4000);
        for (const p of parts) this.lines.push(p.length > 400 ? p.slice(0, 400) + '...' : p);
        if (this.lines.length > this.max) this.lines.splice(0, this.lines.length - this.max);
    }
    text() {
        return stripAnsi([...this.lines, this.partial].filter(l => l.length > 0).join('\n'));
    }
}

function spawnGroup(command, args, options = {}) {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...options });
    children.add(child);
    child.on('exit', () => children.delete(child));
    child.on('error', () => children.delete(child));
    return child;
}

function killGroup(child, signal = 'SIGKILL') {
    if (!child || child.pid === undefined) return;
    try {
        process.kill(-child.pid, signal); // the whole group: the command and anything it forked
    } catch {
        try {
            child.kill(signal);
        } catch {
            /* already gone */
        }
    }
}

function killAllNow() {
    for (const c of children) killGroup(c, 'SIGKILL');
    children.clear();
}

/**
 * Kills everything (waiting up to 1 s for it to go away), prints the summary
 * line, exits. Returns a promise that never settles, so `await finish(...)`
 * stops the caller.
 */
function finish(extraFailure) {
    const never = new Promise(() => {});
    if (finished) return never;
    finished = true;
    if (extraFailure) {
        failed++;
        diag(extraFailure);
    }
    const dying = [...children];
    if (server?.child && !server.exited && !dying.includes(server.child)) dying.push(server.child);
    killAllNow();
    // the server's whole group, even if the command itself is gone (whatever it forked)
    if (server?.child) killGroup(server.child, 'SIGKILL');
    const gone = dying.map(c =>
        c.exitCode !== null || c.signalCode !== null || c.pid === undefined
            ? Promise.resolve()
            : new Promise(resolve => {
                  c.once('exit', resolve);
                  c.once('error', resolve);
              })
    );
    const wait = new Promise(resolve => setTimeout(resolve, 1000).unref());
    Promise.race([Promise.all(gone), wait]).then(() => {
        const ok = failed === 0 && passed >= opts.minPassed;
        if (failed === 0 && passed < opts.minPassed) diag(`only ${passed} checks passed, at least ${opts.minPassed} required (--min-passed)`);
        if (resultsDir) {
            if (ok && removeResultsOnSuccess) fs.rmSync(resultsDir, { recursive: true, force: true });
            else diag(`results: ${resultsDir}`);
        }
        diag(`took ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
        console.log(`${SUMMARY}: ${passed} passed, ${failed} failed`);
        process.exit(ok ? 0 : 1);
    });
    return never;
}

process.on('exit', () => {
    // last resort (e.g. process.exit from elsewhere): never leave children behind
    killAllNow();
    if (server?.child) killGroup(server.child, 'SIGKILL');
});
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => finish(`interrupted by ${sig}`));
process.on('uncaughtException', err => finish(`uncaught exception: ${err?.stack ?? err}`));
process.on('unhandledRejection', err => finish(`unhandled rejection: ${err?.stack ?? err}`));

// ------------------------------------------------------------- the server
function startServer() {
    return new Promise(resolve => {
        const stdoutTail = new Tail();
        const stderrTail = new Tail();
        const s = { child: undefined, exited: false, exitInfo: '', stdoutTail, stderrTail };
        server = s;
        let settled = false;
        let firstLine = '';
        let timer;
        const settle = (url, error) => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve({ url, error });
        };
        let child;
        try {
            child = spawnGroup(opts.command, opts.args);
        } catch (err) {
            s.exited = true;
            settle(undefined, `cannot start ${opts.command}: ${err.message}`);
            return;
        }
        s.child = child;
        timer = setTimeout(
            () => settle(undefined, `the server printed no URL line on stdout within ${opts.startupTimeout} s`),
            opts.startupTimeout * 1000
        );
        child.on('error', err => {
            s.exited = true;
            s.exitInfo = `could not be started: ${err.message}`;
            settle(undefined, `cannot start ${opts.command}: ${err.message}`);
        });
        child.on('exit', (code, signal) => {
            s.exited = true;
            s.exitInfo = signal ? `killed by ${signal}` : `exited with code ${code}`;
            settle(undefined, `the server ${s.exitInfo} before printing its URL`);
        });
        child.stderr.on('data', d => stderrTail.push(d));
        child.stdout.on('data', d => {
            if (settled) {
                stdoutTail.push(d);
                return;
            }
            firstLine += d.toString('utf8');
            const nl = firstLine.indexOf('\n');
            if (nl < 0) {
                if (firstLine.length > 4096) settle(undefined, 'the first stdout line of the server is longer than 4096 bytes');
                return;
            }
            stdoutTail.push(firstLine.slice(nl + 1));
            settle(firstLine.slice(0, nl).trim());
        });
    });
}

function serverDiagnostics(withExitInfo = true) {
    const out = [];
    if (withExitInfo && server?.exited) out.push(`server ${server.exitInfo}`);
    const err = server?.stderrTail.text();
    if (err) out.push(`server stderr (last lines):\n${err}`);
    const so = server?.stdoutTail.text();
    if (so) out.push(`server stdout after the URL line (last lines):\n${so}`);
    return out.join('\n');
}

async function stopServer() {
    if (!server?.child || server.exited) return;
    killGroup(server.child, 'SIGTERM');
    const end = Date.now() + 2000;
    while (!server.exited && Date.now() < end) await new Promise(r => setTimeout(r, 20));
    if (!server.exited) killGroup(server.child, 'SIGKILL');
}

// ------------------------------------------------------------- the suite
/** Runs the suite's CLI; resolves { code, signal, timedOut, out } (out = stdout+stderr tail). */
function runCli(cliArgs, timeoutMs) {
    if (finished) return new Promise(() => {});
    return new Promise(resolve => {
        const tail = new Tail(60);
        const child = spawnGroup(process.execPath, ['--import', COMPAT, SUITE_CLI, ...cliArgs], {
            cwd: HERE,
            env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }
        });
        let timedOut = false;
        const timer = setTimeout(() => {
            timedOut = true;
            killGroup(child, 'SIGKILL');
        }, Math.max(0, timeoutMs));
        child.stdout.on('data', d => tail.push(d));
        child.stderr.on('data', d => tail.push(d));
        let done = false;
        const end = (code, signal, extra) => {
            if (done) return;
            done = true;
            clearTimeout(timer);
            if (extra) tail.push(`\n${extra}\n`);
            resolve({ code, signal, timedOut, out: tail.text() });
        };
        child.on('error', err => end(null, null, `spawn error: ${err.message}`));
        child.on('close', (code, signal) => end(code, signal));
    });
}

async function listScenarios() {
    const r = await runCli(['list', '--server'], Math.min(60_000, deadline - Date.now()));
    const names = [];
    for (const line of r.out.split('\n')) {
        const m = /^\s+-\s+(\S+)/.exec(line);
        if (m) names.push(m[1]);
    }
    if (r.code !== 0 || names.length === 0) {
        await finish(`\`conformance list --server\` failed (${r.timedOut ? 'timed out' : `exit ${r.code ?? r.signal}`}):\n${r.out}`);
    }
    return names;
}

function findChecksJson(dir) {
    let entries;
    try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
        return undefined;
    }
    for (const e of entries) if (e.isFile() && e.name === 'checks.json') return path.join(dir, e.name);
    for (const e of entries) {
        if (!e.isDirectory()) continue;
        const found = findChecksJson(path.join(dir, e.name));
        if (found) return found;
    }
    return undefined;
}

const oneLine = s => String(s ?? '').replace(/\s+/g, ' ').trim();

function checkMessage(c) {
    const msg = c.errorMessage ?? c.details?.message ?? c.details?.error ?? c.description ?? c.name ?? '';
    const m = oneLine(typeof msg === 'string' ? msg : JSON.stringify(msg));
    return m.length > 500 ? m.slice(0, 500) + '...' : m;
}

/** Prints the scenario's line + details and adds its counts to the totals. */
function report(scenario, { ok, pass, fail, warn, lines }) {
    if (finished) return; // interrupted: the summary is already being printed
    passed += pass;
    failed += fail;
    console.log(`${ok ? 'ok' : 'FAIL'} ${scenario}: ${pass} passed, ${fail} failed${warn ? `, ${warn} warnings` : ''}`);
    for (const l of lines) console.log(l);
}

function notRun(scenario, why) {
    report(scenario, { ok: false, pass: 0, fail: 1, warn: 0, lines: [`    - (not run): ${why}`] });
}

async function runScenario(scenario, url) {
    const outDir = path.join(resultsDir, scenario.replace(/[^A-Za-z0-9._-]/g, '_'));
    fs.rmSync(outDir, { recursive: true, force: true });
    fs.mkdirSync(outDir, { recursive: true });
    const timeoutMs = Math.min(opts.scenarioTimeout * 1000, deadline - Date.now());
    const t0 = Date.now();
    const r = await runCli(['server', '--url', url, '--scenario', scenario, '-o', outDir], timeoutMs);
    const secs = ((Date.now() - t0) / 1000).toFixed(1);
    const lines = [];
    let pass = 0;
    let fail = 0;
    let warn = 0;
    const file = findChecksJson(outDir);
    let checks;
    if (file) {
        try {
            checks = JSON.parse(fs.readFileSync(file, 'utf8'));
            if (!Array.isArray(checks)) throw new Error('not a JSON array');
        } catch (err) {
            checks = undefined;
            lines.push(`    - (checks.json): unreadable: ${err.message}`);
            fail++;
        }
    }
    if (checks) {
        for (const c of checks) {
            if (c?.status === 'SUCCESS') pass++;
            else if (c?.status === 'FAILURE') {
                fail++;
                lines.push(`    - ${c.id ?? '(no id)'}: ${checkMessage(c)}`);
            } else if (c?.status === 'WARNING') {
                warn++;
                lines.push(`    ~ ${c.id ?? '(no id)'} (warning): ${checkMessage(c)}`);
            }
        }
    } else if (!file) {
        fail++;
        const why = r.timedOut
            ? `no checks.json: killed after ${secs} s (scenario timeout or whole-run deadline)`
            : `no checks.json: the suite exited with ${r.code ?? r.signal}`;
        lines.push(`    - (no checks.json): ${why}`);
    }
    if (checks && r.code !== 0 && fail === 0) {
        fail++;
        lines.push(`    - (cli): the suite ${r.timedOut ? 'was killed (timeout)' : `exited with ${r.code ?? r.signal}`} without a FAILURE check`);
    }
    if (fail > 0 && !checks && r.out) lines.push(r.out.split('\n').map(l => `#   ${l}`).join('\n'));
    report(scenario, { ok: fail === 0, pass, fail, warn, lines });
}

// ------------------------------------------------------------------- main
async function main() {
    setTimeout(() => {
        // the per-CLI timeouts are clipped to the deadline; this is only a backstop
        finish(`whole run exceeded ${opts.totalTimeout} s`);
    }, opts.totalTimeout * 1000 + 15_000).unref();

    let scenarios = await listScenarios();
    for (const n of [...opts.only, ...opts.skip]) {
        if (!scenarios.includes(n)) {
            killAllNow();
            usageError(`unknown scenario ${n}; the suite has: ${scenarios.join(' ')}`);
        }
    }
    if (opts.only.length) scenarios = scenarios.filter(s => opts.only.includes(s));
    scenarios = scenarios.filter(s => !opts.skip.includes(s));
    if (scenarios.length === 0) usageError('no scenario selected');

    const { url, error } = await startServer();
    if (error) {
        const d = serverDiagnostics(false);
        await finish(`${error}${d ? `\n${d}` : ''}`);
    }
    let parsed;
    try {
        parsed = new URL(url);
    } catch {
        /* handled below */
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol)) {
        await finish(`the first stdout line of the server is not an http(s) URL: ${JSON.stringify(url)}`);
    }
    if (opts.results) {
        resultsDir = opts.results;
        fs.mkdirSync(resultsDir, { recursive: true });
    } else {
        resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'caduceus-conformance-'));
        removeResultsOnSuccess = true;
    }

    diag(`server: ${url} (pid ${server.child.pid}); ${scenarios.length} scenarios; results in ${resultsDir}`);

    let serverDeathReported = false;
    for (const scenario of scenarios) {
        if (finished) await finish();
        if (server.exited) {
            if (!serverDeathReported) {
                serverDeathReported = true;
                diag(`the server is gone:\n${serverDiagnostics()}`);
            }
            notRun(scenario, `the server ${server.exitInfo}`);
            continue;
        }
        if (Date.now() >= deadline - 1000) {
            notRun(scenario, `whole-run deadline (${opts.totalTimeout} s) reached`);
            continue;
        }
        await runScenario(scenario, url);
    }
    if (server.exited && !serverDeathReported) diag(`the server ended during the run:\n${serverDiagnostics()}`);
    else if (failed > 0 && !serverDeathReported) {
        const d = server.stderrTail.text();
        if (d) diag(`server stderr (last lines):\n${d}`);
    }
    await stopServer();
    await finish();
}

main().catch(err => finish(`runner error: ${err?.stack ?? err}`));
