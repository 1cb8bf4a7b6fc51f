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
// 0.1.16, the two "pending" ones included). Unless --scenario / --skip
// narrow it, they all run in ONE `conformance server --url URL --suite all
// -o DIR` process (a start of the suite's CLI costs ~1.4 s of CPU, more than
// most scenarios); a narrowed list runs one `conformance server --url URL
// --scenario NAME -o DIR` process per scenario. Either way the suite writes
// DIR/[server-]<scenario>-<time>/checks.json per scenario (the folder name
// says which), and it is counted: SUCCESS = passed, FAILURE = failed,
// WARNING / INFO are not counted (as in the suite's own totals). A scenario
// without checks.json (crash, timeout), or whose own CLI process exits
// non-zero without a FAILURE check, counts as 1 failed; so does a one-process
// run whose CLI exits non-zero with no failed scenario (a `(suite run)`
// line). A scenario that outlasts --scenario-timeout is killed (in a
// one-process run with the process; the scenarios it had not started then run
// one per process); once the server has died, every scenario not started yet
// counts as 1 failed without running.
//
// Output: one `ok|FAIL <scenario>: a passed, b failed[, w warnings]` line per
// scenario, followed by its failing checks (`    - id: message`) and warnings
// (`    ~ id: message`); diagnostics start with `#`; the last line is
// `conformance-server: N passed, M failed`. Exit 0 iff M == 0 and
// N >= --min-passed; 1 otherwise; 2 on a usage error. The server and any CLI
// child are killed on every exit path (their process groups).
//
// With `--suite next` the suite is 0.2.0-alpha.12 (node_modules/
// conformance-next) and the scenarios are the SCORED server scenarios of its
// requirement set for each `--spec-version V` (`list --server --requirements
// V`). The whole set runs in one `conformance server --url URL --requirements
// V --timeout MS -o DIR` process, which also runs the set's not-scored
// extension / pending / added-after-release scenarios: each gets a `# not
// counted: ...` line and counts for nothing. A narrowed set (and the
// extension set) runs one `conformance server --url URL --scenario NAME
// --spec-version V --force --timeout MS -o DIR` process per scenario (the
// wire and membership of `--requirements V`), the not-scored ones named in a
// `#` line and not run. SKIPPED checks are not counted either. One server
// process serves every version; the versions run one after the other, in the
// order given, each counted on its own: its scenario lines read `ok|FAIL V
// NAME: ...`, and the run ends with one line per version,
// `conformance-server V: N passed, M failed`. Exit 0 iff every version has
// M == 0 and N >= its --min-passed.
//
// Options:
//   --min-passed K          minimum number of passed checks (default 47: all
//                           of them; the TypeScript reference server scores 44)
//   --scenario NAME         run only this scenario (repeatable; NAME may be a
//                           glob with `*`, e.g. 'tools-*')
//   --skip NAME             do not run this scenario (repeatable; glob too)
//   --scenario-timeout S    timeout per scenario (default 75: longer than the
//                           TS SDK's 60 s request timeout, so a hanging
//                           request is reported by the suite itself); 0.1.16:
//                           its CLI process is killed then; 0.2: passed as
//                           the suite's --timeout (a `scenario-timeout`
//                           FAILURE), the process is killed 10 s later
//   --total-timeout S       bound of the whole run (default 600); scenarios
//                           not run by then count as 1 failed each
//   --startup-timeout S     wait for the URL line (default 10)
//   --results DIR           keep the suite's output under DIR (default: a
//                           temporary folder, removed when everything passed)
//   --suite next            run conformance 0.2.0-alpha.12 instead of 0.1.16
//   --spec-version V        (--suite next) the requirement set: 2026-07-28
//                           (default) or 2025-11-25; or `extension`: the
//                           scenarios of the official extensions (`list
//                           --server` tags them [extension]; not scored by
//                           the suite, run at its default wire); repeatable
//   --min-passed V=K        (--suite next) minimum for version V (repeatable);
//                           a plain K applies to every version without V=K;
//                           default: what the TypeScript reference server
//                           scores on the full set (2026-07-28: 120,
//                           2025-11-25: 70), 0 with --scenario / --skip

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
const SUMMARY = 'conformance-server';
// what the TypeScript reference server (SDK 2.4) scores on the scored set of each version (--suite next)
const NEXT_REFERENCE_PASSED = { '2026-07-28': 120, '2025-11-25': 70 };

const USAGE = `usage: node conformance_server.mjs [--min-passed K] [--scenario NAME]... [--skip NAME]...
         [--scenario-timeout S] [--total-timeout S] [--startup-timeout S] [--results DIR]
         [--suite next [--spec-version V]... [--min-passed V=K]...]
         [--] <server-command> [args...]
The server must print its URL (e.g. http://127.0.0.1:PORT/mcp) as the first line of stdout.
--suite next: conformance 0.2.0-alpha.12, the scored server scenarios of --spec-version
2026-07-28 (default) and/or 2025-11-25, each version counted and summarised on its own;
--spec-version extension: the scenarios of the official extensions (not scored by the suite).`;

