/**
 * The few parts of `oidc-provider` (v9, which ships no types) that tests/support/oidc-provider.ts
 * uses: the provider, its Koa-style request handler, interactions and grants.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface InteractionDetails {
    uid: string;
    params: Record<string, unknown>;
  }

  export interface Configuration {
    clients?: Record<string, unknown>[];
    jwks?: { keys: Record<string, unknown>[] };
    pkce?: { required?: (ctx: unknown, client: unknown) => boolean };
    features?: Record<string, unknown>;
    claims?: Record<string, string[] | null>;
    conformIdTokenClaims?: boolean;
    cookies?: { keys?: string[] };
    interactions?: { url?: (ctx: unknown, interaction: { uid: string }) => string };
    findAccount?: (ctx: unknown, id: string) => { accountId: string; claims: () => Record<string, unknown> | Promise<Record<string, unknown>> };
  }

  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
    Grant: new (properties: { accountId: string; clientId: string }) => Grant;
  }
}
