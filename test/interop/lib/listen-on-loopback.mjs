// Makes a Node HTTP server we did not write listen on 127.0.0.1 only, and
// say which port it got. Use as:
//   PORT=0 node --import <this file> .../server-everything/dist/index.js streamableHttp
//
// server-everything calls `app.listen(PORT)`, which binds every interface and
// only logs the PORT it was given (0 for "any free port"). This adds the host
// 127.0.0.1 to a listen() that names a port and no host, and once the server
// listens writes one line to stderr:
//   caduceus-interop: listening on 127.0.0.1:PORT
// A test waits for that line: from then on the server accepts connections,
// and no other process can have taken the port in between.

import fs from 'node:fs';
import net from 'node:net';

const loopback = '127.0.0.1';
const listen = net.Server.prototype.listen;

function isPort(value) {
    return typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value));
}

net.Server.prototype.listen = function (...args) {
    if (isPort(args[0]) && typeof args[1] !== 'string') args.splice(1, 0, loopback);
    this.once('listening', () => {
        const { address, port } = this.address();
        fs.writeSync(2, `caduceus-interop: listening on ${address}:${port}\n`);
    });
    return listen.apply(this, args);
};
