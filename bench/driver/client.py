"""The client group: MCP clients calling `tools/call echo`, ours (bench-client,
bench/client/) and the TypeScript SDK 1.32.2's (ts/reference_client.mjs), over
stdio (the client spawns the server) and Streamable HTTP (the server runs
already), against our everything-server, and ours against the TypeScript
reference server. Each client is pinned to the generator's core, each server to
the server core; the three pairs take turns run by run."""

import contextlib
import os

import loadgen
import servers
from scenarios import Scenario, pinned_server
from servers import HttpServer
from summary import figure
from table import cell, ratio

OURS = 'caduceus→caduceus'
TS_CLIENT = 'typescript→caduceus'
OURS_TO_TS = 'caduceus→typescript'
PAIRS = (OURS, TS_CLIENT, OURS_TO_TS)
# (client, server) of each pair
PARTS = {OURS: (servers.CADUCEUS, servers.CADUCEUS), TS_CLIENT: (servers.TYPESCRIPT, servers.CADUCEUS),
         OURS_TO_TS: (servers.CADUCEUS, servers.TYPESCRIPT)}

POOL_SIZE = 8
METRICS = (('calls/s', 'per_second', 1), ('client CPU µs/call', 'client_cpu_us_each', 1),
           ('p50 latency µs', 'p50_us', 1))
# (key, label, transport, calls in flight, pooled connections)
SETUPS = (('client/stdio/1', 'stdio, 1 call in flight', 'stdio', 1, 0),
          ('client/stdio/64', 'stdio, 64 calls in flight', 'stdio', 64, 0),
          ('client/http/1', 'HTTP, 1 call in flight', 'http', 1, 0),
          ('client/http/64', 'HTTP, 64 calls in flight', 'http', 64, 0),
          ('client/http-pool/64', f'HTTP, pool of {POOL_SIZE} connections, 64 calls in flight', 'http', 64,
           POOL_SIZE))
# Beyond the window: the clients' grace period for calls in flight.
GRACE_SECONDS = 5

HEADER = ('| scenario | figure | our client → our server | TS client → our server | our client → TS server '
          '| our client ÷ TS client |\n| --- | --- | --: | --: | --: | --: |')


def plan():
    return [Scenario(key, label, METRICS, PAIRS) for key, label, *_ in SETUPS]


def _client_command(client, paths):
    if client == servers.CADUCEUS:
        return [paths.binary('bench-client')]
    return ['node', os.path.join(paths.ts_dir, 'reference_client.mjs')]


def _run_pair(profile, paths, pair, transport, window, pool, listening):
    """One run of one pair: the client's line of JSON, or {'failed': why}."""
    client, server = PARTS[pair]
    args = [transport, '--window', str(window)] + loadgen.limits(profile) + ['--grace', str(GRACE_SECONDS)]
    if transport == 'stdio':
        args += ['--'] + pinned_server(servers.stdio_command(server, paths))
    elif isinstance(listening[server], RuntimeError):
        return {'failed': str(listening[server])}
    else:
        args += ['--url', listening[server].url, '--server-pid', str(listening[server].pid)]
        args += ['--pool', str(pool)] if pool else []
    return loadgen.run_pinned(_client_command(client, paths) + args, profile.warmup + profile.duration + GRACE_SECONDS)


def run(runner):
    """Runs every setup, profile.runs times per pair, into runner.results; the
    HTTP servers (JSON replies) run for the whole group."""
    with contextlib.ExitStack() as stack:
        listening = {}
        for server in (servers.CADUCEUS, servers.TYPESCRIPT):
            try:
                command = servers.http_command(server, 'stateful-json', runner.paths)
                listening[server] = stack.enter_context(HttpServer(command))
            except RuntimeError as error:
                listening[server] = error
        for key, _, transport, window, pool in SETUPS:
            for _ in range(runner.profile.runs):
                for pair in PAIRS:
                    result = _run_pair(runner.profile, runner.paths, pair, transport, window, pool, listening)
                    runner._record(key, pair, result)


def describe(profile):
    return ('Each client calls `tools/call echo` with a text of its own and checks the result (the text '
            'sent, in one text block), keeping 1 or 64 calls in flight. Ours: bench-client (bench/client/, '
            '`mcp::client`, `mcp::client_pool`); TypeScript: `Client` of @modelcontextprotocol/sdk 1.32.2 '
            f'(bench/ts/reference_client.mjs; its pool is {POOL_SIZE} clients taken in turn). Over stdio the '
            'client spawns the server; over HTTP the server (JSON replies) runs already. Servers pinned to core '
            '0, clients to core 1. Client CPU: the client process\'s utime + stime over the window, per call '
            '(getrusage; process.cpuUsage() in node). Each client negotiates as it does by default: ours speaks '
            '2026-07-28 to our server (no session) and 2025-11-25 to the TypeScript one, the TypeScript client '
            f'2025-11-25 (a session). Median of {profile.runs} run(s), spread in brackets; the ratio is our '
            'client ÷ the TypeScript client, both against our server.')


def render(scenarios, results):
    lines = [HEADER]
    for scenario in scenarios:
        runs = results.get(scenario.key, {})
        for index, (name, field, scale) in enumerate(scenario.metrics):
            figs = {pair: figure(runs.get(pair, []), field, scale) for pair in PAIRS}
            label = scenario.label if index == 0 else ''
            lines.append(f'| {label} | {name} | {cell(figs[OURS], True)} | {cell(figs[TS_CLIENT], True)} | '
                         f'{cell(figs[OURS_TO_TS], True)} | {ratio(figs[OURS], figs[TS_CLIENT])} |')
    return '\n'.join(lines)
