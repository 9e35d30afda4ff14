// The chat page's server side over real HTTP: the embedded static files, the chat list, and the event
// stream (per-user filtering, new bots announced, heartbeats, unsubscribe when the browser goes away).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Message } from '@grammyjs/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WEB_ASSETS } from '../../src/generated/web-assets.js';
import { createSandbox, type Sandbox, type StoredMessageEvent } from '../../src/sandbox/index.js';
import { PageNotices } from '../../src/sandbox/web/page-notices.js';
import { webChatPlugin } from '../../src/sandbox/web/plugin.js';
import { askAssistant, createBotViaAssistant, sendAsUser } from '../support/sandbox-harness.js';
import { SseReader, type SseItem } from './sse-reader.js';

let sandbox: Sandbox;
let baseUrl: string;
let subscriptions: number;
const readers: SseReader[] = [];

beforeEach(async () => {
  sandbox = await createSandbox();
  subscriptions = 0;
  const onMessage = (listener: (event: StoredMessageEvent) => void) => {
    subscriptions += 1;
    const unsubscribe = sandbox.onMessage(listener);
    return () => {
      subscriptions -= 1;
      unsubscribe();
    };
  };
  await sandbox.app.register(webChatPlugin, { store: sandbox.store, onMessage, heartbeatMs: 100 });
  baseUrl = await sandbox.listen({ host: '127.0.0.1', port: 0 });
});

afterEach(async () => {
  for (const reader of readers.splice(0)) reader.close();
  await sandbox.close();
});

async function openEvents(user: number): Promise<SseReader> {
  const reader = await SseReader.open(`${baseUrl}/client/events?user=${user}`);
  readers.push(reader);
  return reader;
}

const isEvent = (name: string) => (item: SseItem) => item.event === name;
const payload = <T>(item: SseItem): T => JSON.parse(item.data ?? 'null') as T;

describe('static files', () => {
  it('serves the page, its style and its script with the right types and a strict CSP', async () => {
    const page = await fetch(`${baseUrl}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('<script src="/app.js"');
    expect(html).toContain('aria-live="polite"');
    const script = await fetch(`${baseUrl}/app.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await script.text()).toContain('new EventSource(');
    const style = await fetch(`${baseUrl}/app.css`);
    expect(style.headers.get('content-type')).toMatch(/^text\/css/);
  });

  it('the generated module matches the files in src/sandbox/web/public (run npm run build after editing them)', async () => {
    for (const name of Object.keys(WEB_ASSETS) as Array<keyof typeof WEB_ASSETS>) {
      const onDisk = await readFile(join(import.meta.dirname, '../../src/sandbox/web/public', name), 'utf8');
      expect(WEB_ASSETS[name], name).toBe(onDisk);
    }
  });

  it('never builds the page from strings of HTML', () => {
    for (const name of ['app.js', 'chat-view.js', 'render-text.js'] as const) {
      expect(WEB_ASSETS[name], name).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
    }
  });
});

describe('GET /client/bots', () => {
  it('lists the assistant first, then every bot, marking the ones the user created', async () => {
    await createBotViaAssistant(baseUrl, { userId: 11, name: 'Mine', username: 'mine_bot' });
    await createBotViaAssistant(baseUrl, { userId: 12, name: 'Theirs', username: 'theirs_bot' });
    const envelope = (await (await fetch(`${baseUrl}/client/bots?user=11`)).json()) as { ok: boolean; result: unknown };
    expect(envelope).toEqual({
      ok: true,
      result: [
        { username: 'BotMaker', name: 'BotMaker', kind: 'assistant', mine: false },
        { username: 'mine_bot', name: 'Mine', kind: 'bot', mine: true, answering: false },
        { username: 'theirs_bot', name: 'Theirs', kind: 'bot', mine: false, answering: false },
      ],
    });
  });

  it('says whether a program answers as each bot: while it polls, and no more a moment after it stopped', async () => {
    const { token } = await createBotViaAssistant(baseUrl, { userId: 13, name: 'Polled', username: 'polled_bot' });
    const answering = async () =>
      ((await (await fetch(`${baseUrl}/client/bots?user=13`)).json()) as { result: Array<{ username: string; answering?: boolean }> }).result.find(
        (bot) => bot.username === 'polled_bot',
      )?.answering;
    expect(await answering()).toBe(false);
    const events = await openEvents(13);
    await events.next(isEvent('bots'));
    // A long poll is waiting: someone answers as the bot, and every open page hears of it.
    const poll = fetch(`${baseUrl}/bot${token}/getUpdates?timeout=2`);
    const on = payload<{ bots: Array<{ username: string; answering?: boolean }> }>(await events.next(isEvent('bots')));
    expect(on.bots.find((bot) => bot.username === 'polled_bot')?.answering).toBe(true);
    expect(await answering()).toBe(true);
    await poll;
    // No further poll: after the grace the bot is no longer answered, and the pages hear that too.
    const off = payload<{ bots: Array<{ username: string; answering?: boolean }> }>(await events.next(isEvent('bots'), 10_000));
    expect(off.bots.find((bot) => bot.username === 'polled_bot')?.answering).toBe(false);
  });
});

