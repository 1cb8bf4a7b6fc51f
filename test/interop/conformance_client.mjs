// Runs CLIENT scenarios of the official MCP conformance suite
// (@modelcontextprotocol/conformance, pinned in package.json) against an MCP
// client command.
//
//   node conformance_client.mjs [options] [--] <client-command> [args...]
//
// For each scenario the suite starts a mock MCP server on localhost and runs
// `<client-command> [args...] <server-url>` through /bin/sh (the URL is the
// LAST argument; the scenario name is in the environment variable
// MCP_CONFORMANCE_SCENARIO), then judges what the client did. The default
// scenarios are the non-OAuth client scenarios of 0.1.16: initialize,
// tools_call, elicitation-sep1034-client-defaults, sse-retry (the `auth/*`
// ones need an OAuth 2.1 client; any of them can be named with --scenario).
// Scenarios run ONE AT A TIME, each in its own `conformance client --command
// CMD --scenario NAME --timeout MS -o DIR` process (the suite's --suite mode
// runs them in parallel, which makes sse-retry's 450-700 ms reconnection
// window flaky on a small machine), with a hard timeout, and its
// DIR/**/checks.json is counted: SUCCESS = passed, FAILURE = failed, WARNING
// printed but not counted, INFO ignored. A scenario counts 1 more failed when
// the suite reports that the client timed out or exited with an error
// (except auth/scope-retry-limit and auth/resource-mismatch, where the suite
// allows an error exit), when no checks.json appears, when no SUCCESS or
// FAILURE check was recorded (the client never did what the scenario checks),
// or when the suite exits non-zero without saying why.
//
// Each word of the command is shell-quoted and the command is run with
// `exec`, so the suite's own timeout (SIGTERM to the shell) reaches the
// client; it runs in the current directory with our environment.
//
// Output: one `ok|FAIL <scenario>: a passed, b failed[, w warnings]` line per
// scenario, followed by its failing checks (`    - id: message`) and warnings
// (`    ~ id (warning): message`); for a failed scenario the last lines of the
// client's stderr and stdout as `#` lines; the last line is
// `conformance-client: N passed, M failed`. Exit 0 iff M == 0 and
// N >= --min-passed; 1 otherwise; 2 on a usage error. Every CLI run (and with
// it the mock server and the client) is killed on every exit path (its
// process group), also on SIGINT/SIGTERM/SIGHUP.
//
// Options:
//   --scenario NAME         run this client scenario (repeatable; default: the
//                           four non-auth ones)
//   --skip NAME             do not run this scenario (repeatable)
//   --min-passed K          minimum number of passed checks (default 10, all of
//                           the four default scenarios, when neither
//                           --scenario nor --skip is given; 0 otherwise)
//   --timeout MS            the suite kills the client after MS (default 30000)
//   --scenario-timeout S    hard timeout per scenario (default: the client
//                           timeout + 30 s)
//   --total-timeout S       bound of the whole run (default 300); scenarios
//                           not run by then count as 1 failed each
//   --results DIR           keep the suite's output under DIR (default: a
//                           temporary folder, removed when everything passed)

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commonOptions, parseCommandLine } from './lib/command-line.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SUMMARY = 'conformance-client';
const DEFAULT_SCENARIOS = ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'];
const DEFAULT_MIN_PASSED = 10; // 1 + 1 + 5 + 3 checks: what the TS reference client scores on them
// scenarios whose client may exit with an error (the suite's allowClientError)
const ALLOW_CLIENT_ERROR = new Set(['auth/scope-retry-limit', 'auth/resource-mismatch']);

const USAGE = `usage: node conformance_client.mjs [--scenario NAME]... [--skip NAME]... [--min-passed K]
         [--timeout MS] [--scenario-timeout S] [--total-timeout S] [--results DIR]
         [--] <client-command> [args...]
The suite runs the command with the mock server's URL appended, the scenario in MCP_CONFORMANCE_SCENARIO.`;

// ------------------------------------------------------------------ options
function usageError(msg) {
    console.error(`conformance_client.mjs: ${msg}`);
    console.error(USAGE);
    process.exit(2);
}

function parseArgs(argv) {
    const o = parseCommandLine(argv, {
        defaults: { minPassed: undefined, only: [], skip: [], timeoutMs: 30_000, scenarioTimeout: undefined, totalTimeout: 300 },
        options: { ...commonOptions, '--timeout': { key: 'timeoutMs', kind: 'number' } },
        usage: USAGE,
        usageError,
        resolve: p => path.resolve(p),
        commandName: 'client-command'
    });
    if (!Number.isInteger(o.timeoutMs) || o.timeoutMs === 0) usageError('--timeout needs a positive whole number of milliseconds');
    if (o.minPassed === undefined) o.minPassed = o.only.length === 0 && o.skip.length === 0 ? DEFAULT_MIN_PASSED : 0;
    if (o.scenarioTimeout === undefined) o.scenarioTimeout = Math.ceil(o.timeoutMs / 1000) + 30;
    return o;
}

