// Hand-offs that start elsewhere than a message rule, end to end (the real service in this process against the
// sandbox, a real local HTTP backend): a button press ("Talk to a person") and a backend call's error branch each
// open the customer's topic, staff answers reach the customer, and `hearsay state show --user` says plainly that
// the customer is in hand-off (since when, by which rule, which topic), and no longer once staff hand them back.
import { createServer, type Server } from 'node:http';
import { mkdtemp, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '@grammyjs/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log/logger.js';
import { Secrets } from '../../src/log/secrets.js';
import { startService, type RunningService } from '../../src/service/start.js';
import { runCli, writeRules } from '../e2e/run-process.js';
import { lineCapture } from '../support/log-capture.js';
import { createBotViaAssistant, groupMessages, pressButton, sendAsUser, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';

const SAM = { id: 9701, first_name: 'Sam' };
const RULES = `rules:
  - id: menu
    command: menu
    reply: "How can I help?"
    buttons: [[{ text: "Talk to a person", data: "human" }]]
  - id: talk-to-person
    callback: '^human$'
    handoff: true
    answer: "A colleague will write here."
  - id: order
    pattern: 'order (?<num>\\d+)'
    call: { backend: shop, get: "/orders/{{match.num}}" }
    on:
      ok: { reply: "Order {{match.num}}: {{result.status}}." }
      error: { reply: "Our shop system is down; a colleague takes over.", handoff: true }
  - id: help
    fallback: true
    reply: "Say /menu."
handoff_end:
  reply: "You're back with the bot."
`;

describe('hand-off from a button press and from a backend call', () => {
  let sandbox: StartedSandbox;
  let shop: Server;
  let service: RunningService | undefined;
  let env: Record<string, string>;
  let bot: { token: string; username: string };
  let staff: number;
  let configFile: string;

  const client = async <T>(path: string, body?: unknown): Promise<T> => {
    const init = body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
    const envelope = (await (await fetch(`${sandbox.baseUrl}${path}`, init)).json()) as { ok: boolean; result: T; description?: string };
    if (!envelope.ok) throw new Error(`${path}: ${envelope.description}`);
    return envelope.result;
  };

  beforeAll(async () => {
    sandbox = await startSandbox();
    // The shop is down: every order lookup answers 503.
    shop = createServer((_request, response) => response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"maintenance"}'));
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 9700, name: 'Desk', username: 'handoff_branches_bot' });
    const group = { title: 'Support team', members: [SAM], bots: [bot.username], admins: [{ bot: bot.username }], forum: true };
    staff = (await client<{ chat_id: number }>('/client/groups', group)).chat_id;
    const rules = await writeRules(RULES);
    const configDir = await mkdtemp(join(tmpdir(), 'hearsay-handoff-branches-'));
    configFile = join(configDir, 'hearsay.yaml');
    const shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
    await writeFile(configFile, `chats:\n  staff: ${staff}\nhandoff: { chat: staff }\nbackends:\n  shop: { url: "${shopUrl}", retries: 0 }\n`);
    env = { BOT_TOKEN: bot.token, HEARSAY_DATA_DIR: await mkdtemp(join(tmpdir(), 'hearsay-handoff-branches-data-')) };
    const secrets = new Secrets();
    const config = await loadConfig({
      cwd: configDir,
      env: { ...env, BASE_URL: sandbox.baseUrl, HEARSAY_RULES: rules.dir, HEARSAY_POLLING_TIMEOUT: '1' },
      secrets,
    });
    const { destination } = lineCapture();
    service = await startService(config, { logger: createLogger({ level: 'info', destination, secrets }) });
  }, 30_000);
  afterAll(async () => {
    await service?.stop();
    await new Promise((resolve) => shop.close(resolve));
    await sandbox.close();
  });

  async function waitFor<T, R>(read: () => Promise<R[]>, pick: (items: R[]) => T | undefined, what: string): Promise<T> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const items = await read();
      const found = pick(items);
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`${what} did not happen; saw: ${JSON.stringify(items)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const fromBot = (customer: number) => async () =>
    client<Message[]>(`/client/messages?user=${customer}&with=${bot.username}`).then((all) => all.filter((m) => m.from?.is_bot));
  const topics = () => client<Array<{ message_thread_id: number; name: string; closed: boolean }>>(`/client/topics?user=${SAM.id}&chat=${staff}`);
  const topicOf = (name: string) => waitFor(topics, (list) => list.find((t) => t.name === name && !t.closed), `the topic ${name}`);
  const inTopic = (thread: number) => async () =>
    (await groupMessages(sandbox.baseUrl, SAM.id, staff)).filter((m) => m.message_thread_id === thread && m.from?.is_bot && !m.forum_topic_created);
  const stateShow = async (user: number) => {
    const shown = await runCli(['state', 'show', '--user', String(user), '--config', configFile], env);
    expect(shown.code).toBe(0);
    return JSON.parse(shown.stdout) as { userId: number; handoff?: string; variables: Record<string, unknown> };
  };

  it('a "Talk to a person" button hands off: the topic opens with the chat so far, staff answers reach the customer, state show says so', async () => {
    const cleo = { id: 9711, first_name: 'Cleo', username: 'cleo' };
    await sendAsUser(sandbox.baseUrl, cleo, bot.username, '/menu');
    const menu = await waitFor(fromBot(cleo.id), (m) => m.find((x) => x.text === 'How can I help?'), 'the menu');
    const pressed = await pressButton(sandbox.baseUrl, cleo, { messageId: menu.message_id, data: 'human', to: bot.username, wait: 5 });
    expect(pressed.answer).toMatchObject({ status: 'answered', text: 'A colleague will write here.' });
    const topic = await topicOf('Cleo (@cleo) #9711');
    const thread = topic.message_thread_id;
    const header = await waitFor(inTopic(thread), (m) => (m.length >= 3 ? m : undefined), 'the header and the chat so far');
    expect(header[0]!.text).toContain('Hand-off: Cleo (@cleo, id 9711)');
    expect(header[0]!.text).toContain('Rule: talk-to-person');
    expect(header.slice(1).map((m) => m.text)).toEqual(['/menu', 'How can I help?']);

    const shown = await stateShow(cleo.id);
    const link = `https://t.me/c/${String(staff).slice('-100'.length)}/${thread}`;
    expect(shown.handoff).toMatch(
      new RegExp(
        `^in hand-off since \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z \\(rule talk-to-person\\), topic ${thread} in the staff group ${staff} \\(${link}\\)$`,
      ),
    );
    expect(Object.keys(shown)[1]).toBe('handoff');
    expect(shown.variables._handoff_topic).toBe(thread);

    await client('/client/send', { user: SAM, chat: staff, topic: thread, text: 'Hi Cleo, Sam here.' });
    await waitFor(fromBot(cleo.id), (m) => m.find((x) => x.text === 'Hi Cleo, Sam here.'), 'the staff answer at the customer');
    await client('/client/send', { user: SAM, chat: staff, topic: thread, text: 'done' });
    await waitFor(fromBot(cleo.id), (m) => m.find((x) => x.text === "You're back with the bot."), 'handoff_end');
    expect((await stateShow(cleo.id)).handoff).toBeUndefined();
  }, 30_000);

  it("a backend call's error branch hands off after its reply; the customer's next message goes to staff", async () => {
    const dan = { id: 9712, first_name: 'Dan' };
    await sendAsUser(sandbox.baseUrl, dan, bot.username, 'order 4711');
    await waitFor(fromBot(dan.id), (m) => m.find((x) => x.text === 'Our shop system is down; a colleague takes over.'), 'the error branch reply');
    const thread = (await topicOf('Dan #9712')).message_thread_id;
    const header = await waitFor(inTopic(thread), (m) => (m.length >= 3 ? m : undefined), 'the header');
    expect(header[0]!.text).toContain('Rule: order');
    expect(header.slice(1).map((m) => m.text)).toEqual(['order 4711', 'Our shop system is down; a colleague takes over.']);
    await sendAsUser(sandbox.baseUrl, dan, bot.username, 'any news?');
    await waitFor(inTopic(thread), (m) => m.find((x) => x.text === 'any news?'), 'the copy in the topic');
    expect((await fromBot(dan.id)()).map((m) => m.text)).toEqual(['Our shop system is down; a colleague takes over.']);
    expect((await stateShow(dan.id)).handoff).toMatch(/ \(rule order\), topic \d+ in the staff group /);
  }, 30_000);
});
