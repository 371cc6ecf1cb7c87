import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser as PlaywrightBrowser, type BrowserContext, type Page, type Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject } from 'vitest';
import { buildApp, type BuildOptions } from '../../src/server/app.js';
import { SESSION_COOKIE, hashToken } from '../../src/server/http/session.js';
import { startSmtpInbox, type SmtpInbox } from './smtp-inbox.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { testConfig } from './test-config.js';
import type { Config } from '../../src/server/config.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Portal {
  baseUrl: string;
  database: TestDatabase;
  stop(): Promise<void>;
}

/**
 * The real server on a random port over a fresh copy of the demo school, serving the web bundle the
 * e2e setup built. With `smtpUrl` among the overrides its mail sender runs (at `options.mailSender`'s pace).
 */
export async function startPortal(overrides: Partial<Config> = {}, options: Pick<BuildOptions, 'mailSender'> & { port?: number } = {}): Promise<Portal> {
  const { port = 0, ...buildOptions } = options;
  const database = await createTestDatabase();
  const app = await buildApp(testConfig(overrides), { db: database.db }, { logger: false, webRoot: inject('webRoot'), pageRenderer: inject('pageRenderer'), ...buildOptions });
  const address = await app.listen({ port, host: '127.0.0.1' });
  return {
    baseUrl: address,
    database,
    async stop() {
      await app.close();
      await database.destroy();
    },
  };
}

type BrowserSize = { width?: number; height?: number };
/** `hasTouch`: a phone's touch screen (CSS `pointer: coarse` matches). */
export type BrowserOptions = BrowserSize & { args?: readonly string[]; hasTouch?: boolean; reducedMotion?: 'reduce' | 'no-preference' };

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** What the browser did that a failed test's report needs: navigations, failed requests, console errors. */
  trail: string[];
  /** The requests the page sent that have no answer yet. */
  pending: Set<Request>;
  close(): Promise<void>;
}

/**
 * Keeps the last events of a test's page worth reading when the test fails (see `reportFailure`).
 * The listeners are the page's, so they end with it, though its context outlives the test
 * (`launchBrowser`).
 */
