import type { Config } from './config.js';
import type { Db } from './db/database.js';
import type { MailSender } from './mail/mail-sender.js';

/**
 * What app.ts hands every feature's routes, in a file of its own: the routes import it, and
 * app.ts imports the routes, so the type cannot live in app.ts without a loop.
 */
export interface AppDeps {
  db: Db;
  config: Config;
  /**
   * The server's secret, the key of its HMACs (CSRF tokens, device cookies), read from the
   * database when first needed: an app built while the database is out of reach still starts and
   * answers 503 until it is back.
   */
  secret: () => Promise<Buffer>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's mail sender (app.ts decorates the app with it): `wake()` after committing a message that should leave now. */
    mailSender: MailSender;
  }
}
