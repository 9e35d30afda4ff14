// Bot tokens shaped like the real service's: `<bot id>:<35 characters of A-Z a-z 0-9 _ ->`, from crypto random.
import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

export function generateToken(botId: number): string {
  // 64 symbols: the low six bits of each byte pick one without bias.
  const secret = [...randomBytes(35)].map((byte) => ALPHABET[byte & 63]).join('');
  return `${botId}:${secret}`;
}
