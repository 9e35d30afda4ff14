// The operator's door to a stopped bot's file store (`hearsay state show|forget`): it shows a user's
// variables, flows and the effects pending for them (a message to the staff group, a later message), and
// forgetting the user drops those effects too, durably: the next run never performs them.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Update } from '../../src/api/types.js';
import { createLogger } from '../../src/log/logger.js';
import { FileLedger } from '../../src/store/file/file-ledger.js';
import { botStateDir } from '../../src/store/file/update-journal.js';
import { operateOnStore } from '../../src/store/operator-store.js';

const logger = createLogger({ level: 'silent' });
const update = (id: number): Update =>
  ({
    update_id: id,
    message: { message_id: id, date: 1, chat: { id: 42, type: 'private', first_name: 'A' }, from: { id: 42, is_bot: false, first_name: 'A' }, text: 'x' },
  }) as Update;
const later = Date.UTC(2030, 0, 1);

describe('operateOnStore (file store, bot stopped)', () => {
  it("shows a user's pending effects beside their state, and forget drops them for good", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hearsay-operator-'));
    const config = { dataDir, store: { kind: 'file' as const }, state: { ttlMs: 86_400_000, maxUserBytes: 16_384 } };
    const ledger = FileLedger.open({ dir: botStateDir(dataDir, 7), logger, inbox: false });
    await ledger.commit(update(1), {
      scope: { chatId: 42, userId: 42 },
      changes: [{ type: 'set_state', scope: 'user', key: 'name', value: 'Ada' }],
      effects: [
        {
          id: '0',
          kind: 'message',
          payload: { method: 'sendmessage', params: { chat_id: -5, text: 'later' } },
          dueAt: later,
          userId: 42,
          chatId: 42,
          source: 'remind-me',
        },
      ],
    });
    await ledger.close();

    const shown = await operateOnStore(config, 7, { op: 'show', userId: 42 });
    expect(shown).toMatchObject({
      userId: 42,
      variables: { name: 'Ada' },
      flows: [],
      effects: [{ kind: 'message', dueAt: later, source: 'remind-me', attempts: 0 }],
    });
    expect(shown.effects[0]!.id).toMatch(/^u1\.[A-Za-z0-9_-]+\.0$/);
    expect((await operateOnStore(config, 7, { op: 'forget', userId: 42 })).effects).toHaveLength(1);

    const reopened = FileLedger.open({ dir: botStateDir(dataDir, 7), logger, inbox: false });
    expect(await reopened.claimDue(later, 10)).toEqual([]);
    expect((await reopened.userRecord(42)) as object).toMatchObject({ variables: null, effects: [] });
    await reopened.close();
  });
});
