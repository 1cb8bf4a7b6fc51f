#!/usr/bin/env node
// A real OpenID provider for interop tests: oidc-provider (by panva, pinned in
// package.json) on http://127.0.0.1:<port>, configured as the authorization
// server of a protected MCP server. A module (startProvider, authorizeHeadless)
// and a CLI:
//
//   node oidc_provider.mjs [--port N] [--alg ES256|RS256] [--access-token-ttl S]
//                          [--token-format auto|jwt|opaque] [--dpop] [--debug]
//
// The CLI prints ONE JSON line on stdout once it accepts connections, e.g.
//   {"issuer":"http://127.0.0.1:PORT","jwks_uri":"...","kid":"...",...}
// and nothing else on stdout (errors and warnings go to stderr). It serves until
// SIGTERM, SIGINT or SIGHUP, or until its stdin reaches end of file when stdin
// is a pipe or a socket (a parent that closes its end, or dies, stops it; with
// stdin a terminal or /dev/null only the signals do). Exit status 0, 1 when
// it could not start (the port is taken...), 2 on a usage error. --debug logs
// every request to stderr (also OIDC_PROVIDER_DEBUG=1).
//
// What it is (every name below is fixed; tests rely on it):
// - Issuer http://127.0.0.1:PORT (no trailing slash). Metadata (the same
//   document) at /.well-known/openid-configuration and at RFC 8414's
//   /.well-known/oauth-authorization-server. Endpoints: /auth, /token, /reg
//   (dynamic registration, open), /token/introspection, /token/revocation,
//   /jwks, /me. response_type `code` only. RFC 9207 `iss` in every
//   authorization response. PKCE S256 required of every client. No PAR. DPoP
//   (RFC 9449) only with --dpop: then dpop_signing_alg_values_supported is
//   advertised, and a token request with a DPoP proof gets a token bound to
//   its key (cnf.jkt, token_type DPoP; no nonces); without a proof, Bearer.
// - Resource indicators (RFC 8707): any http(s) resource on 127.0.0.1,
//   localhost or [::1] gets access tokens with `aud` = the resource exactly as
//   sent, scopes `mcp:tools mcp:admin` available. Format (token-format `auto`,
//   the default): a JWT (RFC 9068: header typ "at+jwt", alg ES256 or RS256,
//   kid of the current key; claims iss, sub, aud, client_id, scope, iat, exp,
//   jti) unless the resource's path contains "/opaque", which gets an opaque
//   token (for introspection; oidc-provider refuses to introspect JWTs).
//   `jwt` / `opaque` force one format for every resource. Any other resource:
//   invalid_target. A request without `resource`: the one resource of the
//   grant if there is one, else an opaque token for /me only.
// - Scopes (scopes_supported): openid offline_access mcp:tools mcp:admin. The
//   MCP ones are listed as provider scopes too because oidc-provider refuses a
//   registration whose `scope` holds a value it does not list (the TS SDKs
//   register with the scope they are about to ask for). `openid` is NOT needed:
//   an authorization code request with only `mcp:tools` works (oidc-provider
//   asks for `openid` only with id_token response types, nonce, claims,
//   max_age...). offline_access is dropped by oidc-provider unless
//   prompt=consent is asked for, so refresh tokens do not depend on it: every
//   client allowed the refresh_token grant gets one from the code flow.
// - Interactions: no login page. GET /interaction/:uid answers at once: the
//   login prompt logs in as `login_hint` (when given) or `alice`; the consent
//   prompt grants every requested OIDC scope and every requested resource
//   scope (a provider.Grant created or extended: addOIDCScope,
//   addResourceScope) and finishes with provider.interactionFinished (303 to
//   the authorization endpoint again). A user agent that follows redirects and
//   keeps cookies (_interaction, _interaction_resume and _session, each with
//   a .sig twin, each with its own path: sending every cookie of the origin
//   to every path also works, if an expired Set-Cookie removes its cookie)
//   lands on the redirect_uri with code, state and iss after five 303s:
//   /auth -> /interaction/A (login) -> /auth/A -> /interaction/B (consent)
//   -> /auth/B -> redirect_uri (some Locations are relative: resolve them).
//   authorizeHeadless() below is such a user agent.
// - Accounts: any id; claims sub, name, email (<id>@example.test).
// - Pre-registered clients:
//     mcp-machine / machine-secret  client_credentials only, client_secret_basic
//     mcp-server  / server-secret   introspection and revocation only (no grant)
//     mcp-app                       public (none), authorization_code + refresh_token,
//                                   native, redirect_uris http://127.0.0.1:8765/callback
//                                   and http://localhost:8765/callback (any port: a
//                                   native client's loopback port may vary, RFC 8252)
//   Dynamically registered clients get what they ask for (default
//   client_secret_basic, authorization_code; application_type web, whose
//   redirect_uris match exactly). A client registered with a `scope` may
//   later ask only for scopes within it (invalid_scope otherwise: a step-up
//   to mcp:admin needs a client registered without `scope` or with it).
// - Introspection (mcp-server, or any confidential client): active, client_id,
//   iss, aud, scope, exp, iat, token_type, and sub only for a user's token
//   (a client_credentials token has none there; as a JWT its sub is the
//   client id). JWTs cannot be introspected (invalid_request).
// - Lifetimes (seconds): access tokens `accessTokenTtl` (300; --access-token-ttl),
//   also for client_credentials; authorization codes 60; refresh tokens 86400
//   (rotated on every use by public clients); ID tokens 300; interactions 600;
//   sessions and grants 86400. Clock tolerance 15.
// - Keys: one EC P-256 (ES256, the default) or RSA 2048 (RS256) key made at
//   start, kid = its RFC 7638 thumbprint. Everything is in memory.
//
// Test-only endpoints (only for clients on the loopback; the server listens on
// 127.0.0.1 only anyway). Bodies are JSON; answers are JSON; errors are
// 4xx {"error": "...", "error_description": "..."}.
//
//   POST /test/rotate-keys   body: none or {} or {"retire_old": true}
//     Makes a new key (new kid) the one every token is signed with from now
//     on. The old keys STAY PUBLISHED at /jwks (after the new one) so tokens
//     already issued keep verifying, unless "retire_old" is true: then only
//     the new key is published. A verifier that cached the old JWKS sees an
//     unknown kid on the next token and has to fetch /jwks again.
//     200 {"kid": NEW, "previous": OLD, "published": [kids, newest first]}
//
//   POST /test/sign          body: {"claims": {...}, "header": {...}}
//                            (or a bare claims object, when it has no "claims" member)
//     Signs a JWT with the provider's CURRENT signing key (a valid signature),
//     for tokens a real grant would never give: expired, not yet valid, another
//     issuer or audience, a wrong typ or kid... Claims default to
//     iss = issuer, iat = now, exp = now + 300, jti = random; every claim given
//     replaces its default, and a claim given as null is left out. The header
//     is {alg, kid, typ: "at+jwt"}; fields given replace those (kid: "x" for an
//     unknown key, typ: "JWT"), null leaves one out; alg must stay the key's.
//     200 {"token": JWT, "header": {...}, "claims": {...}}
//
// Module use:
//   import { startProvider, authorizeHeadless } from './oidc_provider.mjs';
//   const op = await startProvider({ port: 0 });   // options below
//   op.issuer; await op.rotateKeys(); await op.sign(claims, header); await op.close();

