import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';

// Real browser for the web tests: Debian's Chromium driven by playwright-core
// (installed by .ci/run). Pages are checked for script errors and CSP
// violations, which the tests assert to be empty.
//
// Chromium's headless shell (Debian's chromium-headless-shell: the same Blink and V8 without
// the desktop browser around them, what Playwright itself runs for headless tests) is
// preferred: the full browser in headless mode cost more than twice the CPU for the same
// tests (docs/testing.md, "Speed"). The full browser is the fallback where the shell is not
// installed.
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
export const SCREENSHOT_DIR = path.resolve('test-results/screenshots');

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH} (install it: apt-get install -y chromium-headless-shell, or set CHROMIUM_PATH)`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Uncaught exceptions, console errors (CSP violations among them) and failed responses seen so far. */
  problems: string[];
}

export async function newPage(browser: Browser, opts: { baseURL: string; width?: number; height?: number }): Promise<WatchedPage> {
  const context = await browser.newContext({
    baseURL: opts.baseURL,
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 900 },
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    // Failed loads are reported below with their URL.
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) problems.push(`console: ${msg.text()}`);
  });
  page.on('response', (res) => {
    if (res.status() < 400) return;
    const path = new URL(res.url()).pathname;
    // The anonymous plan allows one open stream per address: a page that opens while
    // the previous page's stream is still closing is told to wait (429), and the
    // live module polls and retries. That is designed behaviour, not a problem.
    if (res.status() === 429 && path === '/api/v1/infrastructure/incidents/stream') return;
    problems.push(`http ${res.status()} ${res.request().method()} ${path}`);
  });
  return { page, context, problems };
}

/**
 * Endpoints the account page asks for that other parts of the service provide
 * (alerts: in-app notifications and the delivery log; MCP: connected applications). Where they are not
 * deployed they answer 404 and the page hides or explains the section.
 */
export const OPTIONAL_ENDPOINTS_MISSING = [
  /^http 404 GET \/api\/v1\/infrastructure\/notification-deliveries$/,
  /^http 404 GET \/api\/v1\/account\/connections$/,
  /^http 404 GET \/api\/v1\/infrastructure\/notifications$/,
];

/** Problems other than responses the test expects (e.g. `http 404 GET /api/v1/infrastructure/notification-deliveries`). */
export const unexpected = (problems: string[], expected: RegExp[] = []) => problems.filter((p) => !expected.some((re) => re.test(p)));

/** Puts the cookies of a Cookie header (e.g. from login()) into a browser context, for `url`. */
export async function addCookieHeader(context: BrowserContext, cookieHeader: string, url: string): Promise<void> {
  await context.addCookies(
    cookieHeader.split('; ').map((c) => {
      const [name, value] = c.split('=') as [string, string];
      return { name, value, url };
    }),
  );
}

/**
 * Screenshots are for people looking at the pages, not checks: they are taken only when
 * SCREENSHOTS=1 (docs/web.md, "Screenshots"). A full-page image of the whole catalog's
 * overview costs the browser more than the test around it.
 */
export const SCREENSHOTS = /^(1|true|yes)$/i.test(process.env.SCREENSHOTS ?? '');

function screenshotFile(name: string): string {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return path.join(SCREENSHOT_DIR, `${name}.png`);
}

/** Full-page screenshot under test-results/screenshots/ (not committed), when SCREENSHOTS=1. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (SCREENSHOTS) await page.screenshot({ path: screenshotFile(name), fullPage: true });
}

/** Screenshot of one element, when SCREENSHOTS=1. */
export async function screenshotOf(element: Locator, name: string): Promise<void> {
  if (SCREENSHOTS) await element.screenshot({ path: screenshotFile(name) });
}
