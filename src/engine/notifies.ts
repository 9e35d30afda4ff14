// A rule's `notify` at decide time: each request to a backend becomes an outbox effect of kind `backend`, rendered
// now (its path's values percent-encoded), committed with the update and sent after it until the backend answers
// 2xx; its Idempotency-Key comes from the effect's id, the same on every attempt. A chat's notifications to one
// backend keep their order.
import type { EffectAction, JsonValue } from './actions.js';
import type { BackendRequest } from './backend-calls.js';
import { renderRequest, type CompiledRequest } from './compile-calls.js';
import type { DecideContext } from './decide-types.js';
import type { RenderValues } from './render.js';

/** The outbox effects of `notify` requests, in order; `chatId` is the chat of the event that caused them. */
export function notifyEffects(requests: readonly CompiledRequest[], values: RenderValues, context: DecideContext, chatId: number | null): EffectAction[] {
  return requests.map((compiled) => {
    const request: BackendRequest = renderRequest(compiled, values);
    const giveUpAfterMs = context.backends?.get(request.backend)?.giveUpAfterMs;
    return {
      type: 'effect',
      kind: 'backend',
      payload: request as unknown as JsonValue,
      ...(chatId !== null ? { orderKey: `backend:${request.backend}:chat:${chatId}` } : {}),
      ...(giveUpAfterMs !== undefined ? { giveUpAfterMs } : {}),
    };
  });
}
