// The short fingerprint that tells a redelivered update from another update carrying the same id (the
// service can start its ids over): what a redelivery repeats word for word.
import { hash } from 'node:crypto';
import type { Update } from '../api/types.js';

/**
 * What tells two updates with the same id apart: a redelivery carries the same message (kind, chat, message id,
 * date), an update of a new id sequence does not. Short, so the journal stays small.
 */
export function updateFingerprint(update: Update): string {
  let kind = 'none';
  let payload: unknown = null;
  // The update's one payload field; a loop rather than Object.entries(), which builds an array per field.
  for (const key of Object.keys(update)) {
    if (key === 'update_id') continue;
    kind = key;
    payload = (update as unknown as Record<string, unknown>)[key];
    break;
  }
  const body = (payload ?? {}) as { message_id?: unknown; id?: unknown; date?: unknown; chat?: { id?: unknown }; from?: { id?: unknown } };
  const source = `${kind}|${part(body.message_id)}|${part(body.id)}|${part(body.date)}|${part(body.chat?.id)}|${part(body.from?.id)}`;
  // One-shot hashing: no Hash object per update (the fingerprint is taken for every commit).
  return hash('sha256', source, 'base64url').slice(0, 12);
}

/** One field of the fingerprint's source: an object (or null) counts as empty, anything else as its string. */
function part(value: unknown): string {
  return typeof value === 'object' ? '' : String(value);
}
