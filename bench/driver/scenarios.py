"""Every scenario of the table, and how it is run against every server.

A scenario's figures come from `profile.runs` runs per server; the servers
take turns run by run, so a drift of the machine touches them all alike."""

import contextlib
import sys
from dataclasses import dataclass

import loadgen
import processes
import servers
from servers import HttpServer

# (row name, field of the generator's result, scale to the unit shown)
LOAD_METRICS = (('req/s', 'per_second', 1), ('server CPU µs/req', 'server_cpu_us_each', 1),
                ('p50 latency µs', 'p50_us', 1), ('p99 latency µs', 'p99_us', 1))
SESSION_METRICS = (('sessions/s', 'per_second', 1), ('KB per idle session', 'rss_bytes_per_session', 1 / 1024))
STARTUP_METRICS = (('ms', 'startup_ms', 1),)
LISTEN_STREAM_METRICS = (('KB per stream', 'rss_bytes_per_stream', 1 / 1024),
                         ('server descriptors per stream', 'server_fds_per_stream', 1))
LISTEN_FANOUT_METRICS = (('ms to the last listener (median change)', 'fanout_last_ms_median', 1),
                         ('ms to the last listener (slowest change)', 'fanout_last_ms_max', 1),
                         ('ms to the median listener (median change)', 'fanout_median_ms_median', 1),
                         ('server CPU µs per delivered notification', 'server_cpu_us_per_notification', 1))

# Sessions (and their memory) are opened over this many connections.
SESSION_CONNECTIONS = 8
# The rate of sessions is measured for this long at most.
SESSIONS_BOUND_SECONDS = 120
# The listen scenario (opening the streams, then the changes) lasts this long at most.
LISTEN_BOUND_SECONDS = 60
LISTEN_STREAMS = 'listen/streams'
LISTEN_FANOUT = 'listen/fanout'
LISTEN_NOTE = ('"—" in a listen row: the TypeScript SDK 1.32.2 does not speak 2026-07-28; the v2 reference server '
               '(bench/ts) holds listen streams, but has no tool that changes its tool list (toggle_bonus), so no '
               'fan-out.')


STDIO_PIPELINED = 'stdio/pipelined'
STDIO_ONE_AT_A_TIME = 'stdio/one-at-a-time'
STDIO_MODERN_PIPELINED = 'stdio/modern-pipelined'
STDIO_MODERN_ONE_AT_A_TIME = 'stdio/modern-one-at-a-time'

# Who serves the 2026-07-28 era: not the TypeScript SDK 1.32.2, and the v2
# reference server has no confirm tool for the input round trip.
MODERN_NOTE = ('"—" in a 2026-07-28 row: the TypeScript SDK 1.32.2 does not speak that era (it answers a '
               'tools/call carrying the envelope as a 2025 request, without `resultType`); the v2 reference '
               'server (bench/ts) has no `confirm` tool for the input_required round trip.')


def modern_servers(mode):
    """The servers of a 2026-07-28 scenario (servers.MODERN_HTTP_MODES, or stdio)."""
    if mode == 'input-required':
        return (servers.CADUCEUS, servers.CEILING)
    return (servers.CADUCEUS, servers.TYPESCRIPT_V2, servers.CEILING)


def ceiling_mode(mode):
    """The ceiling has no sessions: it gets every POST alone, and answers JSON."""
    if mode in servers.MODERN_HTTP_MODES:
        return 'modern-json' if mode == 'modern-sse' else mode
    return 'stateless'


def http_key(mode, connections):
    return f'http/{mode}/{connections}'


@dataclass(frozen=True)
class Scenario:
    key: str
    label: str
    metrics: tuple
    servers: tuple
    note: str = ''  # a footnote of the table, for whom the scenario leaves out


def plan(profile):
    scenarios = []
    for mode, (label, _) in servers.HTTP_MODES.items():
        for connections in profile.connections:
            noun = 'connection' if connections == 1 else 'connections'
            scenarios.append(Scenario(http_key(mode, connections), f'{label}, {connections} {noun}',
                                      LOAD_METRICS, servers.ALL))
    for mode, (label, _) in servers.MODERN_HTTP_MODES.items():
        for connections in profile.connections:
            noun = 'connection' if connections == 1 else 'connections'
            scenarios.append(Scenario(http_key(mode, connections), f'{label}, {connections} {noun}',
                                      LOAD_METRICS, modern_servers(mode), MODERN_NOTE))
    scenarios.append(Scenario(STDIO_PIPELINED, f'stdio, pipelined ({profile.pipeline_window} in flight)',
                              LOAD_METRICS, servers.ALL))
    scenarios.append(Scenario(STDIO_ONE_AT_A_TIME, 'stdio, one request at a time', LOAD_METRICS, servers.ALL))
    scenarios.append(Scenario(STDIO_MODERN_PIPELINED, f'stdio 2026-07-28, pipelined ({profile.pipeline_window} '
                              'in flight)', LOAD_METRICS, modern_servers('stdio'), MODERN_NOTE))
    scenarios.append(Scenario(STDIO_MODERN_ONE_AT_A_TIME, 'stdio 2026-07-28, one request at a time', LOAD_METRICS,
                              modern_servers('stdio'), MODERN_NOTE))
    scenarios.append(Scenario('sessions', f'initialize + initialized, {SESSION_CONNECTIONS} connections; '
                              f'memory after {profile.sessions:,} sessions', SESSION_METRICS, servers.MCP_SERVERS))
    scenarios.append(Scenario('startup', 'spawn to initialize reply (stdio)', STARTUP_METRICS, servers.ALL))
    scenarios.append(Scenario(LISTEN_STREAMS, f'2026-07-28 subscriptions/listen streams held open '
                              f'({profile.listen_streams:,}, a connection each)', LISTEN_STREAM_METRICS,
                              (servers.CADUCEUS, servers.TYPESCRIPT_V2), LISTEN_NOTE))
    scenarios.append(Scenario(LISTEN_FANOUT, f'fan-out of one change to {profile.listen_streams:,} listeners '
                              f'(tools/list_changed; {profile.listen_changes} changes)', LISTEN_FANOUT_METRICS,
                              (servers.CADUCEUS,), LISTEN_NOTE))
    return scenarios


