// A group that became a supergroup: the service refuses a message to the old id with
// `parameters.migrate_to_chat_id`, and the reply (every part of it) is sent again to the new id.
// Real HTTP: a Bot API on loopback that knows the migration, and the real client.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BotApiClient } from '../../src/api/client.js';
import { ReplySender } from '../../src/delivery/reply-sender.js';
import { createLogger } from '../../src/log/logger.js';
import { ServiceMetrics } from '../../src/ops/metrics.js';
import { serviceApi } from '../support/service-api.js';

const logger = createLogger({ level: 'silent' });
const OLD = -4242;
const NEW = -1001234567890;

let server: Server | undefined;
let client: BotApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

describe('a group that became a supergroup', () => {
  it('gets the reply at its new id, every part, without replying to a message of the old chat', async () => {
    const received: Array<Record<string, unknown>> = [];
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const params = JSON.parse(body) as Record<string, unknown>;
        response.setHeader('content-type', 'application/json');
        if (params.chat_id === OLD) {
          response.end(
            JSON.stringify({
              ok: false,
              error_code: 400,
              description: 'Bad Request: group chat was upgraded to a supergroup chat',
              parameters: { migrate_to_chat_id: NEW },
            }),
          );
          return;
        }
        received.push(params);
        response.end(
          JSON.stringify({ ok: true, result: { message_id: received.length, date: 0, chat: { id: params.chat_id, type: 'supergroup' }, text: params.text } }),
        );
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    client = new BotApiClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      token: '7:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      logger,
    });
    const metrics = new ServiceMetrics({ processMetrics: false });
    const sender = new ReplySender({ api: serviceApi(client, { logger, metrics, maxAttempts: 3 }), logger, metrics });
    const text = `${'a'.repeat(4000)}\n${'b'.repeat(200)}`;
    const outcome = await sender.send({ ruleId: 'r', chatId: OLD, text, replyToMessageId: 9 });
    expect(outcome).toEqual({ sent: 2, dropped: false });
    expect(received.map((p) => p.chat_id)).toEqual([NEW, NEW]);
    expect(received.map((p) => p.reply_parameters)).toEqual([undefined, undefined]);
    expect(received.map((p) => String(p.text).length)).toEqual([4000, 200]);
  });
});