function recordTrail(page: Page): { trail: string[]; pending: Set<Request> } {
  const trail: string[] = [];
  // Requests sent and not yet answered: a screen that waits for ever waits on one of these.
  const pending = new Set<Request>();
  const started = Date.now();
  const note = (line: string) => {
    trail.push(`+${((Date.now() - started) / 1000).toFixed(2)} s ${line}`);
    if (trail.length > 60) trail.shift();
  };
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) note(`navigated to ${frame.url()}`);
  });
  page.on('request', (request) => pending.add(request));
  page.on('requestfinished', (request) => pending.delete(request));
  page.on('requestfailed', (request) => {
    pending.delete(request);
    note(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText ?? 'no reason'})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) note(`answer ${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') note(`console ${message.type()}: ${message.text()}`);
  });
  return { trail, pending };
}

/**
 * A failed test's browser, written out before it closes: the address, the trail, the text on the
 * screen and a screenshot, so a failure seen once in CI can be understood without running it again.
 */
async function reportFailure(browser: Browser, testName: string): Promise<void> {
  const { page } = browser;
  const waiting = [...browser.pending].map((request) => `still unanswered: ${request.method()} ${request.url()}`);
  const lines = [`Browser at the failure of "${testName}": ${page.url()}`, ...browser.trail, ...waiting];
  try {
    const text = await page.locator('body').innerText({ timeout: 5_000 });
    lines.push('Text on the screen:', text.slice(0, 2_000));
    const file = screenshotPath(`failed-${testName.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)}.png`);
    await page.screenshot({ path: file, timeout: 5_000 });
    lines.push(`Screenshot: ${file}`);
  } catch (error) {
    lines.push(`(the page could not be read: ${error instanceof Error ? error.message : String(error)})`);
  }
  console.error(lines.join('\n'));
}

const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-gpu'];

/** Debian's Chromium, headless (playwright-core; no browser download), with the flags every spec needs and `args` after them. */
function launchChromium(args: readonly string[] = []): Promise<PlaywrightBrowser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_FLAGS, ...args] });
}

/**
 * One Chromium per spec file, started when a test first asks for a page and closed when the file
 * ends: starting the browser was a second of every test.
 */
let fileChromium: Promise<PlaywrightBrowser> | undefined;
/**
 * The file's browser context, shared by its tests one after another and emptied between them
 * (`emptyContext`). A fresh context for each test cost 0.7 core-seconds more than a new page in a
 * kept one: a new renderer process that fetches and compiles the client's code again. The browser
 * suite used a sixth less CPU with it (docs/decisions/D98).
 */
let fileContext: Promise<SharedContext> | undefined;
interface SharedContext {
  context: BrowserContext;
  /** Every origin the context's pages have reached (the portal, a provider): whose storage to empty. */
  origins: Set<string>;
  /** The page the next test gets, opened while the last test's page was closed (`emptyContext`). */
  next?: Page;
}

async function closeFileChromium(): Promise<void> {
  await closeFileContext();
  const running = fileChromium;
  fileChromium = undefined;
  await (await running)?.close();
}

/**
 * Closes the shared context, and with it every connection its pages left open to a portal (kept
 * alive, or opened ahead by Chromium): a portal that stops waits for an open one, which held a
 * spec's end for two minutes with the machine busy. The next test gets a new context.
 */
async function closeFileContext(): Promise<void> {
  const open = fileContext;
  fileContext = undefined;
  await (await open)?.context.close();
}

/** The options every context of the suite starts from. */
function contextOptions(options: BrowserOptions) {
  return {
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    hasTouch: options.hasTouch ?? false,
    // Reduced motion, as a person may ask of their device (the theme then drops MUI's transitions
    // and ripples): Chromium draws no frames of a fade or a ripple, and Playwright finds an
    // element still at once (docs/testing.md).
    reducedMotion: options.reducedMotion ?? 'reduce',
  } as const;
}

/**
 * A hang guard, not a speed bound: Playwright's default 30 s wait for an element or a load was
 * reached by a class's report PDF while the machine ran several builds beside the suite. The
 * test's own timeout (vitest.config.ts) stays the outer bound.
 */
const ELEMENT_TIMEOUT_MS = 60_000;

async function sharedContext(): Promise<SharedContext> {
  fileChromium ??= launchChromium();
  fileContext ??= fileChromium.then(async (browser) => {
    const context = await browser.newContext(contextOptions({}));
    context.setDefaultTimeout(ELEMENT_TIMEOUT_MS);
    const origins = new Set<string>();
    context.on('request', (request) => {
      const { origin } = new URL(request.url());
      if (origin.startsWith('http')) origins.add(origin);
    });
    return { context, origins };
  });
  return fileContext;
}

/**
 * Leaves the shared context as a new one would be for the next test: one blank page, no cookie,
 * nothing in any origin's storage, no route, no permission, online. What it keeps is the HTTP
 * cache of the client's hashed, immutable code, as a person's browser keeps it between two
 * sign-ins. tests/e2e/isolation.spec.ts proves the next test sees nothing of the last one.
 */
async function emptyContext(shared: SharedContext): Promise<void> {
  const { context, origins } = shared;
  // The next test's page opens before the last one closes: Chromium then keeps the renderer
  // process that has the client's code compiled, which is most of what a kept context saves.
  const next = await context.newPage();
  for (const page of context.pages()) if (page !== next) await page.close();
  const cdp = await context.newCDPSession(next);
  for (const origin of origins) {
    await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'cookies,local_storage,indexeddb,websql,service_workers,cache_storage,file_systems' });
  }
  origins.clear();
  await cdp.detach();
  await context.clearCookies();
  await context.clearPermissions();
  await context.unrouteAll({ behavior: 'ignoreErrors' });
  await context.setOffline(false);
  shared.next = next;
}

/**
 * A browser context (cookies and storage of its own) at a size, with one page open. A test that
 * needs launch flags of its own (`args`, e.g. `--host-resolver-rules` for a school's name) gets a
 * Chromium of its own, and one that needs a touch screen a context of its own, closed with it;
 * every other test gets a page in the file's shared context, emptied when it closes.
 */
export async function launchBrowser(options: BrowserOptions = {}): Promise<Browser> {
  if (options.args?.length || options.hasTouch) {
    const own = options.args?.length ? await launchChromium(options.args) : undefined;
    fileChromium ??= launchChromium();
    const context = await (own ?? (await fileChromium)).newContext(contextOptions(options));
    context.setDefaultTimeout(ELEMENT_TIMEOUT_MS);
    return watchedBrowser(context, await context.newPage(), async () => {
      await context.close();
      await own?.close();
    });
  }
  const shared = await sharedContext();
  const { context } = shared;
  const page = shared.next ?? (await context.newPage());
  shared.next = undefined;
  const { viewport, reducedMotion } = contextOptions(options);
  await page.setViewportSize(viewport);
  if (reducedMotion !== 'reduce') await page.emulateMedia({ reducedMotion });
  return watchedBrowser(context, page, () => emptyContext(shared));
}

/**
 * A page the server rendered shows its controls before its code has hydrated them
 * (docs/decisions.md D99): a select's menu or a button works only after. A test uses them once they
 * work: `goto` and `reload` that wait for the load (the default) also wait, on a page that carries
 * its state (`#page-state`), for the root layout's `html[data-hydrated]`. `waitUntil: 'commit'` or
 * `'domcontentloaded'` leaves the page as it arrived (the specs about that moment). Set on the
 * test's page object only; Playwright's own methods do the navigating.
 */
