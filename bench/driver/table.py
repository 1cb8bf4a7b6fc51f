"""The table: one row per scenario and figure, the servers side by side,
and the ratios of ours to the others (markdown, so bench/README.md can hold it)."""

import servers
from summary import figure

HEADER = ('| scenario | figure | Caduceus | TypeScript SDK | TypeScript SDK v2 | ceiling '
          '| ÷ TS | ÷ TS v2 | ÷ ceiling |\n'
          '| --- | --- | --: | --: | --: | --: | --: | --: | --: |')


def number(value):
    if value >= 1000:
        return f'{value:,.0f}'
    if value >= 100:
        return f'{value:.0f}'
    if value >= 10:
        return f'{value:.1f}'
    return f'{value:.2f}'


def cell(fig, has_server):
    if not has_server:
        return '—'
    if fig is None:
        return 'ERR'
    return f'{number(fig.median)} ({fig.spread:.0%})'


def ratio(ours, other):
    if ours is None or other is None or other.median == 0:
        return '—'
    return f'{ours.median / other.median:.2f}x'


def render(scenarios, results):
    lines = [HEADER]
    for scenario in scenarios:
        runs = results.get(scenario.key, {})
        for index, (name, field, scale) in enumerate(scenario.metrics):
            figs = {server: figure(runs.get(server, []), field, scale) for server in servers.ALL}
            ours = figs[servers.CADUCEUS]
            has_ceiling = servers.CEILING in scenario.servers
            v2 = figs[servers.TYPESCRIPT_V2]
            has_v2 = servers.TYPESCRIPT_V2 in scenario.servers
            has_ts = servers.TYPESCRIPT in scenario.servers
            label = scenario.label if index == 0 else ''
            lines.append(f'| {label} | {name} | {cell(ours, True)} | {cell(figs[servers.TYPESCRIPT], has_ts)} | '
                         f'{cell(v2, has_v2)} | '
                         f'{cell(figs[servers.CEILING], has_ceiling)} | {ratio(ours, figs[servers.TYPESCRIPT])} | '
                         f'{ratio(ours, v2) if has_v2 else "—"} | '
                         f'{ratio(ours, figs[servers.CEILING]) if has_ceiling else "—"} |')
    notes = dict.fromkeys(scenario.note for scenario in scenarios if scenario.note)
    return '\n'.join(lines + [''] + list(notes) if notes else lines)


def problems(scenarios, results):
    """Every run that failed or saw a wrong reply, with what went wrong."""
    lines = []
    for scenario in scenarios:
        for server, runs in results.get(scenario.key, {}).items():
            for number_, run in enumerate(runs, 1):
                if 'failed' in run:
                    lines.append(f'- {scenario.key} {server} run {number_}: {run["failed"]}')
                elif run.get('errors') or run.get('checked') != run.get('sent') or not run.get('sent'):
                    samples = '; '.join(run.get('error_samples', []))
                    lines.append(f'- {scenario.key} {server} run {number_}: sent {run.get("sent")}, '
                                 f'checked {run.get("checked")}, {run.get("errors")} errors: {samples}')
    return lines


def generator_bound(scenarios, results, threshold=0.9):
    """Rows where the load generator kept its core busy: their figure is the
    generator's limit rather than the server's."""
    bound = []
    for scenario in scenarios:
        for server, runs in results.get(scenario.key, {}).items():
            busy = figure(runs, 'loadgen_busy')
            if busy and busy.median >= threshold:
                bound.append(f'{scenario.key} ({server}, {busy.median:.0%})')
    return bound
