"""The scale-out scenario (issue 18): everything-server nodes sharing one
redis-server behind HAProxy, driven by the generator's HTTP stateful JSON mode
(tools/call echo, every reply checked), beside one node without Redis.

Setups, each started fresh for each run and stopped after it:
  direct     one node, no Redis, the generator straight at it (the reference)
  redis-1    one node with --redis, straight at it (the cost of Redis alone)
  haproxy-N  N nodes with --redis behind HAProxy (round robin, no stickiness,
             option http-server-close: every request is balanced on its own
             and HAProxy opens a new connection to a node for each)

Every node runs with --threads 1. Pinning: every process of the server side
(the nodes, HAProxy, Redis) on core 0 (taskset), the generator on core 1, as
in the rest of bench/run. Pinning a node per core would not work for 3 nodes
on 2 cores; this way every row gives the server side the same one core, so
the rows compare the work a request costs, hops included, and the generator
never competes with it. More nodes cannot add throughput here."""

import os
import shutil
import socket
import sys
import tempfile
import time
from dataclasses import dataclass

import loadgen
import processes

REDIS = '/usr/bin/redis-server'
HAPROXY = '/usr/sbin/haproxy'
CONNECTIONS = (8, 64)
NODE_COUNTS = (1, 2, 3)


@dataclass(frozen=True)
class Setup:
    key: str
    label: str
    nodes: int
    redis: bool
    proxy: bool


SETUPS = (Setup('direct', '1 node, no Redis, no HAProxy (reference)', 1, False, False),
          Setup('redis-1', '1 node with Redis, no HAProxy', 1, True, False)) + tuple(
    Setup(f'haproxy-{n}', f'{n} node{"s" if n > 1 else ""} with Redis behind HAProxy', n, True, True)
    for n in NODE_COUNTS)
SMOKE_SETUPS = ('direct', 'haproxy-3')  # the smallest and the largest: every kind of process runs


def missing():
    """Why the scenario cannot run here ('' when it can)."""
    if not os.access(REDIS, os.X_OK):
        return 'no redis-server (Debian package redis-server)'
    if not os.access(HAPROXY, os.X_OK):
        return 'no haproxy (Debian package haproxy)'
    return ''


def key(setup, connections):
    return f'cluster/{setup}/{connections}'


def _listens(port):
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(('127.0.0.1', port)) == 0


def _wait(predicate, process, seconds, what):
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        if process.poll() is not None:
            return False
        if predicate():
            return True
        time.sleep(0.02)
    raise RuntimeError(f'{what} was not ready within {seconds} s: {processes.stop(process)[-2000:]}')


HAPROXY_CONFIG = """\
# Written by bench/driver/cluster.py, as test/support/haproxy.hpp and
# docs/scale-out/haproxy.cfg configure it, without the request log.
global
  maxconn 4096
  nbthread 1
  stats socket {dir}/admin.sock mode 600 level admin

defaults
  mode http
  option http-server-close
  option redispatch 1
  retries 3
  timeout connect 2s
  timeout client 1h
  timeout server 1h
  timeout http-request 10s
  timeout http-keep-alive 10s
  timeout check 1s

frontend mcp
  bind 127.0.0.1:{port}
  default_backend nodes

backend nodes
  balance roundrobin
  option httpchk
  http-check send meth GET uri /mcp ver HTTP/1.1 hdr Host 127.0.0.1
  http-check expect rstatus ^[2-5]
  default-server check inter 500ms fall 1 rise 1
{servers}
"""


def _all_up(directory, count):
    try:
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(1)
            s.connect(os.path.join(directory, 'admin.sock'))
            s.sendall(b'show stat\n')
            answer = b''
            while chunk := s.recv(65536):
                answer += chunk
    except OSError:
        return False
    up = [line for line in answer.decode().splitlines() if line.startswith('nodes,node') and ',UP' in line]
    return len(up) == count


