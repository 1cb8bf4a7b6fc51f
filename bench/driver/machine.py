"""What the run ran on, for the line above the table."""

import os
import platform
import subprocess


def _cpu_model():
    with open('/proc/cpuinfo') as cpuinfo:
        for line in cpuinfo:
            if line.startswith('model name'):
                return line.split(':', 1)[1].strip()
    return platform.processor() or 'unknown CPU'


def _version(command):
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=10).stdout.strip().splitlines()[0]
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return 'unknown'


def describe():
    memory_gb = os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30
    return (f'{_cpu_model()}, {os.cpu_count()} cores, {memory_gb:.0f} GB, Linux {platform.release()}; '
            f'{_version(["g++", "--version"])}; node {_version(["node", "--version"])}')


def load_average():
    """The 1-minute load average: how busy the machine was besides us."""
    return os.getloadavg()[0]
