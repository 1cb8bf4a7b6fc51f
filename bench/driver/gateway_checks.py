"""The gateway group's behaviour rows: what each gateway does, beside how fast
it does it (gateways.py). Each check starts the gateway anew in front of the
same stdio server (our everything-server --stdio) and talks to it with a bare
client (mcp_http.py):

  start-up     spawn to the first tools/list answered in a new session
  memory       resident memory a session adds: the gateway process's, and
               the gateway's with its children (each session's child)
  isolation    a tool of one session changes the server's state (toggle_bonus
               adds a tool): does the other session see it?
  vanished     a client whose GET stream breaks without a DELETE, idle
               timeout 2 s: how long until its child ends
  rounds       a 2026-07-28 request whose tool asks for input (confirm): the
               InputRequiredResult, then the retry with the answer
  replica      ours only, the others have no replicas: two gateways sharing
               Redis behind HAProxy (round robin), clients opening sessions
               and calling under load, one gateway killed with SIGKILL"""

import contextlib
import os
import socket
import statistics
import tempfile
import threading
import time

import cluster
import gateways
import processes
from mcp_http import Endpoint

STARTS = 3  # start-ups measured, the median reported (1 on a smoke run)
SESSIONS = 20  # sessions opened to measure what one adds
VANISH_LIMIT = 30  # seconds waited for a vanished client's child to end

CHECKS = (('startup', 'start-up to the first answer, ms (median of 3 starts)'),
          ('memory-gateway', 'memory a session adds to the gateway process, KB'),
          ('memory-tree', 'memory a session adds with its child, KB'),
          ('isolation', 'two sessions, two states'),
          ('vanished', 'a vanished client\'s child ended (idle timeout 2 s)'),
          ('rounds', 'a 2026-07-28 input_required round trip'),
          ('replica', 'kill -9 of one of two replicas under load'))

TIMEOUT_OPTIONS = {gateways.OURS: ['--session-timeout', '2', '--warm', '0'],
                   gateways.SUPERGATEWAY: ['--sessionTimeout', '2000'],
                   gateways.MCP_PROXY: ['--sessionIdleTimeout', '2000']}


def rss_kb(pid):
    try:
        with open(f'/proc/{pid}/status') as status:
            for line in status:
                if line.startswith('VmRSS:'):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def descendants(pid):
    """The pids of every process below `pid`."""
    children = {}
    for entry in os.listdir('/proc'):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                with open(f'/proc/{entry}/stat') as stat:
                    parent = int(stat.read().rsplit(')', 1)[1].split()[1])
                children.setdefault(parent, []).append(int(entry))
    found, pending = [], [pid]
    while pending:
        below = children.get(pending.pop(), [])
        found += below
        pending += below
    return found


def tree_rss_kb(pid):
    return rss_kb(pid) + sum(rss_kb(child) for child in descendants(pid))


def wait_for(predicate, seconds, step=0.01):
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        with contextlib.suppress(OSError, RuntimeError):
            if predicate():
                return True
        time.sleep(step)
    return False


def session_with_child(endpoint):
    session = endpoint.open_session()
    endpoint.call(session, 'tools/list')
    return session


def check_startup(gateway, paths, starts):
    times = []
    for _ in range(starts):
        port = processes.free_port()
        started = time.monotonic()
        process = processes.start(processes.pinned(processes.SERVER_CORE, gateways.command(gateway, paths, port)))
        try:
            endpoint = Endpoint(f'http://127.0.0.1:{port}/mcp')
            if not wait_for(lambda: session_with_child(endpoint), gateways.START_SECONDS):
                return 'no answer'
            times.append((time.monotonic() - started) * 1000)
        finally:
            processes.stop(process)
    return f'{statistics.median(times):,.0f}'


