// The demo's community group: "Kiez Coders", a supergroup in the sandbox with a few neighbours in it and the bot as
// its administrator, joined only with approval. Made when the rules answer join requests (the demo's do, in
// rules/45-community.yaml: questions in private before approving, early links deleted with a warning, the third
// muting, /rules pinned), through the sandbox's client API as a person would; the owner then asks for the rules.
import { updateKindsFor } from '../engine/events.js';
import { HearsayError } from '../errors/hearsay-error.js';
import { loadRules } from '../rules/load.js';
import type { RuleLimits } from '../rules/load.js';
import type { Logger } from '../log/logger.js';

/** The group's title, as the chat page lists it. */
export const COMMUNITY_TITLE = 'Kiez Coders';

/** The neighbours already in the group (ids below the chat page's, which start at 100000); the first owns it. */
const NEIGHBOURS = [
  { id: 4201, first_name: 'Mira' },
  { id: 4202, first_name: 'Jonas', language_code: 'de' },
  { id: 4203, first_name: 'Lea' },
];

/** Whether the rules at `rulesPath` answer join requests: then the demo has a group for them to look after. */
export async function answersJoinRequests(rulesPath: string, limits?: RuleLimits): Promise<boolean> {
  const { ruleSet } = await loadRules(rulesPath, limits);
  return ruleSet !== undefined && updateKindsFor(ruleSet).includes('chat_join_request');
}

/**
 * The community group when the rules answer join requests, with a line saying it is there; a sandbox that refuses
 * is logged (the demo runs on without the group).
 */
export async function openCommunityGroup(site: {
  rulesPath: string;
  limits: RuleLimits;
  sandboxUrl: string;
  botUsername: string;
  logger: Logger;
}): Promise<void> {
  if (!(await answersJoinRequests(site.rulesPath, site.limits))) return;
  try {
    const chatId = await createCommunityGroup(site.sandboxUrl, site.botUsername);
    site.logger.info({ chat_id: chatId }, `the group "${COMMUNITY_TITLE}" on the page is looked after by @${site.botUsername}: join it to see`);
  } catch (error) {
    site.logger.warn({ err: error }, `the group "${COMMUNITY_TITLE}" could not be made; the demo runs without it`);
  }
}

/** Creates the community group with the bot as its administrator, and its owner asks for the rules; resolves with its chat id. */
export async function createCommunityGroup(sandboxUrl: string, botUsername: string): Promise<number> {
  const body = {
    title: COMMUNITY_TITLE,
    type: 'supergroup',
    join_by_request: true,
    members: NEIGHBOURS,
    bots: [botUsername],
    admins: [{ bot: botUsername }],
  };
  const { chat_id: chatId } = await clientCall<{ chat_id: number }>(`${sandboxUrl}/client/groups`, body);
  await clientCall(`${sandboxUrl}/client/send`, { user: NEIGHBOURS[0], chat: chatId, text: '/rules' });
  return chatId;
}

async function clientCall<T>(url: string, body: object): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const envelope = (await response.json()) as { ok: boolean; result?: T; description?: string };
  if (!envelope.ok) throw new HearsayError('HS_ERR_DEMO_SANDBOX_REFUSED', ['POST', new URL(url).pathname, String(envelope.description)]);
  return envelope.result as T;
}