import fs from 'node:fs';
import http from 'node:http';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
// jose is oidc-provider's own dependency (the same copy it signs with).
import * as jose from 'jose';

// oidc-provider 9 supports the Node.js LTS lines from 22 on and says so once,
// on stderr, when it is loaded on Node 20 ("Unsupported runtime"); it works on
// Node 20.20 (every test here runs on it). That one line is dropped; any other
// warning goes through.
const { default: Provider, errors: oidcErrors } = await (async () => {
    const warn = console.warn;
    console.warn = (...args) => {
        if (typeof args[0] === 'string' && args[0].includes('Unsupported runtime')) return;
        warn.apply(console, args);
    };
    try {
        return await import('oidc-provider');
    } finally {
        console.warn = warn;
    }
})();
// Not public API: the function that builds the provider's keystore and its
// published JWKS from a JWK Set, run again by rotateKeys() (oidc-provider has
// no runtime key rotation; the version is pinned).
const { default: initializeKeystore } = await import('oidc-provider/lib/helpers/initialize_keystore.js');
// Its in-memory storage, one per provider (the default one is shared by every
// provider of the process and warns on stderr that it is for development).
const { createMemoryAdapter } = await import('oidc-provider/lib/adapters/memory_adapter.js');

export const SCOPES = ['openid', 'offline_access', 'mcp:tools', 'mcp:admin'];
export const RESOURCE_SCOPES = 'mcp:tools mcp:admin';
export const DEFAULT_ACCOUNT = 'alice';
export const CLIENTS = {
    machine: { client_id: 'mcp-machine', client_secret: 'machine-secret' },
    server: { client_id: 'mcp-server', client_secret: 'server-secret' },
    app: { client_id: 'mcp-app', redirect_uris: ['http://127.0.0.1:8765/callback', 'http://localhost:8765/callback'] }
};
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const MAX_TEST_BODY = 64 * 1024;

