// `npm ci` on the oldest Node the project claims must print no engine warning: every package in the lock
// file accepts the minimum in package.json's engines, and fastify.inject (light-my-request, whose cookie
// dependency is pinned by an npm override to a release that runs on Node 20) still works.
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
// semver comes with npm's own dependency tree (fastify uses it); it is what npm checks engines with.
const semver = require('semver') as { minVersion(range: string): { version: string } | null; satisfies(version: string, range: string): boolean };
const root = new URL('../../', import.meta.url);

describe('engines', () => {
  it('every locked package accepts the oldest Node that package.json allows', async () => {
    const manifest = JSON.parse(await readFile(new URL('package.json', root), 'utf8')) as { engines: { node: string } };
    const lock = JSON.parse(await readFile(new URL('package-lock.json', root), 'utf8')) as {
      packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean; os?: string[]; cpu?: string[] }>;
    };
    const oldest = semver.minVersion(manifest.engines.node)!.version;
    const refusing = Object.entries(lock.packages)
      // Platform binaries for other systems are never installed here, so npm never checks them.
      .filter(([, entry]) => !(entry.optional && (entry.os || entry.cpu)))
      .filter(([, entry]) => entry.engines && !Array.isArray(entry.engines) && entry.engines.node && !semver.satisfies(oldest, entry.engines.node))
      .map(([name, entry]) => `${name} wants node ${(entry.engines as { node: string }).node}`);
    expect(refusing, `package.json says node ${manifest.engines.node}`).toEqual([]);
  });

  it('fastify.inject still sets cookies through light-my-request', async () => {
    const app = Fastify();
    app.get('/', async (request) => ({ cookie: request.headers.cookie }));
    const response = await app.inject({ method: 'GET', url: '/', cookies: { session: 'abc', theme: 'dark' } });
    expect(response.json()).toEqual({ cookie: 'session=abc; theme=dark' });
    await app.close();
  });
});