const opts = parseArgs(process.argv.slice(2));
// checked before lib.mjs is loaded: it imports the SDK from the same node_modules
if (!fs.existsSync(path.join(HERE, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js'))) {
    console.error(`conformance_client.mjs: node_modules is missing: run (cd ${HERE} && npm ci)`);
    process.exit(2);
}
const { ConformanceRun, Tail, diag, killGroupsNow, tallyChecks } = await import('./lib.mjs');

// ------------------------------------------------------------ bookkeeping
const run = new ConformanceRun({ summary: SUMMARY, minPassed: opts.minPassed, totalTimeout: opts.totalTimeout });
run.installHandlers();

// ------------------------------------------------------------ the command
/** A word for /bin/sh: as is when it is plainly safe, else in single quotes. */
const shellWord = w => (/^[A-Za-z0-9_@%+=:,.\/-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

// The suite splits --command at single spaces and joins the words again with
// single spaces for `sh -c` (plus " <url>"), so a quoted word may hold spaces.
const clientCommand = ['exec', ...[opts.command, ...opts.args].map(shellWord)].join(' ');

/** Why the client command cannot run at all, or undefined (only checked for a path). */
function commandProblem() {
    if (!opts.command.includes('/')) return undefined; // looked up in PATH by the shell
    try {
        fs.accessSync(opts.command, fs.constants.X_OK);
        if (fs.statSync(opts.command).isDirectory()) return `${opts.command} is a directory`;
        return undefined;
    } catch (err) {
        return `cannot run ${opts.command}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`;
    }
}

/** The last lines of a file the suite wrote beside checks.json, as `#   ` lines. */
function fileTail(dir, name, max = 20) {
    let text;
    try {
        text = fs.readFileSync(path.join(dir, name), 'utf8');
    } catch {
        return [];
    }
    const t = new Tail(max);
    t.push(text);
    const body = t.text();
    return body ? [`#   client ${name.replace('.txt', '')} (last lines):`, ...body.split('\n').map(l => `#     ${l}`)] : [];
}

// ------------------------------------------------------------- the suite
async function runScenario(scenario) {
    const outDir = run.scenarioDir(scenario);
    const timeoutMs = Math.min(opts.scenarioTimeout * 1000, run.remainingMs());
    const t0 = Date.now();
    const r = await run.cli(
        ['client', '--command', clientCommand, '--scenario', scenario, '--timeout', String(opts.timeoutMs), '-o', outDir],
        timeoutMs,
        { cwd: process.cwd() }
    );
    const secs = ((Date.now() - t0) / 1000).toFixed(1);
    const t = tallyChecks(outDir);
    // What the suite printed about the client (on its stderr, before the check table).
    const clientTimedOut = /^Client timed out after \d+ms/m.test(r.text);
    const exited = /^Client exited with code (-?\d+)/m.exec(r.text);
    const clientError = exited && !ALLOW_CLIENT_ERROR.has(scenario);
    const problems = [];
    if (!t.file) {
        problems.push(
            r.timedOut
                ? `no checks.json: killed after ${secs} s (scenario timeout or whole-run deadline)`
                : `no checks.json: the suite exited with ${r.code ?? r.signal}`
        );
    } else if (t.checks && !t.checks.some(c => c?.status === 'SUCCESS' || c?.status === 'FAILURE')) {
        problems.push('no SUCCESS or FAILURE check was recorded: the client never did what the scenario checks');
    }
    if (clientTimedOut) problems.push(`the suite reports: client timed out (killed after --timeout ${opts.timeoutMs} ms)`);
    if (clientError) problems.push(`the suite reports: client exited with code ${exited[1]}`);
    if (t.file && r.timedOut) problems.push(`the suite was killed after ${secs} s (scenario timeout or whole-run deadline)`);
    if (t.checks && r.code !== 0 && !r.timedOut && t.fail === 0 && t.warn === 0 && !clientTimedOut && !exited) {
        problems.push(`the suite exited with ${r.code ?? r.signal} without a FAILURE or WARNING check or a client error`);
    }
    const fail = t.fail + (problems.length > 0 ? 1 : 0);
    const lines = [...t.lines, ...problems.map(p => `    - (client): ${p}`)];
    if (exited && !clientError) lines.push(`#   the client exited with code ${exited[1]} (allowed in this scenario)`);
    if (r.leftovers) lines.push('#   processes of the run were still alive when the suite exited (killed)');
    if (fail > 0) {
        if (t.file) {
            const dir = path.dirname(t.file);
            lines.push(...fileTail(dir, 'stderr.txt'), ...fileTail(dir, 'stdout.txt'));
        } else if (r.out) lines.push(r.out.split('\n').map(l => `#   ${l}`).join('\n'));
    }
    run.report(scenario, { ok: fail === 0, pass: t.pass, fail, warn: t.warn, lines });
}

// ------------------------------------------------------------------- main
async function main() {
    const known = await run.listScenarios('client');
    for (const n of [...opts.only, ...opts.skip]) {
        if (!known.includes(n)) {
            killGroupsNow();
            usageError(`unknown scenario ${n}; the suite has: ${known.join(' ')}`);
        }
    }
    let scenarios = opts.only.length ? known.filter(s => opts.only.includes(s)) : DEFAULT_SCENARIOS;
    scenarios = scenarios.filter(s => !opts.skip.includes(s));
    if (scenarios.length === 0) {
        killGroupsNow();
        usageError('no scenario selected');
    }

    const problem = commandProblem();
    if (problem) await run.finish(problem);
    const resultsDir = run.useResults(opts.results, 'caduceus-conformance-client-');
    diag(`client: ${clientCommand} <url>; ${scenarios.length} scenario${scenarios.length === 1 ? '' : 's'}, one at a time; results in ${resultsDir}`);

    for (const scenario of scenarios) {
        if (run.finished) await run.finish();
        if (!known.includes(scenario)) {
            run.notRun(scenario, 'the suite does not have this scenario (not 0.1.16?)');
            continue;
        }
        if (run.remainingMs() <= 1000) {
            run.notRun(scenario, `whole-run deadline (${opts.totalTimeout} s) reached`);
            continue;
        }
        await runScenario(scenario);
    }
    await run.finish();
}

main().catch(err => run.finish(`runner error: ${err?.stack ?? err}`));