class Cluster:
    """One setup's processes, for a `with` block: .url, .pids {name: [pid]}."""

    def __init__(self, setup, paths):
        self.setup = setup
        self.paths = paths
        self.running = []

    def _start(self, command):
        process = processes.start(processes.pinned(processes.SERVER_CORE, command))
        self.running.append(process)
        return process

    def _start_redis(self):
        for attempt in range(5):
            port = processes.free_port()
            redis = self._start([REDIS, '--port', str(port), '--bind', '127.0.0.1', '--dir', self.dir,
                                 '--save', '', '--appendonly', 'no', '--daemonize', 'no'])
            if _wait(lambda: _listens(port), redis, 10, 'redis-server'):
                return redis, f'redis://127.0.0.1:{port}'
            self.running.remove(redis)
            processes.stop(redis)
        raise RuntimeError('redis-server did not start (5 ports tried)')

    def _start_node(self, redis_url):
        command = [self.paths.binary('everything-server'), '--http', '127.0.0.1:0', '--json', '--threads', '1']
        if redis_url:
            command += ['--redis', redis_url]
        node = self._start(command)
        url = processes.read_first_line(node, timeout=30)
        if not url or not url.startswith('http://'):
            raise RuntimeError(f'{" ".join(command)} printed no URL: {processes.stop(node)[-2000:]}')
        return node, url

    def _start_haproxy(self, node_urls):
        ports = [int(url.rsplit(':', 1)[1].split('/')[0]) for url in node_urls]
        servers = '\n'.join(f'  server node{i + 1} 127.0.0.1:{port}' for i, port in enumerate(ports))
        config = os.path.join(self.dir, 'haproxy.cfg')
        for attempt in range(5):
            port = processes.free_port()
            with open(config, 'w') as file:
                file.write(HAPROXY_CONFIG.format(dir=self.dir, port=port, servers=servers))
            proxy = self._start([HAPROXY, '-f', config, '-db'])
            if _wait(lambda: _listens(port) and _all_up(self.dir, len(ports)), proxy, 10, 'haproxy'):
                return proxy, f'http://127.0.0.1:{port}/mcp'
            self.running.remove(proxy)
            processes.stop(proxy)
        raise RuntimeError('haproxy did not start (5 ports tried)')

    def __enter__(self):
        self.dir = tempfile.mkdtemp(prefix='caduceus-bench-cluster-')
        self.pids = {}
        try:
            redis_url = None
            if self.setup.redis:
                redis, redis_url = self._start_redis()
                self.pids['redis'] = [redis.pid]
            nodes = [self._start_node(redis_url) for _ in range(self.setup.nodes)]
            self.pids['nodes'] = [node.pid for node, _ in nodes]
            self.url = nodes[0][1]
            if self.setup.proxy:
                proxy, self.url = self._start_haproxy([url for _, url in nodes])
                self.pids['haproxy'] = [proxy.pid]
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *_):
        for process in reversed(self.running):
            processes.stop(process)
        shutil.rmtree(self.dir, ignore_errors=True)


def run(runner, smoke):
    """Runs every setup `profile.runs` times (setups taking turns run by run),
    recording into runner's results under key(setup, connections)."""
    p = runner.profile
    setups = [s for s in SETUPS if not smoke or s.key in SMOKE_SETUPS]
    for _ in range(p.runs):
        for setup in setups:
            try:
                with Cluster(setup, runner.paths) as cluster:
                    for connections in CONNECTIONS:
                        args = ['http', '--url', cluster.url, '--mode', 'stateful-json', '--peer', 'mcp',
                                '--connections', str(connections)]
                        for name, pids in cluster.pids.items():
                            for pid in pids:
                                args += ['--cpu-pid', f'{name}={pid}']
                        result = loadgen.run(runner.paths, args + loadgen.limits(p), p.warmup + p.duration)
                        runner._record(key(setup.key, connections), 'caduceus', result)
            except RuntimeError as error:
                print(f'  cluster/{setup.key}: {error}', file=sys.stderr, flush=True)
                for connections in CONNECTIONS:
                    runner._record(key(setup.key, connections), 'caduceus', {'failed': str(error)})
    return setups


# (column, field of the generator's result); the CPU columns are per reply,
# over the measured window, from /proc (10 ms ticks).
CPU_PARTS = (('nodes', 'cpu_us_each_nodes'), ('HAProxy', 'cpu_us_each_haproxy'), ('Redis', 'cpu_us_each_redis'))


def _server_side_cpu(runs):
    """The CPU µs per reply of every server-side process, summed, per run."""
    return [dict(run, cpu_us_each_all=sum(run.get(field, 0) for _, field in CPU_PARTS)) for run in runs]


def render(setups, results):
    from summary import figure
    from table import number

    def cell(fig):
        return 'ERR' if fig is None else f'{number(fig.median)} ({fig.spread:.0%})'

    lines = ['| setup | connections | req/s | ÷ reference | p50 µs | p99 µs | server-side CPU µs/req '
             '| of which nodes | HAProxy | Redis |',
             '| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: |']
    for connections in CONNECTIONS:
        reference = figure(results.get(key('direct', connections), {}).get('caduceus', []), 'per_second')
        for setup in setups:
            runs = _server_side_cpu(results.get(key(setup.key, connections), {}).get('caduceus', []))
            rate = figure(runs, 'per_second')
            ratio = f'{rate.median / reference.median:.2f}x' if rate and reference else '—'
            parts = []
            for name, field in CPU_PARTS:
                present = name == 'nodes' or (name == 'Redis' and setup.redis) or (name == 'HAProxy' and setup.proxy)
                parts.append(cell(figure(runs, field)) if present else '—')
            lines.append(f'| {setup.label} | {connections} | {cell(rate)} | {ratio} | {cell(figure(runs, "p50_us"))} '
                         f'| {cell(figure(runs, "p99_us"))} | {cell(figure(runs, "cpu_us_each_all"))} | '
                         + ' | '.join(parts) + ' |')
    return '\n'.join(lines)


def planned(setups, runs):
    """(key, label) of every row, for the error report."""
    return [(key(s.key, c), f'{s.label}, {c} connections') for s in setups for c in CONNECTIONS]
