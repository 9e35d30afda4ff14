// Where an effect's id comes from when an update caused it: the update's id and fingerprint (the service may
// start its ids over; see update-fingerprint.ts) and the effect's position among the update's effects. Every
// store derives it the same way in `commit`, so a crash, a retry or another replica finds the same effect,
// and a receiver that keys on it (a backend's Idempotency-Key) recognises it.
import type { Update } from '../api/types.js';
import type { StateCommit } from '../pipeline/ports.js';
import { updateFingerprint } from './update-fingerprint.js';

/** The commit with its effects' ids made whole (`u<update id>.<fingerprint>.<position>`); unchanged when it stores none. */
export function withEffectIds(update: Update, state: StateCommit | null): StateCommit | null {
  if (!state?.effects?.length) return state;
  const cause = `u${update.update_id}.${updateFingerprint(update)}`;
  return { ...state, effects: state.effects.map((effect) => ({ ...effect, id: `${cause}.${effect.id}` })) };
}

/**
 * The key of a backend call made while an update is handled (its Idempotency-Key): the update's id and
 * fingerprint and the call's position among the update's calls (`u<update id>.<fingerprint>.c<position>`), so
 * a run of the same update after a crash or on another replica sends the same key.
 */
export function callKey(update: Update, index: number): string {
  return `u${update.update_id}.${updateFingerprint(update)}.c${index}`;
}
