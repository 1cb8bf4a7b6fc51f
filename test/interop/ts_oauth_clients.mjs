#!/usr/bin/env node
// Interop test: the official TypeScript MCP SDK clients sign in at a REAL
// OpenID provider (oidc-provider, oidc_provider.mjs) and use our OAuth-protected
// everything-server.
//
//   node ts_oauth_clients.mjs <everything-server> [extra server args...]
//   e.g. node ts_oauth_clients.mjs build/bin/everything-server
//
// The provider runs in this process on http://127.0.0.1:<free port>. The
// server runs as
//   everything-server --http 127.0.0.1:P --auth-issuer ISSUER
//     --auth-resource http://127.0.0.1:P/mcp --auth-scopes mcp:tools --auth-allow-http
// (P is a free port picked first: --auth-resource needs it; a start that
// loses the port to another process is retried) and checks the provider's
// JWT access tokens with the provider's JWKS.
//
// First, without an SDK: an MCP request without a token gets 401 with a
// Bearer challenge naming the resource metadata and scope=mcp:tools, and that
// metadata (RFC 9728) names the provider.
// Then, for the v1 SDK (@modelcontextprotocol/sdk 1.32.2) and the v2 client
// (@modelcontextprotocol/client 2.4.0), the way their documentation says:
//   user     an OAuthClientProvider with a redirect URL and no client id: the
//            first connect() registers dynamically (RFC 7591) and calls
//            redirectToAuthorization(url), where a headless user agent
//            (authorizeHeadless of oidc_provider.mjs: fetch with redirect
//            'manual' and a cookie jar) follows the URL through the
//            provider's auto-approving login and consent to the redirect URI;
//            connect() throws UnauthorizedError; the test takes `code` (after
//            checking state and iss), calls transport.finishAuth() (v1 with
//            the code, v2 with the callback's query, which checks iss) and
//            connects again over a new transport with the same provider;
//            tools/list and echo; then the access token is spoiled in the
//            client's token store (its signature): the server refuses it
//            (401 invalid_token), the SDK refreshes with the refresh token
//            and the call goes through.
//   machine  the SDK's ClientCredentialsProvider (mcp-machine, client_secret_basic,
//            expectedIssuer = the provider): connect, echo.
// The tokens are looked at as a user of the SDK sees them (saveTokens):
// a Bearer JWT (typ at+jwt) for aud = the resource, with mcp:tools.
//
// Output: one "ok - ..." / "not ok - ..." line per check, "# ..." diagnostics
// (on a failure, the HTTP exchanges of the SDK), last line
// "N passed, M failed"; exit 0 iff M == 0. Every wait is bounded (15 s a
// step, 90 s the script); the server is killed and the provider closed on
// every exit path.

import net from 'node:net';
import crypto from 'node:crypto';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError as UnauthorizedErrorV1 } from '@modelcontextprotocol/sdk/client/auth.js';
import { ClientCredentialsProvider as ClientCredentialsProviderV1 } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import {
    Client as ClientV2,
    StreamableHTTPClientTransport as TransportV2,
    UnauthorizedError as UnauthorizedErrorV2,
    ClientCredentialsProvider as ClientCredentialsProviderV2
} from '@modelcontextprotocol/client';
import { startProvider, authorizeHeadless, CLIENTS } from './oidc_provider.mjs';
import { ok, notOk, check, diag, short, failedCount, finish, startHarness, withTimeout, startHttpServer, stopHttpServer, httpServerAlive } from './lib.mjs';

const SCRIPT_TIMEOUT_MS = 90_000;
const STEP_MS = 15_000;
const SCOPE = 'mcp:tools';
const CLIENT_INFO = { name: 'caduceus-interop-ts-oauth', version: '0.1.0' };
const ECHO_TEXT = 'signed in \u2713 "quoted"';

const { command: serverCommand, args: extraArgs } = startHarness({
    usage: 'usage: node ts_oauth_clients.mjs <everything-server> [extra server args...]\n  e.g. build/bin/everything-server',
    scriptTimeoutMs: SCRIPT_TIMEOUT_MS
});

