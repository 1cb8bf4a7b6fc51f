"""The servers under test, and the command that starts each in each mode."""

import os
from dataclasses import dataclass

import processes

CADUCEUS = 'caduceus'
TYPESCRIPT = 'typescript'
TYPESCRIPT_V2 = 'typescript-v2'
CEILING = 'ceiling'
ALL = (CADUCEUS, TYPESCRIPT, TYPESCRIPT_V2, CEILING)
MCP_SERVERS = (CADUCEUS, TYPESCRIPT, TYPESCRIPT_V2)

# The reference servers in bench/ts: the TypeScript SDK 1.32.2 and v2.
REFERENCE_SCRIPTS = {TYPESCRIPT: 'reference_server.mjs', TYPESCRIPT_V2: 'reference_server_v2.mjs'}

# The Streamable HTTP modes: the generator's --mode, and the flags the MCP
# servers take for it. Stateless runs with JSON replies on both sides.
HTTP_MODES = {
    'stateful-json': ('HTTP stateful, JSON replies', ['--json']),
    'stateful-sse': ('HTTP stateful, SSE replies', []),
    'stateless': ('HTTP stateless', ['--stateless', '--json']),
}
# The 2026-07-28 era's (no session: every request carries its envelope). One
# input-required unit is a round trip: tools/call answered input_required, then
# its retry with the user's answer.
MODERN_HTTP_MODES = {
    'modern-json': ('HTTP 2026-07-28, tools/call, JSON replies', ['--json']),
    'modern-sse': ('HTTP 2026-07-28, tools/call, SSE replies', []),
    'discover': ('HTTP 2026-07-28, server/discover', ['--json']),
    'input-required': ('HTTP 2026-07-28, input_required round trip (2 POSTs; figures per round trip)', ['--json']),
}


@dataclass(frozen=True)
class Paths:
    bin_dir: str
    ts_dir: str

    def binary(self, name):
        return os.path.join(self.bin_dir, name)

    def reference_server(self, server):
        return ['node', os.path.join(self.ts_dir, REFERENCE_SCRIPTS[server])]


def http_command(server, mode, paths):
    listen = ['--http', '127.0.0.1:0']
    flags = (HTTP_MODES.get(mode) or MODERN_HTTP_MODES[mode])[1]
    if server == CADUCEUS:
        return [paths.binary('everything-server')] + listen + flags
    if server in REFERENCE_SCRIPTS:
        return paths.reference_server(server) + listen + flags
    return [paths.binary('bench-beast-fixed-reply'), '127.0.0.1:0']


def stdio_command(server, paths):
    if server == CADUCEUS:
        return [paths.binary('everything-server'), '--stdio']
    if server in REFERENCE_SCRIPTS:
        return paths.reference_server(server) + ['--stdio']
    return [paths.binary('bench-line-echo')]


def peer(server, over_http):
    """What the generator expects of the replies (loadgen/reply_check.hpp)."""
    if server != CEILING:
        return 'mcp'
    return 'fixed' if over_http else 'echo'


class HttpServer:
    """A server listening on 127.0.0.1, pinned to the server core, for a `with` block."""

    def __init__(self, command):
        self.command = command

    def __enter__(self):
        self.process = processes.start(processes.pinned(processes.SERVER_CORE, self.command))
        self.url = processes.read_first_line(self.process, timeout=30)
        if not self.url or not self.url.startswith('http://'):
            errors = processes.stop(self.process)
            raise RuntimeError(f'{" ".join(self.command)} printed no URL: {errors[-2000:]}')
        self.pid = self.process.pid  # taskset has exec'd the server by now: same process
        return self

    def __exit__(self, *_):
        processes.stop(self.process)
