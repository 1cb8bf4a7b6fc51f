"""Runs the load generator (bench/loadgen), pinned to its core, and reads the
one line of JSON it prints."""

import json

import processes

# Beyond the run's own bounds: process start-up (node takes half a second) and
# the generator's grace period for replies in flight.
MARGIN_SECONDS = 60


def limits(profile):
    return ['--warmup', str(profile.warmup), '--duration', str(profile.duration),
            '--max-count', str(profile.max_count)]


def run(paths, args, bound_seconds):
    """The generator's result, or {'failed': why} when it did not complete."""
    return run_pinned([paths.binary('bench-loadgen')] + args, bound_seconds)


def run_pinned(command, bound_seconds):
    """Runs a command printing the generator's line of JSON (bench-loadgen, or
    a client under test: client.py) on the generator's core."""
    command = processes.pinned(processes.LOADGEN_CORE, command)
    code, out, err = processes.run_to_end(command, timeout=bound_seconds + MARGIN_SECONDS)
    if code is None:
        return {'failed': f'timed out: {err.strip()[-500:]}'}
    lines = out.strip().splitlines()
    if code != 0 or not lines:
        return {'failed': f'exit {code}: {err.strip()[-500:]}'}
    return json.loads(lines[-1])
