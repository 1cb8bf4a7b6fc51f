"""From the runs of one server in one scenario to the figure the table shows:
the median and the spread, or nothing when a run failed or saw an error."""

import statistics
from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    median: float
    spread: float  # (max - min) / median


def run_is_clean(result):
    """Every request got a reply, every reply was checked, none was wrong."""
    return ('failed' not in result and result.get('errors') == 0
            and result.get('checked') == result.get('sent') and result.get('sent', 0) > 0)


def figure(runs, field, scale=1):
    if not runs or not all(run_is_clean(run) for run in runs) or any(field not in run for run in runs):
        return None
    values = [run[field] * scale for run in runs]
    median = statistics.median(values)
    spread = (max(values) - min(values)) / median if median else 0.0
    return Figure(median, spread)
