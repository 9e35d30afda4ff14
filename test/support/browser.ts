// A real browser for the page tests: Debian's chromium driven by playwright-core, with the flags this
// machine needs, and a place for screenshots. Where chromium is missing the tests are skipped locally, but
// never in CI (.ci/run installs it), so a missing browser cannot pass silently there.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium, as `.ci/run` installs it. */
export const CHROMIUM = '/usr/bin/chromium';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** True when `file`'s browser tests must be skipped (no chromium here, and not in CI); says so once. */
export function skipWithoutChromium(file: string): boolean {
  const skip = !existsSync(CHROMIUM) && !process.env.CI;
  if (skip) console.warn(`${file} skipped: ${CHROMIUM} is missing (apt-get install chromium); in CI it must run`);
  return skip;
}

/** A headless chromium with a profile of its own in `profileDir` (a desktop-sized viewport). */
export function launchChromiumContext(profileDir: string, extraArgs: readonly string[] = []): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1100, height: 720 },
    args: [...FLAGS, ...extraArgs],
  });
}

/** A headless chromium without a profile, for pages opened with their own viewport (e.g. a phone's). */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...FLAGS, ...extraArgs] });
}

const ARTIFACTS = new URL('../artifacts/', import.meta.url).pathname;

/** Saves a screenshot of `page` as test/artifacts/`name` (kept by CI for a look at the page). */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, name) });
}
