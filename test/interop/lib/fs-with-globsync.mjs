// `fs` as seen by the conformance suite on Node 20 (see node20-compat.mjs):
// all of node:fs, plus a minimal globSync(pattern, { cwd }) that returns the
// paths (relative to cwd, like Node 22's) of the files and directories below
// cwd matching the glob. Supported syntax: `**` (any number of directories),
// `*` (any run of characters except '/'), `?` (one character except '/');
// everything else matches literally. Symbolic links are not followed. That
// covers what the suite asks for (`**/checks.json` under a results folder).

import fs from 'node:fs';
import path from 'node:path';

export * from 'node:fs';

function globToRegExp(glob) {
    let re = '';
    for (let i = 0; i < glob.length; i++) {
        const c = glob[i];
        if (c === '*' && glob[i + 1] === '*') {
            i++;
            if (glob[i + 1] === '/') {
                i++;
                re += '(?:.*/)?'; // "**/": zero or more whole directories
            } else {
                re += '.*';
            }
        } else if (c === '*') {
            re += '[^/]*';
        } else if (c === '?') {
            re += '[^/]';
        } else {
            re += c.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
        }
    }
    return new RegExp(`^${re}$`);
}

function walk(root, rel, out) {
    let entries;
    try {
        entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch {
        return; // unreadable or vanished directory: nothing below it matches
    }
    for (const entry of entries) {
        const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
        out.push(child);
        if (entry.isDirectory()) walk(root, child, out);
    }
}

export function globSync(pattern, options = {}) {
    const cwd = options.cwd === undefined ? process.cwd() : String(options.cwd);
    const patterns = (Array.isArray(pattern) ? pattern : [pattern]).map(p => globToRegExp(String(p).replace(/\\/g, '/')));
    const all = [];
    walk(cwd, '', all);
    return all.filter(p => patterns.some(re => re.test(p))).map(p => p.split('/').join(path.sep));
}

if (typeof fs.globSync !== 'function') fs.globSync = globSync;
export default fs;
