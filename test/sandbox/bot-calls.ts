// Raw Bot API calls for sandbox tests that read the whole answer (a refusal's description included), and the
// draining of a bot's pending updates so that a test reads only what comes after.
import type { Update } from '@grammyjs/types';

/** A Bot API answer as these tests read it: `result` on success, `error_code` and `description` on a refusal. */
export interface Envelope<T = unknown> {
  ok: boolean;
  result: T;
  error_code?: number;
  description?: string;
}

/** POSTs `method` with `params` as JSON for the bot with `token` on the sandbox at `baseUrl`; resolves with the answer, refused or not. */
export async function callBot<T = unknown>(baseUrl: string, token: string, method: string, params: Record<string, unknown> = {}): Promise<Envelope<T>> {
  const response = await fetch(`${baseUrl}/bot${token}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(params),
  });
  return (await response.json()) as Envelope<T>;
}

/** Reads the bot's pending updates (only the `allowed` kinds, when given) and confirms them; resolves with what was read. */
export async function drainUpdates(baseUrl: string, token: string, allowed?: string[]): Promise<Update[]> {
  const { result } = await callBot<Update[]>(baseUrl, token, 'getupdates', allowed ? { allowed_updates: allowed } : {});
  if (result.length > 0) await callBot(baseUrl, token, 'getupdates', { offset: result.at(-1)!.update_id + 1 });
  return result;
}
