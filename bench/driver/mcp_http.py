"""A bare MCP client over Streamable HTTP for the driver's behaviour checks:
one request at a time, JSON or SSE replies, no library between the check and
the wire (what a gateway answers is what the check sees)."""

import http.client
import json
import urllib.parse

LEGACY = '2025-06-18'
MODERN = '2026-07-28'
CLIENT_INFO = {'name': 'bench-checks', 'version': '1.0'}


class Reply:
    def __init__(self, status, headers, messages, body):
        self.status = status
        self.headers = headers
        self.messages = messages
        self.body = body

    def answer(self, request_id):
        """The message that answers `request_id`, or None."""
        return next((m for m in self.messages if m.get('id') == request_id), None)


class Endpoint:
    def __init__(self, url, timeout=10):
        parsed = urllib.parse.urlsplit(url)
        self.host, self.port, self.path = parsed.hostname, parsed.port, parsed.path or '/'
        self.timeout = timeout

    def post(self, message, session=None, version=LEGACY, headers=None):
        connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            sent = {'Content-Type': 'application/json', 'Accept': 'application/json, text/event-stream',
                    'MCP-Protocol-Version': version}
            if session:
                sent['Mcp-Session-Id'] = session
            sent.update(headers or {})
            connection.request('POST', self.path, json.dumps(message), sent)
            response = connection.getresponse()
            body = response.read().decode('utf-8', 'replace')
            return Reply(response.status, dict(response.getheaders()), _messages(response, body), body)
        finally:
            connection.close()

    def delete(self, session):
        connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            connection.request('DELETE', self.path, headers={'Mcp-Session-Id': session, 'MCP-Protocol-Version': LEGACY})
            connection.getresponse().read()
        finally:
            connection.close()

    def open_session(self, capabilities=None):
        """initialize and notifications/initialized; the session id."""
        params = {'protocolVersion': LEGACY, 'capabilities': capabilities or {}, 'clientInfo': CLIENT_INFO}
        reply = self.post({'jsonrpc': '2.0', 'id': 0, 'method': 'initialize', 'params': params})
        session = next((v for k, v in reply.headers.items() if k.lower() == 'mcp-session-id'), None)
        if reply.status != 200 or not session:
            raise RuntimeError(f'initialize answered HTTP {reply.status}: {reply.body[:300]}')
        self.post({'jsonrpc': '2.0', 'method': 'notifications/initialized'}, session)
        return session

    def call(self, session, method, params=None, request_id=1):
        """The answer to one request of a session: its result, or raises saying what came back."""
        reply = self.post({'jsonrpc': '2.0', 'id': request_id, 'method': method, 'params': params or {}}, session)
        answer = reply.answer(request_id)
        if reply.status != 200 or answer is None:
            raise RuntimeError(f'{method} answered HTTP {reply.status}: {reply.body[:300]}')
        if 'error' in answer:
            raise RuntimeError(f'{method}: JSON-RPC error {answer["error"].get("code")}: '
                               f'{answer["error"].get("message", "")[:200]}')
        return answer['result']

    def modern_call(self, method, params, capabilities):
        """A 2026-07-28 request (no session): its envelope in `_meta` and its routing headers."""
        params = dict(params)
        params['_meta'] = {'io.modelcontextprotocol/protocolVersion': MODERN,
                           'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
                           'io.modelcontextprotocol/clientCapabilities': capabilities}
        headers = {'Mcp-Method': method}
        if 'name' in params:
            headers['Mcp-Name'] = params['name']
        return self.post({'jsonrpc': '2.0', 'id': 1, 'method': method, 'params': params}, version=MODERN,
                         headers=headers)


def _messages(response, body):
    kind = (response.getheader('Content-Type') or '').split(';')[0].strip().lower()
    if kind == 'application/json':
        try:
            parsed = json.loads(body)
        except ValueError:
            return []
        return parsed if isinstance(parsed, list) else [parsed]
    if kind != 'text/event-stream':
        return []
    messages = []
    for event in body.split('\n\n'):
        data = '\n'.join(line[5:].lstrip() for line in event.splitlines() if line.startswith('data:'))
        if data:
            try:
                messages.append(json.loads(data))
            except ValueError:
                pass
    return messages
