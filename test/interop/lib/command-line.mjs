// The command line of the conformance wrappers: `[options] [--] COMMAND ARGS...`.
// No dependencies, so a script can read its options before it loads anything
// from node_modules.

/**
 * Parses `argv` into a copy of `defaults` plus `command` and `args`.
 * `options` maps each option to what it sets: `{ key, kind }`, kind being
 * 'number' (non-negative), 'list' (repeatable), or 'path' (made absolute with
 * `resolve`). `usageError(message)` must not return. `-h`/`--help` prints `usage`.
 */
export function parseCommandLine(argv, { defaults, options, usage, usageError, resolve, commandName }) {
    const o = { ...defaults, command: undefined, args: [] };
    for (const { key, kind } of Object.values(options)) if (kind === 'list') o[key] = [...(o[key] ?? [])];
    let i = 0;
    for (; i < argv.length; i++) {
        const a = argv[i];
        if (a === '--') {
            i++;
            break;
        }
        if (a === '-h' || a === '--help') {
            console.log(usage);
            process.exit(0);
        }
        const option = options[a];
        if (!option) {
            if (a.startsWith('--')) usageError(`unknown option ${a}`);
            break;
        }
        if (i + 1 >= argv.length) usageError(`${a} needs a value`);
        const value = argv[++i];
        if (option.kind === 'number') {
            const n = Number(value);
            if (!Number.isFinite(n) || n < 0) usageError(`${a} needs a non-negative number`);
            o[option.key] = n;
        } else if (option.kind === 'list') o[option.key].push(value);
        else if (option.kind === 'path') o[option.key] = resolve(value);
        else o[option.key] = value;
    }
    if (i >= argv.length) usageError(`missing <${commandName}>`);
    o.command = argv[i];
    o.args = argv.slice(i + 1);
    return o;
}

/**
 * The options both conformance wrappers take. `--min-passed` is collected as
 * a list of words and read by resolveSuiteOptions (K, or V=K per spec version).
 */
export const commonOptions = {
    '--min-passed': { key: 'minPassedArgs', kind: 'list' },
    '--scenario': { key: 'only', kind: 'list' },
    '--skip': { key: 'skip', kind: 'list' },
    '--scenario-timeout': { key: 'scenarioTimeout', kind: 'number' },
    '--total-timeout': { key: 'totalTimeout', kind: 'number' },
    '--results': { key: 'results', kind: 'path' },
    '--suite': { key: 'suite', kind: 'string' },
    '--spec-version': { key: 'specVersions', kind: 'list' }
};

// ------------------------------------------------------- the suite to run
// `--suite next` runs @modelcontextprotocol/conformance 0.2.0-alpha.12,
// installed under the npm alias `conformance-next` (package.json), instead
// of 0.1.16: its scored requirement set of each `--spec-version V`.

/** node_modules folder of each suite (under test/interop). */
export const SUITE_PACKAGES = {
    legacy: ['@modelcontextprotocol', 'conformance'],
    next: ['conformance-next']
};

/** The spec versions the alpha suite has a frozen requirement set for. */
export const REQUIREMENT_SETS = ['2026-07-28', '2025-11-25'];
/**
 * `--spec-version extension`: the alpha suite's scenarios of the official
 * extensions (tagged [extension] by `list`; not scored, run at the suite's
 * default wire), where a runner allows it (`extensions: true`).
 */
export const EXTENSION_SET = 'extension';

/**
 * Reads --suite, --spec-version and --min-passed of a parsed command line
 * (parseCommandLine with commonOptions) into:
 *   o.suite        'legacy' (0.1.16, no --suite) or 'next'
 *   o.specVersions [] for legacy; the versions in the order given, no
 *                  duplicates, for next (default: 2026-07-28)
 *   o.minPassed    legacy: the number (last --min-passed K wins), or
 *                  undefined when none was given
 *   o.minPassedBy  next: { V: K } for every selected version; V=K sets one
 *                  version, a plain K every version without a V=K, and
 *                  `defaultMinPassed(V)` gives the rest
 */
export function resolveSuiteOptions(o, usageError, { defaultMinPassed = () => 0, extensions = false } = {}) {
    if (o.suite === undefined || o.suite === 'legacy') o.suite = 'legacy';
    else if (o.suite !== 'next') usageError(`unknown --suite ${o.suite} (only "next": conformance 0.2.0-alpha.12)`);
    const plain = [];
    const byVersion = {};
    for (const w of o.minPassedArgs ?? []) {
        const m = /^([^=]+)=(.*)$/.exec(w);
        const n = Number(m ? m[2] : w);
        if (m ? m[2] === '' || !Number.isFinite(n) || n < 0 : w === '' || !Number.isFinite(n) || n < 0) {
            usageError(m ? `--min-passed ${w}: needs V=K with a non-negative number K` : '--min-passed needs a non-negative number');
        }
        if (m) {
            if (o.suite !== 'next') usageError(`--min-passed ${w}: the V=K form needs --suite next`);
            byVersion[m[1]] = n;
        } else plain.push(n);
    }
    delete o.minPassedArgs;
    if (o.suite === 'legacy') {
        if (o.specVersions.length) usageError('--spec-version needs --suite next (0.1.16 has no requirement sets)');
        o.minPassed = plain.length ? plain[plain.length - 1] : undefined;
        return o;
    }
    if (o.specVersions.length === 0) o.specVersions = [REQUIREMENT_SETS[0]];
    const known = extensions ? [...REQUIREMENT_SETS, EXTENSION_SET] : REQUIREMENT_SETS;
    for (const v of o.specVersions) {
        if (!known.includes(v)) usageError(`--spec-version ${v}: the suite has requirement sets for ${known.join(', ')} only`);
    }
    o.specVersions = [...new Set(o.specVersions)];
    for (const v of Object.keys(byVersion)) {
        if (!o.specVersions.includes(v)) usageError(`--min-passed ${v}=${byVersion[v]}: ${v} is not a selected --spec-version`);
    }
    o.minPassed = undefined;
    o.minPassedBy = {};
    for (const v of o.specVersions) {
        o.minPassedBy[v] = byVersion[v] ?? (plain.length ? plain[plain.length - 1] : defaultMinPassed(v));
    }
    return o;
}

// ------------------------------------------------- scenario name patterns
// --scenario and --skip take a scenario name, or a glob where `*` stands for
// any run of characters (`/` included): `auth/*`, `input-required-*`.

export const isGlob = pattern => pattern.includes('*');

/** Whether `name` matches the name or glob `pattern`. */
export function matchesPattern(name, pattern) {
    if (!isGlob(pattern)) return name === pattern;
    const re = new RegExp(`^${pattern.split('*').map(p => p.replace(/[\\^$.|?+()[\]{}]/g, '\\$&')).join('.*')}$`);
    return re.test(name);
}

/** The patterns of `patterns` that match none of `names`. */
export function unmatchedPatterns(patterns, names) {
    return patterns.filter(p => !names.some(n => matchesPattern(n, p)));
}

/** `names` narrowed to those matching one of `only` (all when empty), minus those matching `skip`. */
export function selectScenarios(names, only, skip) {
    return names.filter(n => (only.length === 0 || only.some(p => matchesPattern(n, p))) && !skip.some(p => matchesPattern(n, p)));
}
