// What the polling tests share: a private text update, a gate a test opens by hand, a wait for a condition, a long
// poll that lasts until aborted (as the service's does when nothing is queued), and polling built as the service
// runs it with short pauses.
import type { Update } from '../../src/api/types.js';
import { PollingIngress, type PollingIngressOptions } from '../../src/ingress/polling.js';
import { createLogger } from '../../src/log/logger.js';
import { ServiceMetrics } from '../../src/ops/metrics.js';

/** Update `id`: a text message `t<id>` in private chat `chat`. */
export const textUpdate = (id: number, chat: number): Update =>
  ({ update_id: id, message: { message_id: id, date: 0, chat: { id: chat, type: 'private', first_name: 'U' }, text: `t${id}` } }) as Update;

/** A promise the test resolves by hand (`open`). */
export function gate(): { open: () => void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** Resolves once `condition` holds, checked every 5 ms; throws after `timeoutMs`. */
export async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A long poll with nothing to answer: rejects with an AbortError when `signal` aborts (at once if it has). */
export function longPollUntilAborted(signal: AbortSignal | undefined): Promise<never> {
  const aborted = () => Object.assign(new Error('aborted'), { name: 'AbortError' });
  if (signal?.aborted) return Promise.reject(aborted());
  return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(aborted())));
}

/** Polling as the service runs it over `api` and `pipeline`, with 1 s long polls and 20 ms pauses. */
export function pollingOver(
  api: PollingIngressOptions['api'],
  pipeline: PollingIngressOptions['pipeline'],
  options: Partial<PollingIngressOptions> = {},
): PollingIngress {
  return new PollingIngress({
    api,
    pipeline,
    logger: createLogger({ level: 'silent' }),
    metrics: new ServiceMetrics({ processMetrics: false }),
    timeoutSeconds: 1,
    limit: 100,
    deleteWebhook: false,
    pipelineDelayMs: 20,
    ...options,
  });
}
