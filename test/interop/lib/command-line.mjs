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

/** The options both conformance wrappers take. */
export const commonOptions = {
    '--min-passed': { key: 'minPassed', kind: 'number' },
    '--scenario': { key: 'only', kind: 'list' },
    '--skip': { key: 'skip', kind: 'list' },
    '--scenario-timeout': { key: 'scenarioTimeout', kind: 'number' },
    '--total-timeout': { key: 'totalTimeout', kind: 'number' },
    '--results': { key: 'results', kind: 'path' }
};