const epoch = () => Math.floor(Date.now() / 1000);

async function makeKey(alg) {
    const { privateKey } = await jose.generateKeyPair(alg, { extractable: true, ...(alg.startsWith('RS') ? { modulusLength: 2048 } : {}) });
    const jwk = await jose.exportJWK(privateKey);
    jwk.kid = await jose.calculateJwkThumbprint(jwk);
    jwk.alg = alg;
    jwk.use = 'sig';
    return { jwk, key: privateKey };
}

function isLoopbackAddress(address) {
    return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

async function readJson(req) {
    const chunks = [];
    let size = 0;
    for await (const chunk of req) {
        size += chunk.length;
        if (size > MAX_TEST_BODY) throw new Error(`body over ${MAX_TEST_BODY} bytes`);
        chunks.push(chunk);
    }
    const text = Buffer.concat(chunks).toString('utf8').trim();
    if (text === '') return {};
    const value = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('the body is not a JSON object');
    return value;
}

/**
 * Starts an oidc-provider on http://127.0.0.1:<port>. Options:
 *   port            0 (a free port, the default) or a fixed one
 *   alg             'ES256' (default) or 'RS256': the signing algorithm of every token
 *   accessTokenTtl  seconds (300)
 *   tokenFormat     'auto' (JWT, opaque for resources with "/opaque" in the path), 'jwt', 'opaque'
 *   dpop            true: DPoP-bound tokens for clients that send a proof (default false)
 *   debug           log every request to stderr (also OIDC_PROVIDER_DEBUG=1)
 * Resolves to { issuer, port, provider, server, alg, kid(), rotateKeys({retireOld}),
 * sign(claims, header), close() }.
 */
export async function startProvider({
    port = 0,
    alg = 'ES256',
    accessTokenTtl = 300,
    tokenFormat = 'auto',
    dpop = false,
    debug = process.env.OIDC_PROVIDER_DEBUG === '1'
} = {}) {
    if (!['ES256', 'RS256'].includes(alg)) throw new Error(`alg must be ES256 or RS256, not ${alg}`);
    if (!['auto', 'jwt', 'opaque'].includes(tokenFormat)) throw new Error(`tokenFormat must be auto, jwt or opaque, not ${tokenFormat}`);
    if (!(Number.isInteger(accessTokenTtl) && accessTokenTtl > 0)) throw new Error(`accessTokenTtl must be a positive integer, not ${accessTokenTtl}`);

    // The port first: the issuer names it.
    const server = http.createServer();
    await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
            server.off('error', reject);
            resolve();
        });
    });
    const issuer = `http://127.0.0.1:${server.address().port}`;

    // Signing keys, newest first: keys[0] signs.
    let keys = [await makeKey(alg)];

    const formatFor = resource => {
        if (tokenFormat !== 'auto') return tokenFormat;
        return new URL(resource).pathname.includes('/opaque') ? 'opaque' : 'jwt';
    };

    const configuration = {
        adapter: createMemoryAdapter(15),
        clockTolerance: 15,
        jwks: { keys: keys.map(k => k.jwk) },
        responseTypes: ['code'],
        clients: [
            {
                client_id: CLIENTS.machine.client_id,
                client_secret: CLIENTS.machine.client_secret,
                client_name: 'MCP machine client (client_credentials)',
                grant_types: ['client_credentials'],
                response_types: [],
                redirect_uris: [],
                token_endpoint_auth_method: 'client_secret_basic'
            },
            {
                client_id: CLIENTS.server.client_id,
                client_secret: CLIENTS.server.client_secret,
                client_name: 'MCP resource server (introspection)',
                grant_types: [],
                response_types: [],
                redirect_uris: [],
                token_endpoint_auth_method: 'client_secret_basic'
            },
            {
                client_id: CLIENTS.app.client_id,
                client_name: 'MCP app (public, native)',
                application_type: 'native',
                grant_types: ['authorization_code', 'refresh_token'],
                response_types: ['code'],
                redirect_uris: CLIENTS.app.redirect_uris,
                token_endpoint_auth_method: 'none'
            }
        ],
        clientDefaults: {
            grant_types: ['authorization_code'],
            id_token_signed_response_alg: alg,
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_basic'
        },
        scopes: SCOPES,
        claims: { openid: ['sub'], email: ['email'], profile: ['name'] },
        cookies: { keys: [crypto.randomBytes(32).toString('base64url')] },
        pkce: { required: () => true },
        features: {
            devInteractions: { enabled: false },
            dPoP: { enabled: dpop },
            pushedAuthorizationRequests: { enabled: false },
            rpInitiatedLogout: { enabled: false },
            registration: { enabled: true },
            clientCredentials: { enabled: true },
            introspection: {
                enabled: true,
                // Confidential clients (mcp-server) may introspect any token,
                // a public client only its own (oidc-provider's default rule).
                allowedPolicy: async (ctx, client, token) => client.clientAuthMethod !== 'none' || token.clientId === client.clientId
            },
            revocation: {
                enabled: true,
                // Confidential clients (mcp-server) may revoke any token, others their own.
                allowedPolicy: async (ctx, client, token) => client.clientAuthMethod !== 'none' || token.clientId === client.clientId
            },
            resourceIndicators: {
                enabled: true,
                // No `resource` at the token endpoint: the grant's resource if it
                // has exactly one (the token then is for it), none otherwise.
                defaultResource: async (ctx, client, oneOf) => (Array.isArray(oneOf) && oneOf.length === 1 ? oneOf[0] : undefined),
                useGrantedResource: async () => true,
                getResourceServerInfo: async (ctx, resourceIndicator) => {
                    const url = URL.parse(resourceIndicator);
                    if (!url || !['http:', 'https:'].includes(url.protocol) || !LOOPBACK_HOSTS.has(url.hostname))
                        throw new oidcErrors.InvalidTarget(`this test provider only issues tokens for loopback resources, not ${resourceIndicator}`);
                    const format = formatFor(resourceIndicator);
                    return {
                        scope: RESOURCE_SCOPES,
                        accessTokenTTL: accessTokenTtl,
                        accessTokenFormat: format,
                        // the current key, by kid: rotateKeys() changes it
                        ...(format === 'jwt' ? { jwt: { sign: { alg, kid: keys[0].jwk.kid } } } : {})
                    };
                }
            }
        },
        // Every code flow of a client allowed refresh_token gets one (without
        // offline_access, which oidc-provider drops without prompt=consent).
        issueRefreshToken: async (ctx, client, source) => client.grantTypeAllowed('refresh_token') && ['authorization_code', 'refresh_token'].includes(ctx.oidc.params.grant_type),
        expiresWithSession: async () => false,
        async findAccount(ctx, id) {
            return {
                accountId: id,
                async claims() {
                    return { sub: id, name: id, email: `${id}@example.test` };
                }
            };
        },
        ttl: {
            AccessToken: accessTokenTtl,
            ClientCredentials: accessTokenTtl,
            AuthorizationCode: 60,
            IdToken: 300,
            RefreshToken: 86400,
            Interaction: 600,
            Session: 86400,
            Grant: 86400,
            DeviceCode: 600,
            BackchannelAuthenticationRequest: 600,
            PreAuthorizedCode: 600
        },
        clientBasedCORS: () => false,
        interactions: { url: async (ctx, interaction) => `/interaction/${interaction.uid}` },
        // Errors a user agent meets (bad client, redirect_uri...): JSON, not an HTML page.
        async renderError(ctx, out) {
            ctx.type = 'json';
            ctx.body = out;
        }
    };

    let provider;
    try {
        provider = new Provider(issuer, configuration);
    } catch (e) {
        server.close();
        throw e;
    }
    provider.on('server_error', (ctx, err) => console.error(`oidc_provider: server_error on ${ctx?.method} ${ctx?.path}: ${err?.stack ?? err}`));

    const publish = () => initializeKeystore.call(provider, { keys: keys.map(k => k.jwk) });

    async function rotateKeys({ retireOld = false } = {}) {
        const previous = keys[0].jwk.kid;
        const fresh = await makeKey(alg);
        keys = retireOld ? [fresh] : [fresh, ...keys];
        publish();
        return { kid: fresh.jwk.kid, previous, published: keys.map(k => k.jwk.kid) };
    }

    async function sign(claims = {}, header = {}) {
        const now = epoch();
        const payload = { iss: issuer, iat: now, exp: now + 300, jti: crypto.randomUUID(), ...claims };
        for (const [k, v] of Object.entries(payload)) if (v === null) delete payload[k];
        const key = keys[0];
        const protectedHeader = { alg, kid: key.jwk.kid, typ: 'at+jwt', ...header };
        for (const [k, v] of Object.entries(protectedHeader)) if (v === null) delete protectedHeader[k];
        if (protectedHeader.alg !== alg) throw new RangeError(`header alg must be ${alg} (the key's), not ${protectedHeader.alg}`);
        const token = await new jose.CompactSign(new TextEncoder().encode(JSON.stringify(payload))).setProtectedHeader(protectedHeader).sign(key.key);
        return { token, header: protectedHeader, claims: payload };
    }

    // The test endpoints and the auto-approving interactions, ahead of oidc-provider's routes.
    provider.use(async (ctx, next) => {
        if (debug) console.error(`oidc_provider: ${ctx.method} ${ctx.url}`);
        if (ctx.path.startsWith('/test/')) {
            const fail = (status, error, description) => {
                ctx.status = status;
                ctx.body = { error, error_description: description };
            };
            if (!isLoopbackAddress(ctx.req.socket.remoteAddress)) return fail(403, 'access_denied', 'test endpoints are for loopback clients only');
            if (ctx.method !== 'POST') return fail(405, 'invalid_request', `${ctx.path} takes POST`);
            let body;
            try {
                body = await readJson(ctx.req);
            } catch (e) {
                return fail(400, 'invalid_request', `bad JSON body: ${e.message}`);
            }
            if (ctx.path === '/test/rotate-keys') {
                ctx.body = await rotateKeys({ retireOld: body.retire_old === true });
                return;
            }
            if (ctx.path === '/test/sign') {
                const structured = body.claims !== undefined && Object.keys(body).every(k => k === 'claims' || k === 'header');
                const claims = structured ? body.claims : body;
                const header = structured ? (body.header ?? {}) : {};
                if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) return fail(400, 'invalid_request', '"claims" must be an object');
                if (header === null || typeof header !== 'object' || Array.isArray(header)) return fail(400, 'invalid_request', '"header" must be an object');
                try {
                    ctx.body = await sign(claims, header);
                } catch (e) {
                    return fail(400, 'invalid_request', e.message);
                }
                return;
            }
            return fail(404, 'invalid_request', `no test endpoint ${ctx.path}`);
        }
        const m = /^\/interaction\/([^/]+)$/.exec(ctx.path);
        if (!m || ctx.method !== 'GET') return next();
        const details = await provider.interactionDetails(ctx.req, ctx.res);
        const { prompt, params, session } = details;
        let result;
        if (prompt.name === 'login') {
            const accountId = typeof params.login_hint === 'string' && params.login_hint ? params.login_hint : DEFAULT_ACCOUNT;
            result = { login: { accountId } };
        } else if (prompt.name === 'consent') {
            let grant = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
            grant ??= new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
            const { missingOIDCScope, missingOIDCClaims, missingResourceScopes } = prompt.details;
            if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(' '));
            if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims);
            if (missingResourceScopes) for (const [indicator, scopes] of Object.entries(missingResourceScopes)) grant.addResourceScope(indicator, scopes.join(' '));
            const grantId = await grant.save();
            result = { consent: details.grantId ? {} : { grantId } };
        } else {
            throw new Error(`unexpected prompt ${prompt.name}`);
        }
        if (debug) console.error(`oidc_provider: interaction ${m[1]}: ${prompt.name} -> ${JSON.stringify(result)}`);
        ctx.respond = false; // interactionFinished writes the 303 itself
        await provider.interactionFinished(ctx.req, ctx.res, result, { mergeWithLastSubmission: true });
    });

    server.on('request', provider.callback());
    const sockets = new Set();
    server.on('connection', s => {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
    });

    let closed;
    return {
        issuer,
        port: server.address().port,
        provider,
        server,
        alg,
        kid: () => keys[0].jwk.kid,
        rotateKeys,
        sign,
        /** Stops listening and drops every connection (idempotent). */
        close() {
            closed ??= new Promise(resolve => {
                server.close(() => resolve());
                for (const s of sockets) s.destroy();
            });
            return closed;
        }
    };
}

