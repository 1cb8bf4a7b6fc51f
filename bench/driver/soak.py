"""bench/soak: a bounded soak run of the HTTP server (bench/README.md, "Soak").

everything-server (--threads 1) and the load generator share one core. The
generator first measures what that core serves (tools/call echo, 8
connections, 5 s), then soaks the server at half of it (or --rate) for
--minutes: echo calls at a steady pace with session churn, cancellations,
dropped and resumed SSE streams, slow clients and bad input beside them,
while it samples the server's VmRSS and open file descriptors every few
seconds. The server then gets SIGTERM and must exit 0 within its
shutdown_timeout. Prints a markdown report; exits 1 when an error the input
did not ask for happened, memory or descriptors grew over the second half, or
the server did not stop cleanly."""

import argparse
import json
import os
import subprocess
import sys
import time
from types import SimpleNamespace

import processes
from servers import Paths

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORE = processes.LOADGEN_CORE  # the one core of the whole run
CAPACITY_SECONDS = 5
CONNECTIONS = 8
# Flat: the trend over the second half, extrapolated over it, stays under these.
RSS_FLAT_BYTES = 2 * 2**20
RSS_FLAT_SHARE = 0.05
FDS_FLAT = 2
SHUTDOWN_LIMIT_SECONDS = 12  # everything-server's shutdown_timeout (10 s) and a margin