def check_memory(running):
    endpoint = Endpoint(running.url)
    session_with_child(endpoint)  # the first one: what is made once is made
    time.sleep(0.5)
    gateway_before, tree_before = rss_kb(running.pid), tree_rss_kb(running.pid)
    for _ in range(SESSIONS):
        session_with_child(endpoint)
    time.sleep(1)
    return (f'{(rss_kb(running.pid) - gateway_before) / SESSIONS:,.0f}',
            f'{(tree_rss_kb(running.pid) - tree_before) / SESSIONS:,.0f}')


def check_isolation(running):
    endpoint = Endpoint(running.url)
    first, second = endpoint.open_session(), endpoint.open_session()
    endpoint.call(first, 'tools/call', {'name': 'toggle_bonus', 'arguments': {}})
    tools = [tool['name'] for tool in endpoint.call(second, 'tools/list')['tools']]
    return 'no: the other session sees its tool' if 'bonus' in tools else 'yes'


def check_vanished(running):
    endpoint = Endpoint(running.url)
    before = set(descendants(running.pid))
    session = session_with_child(endpoint)
    children = set(descendants(running.pid)) - before
    if not children:
        return 'no child of its own to watch'
    stream = socket.create_connection(('127.0.0.1', endpoint.port), timeout=5)
    stream.sendall((f'GET {endpoint.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n'
                    f'Mcp-Session-Id: {session}\r\nMCP-Protocol-Version: 2025-06-18\r\n\r\n').encode())
    stream.recv(4096)  # the stream's head: it listens
    stream.close()  # and vanishes
    gone_at = time.monotonic()
    if not wait_for(lambda: not any(os.path.exists(f'/proc/{pid}') and rss_kb(pid) for pid in children),
                    VANISH_LIMIT, step=0.1):
        return f'no: still running after {VANISH_LIMIT} s'
    return f'yes, after {time.monotonic() - gone_at:.1f} s'


def check_rounds(running):
    endpoint = Endpoint(running.url)
    arguments = {'question': 'Ship it?'}
    capabilities = {'elicitation': {}}
    first = endpoint.modern_call('tools/call', {'name': 'confirm', 'arguments': arguments}, capabilities)
    answer = first.answer(1) or {}
    asked = answer.get('result', {})
    if asked.get('resultType') != 'input_required':
        said = ''.join(block.get('text', '') for block in asked.get('content', [])) or str(answer.get('error', ''))
        return f'no: the tool answered "{said[:60]}"' if said else f'no: HTTP {first.status}'
    responses = {key: {'action': 'accept', 'content': {'confirm': True}} for key in asked.get('inputRequests', {})}
    retry = {'name': 'confirm', 'arguments': arguments, 'inputResponses': responses,
             'requestState': asked.get('requestState')}
    final = (endpoint.modern_call('tools/call', retry, capabilities).answer(1) or {}).get('result', {})
    text = ''.join(block.get('text', '') for block in final.get('content', []))
    return 'yes' if text == 'action=accept, confirm=true' else f'no: {text or final!r}'[:100]


def gateway_checks(gateway, paths, smoke=False):
    """The cells of one gateway, by check (a smoke run: fewer start-ups, a shorter load)."""
    cells = {}
    cells['startup'] = check_startup(gateway, paths, 1 if smoke else STARTS)
    with gateways.ListeningGateway(gateway, paths) as running:
        cells['memory-gateway'], cells['memory-tree'] = check_memory(running)
        cells['isolation'] = check_isolation(running)
        cells['rounds'] = check_rounds(running)
    with gateways.ListeningGateway(gateway, paths, TIMEOUT_OPTIONS[gateway]) as running:
        cells['vanished'] = check_vanished(running)
    if gateway != gateways.OURS:
        cells['replica'] = 'no replicas'
    else:
        cells['replica'] = check_replica(paths, seconds=4.0, kill_at=1.5) if smoke else check_replica(paths)
    return cells


