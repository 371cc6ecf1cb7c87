import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID Connect provider on 127.0.0.1 for the tests of the staff sign-in through the
 * school's provider (docs/decisions.md D96): the `oidc-provider` package with its discovery
 * document, its own signing keys (made here, RS256), PKCE required of the portal's client, and a
 * login page of its own, a plain HTML form as Microsoft's or Google's would be. Its people are
 * `accounts`: the name typed on its login page → the claims it says about them. Ticking "I used my
 * authenticator app" makes the sign-in's `amr` hold `mfa`.
 *
 * The provider is listening before the portal starts (the portal needs its issuer); the portal's
 * redirect URI is given to `register` once the portal knows its address.
 */

export interface ProviderAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface TestOidcProvider {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The people the provider knows: login name → their claims. */
  readonly accounts: Map<string, ProviderAccount>;
  /** Registers the portal's client with its redirect URI (the provider answers 503 until then). */
  register(redirectUri: string): Promise<void>;
  /**
   * Signs `login` in at an authorization URL the portal made, the way a browser would (its cookies
   * kept between the provider's pages), and answers the URL the provider sends the browser back to.
   */
  signInThrough(authorizationUrl: string, login: string, options?: { mfa?: boolean }): Promise<URL>;
  close(): Promise<void>;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startOidcProvider(): Promise<TestOidcProvider> {
  const accounts = new Map<string, ProviderAccount>();
  const clientId = 'school-portal';
  const clientSecret = crypto.randomBytes(24).toString('base64url');
  let provider: Provider | undefined;

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!provider) {
      res.statusCode = 503;
      res.end('not ready');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://provider');
    const interaction = /^\/interaction\/([\w-]+)(\/login)?$/.exec(url.pathname);
    if (!interaction) {
      provider.callback()(req, res);
      return;
    }
    const details = await provider.interactionDetails(req, res);
    if (!interaction[2]) {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><html lang="en"><head><title>Test school sign-in</title><meta name="viewport" content="width=device-width"></head><body>
<h1>Test school sign-in</h1>
<form method="post" action="/interaction/${escapeHtml(details.uid)}/login">
<label>Account <input name="login" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<label><input name="mfa" type="checkbox" value="1"> I used my authenticator app</label>
<button type="submit">Sign in at the provider</button>
</form></body></html>`);
      return;
    }
    const form = await readForm(req);
    const login = form.get('login') ?? '';
    if (!accounts.has(login) || !form.get('password')) {
      res.statusCode = 401;
      res.end('Unknown account or no password.');
      return;
    }
    const grant = new provider.Grant({ accountId: login, clientId: String(details.params['client_id']) });
    grant.addOIDCScope('openid email profile');
    const grantId = await grant.save();
    const amr = form.get('mfa') === '1' ? ['pwd', 'mfa'] : ['pwd'];
    await provider.interactionFinished(req, res, { login: { accountId: login, amr }, consent: { grantId } }, { mergeWithLastSubmission: false });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: 'jwk' }), alg: 'RS256', use: 'sig', kid: 'test-key' };

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    register(redirectUri) {
      provider = new Provider(issuer, {
        clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], response_types: ['code'], grant_types: ['authorization_code'] }],
        jwks: { keys: [signingKey] },
        pkce: { required: () => true },
        features: { devInteractions: { enabled: false } },
        // `amr` (how the person signed in: ['pwd'] or ['pwd', 'mfa']) in every ID token, as Microsoft Entra ID sends it.
        claims: { acr: null, sid: null, auth_time: null, iss: null, openid: ['sub', 'amr'], email: ['email', 'email_verified'], profile: ['name'] },
        // The address in the ID token itself, as Microsoft Entra ID and Google put it there.
        conformIdTokenClaims: false,
        cookies: { keys: [crypto.randomBytes(16).toString('hex')] },
        interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
        findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id, ...accounts.get(id) }) }),
      });
      return Promise.resolve();
    },
    async signInThrough(authorizationUrl, login, options = {}) {
      const jar = new Map<string, string>();
      const call = async (url: string, init: RequestInit = {}) => {
        const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
        for (const cookie of response.headers.getSetCookie()) {
          const [pair] = cookie.split(';');
          const at = pair!.indexOf('=');
          const value = pair!.slice(at + 1);
          if (value === '' || /expires=Thu, 01 Jan 1970/i.test(cookie)) jar.delete(pair!.slice(0, at));
          else jar.set(pair!.slice(0, at), value);
        }
        return response;
      };
      const toLogin = await call(authorizationUrl);
      const loginPage = new URL(toLogin.headers.get('location') ?? '', issuer);
      if (!loginPage.pathname.startsWith('/interaction/')) throw new Error(`the provider did not ask for a login: ${toLogin.status} ${await toLogin.text()}`);
      const body = new URLSearchParams({ login, password: 'provider-password', ...(options.mfa ? { mfa: '1' } : {}) });
      const finished = await call(`${loginPage.href}/login`, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      let next = new URL(finished.headers.get('location') ?? '', issuer);
      // The provider resumes the authorization, then sends the browser to the portal.
      for (let hops = 0; next.origin === issuer && hops < 5; hops++) {
        const response = await call(next.href);
        const location = response.headers.get('location');
        if (!location) throw new Error(`the provider stopped at ${next.href}: ${response.status} ${await response.text()}`);
        next = new URL(location, issuer);
      }
      return next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
