// Module resolve hook registered by node20-compat.mjs (runs on the loader
// thread). Redirects `fs` / `node:fs` imported by files of the conformance
// package (0.1.16 under its own name, 0.2.0-alpha under the npm alias
// `conformance-next`) to fs-with-globsync.mjs; every other import resolves
// as usual.

const FS_WITH_GLOBSYNC = new URL('./fs-with-globsync.mjs', import.meta.url).href;
const SUITE_DIRS = ['/node_modules/@modelcontextprotocol/conformance/', '/node_modules/conformance-next/'];

export async function resolve(specifier, context, nextResolve) {
    if ((specifier === 'fs' || specifier === 'node:fs') && SUITE_DIRS.some(d => context.parentURL?.includes(d))) {
        return { url: FS_WITH_GLOBSYNC, shortCircuit: true };
    }
    return nextResolve(specifier, context);
}