/**
 * A headless user agent for the authorization endpoint: GETs `authorizationUrl`
 * and follows every redirect on the provider's origin (keeping cookies) until
 * one goes to `redirectUri` (compared without query; the port of a loopback
 * redirect may differ only if `anyLoopbackPort`), which it does NOT fetch.
 * Resolves to that callback URL (a URL: code, state and iss, or error, in its
 * searchParams). Rejects on a non-redirect answer, a redirect elsewhere, more
 * than `maxHops` redirects or after `timeoutMs`.
 */
export async function authorizeHeadless(authorizationUrl, { redirectUri, maxHops = 10, timeoutMs = 10_000, anyLoopbackPort = false } = {}) {
    const start = new URL(authorizationUrl);
    const target = new URL(redirectUri);
    const sameTarget = u =>
        u.protocol === target.protocol &&
        u.hostname === target.hostname &&
        u.pathname === target.pathname &&
        (u.port === target.port || (anyLoopbackPort && LOOPBACK_HOSTS.has(u.hostname)));
    const jar = new Map();
    const signal = AbortSignal.timeout(timeoutMs);
    let url = start;
    for (let hop = 0; hop <= maxHops; hop++) {
        const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
        const res = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {}, signal });
        for (const line of res.headers.getSetCookie()) {
            const [pair] = line.split(';');
            const eq = pair.indexOf('=');
            if (eq > 0) {
                const name = pair.slice(0, eq).trim();
                const value = pair.slice(eq + 1).trim();
                if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') jar.delete(name);
                else jar.set(name, value);
            }
        }
        const location = res.headers.get('location');
        const body = await res.text().catch(() => '');
        if (res.status < 300 || res.status > 399 || !location)
            throw new Error(`authorization: ${url.href} answered ${res.status} without a redirect: ${body.slice(0, 400)}`);
        const next = new URL(location, url);
        if (sameTarget(next)) return next;
        if (next.origin !== start.origin) throw new Error(`authorization: redirected off the provider to ${next.href}`);
        url = next;
    }
    throw new Error(`authorization: more than ${maxHops} redirects`);
}