describe('GET /client/events', () => {
  it('answers a missing or wrong user with a 400 envelope, not a stream', async () => {
    const response = await fetch(`${baseUrl}/client/events?user=abc`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ ok: false, error_code: 400, description: expect.stringContaining('user') });
    expect(subscriptions).toBe(0);
  });

  it('starts with the chat list, then pushes the user’s messages both ways and a new bot as it is created', async () => {
    const events = await openEvents(21);
    expect(events.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const first = await events.next(isEvent('bots'));
    expect(payload<{ bots: Array<{ username: string }> }>(first).bots.map((b) => b.username)).toEqual(['BotMaker']);

    await askAssistant(baseUrl, 21, '/newbot');
    const own = payload<{ peer: string; message: Message.TextMessage }>(await events.next(isEvent('message')));
    expect(own.peer).toBe('BotMaker');
    expect(own.message.text).toBe('/newbot');
    expect(own.message.from?.is_bot).toBe(false);
    const answer = payload<{ peer: string; message: Message.TextMessage }>(await events.next(isEvent('message')));
    expect(answer.message.from?.is_bot).toBe(true);
    expect(answer.message.text).toContain('name');

    await askAssistant(baseUrl, 21, 'Pushed');
    await askAssistant(baseUrl, 21, 'pushed_bot');
    const bots = payload<{ bots: Array<{ username: string; mine: boolean }> }>(await events.next(isEvent('bots')));
    expect(bots.bots).toContainEqual({ username: 'pushed_bot', name: 'Pushed', kind: 'bot', mine: true, answering: false });
  });

  it('does not push other users’ messages', async () => {
    const events = await openEvents(31);
    await events.next(isEvent('bots'));
    await sendAsUser(baseUrl, 32, 'BotMaker', 'from somebody else');
    await sendAsUser(baseUrl, 31, 'BotMaker', 'mine');
    const next = payload<{ message: Message.TextMessage }>(await events.next(isEvent('message')));
    expect(next.message.text).toBe('mine');
    expect(next.message.chat.id).toBe(31);
  });

  it('sends heartbeat comments while idle', async () => {
    const events = await openEvents(41);
    const heartbeat = await events.next((item) => item.comment === 'heartbeat', 3000);
    expect(heartbeat.event).toBeUndefined();
  });

  it('unsubscribes when the browser goes away, and ends open streams when the sandbox closes', async () => {
    const leaving = await openEvents(51);
    const staying = await openEvents(52);
    await leaving.next(isEvent('bots'));
    await staying.next(isEvent('bots'));
    expect(subscriptions).toBe(2);
    leaving.close();
    const deadline = Date.now() + 3000;
    while (subscriptions !== 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(subscriptions).toBe(1);
    await sandbox.close();
    await staying.endOfStream();
    expect(subscriptions).toBe(0);
  });
});

describe('the hello and rules events', () => {
  it('say hello first with an id that differs from one sandbox to the next (a restart), and no home chat by default', async () => {
    const firstEvent = await (await openEvents(61)).next((item) => item.event !== undefined);
    expect(firstEvent.event).toBe('hello');
    const first = payload<{ instance: string; home: string | null }>(firstEvent);
    expect(first.instance).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.home).toBeNull();
    const again = payload<{ instance: string }>(await (await openEvents(62)).next(isEvent('hello')));
    expect(again.instance).toBe(first.instance);

    const other = await createSandbox();
    try {
      await other.app.register(webChatPlugin, { store: other.store, onMessage: other.onMessage });
      const otherUrl = await other.listen({ host: '127.0.0.1', port: 0 });
      const reader = await SseReader.open(`${otherUrl}/client/events?user=61`);
      readers.push(reader);
      expect(payload<{ instance: string }>(await reader.next(isEvent('hello'))).instance).not.toBe(first.instance);
    } finally {
      await other.close();
    }
  });

  it('name the home chat and push rule problems of a bot (reported by its program, setruleproblems), and their clearing, to every open page', async () => {
    const notices = new PageNotices();
    const other = await createSandbox();
    try {
      await other.app.register(webChatPlugin, { store: other.store, onMessage: other.onMessage, notices });
      const otherUrl = await other.listen({ host: '127.0.0.1', port: 0 });
      const { token } = await createBotViaAssistant(otherUrl, { userId: 70, name: 'Demo', username: 'demo_bot' });
      const report = (problems: unknown[]) =>
        fetch(`${otherUrl}/bot${token}/setRuleProblems`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ problems }),
        });
      expect(await (await report([{ where: 'rules/a.yaml:3:5', message: 'unknown field' }])).json()).toEqual({ ok: true, result: true });
      const reader = await SseReader.open(`${otherUrl}/client/events?user=71`);
      readers.push(reader);
      expect(payload<{ home: string | null }>(await reader.next(isEvent('hello'))).home).toBeNull();
      // Problems known before the page connected arrive with the first events.
      expect(payload(await reader.next(isEvent('rules')))).toEqual({ bot: 'demo_bot', problems: [{ where: 'rules/a.yaml:3:5', message: 'unknown field' }] });
      notices.setHome('demo_bot');
      expect(payload<{ home: string }>(await reader.next(isEvent('hello'))).home).toBe('demo_bot');
      await report([]);
      expect(payload(await reader.next(isEvent('rules')))).toEqual({ bot: 'demo_bot', problems: [] });
      // Anything but a list of {where, message} is refused.
      expect((await report([{ where: 3 }])).status).toBe(400);
    } finally {
      await other.close();
    }
  });
});
