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
// The default scenarios run ONE AT A TIME, each in its own `conformance
// client --command CMD --scenario NAME --timeout MS -o DIR` process, with a
// hard timeout (--scenario-timeout). A selection the suite's CLI can name
// itself runs in ONE CLI process instead (a start of the CLI costs ~1.4 s of
// CPU, more than most scenarios), which runs its scenarios all at once:
// `--scenario 'auth/*'` alone as `--suite auth` (14 of the 22; the other 8
// then run one at a time), and the two below (--suite next); that process is
// bounded like one scenario. Either way the suite writes
// DIR/<scenario>-<time>/checks.json per scenario (the folder name says which),
// and it is counted: SUCCESS = passed, FAILURE = failed, WARNING printed but
// not counted, INFO ignored. A scenario counts 1 more failed when the client
// timed out (the suite stopped it after --timeout) or exited with an error
// (except in the scenarios where the suite allows that, its allowClientError
// ones, ALLOW_CLIENT_ERROR below), when no checks.json appears, when no
// SUCCESS or FAILURE check was recorded (the client never did what the
// scenario checks), or when the scenario's own CLI process exits non-zero
// without saying why; a one-process run whose CLI exits non-zero with no
// failed scenario counts 1 failed as a `(suite run)` line. Running many
// scenarios at once has not made the timing-sensitive `sse-retry` (a 450-700
// ms reconnection window; in the 2025-11-25 set) fail: it passed in every
// such run on 2 cores, also with three runs side by side.
//
// Each word of the command is shell-quoted, and the suite runs it (with
// `exec`) through lib/client-exit.sh, which records how the client ended in
// a file per scenario (a run of many scenarios at once does not say which
// client an exit belongs to) and passes the suite's SIGTERM on timeout on to
// the client; it runs in the current directory with our environment.
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
// 7 others). The whole set runs in one `conformance client --command CMD
// --requirements V --timeout MS -o DIR` process, which also runs the set's
// not-scored scenarios: each gets a `# not counted: ...` line and counts for
// nothing. A narrowed set runs one `conformance client --command CMD
// --scenario NAME --spec-version V --force --timeout MS -o DIR` process per
// scenario (the wire and membership of `--requirements V`), the not-scored
// ones named in a `#` line and not run; `--spec-version extension
// --scenario 'auth/*'` runs in one `--suite extensions` process. The suite
// sets MCP_CONFORMANCE_PROTOCOL_VERSION (= V) and MCP_CONFORMANCE_CONTEXT for
// the client itself. SKIPPED checks are not counted. --spec-version may be
// repeated: each version is counted on its own, its scenario lines read
// `ok|FAIL V NAME: ...`, and the run ends with one line per version,
// `conformance-client V: N passed, M failed`; exit 0 iff every version has
// M == 0 and N >= its --min-passed.
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
//   --scenario-timeout S    hard timeout per scenario, and of a run of many
//                           at once (default: the client timeout + 30 s)
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
// The scenarios whose client may exit with an error: the suite's
// allowClientError ones, per suite (read from the pinned bundles; a run of
// many scenarios in one suite process does not tell them).
const ALLOW_CLIENT_ERROR = {
    legacy: new Set(['auth/scope-retry-limit', 'auth/resource-mismatch']),
    next: new Set([
        'auth/scope-retry-limit',
        'auth/resource-mismatch',
        'auth/iss-supported-missing',
        'auth/iss-wrong-issuer',
        'auth/iss-unexpected',
        'auth/iss-normalized',
        'auth/metadata-issuer-mismatch',
        'http-invalid-tool-headers',
        'sep-2640-client-verify-digest',
        'sep-2640-client-verify-size',
        'sep-2640-client-verify-frontmatter'
    ])
};
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
const { ConformanceRun, SUITE_NEXT_CLI, Tail, diag, excerpt, killGroupsNow, killedWhy, scenarioLabel, tallyChecks } = await import('./lib.mjs');

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

