// The stored shape of flow positions and of retention stamps: positions survive the round trip (also with
// odd step names), reserved keys never reach decide, and expiry counts from the last change.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeFlow, documentBytes, encodeFlow, flowKey, isExpired, parseFlowKey, stamped, withoutReserved } from '../../src/conversation/state-layout.js';

describe('state layout', () => {
  it('a flow position round-trips through its document, stamped or not', () => {
    const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,10}$/);
    const value = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)),
    );
    fc.assert(
      fc.property(name, name, fc.dictionary(name, value), fc.integer({ min: 0 }), (flowId, stepId, values, lastActivity) => {
        const position = { flowId, stepId, values, lastActivity };
        expect(decodeFlow(encodeFlow(position))).toEqual(position);
        expect(decodeFlow(JSON.parse(JSON.stringify(stamped(encodeFlow(position), 5))))).toEqual(position);
      }),
    );
    expect(decodeFlow({ name: 'Ada' })).toBeUndefined();
    expect(decodeFlow(undefined)).toBeUndefined();
  });

  it('names flow documents by chat and user', () => {
    expect(flowKey(-100123, 42)).toBe('flow:-100123:42');
    expect(parseFlowKey('flow:-100123:42')).toEqual({ chatId: -100123, userId: 42 });
    expect(parseFlowKey('user:42')).toBeUndefined();
  });

  it('stamps, strips and expires', () => {
    const document = stamped({ name: 'Ada' }, 1_000);
    expect(withoutReserved(document)).toEqual({ name: 'Ada' });
    expect(isExpired(document, 1_999, 1_000)).toBe(false);
    expect(isExpired(document, 2_000, 1_000)).toBe(true);
    expect(isExpired({ name: 'Ada' }, 10 ** 15, 1)).toBe(false);
    expect(documentBytes(document)).toBe(Buffer.byteLength('{"name":"Ada"}'));
  });
});
