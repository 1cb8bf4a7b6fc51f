"""The gateway group: `caduceus gateway` side by side with supergateway and
mcp-proxy (npm, pinned in bench/gateways/), each in front of the same stdio
server (our everything-server --stdio), serving it over Streamable HTTP with a
session (and a child) for each connection. The generator calls `tools/call
echo` and checks every reply; the gateway is pinned to the server core with
its children, the generator to its own. The CPU figure is the gateway
process's alone: the children run the same server behind every gateway."""

import contextlib
import os
import socket
import time

import loadgen
import processes
from scenarios import Scenario
from summary import figure
from table import cell, ratio

OURS = 'caduceus gateway'
SUPERGATEWAY = 'supergateway 4.0.0'
MCP_PROXY = 'mcp-proxy 6.7.19'
GATEWAYS = (OURS, SUPERGATEWAY, MCP_PROXY)

METRICS = (('req/s', 'per_second', 1), ('gateway CPU µs/req', 'server_cpu_us_each', 1),
           ('p50 latency µs', 'p50_us', 1), ('p99 latency µs', 'p99_us', 1))
CONNECTIONS = (1, 64)
# How long a gateway has to start listening (node, and the first child).
START_SECONDS = 30

HEADER = (f'| scenario | figure | {OURS} | {SUPERGATEWAY} | {MCP_PROXY} | ÷ supergateway | ÷ mcp-proxy |\n'
          '| --- | --- | --: | --: | --: | --: | --: |')


def key(connections):
    return f'gateway/stateful-sse/{connections}'


def plan():
    return [Scenario(key(c), f'HTTP stateful, SSE replies, {c} connection{"" if c == 1 else "s"}', METRICS, GATEWAYS)
            for c in CONNECTIONS]


def missing(paths):
    """Why the group cannot run, or None."""
    bin_dir = os.path.join(gateways_dir(paths), 'node_modules', '.bin')
    for program in ('supergateway', 'mcp-proxy'):
        if not os.path.exists(os.path.join(bin_dir, program)):
            return f'{program} is not installed: (cd bench/gateways && npm ci)'
    return None


def gateways_dir(paths):
    return os.path.join(os.path.dirname(paths.ts_dir), 'gateways')


def command(gateway, paths, port, extra=()):
    """The gateway's command line, with `extra` options of its own."""
    upstream = [paths.binary('everything-server'), '--stdio']
    if gateway == OURS:
        return [paths.binary('caduceus'), 'gateway', '--stdio', ' '.join(upstream), '--http', f'127.0.0.1:{port}',
                '--threads', '1', *extra]
    bin_dir = os.path.join(gateways_dir(paths), 'node_modules', '.bin')
    if gateway == SUPERGATEWAY:
        return ['node', os.path.join(bin_dir, 'supergateway'), '--stdio', ' '.join(upstream), '--outputTransport',
                'streamableHttp', '--stateful', '--port', str(port), '--logLevel', 'none', *extra]
    return ['node', os.path.join(bin_dir, 'mcp-proxy'), '--port', str(port), '--host', '127.0.0.1', *extra,
            '--'] + upstream


class ListeningGateway:
    """A gateway listening on 127.0.0.1, pinned to the server core, for a `with` block."""

    def __init__(self, gateway, paths, extra=()):
        self.port = processes.free_port()
        self.command = command(gateway, paths, self.port, extra)
        self.url = f'http://127.0.0.1:{self.port}/mcp'

    def __enter__(self):
        self.process = processes.start(processes.pinned(processes.SERVER_CORE, self.command))
        self.pid = self.process.pid
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline and self.process.poll() is None:
            with contextlib.suppress(OSError), socket.create_connection(('127.0.0.1', self.port), timeout=1):
                return self
            time.sleep(0.1)
        errors = processes.stop(self.process)
        raise RuntimeError(f'{" ".join(self.command)} did not listen on {self.port}: {errors[-2000:]}')

    def __exit__(self, *_):
        processes.stop(self.process)


def run(runner):
    """Runs each gateway in turn, run by run, into runner.results."""
    profile = runner.profile
    with contextlib.ExitStack() as stack:
        listening = {}
        for gateway in GATEWAYS:
            try:
                listening[gateway] = stack.enter_context(ListeningGateway(gateway, runner.paths))
            except RuntimeError as error:
                listening[gateway] = error
        for connections in CONNECTIONS:
            for _ in range(profile.runs):
                for gateway in GATEWAYS:
                    running = listening[gateway]
                    if isinstance(running, RuntimeError):
                        runner._record(key(connections), gateway, {'failed': str(running)})
                        continue
                    args = ['http', '--url', running.url, '--mode', 'stateful-sse', '--peer', 'mcp',
                            '--connections', str(connections), '--server-pid', str(running.pid)]
                    result = loadgen.run(runner.paths, args + loadgen.limits(profile), profile.warmup + profile.duration)
                    runner._record(key(connections), gateway, result)


def describe(profile):
    return ('Each gateway serves `everything-server --stdio` over Streamable HTTP, a session and a child process '
            'for each of the generator\'s connections (supergateway `--outputTransport streamableHttp --stateful`; '
            'mcp-proxy as it starts by default; ours with `--threads 1`), and the generator calls `tools/call echo` '
            'with SSE replies, checking each. Gateway pinned to core 0 with its children, generator to core 1. '
            'Gateway CPU: the gateway process\'s utime + stime over the window, per request (its children, the same '
            f'server behind every gateway, are not counted). Median of {profile.runs} run(s), spread in brackets; '
            'the ratios are ours ÷ the other.')


def render(scenarios, results):
    lines = [HEADER]
    for scenario in scenarios:
        runs = results.get(scenario.key, {})
        for index, (name, field, scale) in enumerate(scenario.metrics):
            figs = {gateway: figure(runs.get(gateway, []), field, scale) for gateway in GATEWAYS}
            label = scenario.label if index == 0 else ''
            lines.append(f'| {label} | {name} | {cell(figs[OURS], True)} | {cell(figs[SUPERGATEWAY], True)} | '
                         f'{cell(figs[MCP_PROXY], True)} | {ratio(figs[OURS], figs[SUPERGATEWAY])} | '
                         f'{ratio(figs[OURS], figs[MCP_PROXY])} |')
    return '\n'.join(lines)
