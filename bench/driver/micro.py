"""Runs the Google Benchmark micro-benchmarks (bench/micro), when they were built."""

import os

import processes


def run(paths, min_time):
    """(ran cleanly, output); (True, None) when there is no bench-micro to run."""
    binary = paths.binary('bench-micro')
    if not os.path.exists(binary):
        return True, None
    command = processes.pinned(processes.SERVER_CORE, [binary, f'--benchmark_min_time={min_time}'])
    code, out, err = processes.run_to_end(command, timeout=600)
    return code == 0, out if code == 0 else f'{out}\n{err}'
