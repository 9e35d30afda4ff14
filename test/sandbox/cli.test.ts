import { spawn, spawnSync } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createBotViaAssistant } from '../support/sandbox-harness.js';
import { HEARSAY_BIN } from '../support/cli.js';

const cli = HEARSAY_BIN;

describe('hearsay sandbox', () => {
  it('rejects an invalid port with exit code 2 and says what is expected', () => {
    const result = spawnSync('node', [cli, 'sandbox', '--port', 'eighty'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('integer from 0 to 65535');
  });

  it('says the port is taken and how to choose another when it cannot listen', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen({ host: '127.0.0.1', port: 0 }, resolve));
    try {
      const port = (blocker.address() as AddressInfo).port;
      const result = spawnSync('node', [cli, 'sandbox', '--port', String(port)], { encoding: 'utf8', timeout: 15_000 });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`hearsay sandbox: cannot listen on 127.0.0.1:${port}: the port is already in use`);
      expect(result.stderr).toContain('--port (0 picks a free one)');
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('serves the assistant and the chat page, logs their address, and exits 0 on SIGTERM', async () => {
    const child = spawn('node', [cli, 'sandbox', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 10_000;
      let baseUrl: string | undefined;
      while (!baseUrl && Date.now() < deadline) {
        baseUrl = /"baseUrl":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(output)?.[1];
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(baseUrl, output).toBeDefined();
      expect(output).toContain(`open ${baseUrl}/ and create a bot`);
      const page = await fetch(`${baseUrl}/`);
      expect(page.headers.get('content-type')).toContain('text/html');
      const bot = await createBotViaAssistant(baseUrl!, { userId: 9, name: 'Cli', username: 'cli_made_bot' });
      const me = (await (await fetch(`${baseUrl}/bot${bot.token}/getme`)).json()) as { result: { username: string } };
      expect(me.result.username).toBe('cli_made_bot');
      expect(output).not.toContain(bot.token);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(output).toContain('sandbox stopped');
  });
});
