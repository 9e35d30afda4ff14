// The fingerprint is stored in every journal's done lines: a redelivery after an upgrade must still be
// recognised, so its value for a given update may never change (these were computed by earlier versions).
import { describe, expect, it } from 'vitest';
import type { Update } from '../../src/api/types.js';
import { updateFingerprint } from '../../src/store/update-fingerprint.js';

const cases: Array<[string, object, string]> = [
  ['a message', { update_id: 1, message: { message_id: 5, date: 100, chat: { id: 7 }, from: { id: 9 }, text: 'x' } }, 'RZRZcoAKMvu0'],
  ['a button press', { update_id: 2, callback_query: { id: 'abc', from: { id: 9 }, data: 'd' } }, 'z2D6ns-i841G'],
  ['an update with no payload', { update_id: 3 }, 'qn2zWzhh5lKr'],
  ['a member change', { update_id: 4, chat_member: { chat: { id: -5 }, from: { id: 3 }, date: 5 } }, 'Yu6stGGb972c'],
  ['a null payload', { update_id: 5, message: null }, 'm6Ni8N0Y0ejf'],
];

describe('updateFingerprint', () => {
  it.each(cases)('%s keeps the fingerprint earlier versions wrote to their journals', (_what, update, expected) => {
    expect(updateFingerprint(update as Update)).toBe(expected);
  });

  it('tells another message under the same id apart, and ignores what a redelivery repeats', () => {
    const first = { update_id: 1, message: { message_id: 5, date: 100, chat: { id: 7 }, from: { id: 9 }, text: 'x' } } as Update;
    expect(updateFingerprint({ ...first, message: { ...first.message!, text: 'edited' } } as Update)).toBe(updateFingerprint(first));
    expect(updateFingerprint({ ...first, message: { ...first.message!, message_id: 6 } } as Update)).not.toBe(updateFingerprint(first));
  });
});
