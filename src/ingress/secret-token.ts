// Constant-time check of X-Telegram-Bot-Api-Secret-Token. Lengths are compared first because
// timingSafeEqual throws on unequal lengths; a missing, repeated or non-ASCII header is simply wrong.
import { timingSafeEqual } from 'node:crypto';

export function createSecretCheck(secret: string): (header: unknown) => boolean {
  const expected = Buffer.from(secret, 'utf8');
  return (header) => {
    if (typeof header !== 'string') return false;
    const given = Buffer.from(header, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
}