const CLIENT_EXIT = path.join(HERE, 'lib', 'client-exit.sh');
const userCommand = [opts.command, ...opts.args].map(shellWord).join(' ');

/**
 * The --command for the suite: the client run through lib/client-exit.sh,
 * which records how it ended in `statusDir` (read by clientEnd). The suite
 * splits --command at single spaces and joins the words again with single
 * spaces for `sh -c` (plus " <url>"), so a quoted word may hold spaces;
 * `exec` makes the suite's SIGTERM on timeout reach client-exit.sh, which
 * passes it on to the client.
 */
const clientCommand = statusDir => `exec /bin/sh ${shellWord(CLIENT_EXIT)} ${shellWord(statusDir)} ${userCommand}`;

/** How the client of `scenario` ended, as client-exit.sh wrote it: { timedOut, code } (code undefined: no record). */
function clientEnd(statusDir, scenario) {
    let text = '';
    try {
        text = fs.readFileSync(path.join(statusDir, `${scenario}.exit`), 'utf8');
    } catch {
        /* no record: the run was killed before the client ended, or never started it */
    }
    const m = /^(timeout )?(\d+)$/.exec(text.trim());
    return { timedOut: !!m?.[1], code: m ? Number(m[2]) : undefined };
}

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
/**
 * Reports a scenario from its checks.json tally `t`, how its client ended
 * (`end`, clientEnd) and `problems`: what its CLI run did wrong. Adds the
 * scenario's own: no SUCCESS or FAILURE check, a client that timed out or
 * exited with an error the scenario does not allow. Any problem is 1 more
 * failed. A failed scenario shows the client's stderr and stdout (kept
 * beside checks.json), or `out` (CLI output) when there is no checks.json;
 * `notes` are more `#` lines. Returns whether it failed.
 */
function reportScenario(label, scenario, t, end, { problems: runProblems = [], notes = [], out }) {
    const allowed = ALLOW_CLIENT_ERROR[opts.suite].has(scenario);
    const clientError = !end.timedOut && end.code > 0;
    const problems = [...runProblems];
    if (t.checks && !t.checks.some(c => c?.status === 'SUCCESS' || c?.status === 'FAILURE')) {
        problems.push('no SUCCESS or FAILURE check was recorded: the client never did what the scenario checks');
    }
    if (end.timedOut) problems.push(`the client timed out (the suite stopped it after --timeout ${opts.timeoutMs} ms)`);
    if (clientError && !allowed) problems.push(`the client exited with code ${end.code}`);
    const fail = t.fail + (problems.length > 0 ? 1 : 0);
    const lines = [...t.lines, ...problems.map(p => `    - (client): ${p}`)];
    if (clientError && allowed) lines.push(`#   the client exited with code ${end.code} (allowed in this scenario)`);
    lines.push(...notes);
    if (fail > 0) {
        if (t.file) {
            const dir = path.dirname(t.file);
            lines.push(...fileTail(dir, 'stderr.txt'), ...fileTail(dir, 'stdout.txt'));
        } else if (out) lines.push(out.split('\n').map(l => `#   ${l}`).join('\n'));
    }
    run.report(label, { ok: fail === 0, pass: t.pass, fail, warn: t.warn, skipped: t.skipped, lines });
    return fail > 0;
}

/** The suite stops a client after this. */
const clientTimeout = ['--timeout', String(opts.timeoutMs)];

