// The request files through which `hearsay state` reaches a running instance: answered in order, errors
// passed back, and a request nobody answers is withdrawn after the timeout.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  askRunningInstance,
  NoAnswerError,
  REQUESTS_DIR,
  StateRequestServer,
  type StateRequest,
  type UserStateRequest,
} from '../../../src/store/file/state-requests.js';

describe('state requests', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearsay-requests-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a running server answers show and forget, and passes a failure back', async () => {
    const seen: StateRequest[] = [];
    const server = new StateRequestServer(
      dir,
      async (request) => {
        seen.push(request);
        if ((request as UserStateRequest).userId === 13) throw new Error('store closed');
        return { user: { name: 'Ada' } };
      },
      (error) => {
        throw error;
      },
    );
    try {
      expect(await askRunningInstance(dir, { op: 'show', userId: 42 })).toEqual({ ok: true, state: { user: { name: 'Ada' } } });
      expect(await askRunningInstance(dir, { op: 'forget', userId: 42 })).toEqual({ ok: true, state: { user: { name: 'Ada' } } });
      expect(await askRunningInstance(dir, { op: 'show', userId: 13 })).toEqual({ ok: false, error: 'store closed' });
      expect(seen).toEqual([
        { op: 'show', userId: 42 },
        { op: 'forget', userId: 42 },
        { op: 'show', userId: 13 },
      ]);
      expect(await readdir(join(dir, REQUESTS_DIR))).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('without a server the request is withdrawn after the timeout', async () => {
    await expect(askRunningInstance(dir, { op: 'forget', userId: 1 }, 200)).rejects.toBeInstanceOf(NoAnswerError);
    expect(await readdir(join(dir, REQUESTS_DIR))).toEqual([]);
  });

  it('a request left while the instance was down is served when it starts', async () => {
    const asked = askRunningInstance(dir, { op: 'show', userId: 7 }, 5_000);
    const server = new StateRequestServer(
      dir,
      async (request) => ({ id: (request as UserStateRequest).userId }),
      () => undefined,
    );
    try {
      expect(await asked).toEqual({ ok: true, state: { id: 7 } });
    } finally {
      await server.close();
    }
  });
});
