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
// With `--suite next` the suite is 0.2.0-alpha.12 (node_modules/
// conformance-next) and the scenarios are the SCORED client scenarios of its
// requirement set for `--spec-version V` (`list --client --requirements V`;
// 32 at 2026-07-28, the `auth/*` ones included: `--skip 'auth/*'` leaves the
// 7 others), each run as `conformance client --command CMD --scenario NAME
// --spec-version V --force --timeout MS -o DIR`; the suite sets
// MCP_CONFORMANCE_PROTOCOL_VERSION (= V) and MCP_CONFORMANCE_CONTEXT for the
// client itself. SKIPPED checks are not counted; a client error exit counts
// when the suite says "CLIENT EXITED WITH ERROR" (it does not for its
// allowClientError scenarios). --spec-version may be repeated: each version
// is counted on its own, its scenario lines read `ok|FAIL V NAME: ...`, and
// the run ends with one line per version, `conformance-client V: N passed,
// M failed`; exit 0 iff every version has M == 0 and N >= its --min-passed.
//
// Options:
//   --scenario NAME         run this client scenario (repeatable; default: the
//                           four non-auth ones; NAME may be a glob with `*`,
//                           e.g. 'auth/*')
//   --skip NAME             do not run this scenario (repeatable; glob too)
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
//   --suite next            run conformance 0.2.0-alpha.12 instead of 0.1.16
//   --spec-version V        (--suite next) the requirement set: 2026-07-28
//                           (default) or 2025-11-25; or `extension`: the
//                           scenarios of the official extensions (`list
//                           --client` tags them [extension]; not scored by
//                           the suite, run at its default wire); repeatable
//   --min-passed V=K        (--suite next) minimum for version V (repeatable);
//                           a plain K applies to every version without V=K;
//                           default: what the TypeScript reference client
//                           scores on the full set (2026-07-28: 402,
//                           2025-11-25: 238), 0 with --scenario / --skip

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
    EXTENSION_SET,
    SUITE_PACKAGES,
    commonOptions,
    isGlob,
    parseCommandLine,
    resolveSuiteOptions,
    selectScenarios,
    unmatchedPatterns
} from './lib/command-line.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SUMMARY = 'conformance-client';
const DEFAULT_SCENARIOS = ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'];
const DEFAULT_MIN_PASSED = 10; // 1 + 1 + 5 + 3 checks: what the TS reference client scores on them
// scenarios whose client may exit with an error (the suite's allowClientError)
// (0.1.16; with --suite next the suite's "CLIENT EXITED WITH ERROR" line decides)
const ALLOW_CLIENT_ERROR = new Set(['auth/scope-retry-limit', 'auth/resource-mismatch']);
// what the TypeScript reference client (SDK 2.4) scores on the scored set of each version (--suite next)
const NEXT_REFERENCE_PASSED = { '2026-07-28': 402, '2025-11-25': 238 };

const USAGE = `usage: node conformance_client.mjs [--scenario NAME]... [--skip NAME]... [--min-passed K]
         [--timeout MS] [--scenario-timeout S] [--total-timeout S] [--results DIR]
         [--suite next [--spec-version V]... [--min-passed V=K]...]
         [--] <client-command> [args...]
The suite runs the command with the mock server's URL appended, the scenario in MCP_CONFORMANCE_SCENARIO.
--suite next: conformance 0.2.0-alpha.12, the scored client scenarios of --spec-version
2026-07-28 (default) and/or 2025-11-25; NAME may be a glob: --skip 'auth/*'.`;

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
    const filtered = o.only.length > 0 || o.skip.length > 0;
    resolveSuiteOptions(o, usageError, {
        defaultMinPassed: v => (filtered ? 0 : NEXT_REFERENCE_PASSED[v] ?? 0),
        extensions: true
    });
    if (o.minPassed === undefined) o.minPassed = filtered ? 0 : DEFAULT_MIN_PASSED;
    if (o.scenarioTimeout === undefined) o.scenarioTimeout = Math.ceil(o.timeoutMs / 1000) + 30;
    return o;
}

const opts = parseArgs(process.argv.slice(2));
const NEXT = opts.suite === 'next';
// checked before lib.mjs is loaded: it imports the SDK from the same node_modules
for (const pkg of NEXT ? [SUITE_PACKAGES.legacy, SUITE_PACKAGES.next] : [SUITE_PACKAGES.legacy]) {
    if (!fs.existsSync(path.join(HERE, 'node_modules', ...pkg, 'dist', 'index.js'))) {
        console.error(`conformance_client.mjs: node_modules is missing (or lacks ${pkg.join('/')}): run (cd ${HERE} && npm ci)`);
        process.exit(2);
    }
}
const { ConformanceRun, SUITE_NEXT_CLI, Tail, diag, killGroupsNow, tallyChecks } = await import('./lib.mjs');