// The provider is closed on every way out: finish() ends in process.exit,
// which ends the in-process provider with it; a normal end closes it first.
let op;

// ------------------------------------------------------------- helpers
function freePort() {
    return new Promise((resolve, reject) => {
        const s = net.createServer();
        s.once('error', reject);
        s.listen(0, '127.0.0.1', () => {
            const { port } = s.address();
            s.close(() => resolve(port));
        });
    });
}

function decodeJwt(token) {
    try {
        const [h, p] = token.split('.');
        return { header: JSON.parse(Buffer.from(h, 'base64url')), claims: JSON.parse(Buffer.from(p, 'base64url')) };
    } catch {
        return undefined;
    }
}

const scopesOf = s => new Set(String(s ?? '').split(' ').filter(Boolean));

/** A fetch that records every exchange (for diagnostics when a check fails). */
function recordingFetch(log) {
    return async (url, init = {}) => {
        const method = (init.method ?? 'GET').toUpperCase();
        const entry = { what: `${method} ${String(url)}` };
        log.push(entry);
        try {
            const res = await fetch(url, init);
            entry.status = res.status;
            const challenge = res.headers.get('www-authenticate');
            if (challenge) entry.challenge = challenge;
            return res;
        } catch (e) {
            entry.error = e?.message ?? String(e);
            throw e;
        }
    };
}

function dumpLog(tag, log) {
    diag(`${tag} HTTP exchanges of the SDK:`);
    for (const e of log) diag(`  ${e.what} -> ${e.status ?? e.error}${e.challenge ? ` [WWW-Authenticate: ${e.challenge}]` : ''}`);
}

async function step(tag, what, fn) {
    try {
        return await withTimeout(fn(), STEP_MS, `${tag} ${what}`);
    } catch (e) {
        notOk(`${tag} ${what}`, e?.stack ?? String(e));
        return undefined;
    }
}

/**
 * The interactive OAuthClientProvider of both SDKs (v2 passes a context the
 * v1 one does not: it is ignored, one registration and one token set).
 * redirectToAuthorization() plays the user: the headless user agent.
 */
class HeadlessUserProvider {
    constructor(redirectUrl, clientName) {
        this._redirectUrl = redirectUrl;
        this._clientName = clientName;
        this.client = undefined;
        this.tokenSet = undefined;
        this.verifier = undefined;
        this.sentState = undefined;
        this.authorizationUrl = undefined;
        this.callback = undefined;
        this.userAgentError = undefined;
        this.redirects = 0;
        this.saved = []; // every token set saved, in order
    }
    get redirectUrl() {
        return this._redirectUrl;
    }
    get clientMetadata() {
        return {
            client_name: this._clientName,
            redirect_uris: [this._redirectUrl],
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: 'none'
        };
    }
    state() {
        this.sentState = crypto.randomBytes(16).toString('base64url');
        return this.sentState;
    }
    clientInformation() {
        return this.client;
    }
    saveClientInformation(info) {
        this.client = info;
    }
    tokens() {
        return this.tokenSet;
    }
    saveTokens(tokens) {
        this.tokenSet = tokens;
        this.saved.push(tokens);
    }
    saveCodeVerifier(v) {
        this.verifier = v;
    }
    codeVerifier() {
        if (!this.verifier) throw new Error('no code verifier saved');
        return this.verifier;
    }
    // kept like the code verifier, as both SDKs ask (v2 checks with it that
    // the code goes back to the authorization server it came from)
    saveDiscoveryState(state) {
        this.discovery = state;
    }
    discoveryState() {
        return this.discovery;
    }
    async redirectToAuthorization(url) {
        this.redirects++;
        this.authorizationUrl = new URL(url);
        try {
            this.callback = await authorizeHeadless(url, { redirectUri: this._redirectUrl });
        } catch (e) {
            this.userAgentError = e;
        }
    }
}

