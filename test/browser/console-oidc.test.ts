import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium, newBrowserContext, START_WAIT_MS } from '../support/chromium.js';
import { type OidcIssuer, startOidcIssuer } from '../support/oidc-issuer.js';
import { call, IN_MEMORY_STORE, type Served, startServe } from '../support/serve-client.js';

const SCREENSHOTS = 'test-artifacts/console';
/** The API's audience, and so (by default) the console's client id at the issuer. */
const AUDIENCE = 'agentstep-console';
const USER = 'carol';

/** Signs in at the issuer's own pages (oidc-provider's development login and consent). */
async function signInAtIssuer(page: Page, issuer: string): Promise<void> {
  await page.waitForURL((url) => url.href.startsWith(issuer));
  await page.locator('input[name="login"]').fill(USER);
  await page.locator('input[name="password"]').fill('any password');
  await page.locator('button[type="submit"]').click();
  await page.locator('button[type="submit"]', { hasText: /continue/i }).click();
}

/** The bearer token the console keeps for this tab. */
const keptToken = (page: Page): Promise<string | undefined> =>
  page.evaluate("JSON.parse(sessionStorage.getItem('agentstep.console.credentials') ?? 'null')?.token");

describe.skipIf(chromiumMissing !== undefined)(
  `the web console signing in with OpenID Connect${chromiumMissing === undefined ? '' : ` (skipped: ${chromiumMissing})`}`,
  () => {
    let issuer: OidcIssuer;
    let served: Served;
    let browser: Browser;
    beforeAll(async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      issuer = await startOidcIssuer();
      const cwd = mkdtempSync(join(tmpdir(), 'agentstep-console-oidc-'));
      writeFileSync(join(cwd, 'script.json'), JSON.stringify(['Hello from the API.<end>']));
      const jwt = ['--auth', 'jwt', '--jwt-issuer', issuer.issuer, '--jwt-audience', AUDIENCE];
      [served, browser] = await Promise.all([
        startServe([...jwt, ...IN_MEMORY_STORE, '--script', 'script.json'], cwd),
        launchChromium(),
      ]);
      await issuer.register(AUDIENCE, `${served.url}/`);
    }, START_WAIT_MS);
    afterAll(async () => {
      await browser?.close();
      await Promise.all([served?.stop(), issuer?.stop()]);
    });

    it('signs in at the issuer with PKCE, comes back to the page it left, and acts as the token’s sub', async () => {
      const page = await (
        await newBrowserContext(browser, { viewport: { width: 1200, height: 800 } })
      ).newPage();
      const refusedByPolicy: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) refusedByPolicy.push(message.text());
      });
      await page.goto(`${served.url}/#/workflows`);
      const signIn = page.getByRole('button', { name: `Sign in with ${new URL(issuer.issuer).host}` });
      await signIn.waitFor();
      await page.screenshot({ path: `${SCREENSHOTS}/sign-in-oidc.png`, fullPage: true });
      await signIn.click();
      await signInAtIssuer(page, issuer.issuer);
      await page.waitForURL(`${served.url}/#/workflows`);
      await page.getByText(`signed in as ${USER}`).waitFor();
      expect(new URL(page.url()).search).toBe('');

      await page.getByRole('link', { name: 'Sessions' }).click();
      await page.getByLabel('New session: first message').fill('Say hello');
      await page.getByRole('button', { name: 'Start session' }).click();
      await page.locator('.item.respond', { hasText: 'Hello from the API.' }).waitFor();
      await page.screenshot({ path: `${SCREENSHOTS}/session-oidc.png`, fullPage: true });
      const session = decodeURIComponent(new URL(page.url()).hash.replace('#/sessions/', ''));

      // The API took the ID token as the issuer's user, and only that user sees the session.
      const token = await keptToken(page);
      expect((await call(`${served.url}/sessions/${session}`, token)).status).toBe(200);
      expect((await call(`${served.url}/sessions/${session}`, 'carol')).status).toBe(401);
      expect(refusedByPolicy).toEqual([]);

      // A reload keeps the tab signed in; a refused token brings the sign-in back.
      await page.reload();
      await page.getByText(`signed in as ${USER}`).waitFor();
      await page.evaluate(
        `sessionStorage.setItem('agentstep.console.credentials', '{"token": "a.b.c", "who": "someone"}')`,
      );
      await page.reload();
      await signIn.waitFor();
      expect(await keptToken(page)).toBeUndefined();
      await page.context().close();
    });

    it('says what the issuer answered when the person cancels at its sign-in page', async () => {
      const page = await (await newBrowserContext(browser)).newPage();
      await page.goto(`${served.url}/`);
      await page.getByRole('button', { name: `Sign in with ${new URL(issuer.issuer).host}` }).click();
      await page.waitForURL((url) => url.href.startsWith(issuer.issuer));
      await page.getByRole('link', { name: '[ Cancel ]' }).click();
      await page
        .getByRole('alert')
        .getByText('Signing in failed: the issuer answered access_denied (End-User aborted interaction).')
        .waitFor();
      expect(new URL(page.url()).search).toBe('');
      expect(await keptToken(page)).toBeUndefined();
      await page.context().close();
    });

    it('refuses a sign-in answer this tab did not ask for', async () => {
      const page = await (await newBrowserContext(browser)).newPage();
      await page.goto(`${served.url}/?code=stolen&state=unknown`);
      await page
        .getByRole('alert')
        .getByText(/Signing in failed: .*did not start/)
        .waitFor();
      expect(new URL(page.url()).search).toBe('');
      expect(await keptToken(page)).toBeUndefined();
      await page.context().close();
    });
  },
);
