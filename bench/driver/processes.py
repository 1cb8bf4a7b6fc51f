"""Starting and stopping the processes of a run. Each goes in a process group
of its own, and every group still alive is killed when the driver exits, on
any path (an exception, Ctrl-C, SIGTERM)."""

import atexit
import os
import select
import signal
import socket
import subprocess
import tempfile

SERVER_CORE = '0'
LOADGEN_CORE = '1'

_live = set()


def _kill_all():
    for process in list(_live):
        stop(process, grace=0)


def _exit_on_signal(signum, _frame):
    raise SystemExit(128 + signum)


atexit.register(_kill_all)
signal.signal(signal.SIGTERM, _exit_on_signal)
signal.signal(signal.SIGHUP, _exit_on_signal)


def free_port():
    """A port of 127.0.0.1 free now (a process started next binds it)."""
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def pinned(core, command):
    return ['taskset', '-c', core] + list(command)


def start(command):
    """Starts `command` with its stdout piped to us; its stderr goes to a file
    (a pipe nobody reads could fill and stall a chatty server)."""
    errors = tempfile.TemporaryFile(mode='w+')
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors,
                               start_new_session=True, text=True)
    process.errors = errors
    _live.add(process)
    return process


def _stderr_of(process):
    process.errors.seek(0)
    text = process.errors.read()
    process.errors.close()
    return text


def read_first_line(process, timeout):
    """The first line the process prints, or None after `timeout` seconds."""
    ready, _, _ = select.select([process.stdout], [], [], timeout)
    if not ready:
        return None
    return process.stdout.readline().strip() or None


def stop(process, grace=2.0):
    """SIGTERM to its group, SIGKILL after `grace` seconds; returns its stderr."""
    _live.discard(process)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            break
        try:
            process.wait(timeout=grace)
            break
        except subprocess.TimeoutExpired:
            continue
    process.wait()
    return _stderr_of(process)


def run_to_end(command, timeout):
    """Runs a command to its end, killing its whole group after `timeout`
    seconds. Returns (exit code or None on timeout, stdout, stderr)."""
    process = start(command)
    try:
        out, _ = process.communicate(timeout=timeout)
        _live.discard(process)
        return process.returncode, out, _stderr_of(process)
    except subprocess.TimeoutExpired:
        return None, '', stop(process, grace=0)
