"""bench/run: builds the benchmarks, runs every scenario against every
server, prints the table. See bench/README.md."""

import argparse
import os
import subprocess
import sys
import time

import client
import cluster
import gateway_checks
import gateways
import machine
import micro
import profiles
import scenarios
import servers
import table
import targets
from servers import Paths

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GROUPS = ('http', 'stdio', 'sessions', 'startup', 'listen', 'micro', 'cluster', 'client', 'gateway')


def parse(argv):
    parser = argparse.ArgumentParser(prog='bench/run', description=__doc__)
    size = parser.add_mutually_exclusive_group()
    size.add_argument('--quick', action='store_true', help='shorter runs and 2,000 sessions (a few minutes)')
    size.add_argument('--smoke', action='store_true',
                      help='tiny counts, one run each: checks that everything runs and every reply is right')
    parser.add_argument('--build-dir', default=os.path.join(ROOT, 'build'))
    parser.add_argument('--no-build', action='store_true', help='use what is built')
    parser.add_argument('--only', default=','.join(GROUPS), help=f'a comma-separated subset of {",".join(GROUPS)}')
    args = parser.parse_args(argv)
    args.groups = set(args.only.split(','))
    if not args.groups <= set(GROUPS):
        parser.error(f'--only takes {",".join(GROUPS)}')
    return args


def build(build_dir):
    """Builds what the suite runs; its output goes to stderr, the table alone to stdout."""
    environment = dict(os.environ, CADUCEUS_BUILD_DIR=build_dir)
    command = [os.path.join(ROOT, 'scripts', 'build.sh'), '--target', 'benchmarks']
    return subprocess.run(command, cwd=ROOT, env=environment, stdout=sys.stderr).returncode == 0


