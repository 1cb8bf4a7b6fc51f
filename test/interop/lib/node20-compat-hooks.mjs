// Module resolve hook registered by node20-compat.mjs (runs on the loader
// thread). Redirects `fs` / `node:fs` imported by files of the conformance
// package to fs-with-globsync.mjs; every other import resolves as usual.

const FS_WITH_GLOBSYNC = new URL('./fs-with-globsync.mjs', import.meta.url).href;
const SUITE_DIR = '/node_modules/@modelcontextprotocol/conformance/';

export async function resolve(specifier, context, nextResolve) {
    if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes(SUITE_DIR)) {
        return { url: FS_WITH_GLOBSYNC, shortCircuit: true };
    }
    return nextResolve(specifier, context);
}