// ------------------------------------------------------------ bookkeeping
const run = new ConformanceRun({
    summary: SUMMARY,
    minPassed: opts.minPassed,
    totalTimeout: opts.totalTimeout,
    ...(NEXT ? { suiteCli: SUITE_NEXT_CLI } : {})
});
run.installHandlers();
if (NEXT) run.defineGroups(opts.specVersions.map(v => ({ name: v, minPassed: opts.minPassedBy[v] })));

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
/** One scenario; `version` = the spec version of `--suite next` (undefined for 0.1.16). */
async function runScenario(scenario, version) {
    const outDir = run.scenarioDir(scenario, version);
    const timeoutMs = Math.min(opts.scenarioTimeout * 1000, run.remainingMs());
    const t0 = Date.now();
    const wire = version && version !== EXTENSION_SET ? ['--spec-version', version, '--force'] : [];
    const r = await run.cli(
        ['client', '--command', clientCommand, '--scenario', scenario, ...wire, '--timeout', String(opts.timeoutMs), '-o', outDir],
        timeoutMs,
        { cwd: process.cwd() }
    );
    const secs = ((Date.now() - t0) / 1000).toFixed(1);
    const t = tallyChecks(outDir);
    // What the suite printed about the client (on its stderr, before the check table).
    const clientTimedOut = /^Client timed out after \d+ms/m.test(r.text);
    const exited = /^Client exited with code (-?\d+)/m.exec(r.text);
    // 0.2: the suite says so itself, except for its allowClientError scenarios (and
    // not when the client timed out, which counts already)
    const clientError =
        exited && (version ? clientTimedOut || /CLIENT EXITED WITH ERROR/.test(r.text) : !ALLOW_CLIENT_ERROR.has(scenario));
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
    run.report(version ? `${version} ${scenario}` : scenario, { ok: fail === 0, pass: t.pass, fail, warn: t.warn, skipped: t.skipped, lines });
}

// ------------------------------------------------------------------- main
/**
 * The passes of the run: [{ version, known, scenarios, notScored }], one per
 * --spec-version of `--suite next` (its scored client scenarios, narrowed by
 * --scenario / --skip), or one with version undefined for 0.1.16 (`known` =
 * `list --client`; the four default scenarios unless --scenario is given).
 */
async function plan() {
    const passes = [];
    if (NEXT) {
        for (const version of opts.specVersions) {
            const { scored, notScored } =
                version === EXTENSION_SET
                    ? { scored: await run.listScenarios('client', EXTENSION_SET), notScored: [] }
                    : await run.listRequirements('client', version);
            passes.push({ version, known: scored, notScored, scenarios: selectScenarios(scored, opts.only, opts.skip) });
        }
    } else {
        const known = await run.listScenarios('client');
        const base = opts.only.length ? selectScenarios(known, opts.only, []) : DEFAULT_SCENARIOS;
        passes.push({ version: undefined, known, notScored: [], scenarios: selectScenarios(base, [], opts.skip) });
    }
    const every = [...new Set(passes.flatMap(p => p.known))];
    const unknown = unmatchedPatterns([...opts.only, ...opts.skip], every);
    if (unknown.length) {
        killGroupsNow();
        const n = unknown[0];
        usageError(`${isGlob(n) ? `no scenario matches ${n}` : `unknown scenario ${n}`}; the suite has: ${every.join(' ')}`);
    }
    if (passes.every(p => p.scenarios.length === 0)) {
        killGroupsNow();
        usageError('no scenario selected');
    }
    return passes;
}

async function main() {
    const passes = await plan();

    const problem = commandProblem();
    if (problem) await run.finish(problem);
    const resultsDir = run.useResults(opts.results, 'caduceus-conformance-client-');
    const count = passes.reduce((n, p) => n + p.scenarios.length, 0);
    diag(`client: ${clientCommand} <url>; ${count} scenario${count === 1 ? '' : 's'}, one at a time; results in ${resultsDir}`);

    for (const { version, known, scenarios, notScored } of passes) {
        if (version) {
            run.beginGroup(version);
            const skipped = notScored.length ? `; not scored, not run: ${notScored.map(n => `${n.name} (${n.reason})`).join(', ')}` : '';
            const what = version === EXTENSION_SET ? 'extension scenarios (not scored by the suite)' : `scored scenarios at the ${version} wire`;
            diag(`--- ${version}: ${scenarios.length} ${what}${skipped}`);
        }
        for (const scenario of scenarios) {
            const label = version ? `${version} ${scenario}` : scenario;
            if (run.finished) await run.finish();
            if (!known.includes(scenario)) {
                run.notRun(label, 'the suite does not have this scenario (not 0.1.16?)');
                continue;
            }
            if (run.remainingMs() <= 1000) {
                run.notRun(label, `whole-run deadline (${opts.totalTimeout} s) reached`);
                continue;
            }
            await runScenario(scenario, version);
        }
        if (version) run.endGroup();
    }
    await run.finish();
}

main().catch(err => run.finish(`runner error: ${err?.stack ?? err}`));