def main(argv):
    args = parse(argv)
    profile = profiles.SMOKE if args.smoke else profiles.QUICK if args.quick else profiles.FULL
    if not args.no_build and not build(args.build_dir):
        print('bench/run: the build failed', file=sys.stderr)
        return 2
    paths = Paths(bin_dir=os.path.join(args.build_dir, 'bin'), ts_dir=os.path.join(ROOT, 'bench', 'ts'))
    if not os.path.isdir(os.path.join(paths.ts_dir, 'node_modules')):
        print('bench/run: the reference server needs its packages: (cd bench/ts && npm ci)', file=sys.stderr)
        return 2

    planned = [s for s in scenarios.plan(profile) if s.key.split('/')[0] in args.groups]
    load_before = machine.load_average()
    started = time.monotonic()
    runner = scenarios.Runner(profile, paths)
    results = runner.run(args.groups)
    cluster_setups, cluster_skipped, planned_cluster = [], None, []
    if 'cluster' in args.groups:
        cluster_skipped = cluster.missing()
        if cluster_skipped:
            print(f'  cluster: skipped, {cluster_skipped}', file=sys.stderr, flush=True)
        else:
            cluster_setups = cluster.run(runner, smoke=args.smoke)
            planned_cluster = [scenarios.Scenario(k, label, (), (servers.CADUCEUS,))
                               for k, label in cluster.planned(cluster_setups, profile.runs)]
    planned_client = client.plan() if 'client' in args.groups else []
    if planned_client:
        client.run(runner)
    gateways_skipped = gateways.missing(paths) if 'gateway' in args.groups else None
    planned_gateways = gateways.plan() if 'gateway' in args.groups and not gateways_skipped else []
    if gateways_skipped:
        print(f'  gateway: skipped, {gateways_skipped}', file=sys.stderr, flush=True)
    checks = None
    if planned_gateways:
        gateways.run(runner)
        checks = gateway_checks.run(paths, smoke=args.smoke)
    minutes = (time.monotonic() - started) / 60

    title = ('Caduceus vs the TypeScript SDK' if planned or planned_client
             else 'Caduceus vs other gateways' if planned_gateways else 'Caduceus, scale out')
    print(f'## {title} ({profile.name} run, {minutes:.1f} min)\n')
    print(f'Machine: {machine.describe()}. 1-minute load average before the run {load_before:.2f}, '
          f'after it {machine.load_average():.2f} (the second counts the run’s own server and generator).')
    if planned:
        print('Server pinned to core 0, load generator (bench/loadgen) to core 1, with taskset. '
              f'Each figure is the median of {profile.runs} run(s); in brackets the spread, (max − min) / median. '
              'Ratios are Caduceus ÷ the other. Ceilings: a bare Boost.Beast server answering every POST with a '
              'fixed JSON body (HTTP), a bare line echo over pipes (stdio). TypeScript SDK: '
              '@modelcontextprotocol/sdk 1.32.2; TypeScript SDK v2: @modelcontextprotocol/server 2.4.0 (bench/ts).\n')
        print(table.render(planned, results))
    checked = planned + planned_cluster + planned_client + planned_gateways
    problems = table.problems(checked, results)
    missing = [f'{s.key} {server}' for s in checked for server in s.servers
               if len(results.get(s.key, {}).get(server, [])) != profile.runs]
    print('\nEvery reply checked: ' + ('no errors.' if not problems and not missing else 'ERRORS:'))
    for line in problems + [f'- {key}: did not run' for key in missing]:
        print(line)
    bound = table.generator_bound(checked, results)
    if bound:
        print('\nThe load generator kept its core ≥90% busy (the figure is partly its limit): ' + ', '.join(bound))
    if planned:
        print('\n### Targets (issue 6; against the TypeScript SDKs)\n')
        print('\n'.join(targets.report(results, profile)) if profile.judges_targets else 'Not judged on a smoke run.')

    if 'cluster' in args.groups:
        print('\n### Scale out (issue 18): nodes sharing Redis behind HAProxy\n')
        if cluster_skipped:
            print(f'Skipped: {cluster_skipped}.')
        else:
            print('HTTP stateful, JSON replies (`tools/call echo`, one session per connection, every reply checked). '
                  f'`everything-server --http 127.0.0.1:0 --json --threads 1`, with `--redis URL` where it says '
                  f'Redis (one redis-server, `--save \'\' --appendonly no`); HAProxy 1 thread, round robin, no '
                  'stickiness, `option http-server-close` (a new connection to a node for every request). '
                  f'On {os.cpu_count()} cores: every process of the server side (the nodes, HAProxy, Redis) is '
                  'pinned to core 0 and shares it, the load generator has core 1; so more nodes cannot add '
                  'throughput here: the rows show the cost of the hops, not scaling. Server-side CPU: utime + '
                  'stime over the window of every node, HAProxy and Redis, per reply. Median of '
                  f'{profile.runs} run(s), spread in brackets; ÷ reference: req/s over the one node without '
                  'Redis at the same connections.\n')
            print(cluster.render(cluster_setups, results))

    if planned_client:
        print('\n### Clients: `tools/call echo` from our client and the TypeScript SDK 1.32.2 client\n')
        print(client.describe(profile) + '\n')
        print(client.render(planned_client, results) + '\n')
        print('\n'.join(targets.client_report(results)) if profile.judges_targets else 'Not judged on a smoke run.')

    if 'gateway' in args.groups:
        print('\n### Gateways: `caduceus gateway`, supergateway and mcp-proxy in front of one stdio server\n')
        if gateways_skipped:
            print(f'Skipped: {gateways_skipped}.')
        else:
            print(gateways.describe(profile) + '\n')
            print(gateways.render(planned_gateways, results))
            print('\nWhat each gateway does, in front of the same server (one run each; bench/driver/gateway_checks.py '
                  'says how each check is made):\n')
            print(gateway_checks.render(checks))

    micro_ok = True
    if 'micro' in args.groups:
        micro_ok, output = micro.run(paths, profile.micro_min_time)
        print('\n### Micro-benchmarks\n')
        print(f'```\n{output.strip()}\n```' if output else 'Not built (Google Benchmark not found).')
    return 0 if not problems and not missing and micro_ok else 1
