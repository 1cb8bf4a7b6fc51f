"""The targets of issue 6, and the timed targets against the TypeScript SDKs,
checked against the figures of this run. A target missed is reported, never
failed: the suite measures, the engineer judges."""

import client
import servers
from scenarios import LISTEN_STREAMS, STDIO_PIPELINED, http_key, plan
from summary import figure
from table import number


def _median(results, key, server, field, scale=1):
    fig = figure(results.get(key, {}).get(server, []), field, scale)
    return fig.median if fig else None


def _line(description, parts):
    """parts: (label, value text, met or None when unmeasured)."""
    met = [ok for _, _, ok in parts]
    verdict = 'n/a' if not parts or None in met else ('met' if all(met) else 'MISSED')
    detail = ', '.join(f'{label} {text}' for label, text, _ in parts)
    return f'- [{verdict}] {description}: {detail}'


def _ratio_part(label, ours, other, bound, at_most):
    if ours is None or not other:
        return (label, 'unmeasured', None)
    value = ours / other
    return (label, f'{value:.2f}x', value <= bound if at_most else value >= bound)


def _ratio_parts(results, profile, mode, field, bound, at_most):
    parts = []
    for connections in profile.connections:
        key = http_key(mode, connections)
        ours = _median(results, key, servers.CADUCEUS, field)
        ceiling = _median(results, key, servers.CEILING, field)
        parts.append(_ratio_part(f'{connections}c', ours, ceiling, bound, at_most))
    return parts


# The timed targets against the TypeScript SDKs: in every scenario showing the
# figure, at least this many times a reference's req/s (sessions/s for the
# sessions) and at most this fraction of its server CPU per request.
SDK_REFERENCES = ((servers.TYPESCRIPT, 'the TypeScript SDK 1.32.2'), (servers.TYPESCRIPT_V2, 'the TypeScript SDK v2'))
SDK_MARGINS = (('per_second', 'req/s at least', 10.0, False),
               ('server_cpu_us_each', 'server CPU per request at most', 0.1, True))


def _sdk_margin_parts(results, profile, reference, field, bound, at_most):
    """One part per scenario of this run that shows `field` for `reference`."""
    parts = []
    for scenario in plan(profile):
        shown = field in {name for _, name, _ in scenario.metrics}
        if scenario.key not in results or reference not in scenario.servers or not shown:
            continue
        ours = _median(results, scenario.key, servers.CADUCEUS, field)
        theirs = _median(results, scenario.key, reference, field)
        parts.append(_ratio_part(scenario.key, ours, theirs, bound, at_most))
    return parts


def _value_part(label, value, bound, unit, at_most=True):
    if value is None:
        return (label, 'unmeasured', None)
    return (label, f'{number(value)}{unit}', value <= bound if at_most else value >= bound)


def report(results, profile):
    lines = []
    for mode in ('stateful-json', 'stateful-sse'):
        name = servers.HTTP_MODES[mode][0]
        lines.append(_line(f'{name}: req/s at least 0.75x the Beast ceiling',
                           _ratio_parts(results, profile, mode, 'per_second', 0.75, at_most=False)))
        lines.append(_line(f'{name}: server CPU per request at most 1.5x the Beast ceiling',
                           _ratio_parts(results, profile, mode, 'server_cpu_us_each', 1.5, at_most=True)))
        p50 = _median(results, http_key(mode, 1), servers.CADUCEUS, 'p50_us')
        lines.append(_line(f'{name}: p50 at 1 connection under 100 µs', [_value_part('p50', p50, 100, ' µs')]))
    stateless = []
    for connections in profile.connections:
        for field, label in (('per_second', 'req/s'), ('server_cpu_us_each', 'CPU')):
            stateful = _median(results, http_key('stateful-json', connections), servers.CADUCEUS, field)
            alone = _median(results, http_key('stateless', connections), servers.CADUCEUS, field)
            if not stateful or not alone:
                stateless.append((f'{connections}c {label}', 'unmeasured', None))
                continue
            slower = stateful / alone if field == 'per_second' else alone / stateful
            stateless.append((f'{connections}c {label}', f'{slower:.2f}x', slower <= 1.3))
    lines.append(_line('HTTP stateless within 1.3x of stateful JSON (req/s and CPU per request)', stateless))
    modern = [_ratio_part(f'{connections}c', _median(results, http_key('modern-json', connections), servers.CADUCEUS,
                                                     'server_cpu_us_each'),
                          _median(results, http_key('stateful-json', connections), servers.CADUCEUS,
                                  'server_cpu_us_each'), 1.0, at_most=True)
              for connections in profile.connections]
    lines.append(_line('HTTP 2026-07-28 tools/call no dearer than stateful JSON (server CPU per request)', modern))
    cpu = _median(results, STDIO_PIPELINED, servers.CADUCEUS, 'server_cpu_us_each')
    lines.append(_line('stdio pipelined: at most 4 µs of server CPU per request', [_value_part('CPU', cpu, 4, ' µs')]))
    ours = _median(results, STDIO_PIPELINED, servers.CADUCEUS, 'per_second')
    echo = _median(results, STDIO_PIPELINED, servers.CEILING, 'per_second')
    share = ours / echo if ours is not None and echo else None
    lines.append(_line('stdio pipelined: at least 0.6x the echo ceiling\'s req/s',
                       [_value_part('ratio', share, 0.6, 'x', at_most=False)]))
    memory = _median(results, 'sessions', servers.CADUCEUS, 'rss_bytes_per_session', 1 / 1024)
    lines.append(_line('at most 6 KB of resident memory per idle session', [_value_part('memory', memory, 6, ' KB')]))
    listen = _median(results, LISTEN_STREAMS, servers.CADUCEUS, 'rss_bytes_per_stream', 1 / 1024)
    lines.append(_line('at most 4 KB of resident memory per open subscriptions/listen stream',
                       [_value_part('memory', listen, 4, ' KB')]))
    startup = _median(results, 'startup', servers.CADUCEUS, 'startup_ms')
    lines.append(_line('spawn to first initialize reply under 10 ms', [_value_part('start-up', startup, 10, ' ms')]))
    for reference, name in SDK_REFERENCES:
        for field, what, bound, at_most in SDK_MARGINS:
            lines.append(_line(f'every scenario: {what} {bound:g}x {name}',
                               _sdk_margin_parts(results, profile, reference, field, bound, at_most)))
    return lines


# The client's target: our client, against our server, at least this many times
# the TypeScript SDK 1.32.2 client's calls per second, at most this fraction of
# its CPU per call.
CLIENT_MARGINS = (('per_second', 'calls/s at least', 5.0, False),
                  ('client_cpu_us_each', 'client CPU per call at most', 0.1, True))


def client_report(results):
    lines = []
    for field, what, bound, at_most in CLIENT_MARGINS:
        parts = []
        for key, *_ in client.SETUPS:
            ours = _median(results, key, client.OURS, field)
            theirs = _median(results, key, client.TS_CLIENT, field)
            if ours is None or not theirs:
                parts.append((key, 'unmeasured', None))
                continue
            value = ours / theirs
            parts.append((key, f'{value:.2f}x', value <= bound if at_most else value >= bound))
        lines.append(_line(f'our client: {what} {bound:g}x the TypeScript SDK 1.32.2 client', parts))
    return lines