def parse(argv):
    parser = argparse.ArgumentParser(prog='bench/soak', description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--minutes', type=float, default=20, help='how long the soak runs (default 20)')
    parser.add_argument('--rate', type=float, help='echo calls per second (default: half the measured capacity)')
    parser.add_argument('--sample-every', type=float, default=5, help='seconds between samples (default 5)')
    parser.add_argument('--smoke', action='store_true',
                        help='5 s at 2,000 calls/s: every action runs and is checked; fails on errors, never on a figure')
    parser.add_argument('--build-dir', default=os.path.join(ROOT, 'build'))
    parser.add_argument('--no-build', action='store_true', help='use what is built')
    args = parser.parse_args(argv)
    if args.smoke:
        args.minutes, args.rate, args.sample_every = 5 / 60, 2000, 1
    return args


def build(build_dir):
    environment = dict(os.environ, CADUCEUS_BUILD_DIR=build_dir)
    command = [os.path.join(ROOT, 'scripts', 'build.sh'), '--target', 'everything-server', 'bench-loadgen']
    return subprocess.run(command, cwd=ROOT, env=environment, stdout=sys.stderr).returncode == 0


def generator(paths, args, bound_seconds):
    command = [paths.binary('bench-loadgen')] + args
    code, out, err = processes.run_to_end(processes.pinned(CORE, command), timeout=bound_seconds + 60)
    lines = out.strip().splitlines()
    if code != 0 or not lines:
        raise RuntimeError(f'bench-loadgen {args[0]} failed (exit {code}): {err.strip()[-500:]}')
    return json.loads(lines[-1])


def start_server(command):
    process = processes.start(processes.pinned(CORE, command))
    url = processes.read_first_line(process, timeout=30)
    if not url or not url.startswith('http://'):
        raise RuntimeError(f'{command[0]} printed no URL: {processes.stop(process)[-2000:]}')
    return SimpleNamespace(process=process, url=url, pid=process.pid)  # (taskset has exec'd the server)


def stop_server(server):
    """SIGTERM, SIGKILL after SHUTDOWN_LIMIT_SECONDS: (its exit code, negative
    when a signal ended it, and the seconds it took)."""
    started = time.monotonic()
    processes.stop(server.process, grace=SHUTDOWN_LIMIT_SECONDS)
    return server.process.returncode, time.monotonic() - started


def mib(n):
    return f'{n / 2**20:.1f} MiB'


def judge(soak, seconds):
    """(rss_flat, fds_flat, the figures) over the second half."""
    samples = soak['samples']
    half = [s for s in samples if s[0] >= seconds / 2]
    mid_rss = half[0][1] if half else samples[-1][1]
    half_minutes = seconds / 120
    rss_growth = soak['rss_slope_per_min'] * half_minutes
    fds_growth = soak['fds_slope_per_min'] * half_minutes
    rss_flat = abs(rss_growth) <= max(RSS_FLAT_BYTES, RSS_FLAT_SHARE * mid_rss)
    return rss_flat, abs(fds_growth) <= FDS_FLAT, rss_growth, fds_growth


def table(counts):
    if not counts:
        return ['none']
    return [f'- {kind}: {n:,}' for kind, n in sorted(counts.items())]


def main(argv):
    args = parse(argv)
    if not args.no_build and not build(args.build_dir):
        print('bench/soak: the build failed', file=sys.stderr)
        return 2
    paths = Paths(bin_dir=os.path.join(args.build_dir, 'bin'), ts_dir='')
    seconds = args.minutes * 60
    # JSON answers unless the client prefers a stream (the echo calls list JSON first, the streams SSE).
    command = [paths.binary('everything-server'), '--http', '127.0.0.1:0', '--threads', '1']
    server = start_server(command)
    try:
        capacity = None
        rate = args.rate
        if rate is None:
            print(f'soak: measuring capacity ({CAPACITY_SECONDS} s)...', file=sys.stderr, flush=True)
            measured = generator(paths, ['http', '--url', server.url, '--mode', 'stateful-json', '--connections',
                                         str(CONNECTIONS), '--warmup', '1', '--duration', str(CAPACITY_SECONDS),
                                         '--server-pid', str(server.pid)], CAPACITY_SECONDS + 10)
            capacity = measured['per_second']
            rate = capacity / 2
        print(f'soak: {args.minutes:.2g} min at {rate:,.0f} calls/s...', file=sys.stderr, flush=True)
        soak = generator(paths, ['soak', '--url', server.url, '--server-pid', str(server.pid), '--rate', f'{rate:.0f}',
                                 '--connections', str(CONNECTIONS), '--duration', str(seconds),
                                 '--sample-every', str(args.sample_every)], seconds + 30)
        exit_code, shutdown_seconds = stop_server(server)
    finally:
        if server.process.poll() is None:
            processes.stop(server.process)

    rss_flat, fds_flat, rss_growth, fds_growth = judge(soak, seconds)
    first, last = soak['samples'][0], soak['samples'][-1]
    clean_exit = exit_code == 0
    errors = soak['unexpected_errors']
    print(f'## Soak ({args.minutes:.2g} min)\n')
    print(f'`{" ".join(os.path.basename(c) if i == 0 else c for i, c in enumerate(command))}` and bench-loadgen '
          f'on one core (taskset -c {CORE}).')
    if capacity:
        print(f'Capacity measured first: {capacity:,.0f} echo calls/s (8 connections, {CAPACITY_SECONDS} s); '
              f'soaked at half.')
    print(f'\n| figure | value |\n| --- | --- |')
    print(f'| echo calls/s asked | {rate:,.0f} |')
    print(f'| HTTP requests sent | {soak["requests"]:,} ({soak["requests_per_s"]:,.0f}/s) |')
    print(f'| server CPU | {100 * soak["server_cpu_share"]:.0f}% of a core |')
    print(f'| RSS start → end | {mib(first[1])} → {mib(last[1])} |')
    print(f'| RSS trend, second half | {rss_growth / 2**20:+.2f} MiB over it ({"flat" if rss_flat else "GROWS"}) |')
    print(f'| open fds start → end | {first[2]} → {last[2]} |')
    print(f'| fds trend, second half | {fds_growth:+.1f} over it ({"flat" if fds_flat else "GROWS"}) |')
    print(f'| SIGTERM to exit | {shutdown_seconds:.2f} s, exit code {exit_code} |')
    print('\nDone as expected:\n' + '\n'.join(table(soak['done'])))
    print('\nBad input refused as it should be:\n' + '\n'.join(table(soak['refused_as_expected'])))
    print('\nErrors the input did not ask for:\n' + '\n'.join(table(errors)))
    for sample in soak['error_samples']:
        print(f'  - {sample}')
    minute = max(1, round(60 / args.sample_every))
    print('\nSamples (every minute): seconds, RSS, fds, requests so far')
    print('\n'.join(f'    {s[0]:7.0f} {mib(s[1]):>10} {s[2]:4} {s[3]:>12,}' for s in soak['samples'][::minute]))
    flat = (rss_flat and fds_flat) or args.smoke  # (5 s say nothing of a trend)
    return 0 if not errors and flat and clean_exit else 1
