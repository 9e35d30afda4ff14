// Creates the demo bot the way a person would: a /newbot conversation with the BotMaker assistant over
// the sandbox's client API. The token is read from the assistant's answer and registered as a secret
// before anything else sees it.
import type { Secrets } from '../log/secrets.js';
import { HearsayError } from '../errors/hearsay-error.js';

export interface DemoBot {
  username: string;
  token: string;
}

export interface CreateDemoBotOptions {
  /** The sandbox user who owns the bot. */
  owner: { id: number; first_name: string };
  name: string;
  /** Usernames to try in order; the first free one is taken. */
  usernames: readonly string[];
  secrets: Secrets;
}

/** A token in the assistant's answer. Lookarounds, not \b: a token may end in `-` or `_`, where \b does not hold. */
export const TOKEN_IN_TEXT = /(?<![A-Za-z0-9_-])\d+:[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/;
const TAKEN = /already taken/i;

/** `hearsay_demo_bot`, `hearsay_demo_2_bot`, … `hearsay_demo_<count>_bot`. */
export function demoUsernames(base = 'hearsay_demo', count = 20): string[] {
  return [`${base}_bot`, ...Array.from({ length: count - 1 }, (_, i) => `${base}_${i + 2}_bot`)];
}

export async function createDemoBot(baseUrl: string, options: CreateDemoBotOptions): Promise<DemoBot> {
  const say = (text: string) => askAssistant(baseUrl, options.owner, text);
  await say('/cancel');
  for (const username of options.usernames) {
    await say('/newbot');
    await say(options.name);
    const answer = await say(username);
    const token = TOKEN_IN_TEXT.exec(answer)?.[0];
    if (token) {
      options.secrets.add(token);
      return { username, token };
    }
    if (!TAKEN.test(answer)) throw new HearsayError('HS_ERR_DEMO_BOT_REFUSED', [username, options.secrets.scrub(answer)]);
    await say('/cancel');
  }
  throw new HearsayError('HS_ERR_DEMO_USERNAMES_TAKEN', [options.usernames[0] ?? '', options.usernames.at(-1) ?? '']);
}

/** Sends one message to BotMaker and returns its answer (the assistant answers within the same turn). */
async function askAssistant(baseUrl: string, owner: { id: number; first_name: string }, text: string): Promise<string> {
  const sent = await clientCall<{ message_id: number }>(`${baseUrl}/client/send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: owner, to: 'BotMaker', text }),
  });
  const query = new URLSearchParams({ user: String(owner.id), with: 'BotMaker', after: String(sent.message_id), wait: '5' });
  const messages = await clientCall<Array<{ text?: string; from?: { is_bot?: boolean } }>>(`${baseUrl}/client/messages?${query}`, { method: 'GET' });
  const answer = messages.find((message) => message.from?.is_bot);
  if (!answer) throw new HearsayError('HS_ERR_DEMO_NO_ANSWER', [text]);
  return answer.text ?? '';
}

async function clientCall<T>(url: string, init: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  const envelope = (await response.json()) as { ok: boolean; result?: T; description?: string };
  if (!envelope.ok) throw new HearsayError('HS_ERR_DEMO_SANDBOX_REFUSED', [String(init.method), new URL(url).pathname, String(envelope.description)]);
  return envelope.result as T;
}