function waitsForHydration(page: Page): void {
  const hydrated = async (waitUntil: string | undefined) => {
    if (waitUntil === 'commit' || waitUntil === 'domcontentloaded') return;
    if ((await page.locator('script#page-state').count()) > 0) await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  };
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    await hydrated(options?.waitUntil);
    return response;
  };
  const reload = page.reload.bind(page);
  page.reload = async (options) => {
    const response = await reload(options);
    await hydrated(options?.waitUntil);
    return response;
  };
}

/** A test's browser: its page's events kept for a failure's report, and `release` to end it. */
function watchedBrowser(context: BrowserContext, page: Page, release: () => Promise<void>): Browser {
  waitsForHydration(page);
  return { context, page, ...recordTrail(page), close: release };
}

/** A browser the test has not used yet: its page never left about:blank and its context holds no cookie. */
async function unused(browser: Browser): Promise<boolean> {
  return browser.page.url() === 'about:blank' && (await browser.context.cookies()).length === 0 && browser.context.pages().length === 1;
}

/** Where screenshots go (CI keeps test-results/ as an artefact if it wants). */
export function screenshotPath(name: string): string {
  const dir = path.join(ROOT, 'test-results');
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, name);
}

/** Who a spec signs in as: a student by student ID, a staff account by username, a family account by sign-in e-mail. */
export type SignInAccount = { studentId: string } | { username: string } | { email: string };

/**
 * Signs the page's browser context in without a sign-in form: a session row made on the server
 * the way a sign-in makes it (a random id in the cookie, its sha256 in `sessions`) and the cookie
 * set in the context, then opens `path` (the account's home by default) and waits for it. A form
 * sign-in is a password hash, a CSRF round trip and two page loads in every test that needs
 * someone signed in; only the specs about signing in (auth, staff-2fa, the family's sign-in and
 * invitation) fill the forms. The session never asks for the staff second factor's enrolment,
 * which is staff-2fa's journey, and the page fetches its CSRF cookie before its first change, as
 * after any page load.
 */
export async function signIn(page: Page, portal: Portal, account: SignInAccount, path?: string): Promise<void> {
  const db = portal.database.db;
  const user = await db
    .selectFrom('users')
    .select(['id', 'role'])
    .$call((query) =>
      'studentId' in account
        ? query.where('student_id', '=', account.studentId)
        : 'username' in account
          ? query.where('username', '=', account.username)
          : query.where('role', '=', 'guardian').where('email', '=', account.email),
    )
    .executeTakeFirstOrThrow();
  const token = crypto.randomBytes(32).toString('base64url');
  const now = new Date();
  await db
    .insertInto('sessions')
    .values({
      id_hash: hashToken(token),
      user_id: user.id,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: new Date(now.getTime() + 3_600_000).toISOString(),
      ip: '127.0.0.1',
      user_agent: 'browser-spec',
    })
    .execute();
  await page.context().addCookies([{ name: SESSION_COOKIE, value: token, url: portal.baseUrl, httpOnly: true, sameSite: 'Lax' }]);
  const home = user.role === 'staff' ? '/admin/dashboard' : '/dashboard';
  const target = new URL(path ?? home, portal.baseUrl);
  await page.goto(target.toString());
  await page.waitForURL((address) => address.pathname === target.pathname);
  // The first screen fetches its code and data in several rounds after the load event, and the
  // layout moves as each arrives. Playwright checks what is under the pointer at the press only:
  // when the student list's rows arrived between the press and the release, the release fell on
  // another menu entry and the click went nowhere (about once in a hundred sign-ins on a busy
  // machine). A test starts from a page that has settled, as a person's first click does.
  await page.waitForLoadState('networkidle');
}