// ------------------------------------------------------------------ the CLI
function parseArgs(argv) {
    const options = {};
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        const value = () => {
            if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
            return argv[++i];
        };
        if (a === '--port') {
            const port = Number(value());
            if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`bad --port ${argv[i]}`);
            options.port = port;
        } else if (a === '--alg') {
            options.alg = value();
            if (!['ES256', 'RS256'].includes(options.alg)) throw new Error(`--alg must be ES256 or RS256, not ${options.alg}`);
        } else if (a === '--access-token-ttl') {
            options.accessTokenTtl = Number(value());
            if (!(Number.isInteger(options.accessTokenTtl) && options.accessTokenTtl > 0)) throw new Error(`bad --access-token-ttl ${argv[i]}`);
        } else if (a === '--token-format') {
            options.tokenFormat = value();
            if (!['auto', 'jwt', 'opaque'].includes(options.tokenFormat)) throw new Error(`--token-format must be auto, jwt or opaque, not ${options.tokenFormat}`);
        } else if (a === '--dpop') options.dpop = true;
        else if (a === '--debug') options.debug = true;
        else throw new Error(`unknown argument ${a}`);
    }
    return options;
}

async function main() {
    // stdout carries the ready line only: anything oidc-provider (or a
    // dependency) logs goes to stderr.
    console.log = console.info = console.debug = (...args) => console.error(...args);
    let options;
    try {
        options = parseArgs(process.argv.slice(2));
    } catch (e) {
        console.error(`oidc_provider: ${e.message}\nusage: node oidc_provider.mjs [--port N] [--alg ES256|RS256] [--access-token-ttl S] [--token-format auto|jwt|opaque] [--dpop] [--debug]`);
        process.exit(2);
    }
    let op;
    try {
        op = await startProvider(options);
    } catch (e) {
        console.error(`oidc_provider: cannot start: ${e?.stack ?? e}`);
        process.exit(1);
    }
    let stopping = false;
    const stop = why => {
        if (stopping) return;
        stopping = true;
        if (options.debug) console.error(`oidc_provider: stopping (${why})`);
        const force = setTimeout(() => process.exit(0), 2000);
        force.unref();
        op.close().then(() => process.exit(0));
    };
    for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(sig, () => stop(sig));
    let stat;
    try {
        stat = fs.fstatSync(0);
    } catch {
        stat = undefined;
    }
    if (stat && (stat.isFIFO() || stat.isSocket())) {
        process.stdin.on('end', () => stop('stdin closed'));
        process.stdin.on('error', () => stop('stdin error'));
        process.stdin.resume();
    }
    const meta = {
        issuer: op.issuer,
        jwks_uri: `${op.issuer}/jwks`,
        token_endpoint: `${op.issuer}/token`,
        introspection_endpoint: `${op.issuer}/token/introspection`,
        registration_endpoint: `${op.issuer}/reg`,
        alg: op.alg,
        kid: op.kid()
    };
    fs.writeSync(1, `${JSON.stringify(meta)}\n`);
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === fs.realpathSync(fileURLToPath(import.meta.url))) await main();