// ------------------------------------------------------------- the server
async function startServer(issuer) {
    let lastError;
    for (let attempt = 1; attempt <= 3; attempt++) {
        const port = await freePort();
        const resource = `http://127.0.0.1:${port}/mcp`;
        const args = [
            '--http',
            `127.0.0.1:${port}`,
            '--auth-issuer',
            issuer,
            '--auth-resource',
            resource,
            '--auth-scopes',
            SCOPE,
            '--auth-allow-http',
            ...extraArgs
        ];
        try {
            const srv = await startHttpServer(serverCommand, args);
            return { srv, resource, args };
        } catch (e) {
            lastError = e;
            if (/^cannot start /.test(e.message)) break; // no such program: no retry
            // most likely the port was taken in between
            diag(`server start ${attempt} on port ${port} failed: ${e.message.split('\n')[0]}`);
        }
    }
    throw lastError;
}

// --------------------------------------------------------- raw protection
async function checkProtection(url, resource, issuer) {
    const tag = '[server]';
    await step(tag, 'challenge and resource metadata', async () => {
        const res = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO } })
        });
        await res.text().catch(() => '');
        const challenge = res.headers.get('www-authenticate') ?? '';
        check(res.status === 401, `${tag} initialize without a token -> 401`, () => `got ${res.status}`);
        const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
        check(/^Bearer /i.test(challenge) && metadataUrl && /scope="mcp:tools"/.test(challenge), `${tag} WWW-Authenticate: Bearer with resource_metadata and scope="mcp:tools"`, () =>
            `got ${short(challenge)}`
        );
        if (!metadataUrl) return;
        const prm = await (await fetch(metadataUrl)).json();
        check(prm.resource === resource && Array.isArray(prm.authorization_servers) && prm.authorization_servers[0] === issuer, `${tag} resource metadata: resource ${resource}, authorization server the provider`, () =>
            short(prm)
        );
    });
}

// ------------------------------------------------------------ the checks
function checkTokens(tag, tokens, { resource, issuer, sub }) {
    const jwt = decodeJwt(tokens?.access_token ?? '');
    check(String(tokens?.token_type).toLowerCase() === 'bearer' && jwt !== undefined, `${tag} saved a Bearer access token that is a JWT`, () => short(tokens));
    if (!jwt) return;
    const { header, claims } = jwt;
    check(header.typ === 'at+jwt' && header.alg === op.alg && header.kid === op.kid(), `${tag} token header: typ at+jwt, alg ${op.alg}, the provider's kid`, () => short(header));
    check(
        claims.iss === issuer && claims.aud === resource && scopesOf(claims.scope).has(SCOPE) && claims.sub === sub,
        `${tag} token claims: iss the provider, aud ${resource}, scope has ${SCOPE}, sub ${sub}`,
        () => short(claims)
    );
}

async function useServer(tag, client) {
    const tools = await withTimeout(client.listTools(), STEP_MS, `${tag} tools/list`);
    const names = (tools.tools ?? []).map(t => t.name);
    check(names.includes('echo'), `${tag} tools/list has echo`, () => names.join(', '));
    const r = await withTimeout(client.callTool({ name: 'echo', arguments: { text: ECHO_TEXT } }), STEP_MS, `${tag} echo`);
    check(r.isError !== true && r.content?.[0]?.text === ECHO_TEXT, `${tag} echo -> the same text`, () => short(r));
}

