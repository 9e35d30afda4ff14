// Slow clients on the webhook server, over loopback and bounded: connections beyond the cap are closed on
// arrival, a client that sends its headers or its body too slowly is cut off, an idle keep-alive connection
// is closed, and the server never holds more than the cap (so buffered bodies stay within cap × body limit).
// Bodies it cannot take are refused precisely: text/plain is 415, an update_id beyond 2^53 - 1 is 400.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestWebhooks, startTestWebhook, type TestWebhook } from '../support/test-webhook.js';

const SECRET = 'slow_client_secret-0123456789';
const LIMIT = 20;
const MAX_BODY = 64 * 1024;

const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await closeTestWebhooks();
});

function startWebhook(): Promise<TestWebhook> {
  return startTestWebhook({
    secret: SECRET,
    maxBodyBytes: MAX_BODY,
    connections: { headerTimeoutMs: 1000, bodyTimeoutMs: 1000, idleTimeoutMs: 1500, limit: LIMIT },
  });
}

/** A raw connection; `closed` resolves when the server (or anyone) closes it, with everything it answered. */
function open(port: number): { socket: Socket; closed: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  let answer = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (answer += chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(answer)));
  return { socket, closed };
}

const HEAD = (length: number) =>
  `POST /hook HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Telegram-Bot-Api-Secret-Token: ${SECRET}\r\nContent-Length: ${length}\r\n`;

describe('webhook server against slow clients', () => {
  it('closes connections beyond the cap on arrival and cuts off clients that send their headers too slowly', async () => {
    const { webhook, port } = await startWebhook();
    const clients = Array.from({ length: 60 }, () => open(port));
    // Each sends half a request head and then nothing: the classic slow-headers attack.
    for (const { socket } of clients) socket.write('POST /hook HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    let most = 0;
    const watching = setInterval(() => void webhook.openConnections().then((n) => (most = Math.max(most, n))), 20);
    try {
      const answers = await Promise.all(clients.map((c) => c.closed));
      expect(answers).toHaveLength(60);
      // Those let in were answered 408 when their header time ran out; the others were closed unanswered.
      expect(answers.filter((a) => a.startsWith('HTTP/1.1 408')).length).toBeGreaterThan(0);
      expect(answers.filter((a) => a.startsWith('HTTP/1.1 408')).length).toBeLessThanOrEqual(LIMIT);
    } finally {
      clearInterval(watching);
    }
    expect(most).toBeLessThanOrEqual(LIMIT);
    expect(await webhook.openConnections()).toBe(0);
  }, 20_000);

  it('cuts off a body sent too slowly, even when each byte keeps the connection from being idle', async () => {
    const { port, handled } = await startWebhook();
    const body = JSON.stringify({ update_id: 7, message: { message_id: 7, date: 0, chat: { id: 1, type: 'private' }, text: 'slow' } });
    const { socket, closed } = open(port);
    socket.write(`${HEAD(body.length)}\r\n`);
    let sent = 0;
    const drip = setInterval(() => {
      if (sent < body.length - 1 && !socket.destroyed) socket.write(body[sent++]!);
    }, 100);
    try {
      const answer = await closed;
      expect(answer).toMatch(/^HTTP\/1\.1 408|^$/);
      expect(sent).toBeLessThan(body.length - 1);
    } finally {
      clearInterval(drip);
    }
    expect(handled).toEqual([]);
  }, 20_000);

  it('closes an idle keep-alive connection after a served request', async () => {
    const { port, handled } = await startWebhook();
    const body = JSON.stringify({ update_id: 9, message: { message_id: 9, date: 0, chat: { id: 1, type: 'private' }, text: 'hi' } });
    const { socket, closed } = open(port);
    socket.write(`${HEAD(body.length)}Connection: keep-alive\r\n\r\n${body}`);
    const answer = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(handled).toEqual([9]);
  }, 20_000);

  it('never holds more than the cap while many clients stream bodies, and refuses a body over the limit as it arrives', async () => {
    const { webhook, port } = await startWebhook();
    const chunk = 'x'.repeat(16 * 1024);
    const head = `POST /hook HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Telegram-Bot-Api-Secret-Token: ${SECRET}\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const piece = `${chunk.length.toString(16)}\r\n${chunk}\r\n`;
    // 120 clients each start a body and stall: whatever the server lets in, it buffers until cut off.
    const clients = Array.from({ length: 120 }, () => open(port));
    for (const { socket } of clients) socket.write(head + piece);
    let most = 0;
    const watching = setInterval(() => void webhook.openConnections().then((n) => (most = Math.max(most, n))), 20);
    try {
      const answers = await Promise.all(clients.map((c) => c.closed));
      expect(answers.some((a) => a.startsWith('HTTP/1.1 200'))).toBe(false);
    } finally {
      clearInterval(watching);
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(LIMIT);
    // Chunked, so the size is only known while reading: the server stops at the limit instead of buffering on.
    const big = open(port);
    big.socket.write(head);
    for (let i = 0; i < 8; i++) big.socket.write(piece);
    expect(await big.closed).toMatch(/^HTTP\/1\.1 413/);
  }, 20_000);

  it('answers a text/plain body 415 and an update_id beyond 2^53 - 1 400, handling neither', async () => {
    const { webhook, handled } = await startWebhook();
    const post = (body: string, type = 'application/json') =>
      fetch(`${webhook.address}/hook`, { method: 'POST', headers: { 'content-type': type, 'x-telegram-bot-api-secret-token': SECRET }, body });
    const plain = await post('{"update_id":1}', 'text/plain');
    expect(plain.status).toBe(415);
    // 2^53 + 1 would be read back as 2^53: a different id than the one sent.
    for (const id of ['9007199254740993', '9007199254740992', '18446744073709551615']) {
      const huge = await post(`{"update_id":${id},"message":{"message_id":1,"date":0,"chat":{"id":1,"type":"private"},"text":"x"}}`);
      expect(huge.status).toBe(400);
      expect(await huge.text()).toMatch(/update_id/);
    }
    const ok = await post('{"update_id":9007199254740991}');
    expect(ok.status).toBe(200);
    await expect.poll(() => handled).toEqual([9007199254740991]);
  });
});
