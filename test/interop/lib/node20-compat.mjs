// Lets the conformance suite (@modelcontextprotocol/conformance 0.1.16, and
// 0.2.0-alpha.12 installed as node_modules/conformance-next) load
// on Node 20. Use as:  node --import <this file> .../conformance/dist/index.js
//
// The suite's bundle does `import { globSync, ... } from "fs"` at top level.
// fs.globSync only exists from Node 22, so on Node 20 the whole CLI dies at
// link time with "The requested module 'fs' does not provide an export named
// 'globSync'". Assigning fs.globSync at runtime does not help (the named
// exports of an ESM builtin are fixed when it is first created), so this
// module registers a resolve hook (node20-compat-hooks.mjs) that gives the
// suite's files `fs-with-globsync.mjs` in place of `fs`: every export of the
// real fs plus a small globSync. On a Node that has fs.globSync it does
// nothing. Only `tier-check` (not used by us) ever calls globSync.

import fs from 'node:fs';
import { register } from 'node:module';

if (typeof fs.globSync !== 'function') {
    register(new URL('./node20-compat-hooks.mjs', import.meta.url));
}
