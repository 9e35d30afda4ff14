// The messages a bot sent, as the sandbox saw them (sendmessage calls it accepted), in the order they came: what the
// crash and replica tests read to find a message lost, or sent twice.
import type { Sandbox } from '../../src/sandbox/index.js';

export interface SentMessage {
  readonly chat: number;
  readonly text: string;
}

/** Collects the bot's accepted sendmessage calls from now on into `sent`, until `stop`. */
export function collectSentMessages(sandbox: Sandbox, username: string): { readonly sent: SentMessage[]; stop(): void } {
  const sent: SentMessage[] = [];
  const stop = sandbox.onBotApiCall(({ bot, method, params, ok }) => {
    if (ok && method === 'sendmessage' && bot.toLowerCase() === username.toLowerCase()) sent.push({ chat: Number(params.chat_id), text: String(params.text) });
  });
  return { sent, stop };
}
