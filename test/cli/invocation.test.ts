// The command hints hearsay prints or writes name hearsay by a path relative to where they will be typed, when
// it is near: `node dist/hearsay.cjs` in a checkout, `node ../dist/hearsay.cjs` after `cd my-bot`.
import { describe, expect, it } from 'vitest';
import { hearsayInvocation, nearPath } from '../../src/cli/invocation.js';

describe('nearPath', () => {
  it('is relative within two folders up, absolute farther away', () => {
    expect(nearPath('/src/hearsay/dist/hearsay.cjs', '/src/hearsay')).toBe('dist/hearsay.cjs');
    expect(nearPath('/src/hearsay/dist/hearsay.cjs', '/src/hearsay/my-bot')).toBe('../dist/hearsay.cjs');
    expect(nearPath('/src/hearsay/dist/hearsay.cjs', '/src/hearsay/bots/shop')).toBe('../../dist/hearsay.cjs');
    expect(nearPath('/src/hearsay/dist/hearsay.cjs', '/home/ann/bots/shop')).toBe('/src/hearsay/dist/hearsay.cjs');
  });

  it('marks a file in the folder itself with ./ so the shell runs it', () => {
    expect(nearPath('/opt/bot/hearsay', '/opt/bot')).toBe('./hearsay');
    expect(nearPath('/opt/bot/hearsay', '/opt/bot/my-bot')).toBe('../hearsay');
  });
});

describe('hearsayInvocation', () => {
  it('names the script this process runs relative to the folder given', () => {
    const script = process.argv[1]!;
    const folder = script.slice(0, script.lastIndexOf('/'));
    expect(hearsayInvocation(folder)).toMatch(/^node \.\/[^/]+$/);
  });
});
