import * as client from 'openid-client';
import { z } from 'zod';
import type { Config, OidcProviderConfig } from '../config.js';
import type { ProviderSignInError } from '../../shared/staff-sign-in.js';
import { readSignedValue, signedValue } from '../http/signing.js';

/**
 * Staff sign-in through the school's own provider: OpenID Connect's Authorization Code flow with
 * PKCE (S256), `state` and `nonce`, through openid-client (docs/decisions.md D96). The provider's
 * settings come from its discovery document at OIDC_ISSUER, fetched on the first sign-in and kept
 * for the app's life (a failed fetch is tried again at the next sign-in). The redirect URI is
 * PUBLIC_URL's, so it is the one registered with the provider whatever Host a request carried.
 *
 * The sign-in in progress lives in the browser: an httpOnly cookie on the callback's path holding
 * the provider, `state`, `nonce`, the PKCE verifier, "Keep me signed in" and its expiry, with an
 * HMAC under the server's secret (D38). A callback opened in another browser (a forwarded link)
 * has no cookie; the cookie is cleared at the callback, so a second opening has none either; a
 * code taken once is refused by the provider itself. Nothing is stored server-side, so any
 * process on the database completes a sign-in another started.
 */

export const OIDC_PENDING_COOKIE = 'portal_oidc';
export const OIDC_PENDING_TTL_MS = 10 * 60_000;
/** The cookie's path: sent only to the provider routes. */
export const OIDC_COOKIE_PATH = '/api/oidc';

const PendingSchema = z.strictObject({
  p: z.string().max(40),
  s: z.string().max(100),
  n: z.string().max(100),
  v: z.string().max(200),
  r: z.boolean(),
  e: z.number().int(),
});
export type PendingProviderSignIn = z.infer<typeof PendingSchema>;

const PENDING_PURPOSE = 'oidc';

function mintPending(secret: Buffer, pending: PendingProviderSignIn): string {
  return signedValue(secret, PENDING_PURPOSE, pending);
}

/** The sign-in a cookie holds when its MAC is the server's and it has not expired; otherwise null. */
export function parsePending(secret: Buffer, cookie: string | undefined, now = Date.now()): PendingProviderSignIn | null {
  if (!cookie || cookie.length > 1000) return null;
  const json = readSignedValue(secret, PENDING_PURPOSE, cookie);
  if (json === undefined) return null;
  const parsed = PendingSchema.safeParse(json);
  if (!parsed.success || parsed.data.e <= now || parsed.data.e > now + OIDC_PENDING_TTL_MS) return null;
  return parsed.data;
}

/** What the provider said about the person, once every check passed. */
export interface ProviderIdentity {
  issuer: string;
  subject: string;
  /** The address, lower-case, only when the provider says it verified it; null otherwise. */
  verifiedEmail: string | null;
  /** The address as given, verified or not (for the audit log of a refusal). */
  email: string | null;
  /** The sign-in used more than a password: `amr` holds `mfa`, or the administrator trusts the provider to require it. */
  multiFactor: boolean;
}

export class ProviderSignInFailed extends Error {
  constructor(
    readonly reason: ProviderSignInError,
    detail: string,
  ) {
    super(detail);
  }
}

const isLoopbackHttp = (issuer: string) => {
  const url = new URL(issuer);
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
};

/**
 * Whether the provider verified the address: `email_verified` (Google, most providers), or
 * Microsoft Entra ID's `xms_edov` (the address's domain is one the tenant verified), which Entra
 * sends instead when the optional claim is configured (README).
 */
function isVerified(claims: Record<string, unknown>): boolean {
  return claims['email_verified'] === true || claims['email_verified'] === 'true' || claims['xms_edov'] === true || claims['xms_edov'] === '1';
}

/** The providers of one app: their discovered settings, the start of a sign-in and its completion. */
export function createProviderSignIn(config: Config) {
  const discovered = new Map<string, Promise<client.Configuration>>();

  const providerOf = (id: string): OidcProviderConfig | undefined => config.oidcProviders.find((provider) => provider.id === id);
  const redirectUriOf = (provider: OidcProviderConfig) => `${config.publicUrl}/api/oidc/${provider.id}/callback`;

  function settingsOf(provider: OidcProviderConfig): Promise<client.Configuration> {
    let found = discovered.get(provider.id);
    if (!found) {
      found = client.discovery(new URL(provider.issuer), provider.clientId, provider.clientSecret, undefined, {
        timeout: 10,
        ...(isLoopbackHttp(provider.issuer) ? { execute: [client.allowInsecureRequests] } : {}),
      });
      discovered.set(provider.id, found);
      found.catch(() => discovered.delete(provider.id));
    }
    return found;
  }

  return {
    providerOf,

    /** The provider's authorization URL for a new sign-in, and the cookie that remembers it. */
    async start(provider: OidcProviderConfig, secret: Buffer, remember: boolean, now = Date.now()): Promise<{ url: string; cookie: string }> {
      let settings: client.Configuration;
      try {
        settings = await settingsOf(provider);
      } catch (error) {
        throw new ProviderSignInFailed('provider_unreachable', error instanceof Error ? error.message : String(error));
      }
      const verifier = client.randomPKCECodeVerifier();
      const pending: PendingProviderSignIn = { p: provider.id, s: client.randomState(), n: client.randomNonce(), v: verifier, r: remember, e: now + OIDC_PENDING_TTL_MS };
      const url = client.buildAuthorizationUrl(settings, {
        redirect_uri: redirectUriOf(provider),
        scope: 'openid email profile',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: pending.s,
        nonce: pending.n,
      });
      return { url: url.href, cookie: mintPending(secret, pending) };
    },

    /**
     * The callback: the code exchanged (with the PKCE verifier) and the ID token checked by
     * openid-client (signature, issuer, audience, expiry, `state`, `nonce`); the address read from
     * the ID token, or from the userinfo endpoint when the token leaves it out.
     */
    async complete(provider: OidcProviderConfig, pending: PendingProviderSignIn, search: string): Promise<ProviderIdentity> {
      const settings = await settingsOf(provider).catch((error: unknown) => {
        throw new ProviderSignInFailed('provider_unreachable', error instanceof Error ? error.message : String(error));
      });
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(settings, new URL(`${redirectUriOf(provider)}${search}`), {
          pkceCodeVerifier: pending.v,
          expectedState: pending.s,
          expectedNonce: pending.n,
          idTokenExpected: true,
        });
      } catch (error) {
        const reason = error instanceof client.AuthorizationResponseError ? 'provider_refused' : 'failed';
        throw new ProviderSignInFailed(reason, error instanceof Error ? `${error.name}: ${error.message}` : String(error));
      }
      const claims = tokens.claims();
      if (!claims) throw new ProviderSignInFailed('failed', 'no ID token');
      let profile: Record<string, unknown> = claims;
      if (typeof claims['email'] !== 'string') {
        try {
          profile = { ...(await client.fetchUserInfo(settings, tokens.access_token, claims.sub)), ...claims };
        } catch (error) {
          throw new ProviderSignInFailed('failed', error instanceof Error ? `userinfo: ${error.message}` : String(error));
        }
      }
      const email = typeof profile['email'] === 'string' ? profile['email'].trim() : null;
      const amr = Array.isArray(claims.amr) ? claims.amr : [];
      return {
        issuer: claims.iss,
        subject: claims.sub,
        email,
        verifiedEmail: email && isVerified(profile) ? email.toLowerCase() : null,
        multiFactor: provider.trustsMfa || amr.includes('mfa'),
      };
    },
  };
}
export type ProviderSignIn = ReturnType<typeof createProviderSignIn>;