/** One SDK's interactive sign-in, use, and refresh. */
async function runUser(sdk, { Client, Transport, UnauthorizedError, finishWithQuery }, { url, resource, issuer }) {
    const tag = `[${sdk} user]`;
    const log = [];
    const fetchFn = recordingFetch(log);
    const failedBefore = failedCount();
    // a native app's loopback redirect URI; nothing listens there: the user
    // agent stops at it
    const redirectUrl = `http://127.0.0.1:${await freePort()}/callback`;
    const provider = new HeadlessUserProvider(redirectUrl, `caduceus interop ${sdk}`);
    const clients = [];
    try {
        // 1. connect: 401 -> discovery, registration, the user agent, UnauthorizedError
        const first = await step(tag, 'first connect', async () => {
            const client = new Client(CLIENT_INFO);
            clients.push(client);
            const transport = new Transport(new URL(url), { authProvider: provider, fetch: fetchFn });
            try {
                await client.connect(transport);
                notOk(`${tag} first connect() throws UnauthorizedError (no token yet)`, 'it connected');
                return undefined;
            } catch (e) {
                check(e instanceof UnauthorizedError, `${tag} first connect() throws UnauthorizedError (no token yet)`, () => e?.stack ?? String(e));
                return transport;
            }
        });
        if (!first) return;
        check(typeof provider.client?.client_id === 'string' && log.some(e => e.what === `POST ${issuer}/reg` && e.status === 201), `${tag} registered dynamically at the provider (201, a client_id)`, () =>
            short(provider.client)
        );
        const a = provider.authorizationUrl;
        check(
            a?.origin + a?.pathname === `${issuer}/auth` &&
                a.searchParams.get('resource') === resource &&
                scopesOf(a.searchParams.get('scope')).has(SCOPE) &&
                a.searchParams.get('code_challenge_method') === 'S256' &&
                a.searchParams.get('client_id') === provider.client?.client_id,
            `${tag} sent the user to ${issuer}/auth with resource, scope ${SCOPE}, PKCE S256 and its client_id`,
            () => a?.href
        );
        const cb = provider.callback;
        if (!check(cb !== undefined, `${tag} the user agent got through login and consent to the redirect URI`, () => provider.userAgentError?.message)) return;
        const code = cb.searchParams.get('code');
        check(code && cb.searchParams.get('state') === provider.sentState && cb.searchParams.get('iss') === issuer, `${tag} the redirect carries code, the state sent and iss = the provider (RFC 9207)`, () =>
            cb.href
        );
        if (!code) return;

        // 2. finishAuth: code -> tokens
        const finished = await step(tag, 'finishAuth', async () => {
            await (finishWithQuery ? first.finishAuth(cb.searchParams) : first.finishAuth(code));
            return true;
        });
        if (!finished) return;
        const tokens = provider.tokenSet;
        checkTokens(tag, tokens, { resource, issuer, sub: 'alice' });
        check(typeof tokens?.refresh_token === 'string' && tokens.refresh_token.length > 0, `${tag} got a refresh token`, () => short(tokens));

        // 3. connect again with the token: list, call
        const client = new Client(CLIENT_INFO);
        clients.push(client);
        const connected = await step(tag, 'second connect', async () => {
            await client.connect(new Transport(new URL(url), { authProvider: provider, fetch: fetchFn }));
            ok(`${tag} connect() with the access token`);
            return true;
        });
        if (!connected) return;
        await step(tag, 'tools/list and echo', () => useServer(tag, client));

        // 4. a token the server refuses: the SDK refreshes it and goes on
        if (!tokens?.refresh_token) return;
        const savedBefore = provider.saved.length;
        provider.tokenSet = { ...provider.tokenSet, access_token: `${provider.tokenSet.access_token.slice(0, -8)}AAAAAAAA` };
        const logFrom = log.length;
        await step(tag, 'echo after the access token went bad', async () => {
            const r = await client.callTool({ name: 'echo', arguments: { text: 'after refresh' } });
            check(r.content?.[0]?.text === 'after refresh', `${tag} echo with a spoiled token -> the SDK refreshed and the call went through`, () => short(r));
        });
        const refused = log.slice(logFrom).find(e => e.what === `POST ${url}` && e.status === 401);
        check(refused && /error="invalid_token"/.test(refused.challenge ?? ''), `${tag} the server refused the spoiled token: 401 error="invalid_token"`, () => short(log.slice(logFrom)));
        const refreshed = provider.saved.slice(savedBefore).pop();
        check(
            refreshed && refreshed.access_token !== tokens.access_token && log.slice(logFrom).some(e => e.what === `POST ${issuer}/token` && e.status === 200),
            `${tag} a new access token from the refresh token (POST /token 200)`,
            () => short(provider.saved.slice(savedBefore))
        );
        if (refreshed) checkTokens(`${tag} refreshed:`, refreshed, { resource, issuer, sub: 'alice' });
        check(provider.redirects === 1, `${tag} the user was sent to the provider once only`, () => `${provider.redirects} times`);
    } finally {
        for (const c of clients) await withTimeout(c.close(), 5000, `${tag} close`).catch(() => {});
        if (failedCount() > failedBefore) dumpLog(tag, log);
    }
}

