// A bot's access to Redis: the scripts that one pass of the event loop sends reach the server in one write (the
// socket is corked for the pass), and a script's arguments arrive byte for byte, whatever their characters.
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log/logger.js';
import { RedisAccess, script } from '../../../src/store/redis/redis-access.js';
import { connectRedis } from '../../../src/store/redis/redis-connection.js';
import { redisForSuite, redisStoreConfig } from '../../support/redis-server.js';

const logger = createLogger({ level: 'silent' });
const redis = redisForSuite();
const opened: RedisAccess[] = [];
afterAll(async () => {
  for (const access of opened) await access.close();
});

async function openAccess(prefix: string): Promise<RedisAccess> {
  const access = new RedisAccess(await connectRedis({ config: redisStoreConfig(redis.server), logger }), prefix);
  opened.push(access);
  return access;
}

/** How many times the server has read from its clients' sockets (INFO stats). */
async function socketReads(): Promise<number> {
  return Number(/^total_reads_processed:(\d+)/m.exec(await redis.admin.info('stats'))?.[1]);
}

const ECHO = script('return {KEYS[1], ARGV[1], tostring(string.len(ARGV[1])), ARGV[2]}');

describe('RedisAccess', () => {
  it('sends the scripts of one pass of the event loop in one write, each answered on its own', async () => {
    const access = await openAccess('access1:');
    await access.runScript(ECHO, [], ['warm', 0]);
    const before = await socketReads();
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => access.runScript(ECHO, [], [`update ${i}`, i])));
    // The admin connection's INFO is one read of its own; sent one by one, the 50 scripts would be up to 50.
    expect((await socketReads()) - before).toBeLessThanOrEqual(3);
    expect(answers.map((answer) => (answer as string[])[1])).toEqual(Array.from({ length: 50 }, (_, i) => `update ${i}`));
    expect((answers[7] as string[])[3]).toBe('7');
  });

  it("passes a script's arguments byte for byte: the length Redis sees is the UTF-8 length", async () => {
    const access = await openAccess('access2:');
    const text = 'Straße, İstanbul, 東京 🚀 "quoted"\r\n$3\r\nnot a command';
    const [prefix, echoed, length] = (await access.runScript(ECHO, [], [text, ''])) as string[];
    expect(prefix).toBe('access2:');
    expect(echoed).toBe(text);
    expect(Number(length)).toBe(Buffer.byteLength(text));
  });

  it('sends a script again as source when the server does not have it (a restarted Redis)', async () => {
    const access = await openAccess('access3:');
    const fresh = script(`return "fresh ${Date.now()}"`);
    await redis.admin.script('FLUSH');
    expect(String(await access.runScript(fresh, [], []))).toMatch(/^fresh \d+$/);
  });
});