class Replicas(cluster.Cluster):
    """Two of our gateways sharing a redis-server behind HAProxy, for a `with`
    block: the scale-out setup's processes, gateways for its nodes."""

    def __init__(self, paths):
        super().__init__(None, paths)

    def __enter__(self):
        self.dir = tempfile.mkdtemp(prefix='caduceus-bench-replicas-')
        try:
            _, redis_url = self._start_redis()
            self.gateways = []
            for _ in range(2):
                port = processes.free_port()
                process = self._start(gateways.command(gateways.OURS, self.paths, port) + ['--redis', redis_url])
                cluster._wait(lambda: cluster._listens(port), process, 30, 'caduceus gateway')
                self.gateways.append((process, port))
            _, self.url = self._start_haproxy([f'http://127.0.0.1:{port}/mcp' for _, port in self.gateways])
        except BaseException:
            self.__exit__()
            raise
        return self


def check_replica(paths, workers=8, seconds=8.0, kill_at=2.5, calls=5):
    """Sessions of `calls` echo calls each, opened by `workers` clients for
    `seconds`; one gateway killed at `kill_at`. Every outcome is counted:
    answered, refused with an error (which), or hung (no answer in 10 s)."""
    if cluster.missing():
        return f'skipped: {cluster.missing()}'
    outcomes = []  # (time, kind, session began at)
    lock = threading.Lock()
    with Replicas(paths) as replicas:
        started = time.monotonic()

        def client():
            endpoint = Endpoint(replicas.url, timeout=10)
            while time.monotonic() - started < seconds:
                began = time.monotonic() - started
                try:
                    session = endpoint.open_session()
                    for n in range(calls):
                        endpoint.call(session, 'tools/call', {'name': 'echo', 'arguments': {'text': str(n)}})
                        with lock:
                            outcomes.append((time.monotonic() - started, 'ok', began))
                    endpoint.delete(session)
                except socket.timeout:
                    with lock:
                        outcomes.append((time.monotonic() - started, 'hung', began))
                except (OSError, RuntimeError) as error:
                    with lock:
                        outcomes.append((time.monotonic() - started, refusal(error), began))

        threads = [threading.Thread(target=client) for _ in range(workers)]
        for thread in threads:
            thread.start()
        time.sleep(kill_at)
        victim = replicas.gateways[1][0]
        os.kill(victim.pid, 9)
        for thread in threads:
            thread.join()
    after = [o for o in outcomes if o[0] >= kill_at]
    refused = sorted({kind for _, kind, _ in after if kind not in ('ok', 'hung')})
    recovered = min((t for t, kind, began in after if kind == 'ok' and began >= kill_at), default=None)
    hung = sum(1 for _, kind, _ in outcomes if kind == 'hung')
    ok = sum(1 for _, kind, _ in outcomes if kind == 'ok')
    return (f'{ok:,} calls answered, {len([o for o in after if o[1] not in ("ok", "hung")])} refused after the kill '
            f'({"; ".join(refused) or "none"}), {hung} hung; new sessions answered '
            + (f'{recovered - kill_at:.2f} s after it' if recovered is not None else 'never'))


def refusal(error):
    """What a refused call got, in a few words."""
    text = str(error)
    if 'JSON-RPC error' in text:
        return text.split(': ', 1)[1].split(':')[0]
    if 'answered HTTP' in text:
        return 'HTTP ' + text.split('answered HTTP ', 1)[1].split(':')[0]
    return type(error).__name__


def run(paths, smoke=False):
    """Every check of every gateway: {check: {gateway: cell}}."""
    results = {check: {} for check, _ in CHECKS}
    for gateway in gateways.GATEWAYS:
        try:
            cells = gateway_checks(gateway, paths, smoke)
        except (OSError, RuntimeError) as error:
            cells = {check: f'failed: {error}'[:120] for check, _ in CHECKS}
        for check, cell in cells.items():
            results[check][gateway] = cell
    return results


def render(results):
    lines = [f'| check | {" | ".join(gateways.GATEWAYS)} |', '| --- |' + ' --- |' * len(gateways.GATEWAYS)]
    for check, label in CHECKS:
        cells = [results[check].get(gateway, '').replace('|', '\\|') for gateway in gateways.GATEWAYS]
        lines.append(f'| {label} | {" | ".join(cells)} |')
    return '\n'.join(lines)
