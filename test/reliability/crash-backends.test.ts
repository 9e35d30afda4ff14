// A backend call under kill -9: users reserve items, each a POST to a shop on a local HTTP server whose answer the
// reply needs. The process (or, on Redis, the replica that made the call) is killed right after the shop answered
// and before the reply went out. Nothing is lost: every message is answered, the shop sees each Idempotency-Key
// at most twice (the killed call and its replay, with the same key), and a user gets a second reply only for an
// update the log named in doubt. With three Redis replicas, every other update is called once, by one replica.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxAndRuns } from '../e2e/sandbox-and-runs.js';
import { startRun, writeRules, type RunProcess } from '../e2e/run-process.js';
import { inDoubtUpdateIds } from '../support/in-doubt.js';
import { ReplyLedger } from '../support/reply-ledger.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { clearFaults, createBotViaAssistant, injectFault, sendAsUser } from '../support/sandbox-harness.js';

const RULES = `
rules:
  - id: reserve
    pattern: '^reserve (?<item>\\w+)$'
    call: { backend: shop, post: "/reservations", body: { item: "{{match.item}}" } }
    on:
      ok: { reply: "reserved {{match.item}} as {{result.ref}}" }
      error: { reply: "could not reserve {{match.item}}" }
`;

interface ShopRequest {
  replica: number;
  key: string;
  item: string;
}

describe('backend calls through kill -9', () => {
  const { sandbox, running } = sandboxAndRuns(undefined, { afterEachTest: true, clearFaultsAfterEachTest: true });
  let redis: RedisServer;
  let shop: Server;
  const requests: ShopRequest[] = [];
  /** Called after the shop answered a request: the test kills the replica that made it, once. */
  let afterAnswer: (request: ShopRequest) => void = () => undefined;
  let counter = 0;

  beforeAll(async () => {
    redis = await startRedisServer();
    shop = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        // Each replica has its own base URL (/r0, /r1, …): the path says which one asked.
        const request = {
          replica: Number(/^\/r(\d+)\//.exec(req.url ?? '')?.[1] ?? -1),
          key: String(req.headers['idempotency-key']),
          item: (JSON.parse(body) as { item: string }).item,
        };
        requests.push(request);
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ ref: `R-${request.item}` }), () => afterAnswer(request));
      });
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    shop.closeAllConnections();
    await new Promise((resolve) => shop.close(resolve));
    await redis?.close();
  });

  async function chaos(store: 'file' | 'redis', replicas: number) {
    counter += 1;
    requests.length = 0;
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 8500 + counter, name: 'Shop', username: `reserve_${store}_${counter}_bot` });
    const rules = await writeRules(RULES);
    const shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
    const configs: string[] = [];
    const dataDirs: string[] = [];
    for (let i = 0; i < replicas; i++) {
      const dir = await mkdtemp(join(tmpdir(), 'hearsay-crash-backends-'));
      await writeFile(join(dir, 'hearsay.yaml'), `backends:\n  shop: { url: "${shopUrl}/r${i}", timeout: 5s, retries: 0 }\n`);
      configs.push(join(dir, 'hearsay.yaml'));
      dataDirs.push(join(dir, 'data'));
    }
    const runs: RunProcess[] = [];
    const live: RunProcess[] = [];
    const launch = async (i: number) => {
      const run = startRun({
        args: ['--config', configs[i]!],
        env: {
          BOT_TOKEN: bot.token,
          BASE_URL: sandbox.baseUrl,
          HEARSAY_RULES: rules.dir,
          HEARSAY_DATA_DIR: dataDirs[i]!,
          HEARSAY_RATE_LIMITS_ENABLED: 'false',
          HEARSAY_POLLING_TIMEOUT: '1',
          HEARSAY_LOG_LEVEL: 'info',
          ...(store === 'redis' ? { HEARSAY_STORE: redis.url } : {}),
        },
      });
      running.push(run);
      runs.push(run);
      live[i] = run;
      await run.waitForLine(/hearsay is running/, 20_000);
    };
    for (let i = 0; i < replicas; i++) await launch(i);

    const ledger = new ReplyLedger(sandbox.sandbox, bot.username);
    // Replies are slow, so the kill right after the shop's answer lands before the reply went out.
    await injectFault(sandbox.baseUrl, { bot: bot.username, method: 'sendmessage', count: 100_000, delay_ms: 150 });
    let killed: ShopRequest | undefined;
    let restarted: Promise<void> | undefined;
    afterAnswer = (request) => {
      if (killed || requests.length < 5 || request.replica < 0) return;
      killed = request;
      const victim = live[request.replica]!;
      victim.child.kill('SIGKILL');
      restarted = victim.exited.then(() => launch(request.replica));
    };
    const users = [61, 62, 63];
    const perUser = 4;
    await Promise.all(
      users.map(async (user) => {
        for (let i = 0; i < perUser; i++) await sendAsUser(sandbox.baseUrl, user, bot.username, `reserve u${user}n${i}`);
      }),
    );
    await expect.poll(() => killed, { timeout: 30_000 }).toBeDefined();
    await restarted;
    await ledger.waitForReplies(users.length * perUser, 60_000);
    await clearFaults(sandbox.baseUrl);
    // Anything still on its way would show up now.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    afterAnswer = () => undefined;

    const inDoubt = inDoubtUpdateIds(runs);
    const updateOf = new Map(ledger.sent.map((entry) => [entry.text, entry.updateId]));
    const keysOf = (item: string) => requests.filter((r) => r.item === item).map((r) => r.key);
    // The killed call was made again, with the same key, and the log named its update.
    expect(keysOf(killed!.item)).toEqual([killed!.key, killed!.key]);
    expect(inDoubt.has(updateOf.get(`reserve ${killed!.item}`)!)).toBe(true);
    for (const user of users) {
      for (let i = 0; i < perUser; i++) {
        const item = `u${user}n${i}`;
        const keys = keysOf(item);
        const doubtful = inDoubt.has(updateOf.get(`reserve ${item}`)!);
        expect({ item, distinct: new Set(keys).size, calls: keys.length <= (doubtful ? 2 : 1) }).toEqual({ item, distinct: 1, calls: true });
        const replies = (ledger.replies.get(user) ?? []).filter((reply) => reply === `reserved ${item} as R-${item}`).length;
        expect({ item, replies }).toEqual({ item, replies: doubtful ? expect.any(Number) : 1 });
        expect(replies).toBeGreaterThanOrEqual(1);
        expect(replies).toBeLessThanOrEqual(2);
      }
      // Nothing failed: every reservation was answered from the shop.
      expect((ledger.replies.get(user) ?? []).filter((reply) => reply.startsWith('could not'))).toEqual([]);
    }
  }

  it('file store: killed between the call and its reply, the replay sends the same key, and every reservation is answered', async () => {
    await chaos('file', 1);
  }, 180_000);

  it('Redis, three replicas: the replica that made the call is killed before its reply; another (or it, restarted) calls again with the same key', async () => {
    await chaos('redis', 3);
  }, 180_000);
});
