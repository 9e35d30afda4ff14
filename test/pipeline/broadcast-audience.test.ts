// The `--to` conditions of a broadcast: read as written, and checked against a user's variables.
import { describe, expect, it } from 'vitest';
import { AudienceSyntaxError, audienceOf, inAudience, parseAudience } from '../../src/pipeline/broadcast-audience.js';

const NOW = Date.parse('2026-11-27T12:00:00Z');

describe('broadcast audience', () => {
  it('reads =, !=, exists and all; anything else is refused with the forms to write', () => {
    expect(parseAudience(['user.newsletter=yes', "user.city != 'Köln'", 'user.vip exists', 'all'])).toEqual([
      { kind: 'equals', name: 'newsletter', value: 'yes' },
      { kind: 'differs', name: 'city', value: 'Köln' },
      { kind: 'exists', name: 'vip' },
    ]);
    expect(() => parseAudience([])).toThrow(AudienceSyntaxError);
    expect(() => parseAudience(['newsletter=yes'])).toThrow(/'user.NAME=VALUE', 'user.NAME!=VALUE', 'user.NAME exists' or 'all'/);
    expect(() => parseAudience(['chat.x=1'])).toThrow(AudienceSyntaxError);
  });

  it('every condition must hold; != holds for an unset variable; numbers compare as text', () => {
    const to = parseAudience(['user.newsletter=yes', 'user.city!=Köln']);
    expect(inAudience({ newsletter: 'yes', city: 'Berlin' }, to, NOW)).toBe(true);
    expect(inAudience({ newsletter: 'yes' }, to, NOW)).toBe(true);
    expect(inAudience({ newsletter: 'yes', city: 'Köln' }, to, NOW)).toBe(false);
    expect(inAudience({ city: 'Berlin' }, to, NOW)).toBe(false);
    expect(inAudience({ level: 3 }, parseAudience(['user.level=3']), NOW)).toBe(true);
  });

  it('leaves out users who blocked the bot, variables past their lifetime, and ids that are no user', () => {
    const to = parseAudience(['user.promo exists']);
    expect(inAudience({ promo: 'x', _blocked: 1_700_000_000 }, to, NOW)).toBe(false);
    expect(inAudience({ promo: 'x', 'promo@expires': NOW - 1 }, to, NOW)).toBe(false);
    expect(inAudience({ promo: 'x', 'promo@expires': NOW + 60_000 }, to, NOW)).toBe(true);
    const users = [
      { userId: 9, variables: { promo: 'a' } },
      { userId: -100123, variables: { promo: 'b' } },
      { userId: 3, variables: { promo: 'c' } },
    ];
    expect(audienceOf(users, to, NOW).map((user) => user.userId)).toEqual([3, 9]);
  });
});
