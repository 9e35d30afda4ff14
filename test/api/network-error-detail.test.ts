// A transport failure without a system code is named with its message: under a `ulimit -v` too small for V8 to
// reserve WebAssembly memory, undici's HTTP parser cannot start, and "network error RangeError" alone would send an
// operator looking at the network. Run in a node process of its own under that limit, on the built client.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The client as `npm run build` compiles it (the suite builds first). */
const BUILT_CLIENT = fileURLToPath(new URL('../../dist/api/client.js', import.meta.url));
const TOKEN = '123456:network-error-detail-token';

/** What `getMe` failed with, in a node process limited to `kilobytes` of address space. */
function getMeUnderLimit(port: number, kilobytes: number): Promise<string> {
  const script = `import(${JSON.stringify(BUILT_CLIENT)}).then(async ({ BotApiClient }) => {
    const client = new BotApiClient({ baseUrl: 'http://127.0.0.1:${port}', token: '${TOKEN}' });
    await client.getMe().then(() => console.log('answered'), (error) => console.log(error.message));
    await client.destroy();
  });`;
  const child = spawn('sh', ['-c', `ulimit -v ${kilobytes} && exec "$0" --input-type=module -e "$1"`, process.execPath, script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('exit', () => resolve(output)));
}

describe('a network error without a system code', () => {
  it('says what failed: V8 refusing the HTTP parser its WebAssembly memory under ulimit -v', async () => {
    const server = createServer((_, response) => response.end('{"ok":true,"result":{"id":1}}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const output = await getMeUnderLimit(port, 4_000_000);
      expect(output).toMatch(/^getme failed: network error RangeError \(WebAssembly\.\w+\(\): .*[Mm]emory.*\)\n$/);
      expect(output).not.toContain(TOKEN.split(':')[1]);
      // Without the limit the same client is answered: the limit is the cause.
      expect(await getMeUnderLimit(port, 1_000_000_000)).toBe('answered\n');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
