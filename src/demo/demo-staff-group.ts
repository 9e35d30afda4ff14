// The demo's help desk: a "Support team" forum group in the sandbox, with the demo bot as an administrator that
// manages topics and Sam as staff, made the demo bot's `staff` chat and its hand-off chat (the sandbox is new at
// every start, so a staff chat id from hearsay.yaml could not name a group in it). "talk to a human" then opens
// the customer's topic there, and on the chat page a person writes in it as Sam. Kept to itself so other demo
// groups can be added beside it.
import type { ServiceConfig } from '../config/index.js';
import { HearsayError } from '../errors/hearsay-error.js';

/** The staff member of the demo's "Support team" (an id far from those the page gives its users). */
export const DEMO_STAFF = { id: 7_770_001, first_name: 'Sam' } as const;
export const DEMO_STAFF_GROUP_TITLE = 'Support team';
/** The chat name the demo's rules and hearsay.yaml give the staff group. */
export const DEMO_STAFF_CHAT = 'staff';

/** Creates the "Support team" forum group with the bot (an administrator, topics included) and Sam in it; resolves to its chat id. */
export async function createDemoStaffGroup(sandboxUrl: string, botUsername: string): Promise<number> {
  const response = await fetch(`${sandboxUrl}/client/groups`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      title: DEMO_STAFF_GROUP_TITLE,
      members: [DEMO_STAFF],
      bots: [botUsername],
      admins: [{ user: DEMO_STAFF.id }, { bot: botUsername }],
      forum: true,
    }),
  });
  const envelope = (await response.json()) as { ok: boolean; result?: { chat_id: number }; description?: string };
  if (!envelope.ok || !envelope.result) throw new HearsayError('HS_ERR_DEMO_SANDBOX_REFUSED', ['POST', '/client/groups', String(envelope.description)]);
  return envelope.result.chat_id;
}

/**
 * The configuration with the sandbox's staff group as the `staff` chat and the hand-off's chat: any chat name that
 * named the configured hand-off chat names it too, and a configuration without a `handoff:` block gets one (the
 * built-in demo rules hand off), with the usual end words and 2 hours of idle time.
 */
export function withDemoStaffGroup(config: ServiceConfig, chatId: number): ServiceConfig {
  const before = config.handoff?.chatId;
  const chats: Record<string, number | string> = { ...config.chats };
  for (const [name, id] of Object.entries(chats)) if (before !== undefined && id === before) chats[name] = chatId;
  chats[DEMO_STAFF_CHAT] = chatId;
  const handoff = config.handoff ? { ...config.handoff, chatId } : { chatId, idleMs: 2 * 60 * 60 * 1000, end: ['done', '/done'] };
  return { ...config, chats, handoff };
}