/** What a browser spec's tests use: the running portal and the running test's page. */
export interface BrowserSpec {
  readonly portal: Portal;
  /** The page of the running test (opened before it, unless the spec opens its own). */
  readonly page: Page;
  /** An address on the portal; a plain function, so specs may take it off the object. */
  readonly url: (path: string) => string;
  /** Opens this test's browser at a size (and with launch flags) of its own, closing the one open; it is closed after the test. */
  open(options?: BrowserOptions): Promise<Page>;
  /** Starts a portal before the tests of the enclosing describe block and stops it after them. */
  usePortal(start?: () => Promise<Portal>): void;
}

/**
 * The hooks every browser spec needs, once: a fresh Chromium for each test (at `size`, or none
 * when `size` is null and each test calls `open`), closed after it, and an uncaught error in the
 * page fails the test. Call at the top of the spec file, then `usePortal()` at the top of the file
 * or in each describe block that needs a portal of its own (one per database engine).
 */
export function browserSpec(size: BrowserSize | null = {}): BrowserSpec {
  let portal: Portal | undefined;
  let browser: Browser | undefined;
  let pageErrors: Error[] = [];

  const spec: BrowserSpec = {
    get portal() {
      if (!portal) throw new Error('no portal: call usePortal() in the spec');
      return portal;
    },
    get page() {
      if (!browser) throw new Error('no browser: this spec opens its own with open()');
      return browser.page;
    },
    url: (path) => new URL(path, spec.portal.baseUrl).toString(),
    async open(options) {
      if (browser && (await unused(browser)) && !options?.args?.length && !options?.hasTouch && !options?.reducedMotion) {
        // The test's page has not been used yet: resizing it is the same as a new context of that
        // size, without the new context's cost (0.2-0.9 s of Chromium here).
        await browser.page.setViewportSize({ width: options?.width ?? 1280, height: options?.height ?? 800 });
        return browser.page;
      }
      await browser?.close();
      browser = await launchBrowser(options);
      browser.page.on('pageerror', (error) => pageErrors.push(error));
      return browser.page;
    },
    usePortal(start = () => startPortal()) {
      beforeAll(async () => {
        portal = await start();
      }, 120_000);
      afterAll(async () => {
        await closeFileContext();
        await portal?.stop();
        portal = undefined;
      });
    },
  };

  // Registered by each spec file (not once by this module, which the files share: vitest.config.ts).
  afterAll(closeFileChromium);
  beforeEach(async () => {
    pageErrors = [];
    if (size) await spec.open(size);
  });
  afterEach(async (context) => {
    if (browser && context.task.result?.state === 'fail') await reportFailure(browser, context.task.name);
    await browser?.close();
    browser = undefined;
    expect(pageErrors.map((error) => error.message)).toEqual([]);
  });
  return spec;
}

/**
 * A portal whose mail sender delivers to a real SMTP server the spec starts (smtp-inbox.ts), for
 * the tests of the enclosing block; the server is stopped after them. Answers the running inbox.
 */
export function useMailedPortal(spec: BrowserSpec, mailSender: BuildOptions['mailSender'] = { pollIntervalMs: 100 }): () => SmtpInbox {
  let inbox: SmtpInbox | undefined;
  spec.usePortal(async () => {
    inbox = await startSmtpInbox();
    return startPortal({ smtpUrl: inbox.url }, { mailSender });
  });
  afterAll(async () => {
    await inbox?.close();
    inbox = undefined;
  });
  return () => {
    if (!inbox) throw new Error('no inbox: the mailed portal starts before the tests');
    return inbox;
  };
}
