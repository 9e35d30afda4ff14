// The short fingerprint that tells a redelivered update from another update carrying the same id (the
// service can start its ids over): what a redelivery repeats word for word.
import { hash } from 'node:crypto';
import type { Update } from '../api/types.js';

/**
 * What tells two updates with the same id apart: a redelivery carries the same message (kind, chat, message id,
 * date), an update of a new id sequence does not. Short, so the journal stays small.
 */
export function updateFingerprint(update: Update): string {
  const [kind, payload] = Object.entries(update).find(([key]) => key !== 'update_id') ?? ['none', null];
  const body = (payload ?? {}) as { message_id?: unknown; id?: unknown; date?: unknown; chat?: { id?: unknown }; from?: { id?: unknown } };
  const source = [kind, body.message_id, body.id, body.date, body.chat?.id, body.from?.id].map((part) => (typeof part === 'object' ? '' : String(part)));
  // One-shot hashing: no Hash object per update (the fingerprint is taken for every commit).
  return hash('sha256', source.join('|'), 'base64url').slice(0, 12);
}
