// The command line both reference servers take, everything-server's flags:
//   node SCRIPT [--stdio | --http [HOST:]PORT [--json] [--stateless]]

export function parseServerArgs(argv, script) {
    const opts = { http: undefined, json: false, stateless: false };
    for (let i = 0; i < argv.length; ++i) {
        const arg = argv[i];
        if (arg === '--stdio') continue;
        if (arg === '--json') opts.json = true;
        else if (arg === '--stateless') opts.stateless = true;
        else if (arg === '--http' && i + 1 < argv.length) {
            const address = argv[++i];
            const colon = address.lastIndexOf(':');
            opts.http = { host: colon < 0 ? '127.0.0.1' : address.slice(0, colon), port: Number(address.slice(colon + 1)) };
        } else {
            console.error(`usage: node ${script} [--stdio | --http [HOST:]PORT [--json] [--stateless]]`);
            process.exit(2);
        }
    }
    return opts;
}