// ------------------------------------------------------------------ options
function usageError(msg) {
    console.error(`conformance_server.mjs: ${msg}`);
    console.error(USAGE);
    process.exit(2);
}

function parseArgs(argv) {
    const o = parseCommandLine(argv, {
        defaults: { only: [], skip: [], scenarioTimeout: 75, totalTimeout: 600, startupTimeout: 10 },
        options: { ...commonOptions, '--startup-timeout': { key: 'startupTimeout', kind: 'number' } },
        usage: USAGE,
        usageError,
        resolve: p => path.resolve(p),
        commandName: 'server-command'
    });
    const filtered = o.only.length > 0 || o.skip.length > 0;
    resolveSuiteOptions(o, usageError, {
        defaultMinPassed: v => (filtered ? 0 : NEXT_REFERENCE_PASSED[v] ?? 0),
        extensions: true
    });
    if (o.minPassed === undefined) o.minPassed = 47;
    return o;
}

const opts = parseArgs(process.argv.slice(2));
const NEXT = opts.suite === 'next';
// checked before lib.mjs is loaded: it imports the SDK from the same node_modules
for (const pkg of NEXT ? [SUITE_PACKAGES.legacy, SUITE_PACKAGES.next] : [SUITE_PACKAGES.legacy]) {
    if (!fs.existsSync(path.join(HERE, 'node_modules', ...pkg, 'dist', 'index.js'))) {
        console.error(`conformance_server.mjs: node_modules is missing (or lacks ${pkg.join('/')}): run (cd ${HERE} && npm ci)`);
        process.exit(2);
    }
}
const { ConformanceRun, SUITE_NEXT_CLI, Tail, diag, excerpt, killGroup, killGroupsNow, killedWhy, scenarioLabel, spawnGroup, tallyChecks } =
    await import('./lib.mjs');

// ------------------------------------------------------------ bookkeeping
const run = new ConformanceRun({
    summary: SUMMARY,
    minPassed: opts.minPassed,
    totalTimeout: opts.totalTimeout,
    ...(NEXT ? { suiteCli: SUITE_NEXT_CLI } : {})
});
run.installHandlers();
if (NEXT) run.defineGroups(opts.specVersions.map(v => ({ name: v, minPassed: opts.minPassedBy[v] })));
let server; // { child, exited, exitInfo, stderrTail, stdoutTail }

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
        run.killAtEnd(child); // its whole group, even if the command itself is gone
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
// 0.2's CLI ends a scenario itself after its --timeout (a `scenario-timeout`
// FAILURE check); it is killed only if it overruns that by this much.
const SUITE_TIMEOUT_GRACE_MS = 10_000;
const killAfterMs = opts.scenarioTimeout * 1000 + (NEXT ? SUITE_TIMEOUT_GRACE_MS : 0);
const suiteTimeout = NEXT ? ['--timeout', String(opts.scenarioTimeout * 1000)] : [];

/**
 * Reports a scenario from its tally `t`: `noChecks` says why there is no
 * checks.json, if there is none; `cliProblem` is what its CLI run did wrong,
 * 1 failed when no check failed; `out` is CLI output shown when there is no
 * checks.json.
 */
function reportScenario(label, t, { noChecks, cliProblem, out }) {
    if (!t.file) {
        t.fail++;
        t.lines.push(`    - (no checks.json): ${noChecks}`);
    }
    if (t.checks && cliProblem && t.fail === 0) {
        t.fail++;
        t.lines.push(`    - (cli): ${cliProblem}`);
    }
    if (t.fail > 0 && !t.checks && out) t.lines.push(out.split('\n').map(l => `#   ${l}`).join('\n'));
    run.report(label, { ok: t.fail === 0, pass: t.pass, fail: t.fail, warn: t.warn, skipped: t.skipped, lines: t.lines });
}

/** One scenario in a CLI process of its own; `version` = the spec version of `--suite next` (undefined for 0.1.16). */
async function runScenario(scenario, url, version) {
    const outDir = run.scenarioDir(scenario, version);
    const t0 = Date.now();
    const wire = version === EXTENSION_SET ? [] : ['--spec-version', version, '--force'];
    const args = version
        ? ['server', '--url', url, '--scenario', scenario, ...wire, ...suiteTimeout, '-o', outDir]
        : ['server', '--url', url, '--scenario', scenario, '-o', outDir];
    const r = await run.cli(args, Math.min(killAfterMs, run.remainingMs()));
    const exit = r.timedOut ? 'was killed (timeout)' : `exited with ${r.code ?? r.signal}`;
    reportScenario(scenarioLabel(scenario, version), tallyChecks(outDir), {
        noChecks: r.timedOut ? killedWhy(((Date.now() - t0) / 1000).toFixed(1)) : `the suite exited with ${r.code ?? r.signal}`,
        cliProblem: r.code === 0 ? undefined : `the suite ${exit} without a FAILURE check`,
        out: r.out
    });
}

/**
 * The CLI's own name for the selection of `pass` (`--suite all`: every
 * server scenario of 0.1.16; `--requirements V`: the scored ones of V, plus
 * the not-scored ones, which are not counted), or undefined when it has none
 * (--scenario / --skip, the extension set).
 */