/** One SDK's ClientCredentialsProvider (mcp-machine). */
async function runMachine(sdk, { Client, Transport, ClientCredentialsProvider }, { url, resource, issuer }) {
    const tag = `[${sdk} machine]`;
    const log = [];
    const failedBefore = failedCount();
    const provider = new ClientCredentialsProvider({
        clientId: CLIENTS.machine.client_id,
        clientSecret: CLIENTS.machine.client_secret,
        clientName: `caduceus interop ${sdk} machine`,
        scope: SCOPE,
        expectedIssuer: issuer
    });
    const client = new Client(CLIENT_INFO);
    try {
        const connected = await step(tag, 'connect with client_credentials', async () => {
            await client.connect(new Transport(new URL(url), { authProvider: provider, fetch: recordingFetch(log) }));
            ok(`${tag} connect() signed in with client_credentials (mcp-machine)`);
            return true;
        });
        if (!connected) return;
        checkTokens(tag, provider.tokens(), { resource, issuer, sub: CLIENTS.machine.client_id });
        await step(tag, 'tools/list and echo', () => useServer(tag, client));
    } finally {
        await withTimeout(client.close(), 5000, `${tag} close`).catch(() => {});
        if (failedCount() > failedBefore) dumpLog(tag, log);
    }
}

// ------------------------------------------------------------------ main
const V1 = { Client: ClientV1, Transport: TransportV1, UnauthorizedError: UnauthorizedErrorV1, ClientCredentialsProvider: ClientCredentialsProviderV1, finishWithQuery: false };
const V2 = { Client: ClientV2, Transport: TransportV2, UnauthorizedError: UnauthorizedErrorV2, ClientCredentialsProvider: ClientCredentialsProviderV2, finishWithQuery: true };

const t0 = Date.now();
let srv;
try {
    op = await startProvider({});
    ok(`[provider] oidc-provider listening at ${op.issuer}`);
    let started;
    try {
        started = await startServer(op.issuer);
        srv = started.srv;
        ok('[server] protected everything-server printed its endpoint URL');
    } catch (e) {
        notOk('[server] protected everything-server printed its endpoint URL', e?.message ?? String(e));
    }
    if (started) {
        const where = { url: srv.url, resource: started.resource, issuer: op.issuer };
        diag(`server: ${serverCommand} ${started.args.join(' ')}`);
        check(srv.url === started.resource, '[server] its endpoint URL is the resource', () => `${srv.url} vs ${started.resource}`);
        await checkProtection(srv.url, started.resource, op.issuer);
        for (const [sdk, api] of [
            ['v1', V1],
            ['v2', V2]
        ]) {
            if (!httpServerAlive(srv)) {
                notOk(`[${sdk}] not run: the server is gone`, `exit ${srv.exitInfo}`);
                continue;
            }
            await runUser(sdk, api, where);
            await runMachine(sdk, api, where);
        }
        await stopHttpServer('[server]', srv);
        if (failedCount() > 0 && srv.stderr.trim()) diag(`server stderr (last lines):\n${srv.stderr.trimEnd().split('\n').slice(-20).join('\n')}`);
    }
} catch (e) {
    notOk('harness ran without internal error', e?.stack ?? String(e));
} finally {
    await op?.close().catch(() => {});
    diag(`took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    finish();
}