class Runner:
    """Runs scenarios and collects results: results[key][server] is a list of
    the generator's result per run."""

    def __init__(self, profile, paths):
        self.profile = profile
        self.paths = paths
        self.results = {}

    def _record(self, key, server, result):
        self.results.setdefault(key, {}).setdefault(server, []).append(result)
        status = result.get('failed') or f'{result.get("errors", 0)} errors'
        print(f'  {key:28} {server:13} {status}', file=sys.stderr, flush=True)

    def _failed_to_start(self, key, server, error):
        for _ in range(self.profile.runs):
            self._record(key, server, {'failed': str(error)})

    def http(self, mode, serving=servers.ALL):
        p = self.profile
        with contextlib.ExitStack() as stack:
            running = {}
            for server in serving:
                try:
                    command = servers.http_command(server, mode, self.paths)
                    running[server] = stack.enter_context(HttpServer(command))
                except RuntimeError as error:
                    for connections in p.connections:
                        self._failed_to_start(http_key(mode, connections), server, error)
            for connections in p.connections:
                for _ in range(p.runs):
                    for server, listening in running.items():
                        generator_mode = ceiling_mode(mode) if server == servers.CEILING else mode
                        args = ['http', '--url', listening.url, '--mode', generator_mode,
                                '--peer', servers.peer(server, over_http=True),
                                '--connections', str(connections), '--server-pid', str(listening.pid)]
                        result = loadgen.run(self.paths, args + loadgen.limits(p), p.warmup + p.duration)
                        self._record(http_key(mode, connections), server, result)

    def stdio(self, key, window, era='legacy', serving=servers.ALL):
        p = self.profile
        for _ in range(p.runs):
            for server in serving:
                command = servers.stdio_command(server, self.paths)
                args = ['stdio', '--peer', servers.peer(server, over_http=False), '--window', str(window),
                        '--era', era]
                args += loadgen.limits(p) + ['--'] + pinned_server(command)
                self._record(key, server, loadgen.run(self.paths, args, p.warmup + p.duration))

    def sessions(self):
        p = self.profile
        for _ in range(p.runs):
            for server in servers.MCP_SERVERS:
                try:
                    with HttpServer(servers.http_command(server, 'stateful-json', self.paths)) as running:
                        args = ['sessions', '--url', running.url, '--mode', 'stateful-json',
                                '--connections', str(SESSION_CONNECTIONS), '--max-count', str(p.sessions),
                                '--duration', str(SESSIONS_BOUND_SECONDS), '--server-pid', str(running.pid)]
                        self._record('sessions', server, loadgen.run(self.paths, args, SESSIONS_BOUND_SECONDS))
                except RuntimeError as error:
                    self._record('sessions', server, {'failed': str(error)})

    def startup(self):
        for _ in range(self.profile.runs):
            for server in servers.ALL:
                command = servers.stdio_command(server, self.paths)
                args = ['startup', '--peer', servers.peer(server, over_http=False), '--'] + pinned_server(command)
                self._record('startup', server, loadgen.run(self.paths, args, 10))

    def listen(self):
        """Streams held open, then (ours) toggle_bonus fanned out to every listener: one generator run
        gives both rows. The servers run with `--http 127.0.0.1:0` alone."""
        p = self.profile
        for _ in range(p.runs):
            for server in (servers.CADUCEUS, servers.TYPESCRIPT_V2):
                keys = (LISTEN_STREAMS, LISTEN_FANOUT) if server == servers.CADUCEUS else (LISTEN_STREAMS,)
                changes = p.listen_changes if server == servers.CADUCEUS else 0
                try:
                    with HttpServer(servers.http_command(server, 'stateful-sse', self.paths)) as running:
                        args = ['listen', '--url', running.url, '--server-pid', str(running.pid),
                                '--connections', str(p.listen_streams), '--max-count', str(changes),
                                '--duration', str(LISTEN_BOUND_SECONDS)]
                        result = loadgen.run(self.paths, args, LISTEN_BOUND_SECONDS)
                except RuntimeError as error:
                    result = {'failed': str(error)}
                for key in keys:
                    self._record(key, server, result)

    def run(self, groups):
        if 'http' in groups:
            for mode in servers.HTTP_MODES:
                self.http(mode)
            for mode in servers.MODERN_HTTP_MODES:
                self.http(mode, modern_servers(mode))
        if 'stdio' in groups:
            self.stdio(STDIO_PIPELINED, self.profile.pipeline_window)
            self.stdio(STDIO_ONE_AT_A_TIME, 1)
            self.stdio(STDIO_MODERN_PIPELINED, self.profile.pipeline_window, 'modern', modern_servers('stdio'))
            self.stdio(STDIO_MODERN_ONE_AT_A_TIME, 1, 'modern', modern_servers('stdio'))
        if 'sessions' in groups:
            self.sessions()
        if 'startup' in groups:
            self.startup()
        if 'listen' in groups:
            self.listen()
        return self.results


def pinned_server(command):
    return processes.pinned(processes.SERVER_CORE, command)