function batchSelection({ version }) {
    if (opts.only.length || opts.skip.length || version === EXTENSION_SET) return undefined;
    return version ? ['--requirements', version, ...suiteTimeout] : ['--suite', 'all'];
}

/**
 * Runs `pass` in ONE suite process where the CLI can name its selection,
 * and reports each scenario it ran, in the order of the pass. The run stops
 * before the next scenario once the server has died, and when one scenario
 * takes longer than the per-scenario limit. Returns the scenarios it did not
 * start: those run one by one (or are reported as not run) afterwards.
 */
async function runBatch(pass, url) {
    const selection = batchSelection(pass);
    if (!selection || server.exited || run.remainingMs() <= 1000) return pass.scenarios;
    const dir = run.freshDir('+batch', pass.version);
    const b = await run.batch(['server', '--url', url, ...selection, '-o', dir], dir, {
        timeoutMs: run.remainingMs(),
        startLine: /^=== Running scenario: (\S+) ===$/,
        prefix: 'server-',
        stallMs: killAfterMs,
        stopAt: () => server.exited
    });
    return run.reportBatch(b, pass, (scenario, o) => {
        reportScenario(scenarioLabel(scenario, pass.version), o.t, {
            noChecks: o.noChecks,
            out: excerpt(b.r.text, `=== Running scenario: ${scenario} ===`)
        });
        return o.t.fail > 0;
    });
}

/**
 * The passes of the run: [{ version, scenarios }], one per --spec-version of
 * `--suite next` (its scored server scenarios), or one with version undefined
 * (`list --server` of 0.1.16). --scenario / --skip narrow each; a name or glob
 * that matches no scenario at all is a usage error, as is an empty selection.
 */
async function plan() {
    const passes = [];
    if (NEXT) {
        for (const version of opts.specVersions) {
            const { scored, notScored } =
                version === EXTENSION_SET
                    ? { scored: await run.listScenarios('server', EXTENSION_SET), notScored: [] }
                    : await run.listRequirements('server', version);
            passes.push({ version, all: scored, notScored });
        }
    } else passes.push({ version: undefined, all: await run.listScenarios('server'), notScored: [] });
    const every = [...new Set(passes.flatMap(p => p.all))];
    const unknown = unmatchedPatterns([...opts.only, ...opts.skip], every);
    if (unknown.length) {
        killGroupsNow();
        const n = unknown[0];
        usageError(`${isGlob(n) ? `no scenario matches ${n}` : `unknown scenario ${n}`}; the suite has: ${every.join(' ')}`);
    }
    for (const p of passes) p.scenarios = selectScenarios(p.all, opts.only, opts.skip);
    if (passes.every(p => p.scenarios.length === 0)) usageError('no scenario selected');
    return passes;
}

/** Runs `scenarios` against `url` one by one, counting a scenario the server cannot serve any more as not run. */
async function runScenarios(scenarios, url, version, state) {
    for (const scenario of scenarios) {
        const label = scenarioLabel(scenario, version);
        if (run.finished) await run.finish();
        if (server.exited) {
            if (!state.serverDeathReported) {
                state.serverDeathReported = true;
                diag(`the server is gone:\n${serverDiagnostics()}`);
            }
            run.notRun(label, `the server ${server.exitInfo}`);
            continue;
        }
        if (run.remainingMs() <= 1000) {
            run.notRun(label, `whole-run deadline (${opts.totalTimeout} s) reached`);
            continue;
        }
        await runScenario(scenario, url, version);
    }
}

// ------------------------------------------------------------------- main
async function main() {
    const passes = await plan();

    const { url, error } = await startServer();
    if (error) {
        const d = serverDiagnostics(false);
        await run.finish(`${error}${d ? `\n${d}` : ''}`);
    }
    let parsed;
    try {
        parsed = new URL(url);
    } catch {
        /* handled below */
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol)) {
        await run.finish(`the first stdout line of the server is not an http(s) URL: ${JSON.stringify(url)}`);
    }
    const resultsDir = run.useResults(opts.results, 'caduceus-conformance-');

    const count = passes.reduce((n, p) => n + p.scenarios.length, 0);
    diag(`server: ${url} (pid ${server.child.pid}); ${count} scenarios; results in ${resultsDir}`);

    const state = { serverDeathReported: false };
    for (const pass of passes) {
        if (pass.version) run.beginPass(pass, batchSelection(pass) !== undefined);
        await runScenarios(await runBatch(pass, url), url, pass.version, state);
        run.endGroup();
    }
    const serverDeathReported = state.serverDeathReported;
    if (server.exited && !serverDeathReported) diag(`the server ended during the run:\n${serverDiagnostics()}`);
    else if (run.failed > 0 && !serverDeathReported) {
        const d = server.stderrTail.text();
        if (d) diag(`server stderr (last lines):\n${d}`);
    }
    await stopServer();
    await run.finish();
}

main().catch(err => run.finish(`runner error: ${err?.stack ?? err}`));