/** One scenario in a CLI process of its own; `version` = the spec version of `--suite next` (undefined for 0.1.16). */
async function runScenario(scenario, version) {
    const outDir = run.scenarioDir(scenario, version);
    const t0 = Date.now();
    const wire = version && version !== EXTENSION_SET ? ['--spec-version', version, '--force'] : [];
    const r = await run.cli(
        ['client', '--command', clientCommand(outDir), '--scenario', scenario, ...wire, ...clientTimeout, '-o', outDir],
        Math.min(opts.scenarioTimeout * 1000, run.remainingMs()),
        { cwd: process.cwd() }
    );
    const killed = killedWhy(((Date.now() - t0) / 1000).toFixed(1));
    const t = tallyChecks(outDir);
    const end = clientEnd(outDir, scenario);
    const problems = [];
    if (!t.file) problems.push(`no checks.json: ${r.timedOut ? killed : `the suite exited with ${r.code ?? r.signal}`}`);
    else if (r.timedOut) problems.push(`the suite was ${killed}`);
    else if (t.checks && r.code !== 0 && t.fail === 0 && t.warn === 0 && !end.timedOut && !end.code) {
        problems.push(`the suite exited with ${r.code ?? r.signal} without a FAILURE or WARNING check or a client error`);
    }
    const notes = r.leftovers ? ['#   processes of the run were still alive when the suite exited (killed)'] : [];
    reportScenario(scenarioLabel(scenario, version), scenario, t, end, { problems, notes, out: r.out });
}

/**
 * The CLI's own name for (part of) the selection of `pass`, or undefined
 * when it has none: `--requirements V` for the whole scored set of V (it
 * runs the not-scored ones too, which are not counted); `--suite auth`
 * (0.1.16: 14 of the 22 OAuth scenarios; the rest run one by one) and
 * `--suite extensions` (the extension set's 6) for `--scenario 'auth/*'`
 * alone.
 */
function batchSelection({ version }) {
    const authOnly = opts.only.length === 1 && opts.only[0] === 'auth/*' && opts.skip.length === 0;
    if (!version) return authOnly ? ['--suite', 'auth'] : undefined;
    if (version === EXTENSION_SET) return authOnly ? ['--suite', 'extensions'] : undefined;
    return opts.only.length || opts.skip.length ? undefined : ['--requirements', version];
}

/**
 * Runs what the CLI can name of `pass` in ONE suite process, which runs its
 * scenarios all at once, and reports each scenario of the pass it ran, in
 * the order of the pass; the run is bounded like one scenario
 * (--scenario-timeout). Returns the scenarios it did not start: those run
 * one by one afterwards.
 */
async function runBatch(pass) {
    const selection = batchSelection(pass);
    if (!selection || run.remainingMs() <= 1000) return pass.scenarios;
    const dir = run.freshDir('+batch', pass.version);
    const exitDir = run.freshDir('+client-exit', pass.version);
    const args = ['client', '--command', clientCommand(exitDir), ...selection, ...clientTimeout, '-o', dir];
    const b = await run.batch(args, dir, {
        timeoutMs: Math.min(opts.scenarioTimeout * 1000, run.remainingMs()),
        startLine: /^Starting scenario: (\S+)$/,
        cwd: process.cwd()
    });
    if (b.r.leftovers) diag('processes of the one-process run were still alive when the suite exited (killed)');
    return run.reportBatch(b, pass, (scenario, o) => {
        const failed = reportScenario(scenarioLabel(scenario, pass.version), scenario, o.t, clientEnd(exitDir, scenario), {
            problems: o.noChecks ? [`no checks.json: ${o.noChecks}`] : [],
            out: excerpt(b.r.text, `Starting scenario: ${scenario}`)
        });
        return failed || o.t.warn > 0;
    });
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
    diag(`client: ${userCommand} <url>; ${count} scenario${count === 1 ? '' : 's'}; results in ${resultsDir}`);

    for (const pass of passes) {
        const { version, known } = pass;
        if (version) run.beginPass(pass, batchSelection(pass) !== undefined);
        for (const scenario of await runBatch(pass)) {
            const label = scenarioLabel(scenario, version);
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
        run.endGroup();
    }
    await run.finish();
}

main().catch(err => run.finish(`runner error: ${err?.stack ?? err}`));
