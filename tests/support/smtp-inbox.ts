import { EventEmitter } from 'node:events';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerError } from 'smtp-server';

/**
 * A real SMTP server for the mail tests: smtp-server on a free port of 127.0.0.1, with a
 * user name and password (so the portal's SMTP_URL credentials are used), no TLS. Each message it
 * accepts is parsed with mailparser and kept; the tests read subject, text, HTML and links back.
 * It can refuse recipients (a 550), stop in the middle of a message, and start again on its port.
 */

export const INBOX_USER = 'portal';
export const INBOX_PASSWORD = 'inbox-secret';

export interface DeliveredMail {
  /** The Message-ID header, angle brackets included. */
  messageId: string;
  from: string;
  /** The To header's addresses. */
  to: string[];
  /** The envelope's recipients (RCPT TO). */
  recipients: string[];
  subject: string;
  text: string;
  html: string;
  /** Every href of the HTML part, entities decoded. */
  links: string[];
  /** Every header as sent, by lower-case name, folded lines joined (the last of a repeated one). */
  headers: Record<string, string>;
}

export interface SmtpInbox {
  /** smtp://user:password@127.0.0.1:port, as SMTP_URL. */
  readonly url: string;
  readonly port: number;
  /** Accepted messages, in the order they were acknowledged. */
  readonly messages: readonly DeliveredMail[];
  /** Messages that reached DATA, acknowledged or not. */
  readonly arrivals: number;
  /** Refuse every recipient with this reply until set to null (e.g. 550). */
  refuseRecipients(reply: { code: number; text: string } | null): void;
  /** Stop the server while the `arrival`-th message (counting from 1) is being received, leaving it unacknowledged. */
  stopAtArrival(arrival: number): Promise<void>;
  /** Resolves once at least `count` messages are accepted (rejects after `timeoutMs`). */
  waitForMessages(count: number, timeoutMs?: number): Promise<readonly DeliveredMail[]>;
  /** Stops listening and drops open connections at once. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  /** Stops for good. */
  close(): Promise<void>;
}

const decodeEntities = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" })[name] ?? '');

const addressesOf = (header: AddressObject | AddressObject[] | undefined) =>
  [header ?? []].flat().flatMap((object) => object.value.map((entry) => entry.address ?? ''));

export interface SmtpInboxOptions {
  /** Wait this long before acknowledging each message: a slow server, so concurrent senders overlap. */
  acceptDelayMs?: number;
}

export async function startSmtpInbox(options: SmtpInboxOptions = {}): Promise<SmtpInbox> {
  const messages: DeliveredMail[] = [];
  const events = new EventEmitter();
  let arrivals = 0;
  let refusal: { code: number; text: string } | null = null;
  let stopAt: { arrival: number; stopped: () => void } | null = null;
  let server: SMTPServer | undefined;
  let port = 0;

  const stopServer = () =>
    new Promise<void>((resolve) => {
      const current = server;
      server = undefined;
      if (!current) return resolve();
      current.close(() => resolve());
    });

  const receive = (stream: SMTPServerDataStream, recipients: string[], callback: (error?: Error | null) => void) => {
    arrivals++;
    if (stopAt && arrivals >= stopAt.arrival) {
      // Mid-message: the data keeps coming, the server goes away, nothing is acknowledged.
      const { stopped } = stopAt;
      stopAt = null;
      stream.resume();
      void stopServer().then(stopped);
      return;
    }
    simpleParser(stream).then(
      async (parsed) => {
        if (options.acceptDelayMs) await new Promise((resolve) => setTimeout(resolve, options.acceptDelayMs));
        const html = typeof parsed.html === 'string' ? parsed.html : '';
        messages.push({
          messageId: parsed.messageId ?? '',
          from: addressesOf(parsed.from)[0] ?? '',
          to: addressesOf(parsed.to),
          recipients,
          subject: parsed.subject ?? '',
          text: parsed.text ?? '',
          html,
          links: [...html.matchAll(/href="([^"]*)"/g)].map((match) => decodeEntities(match[1] ?? '')),
          headers: Object.fromEntries(parsed.headerLines.map(({ key, line }) => [key, line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim()])),
        });
        callback();
        events.emit('message');
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    );
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const created = new SMTPServer({
        logger: false,
        disabledCommands: ['STARTTLS'],
        authMethods: ['PLAIN', 'LOGIN'],
        allowInsecureAuth: true,
        // Drop the connections of a stopped server at once (its default waits 30 s).
        closeTimeout: 1,
        onAuth(auth, _session, callback) {
          if (auth.username === INBOX_USER && auth.password === INBOX_PASSWORD) return callback(null, { user: INBOX_USER });
          callback(new Error('Invalid username or password'));
        },
        onRcptTo(_address, _session, callback) {
          if (!refusal) return callback();
          const error: SMTPServerError = new Error(refusal.text);
          error.responseCode = refusal.code;
          callback(error);
        },
        onData(stream, session, callback) {
          receive(stream, session.envelope.rcptTo.map((rcpt) => rcpt.address), callback);
        },
      });
      created.on('error', () => undefined);
      created.server.once('error', reject);
      created.listen(port, '127.0.0.1', () => {
        const address = created.server.address();
        if (address && typeof address === 'object') port = address.port;
        server = created;
        resolve();
      });
    });

  await listen();

  return {
    get url() {
      return `smtp://${INBOX_USER}:${INBOX_PASSWORD}@127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    messages,
    get arrivals() {
      return arrivals;
    },
    refuseRecipients(reply) {
      refusal = reply;
    },
    stopAtArrival(arrival) {
      return new Promise<void>((resolve) => {
        stopAt = { arrival, stopped: resolve };
      });
    },
    waitForMessages(count, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (messages.length < count) return;
          cleanup();
          resolve(messages);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`the SMTP inbox got ${messages.length} of ${count} messages in ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          events.off('message', check);
        };
        events.on('message', check);
        check();
      });
    },
    stop: stopServer,
    async start() {
      if (!server) await listen();
    },
    close: stopServer,
  };
}
