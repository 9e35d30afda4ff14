// A real update pipeline for ingress tests: the file ledger in a fresh directory, the in-process sequencer and
// an echo rule (every text message answered with its own text), with hooks in place of the Bot API: `perform`
// runs for each update that has something to send, and `committed` lists every update the ledger marked done.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Update } from '../../src/api/types.js';
import { compileRules } from '../../src/engine/compile.js';
import { FileLedger } from '../../src/store/file/file-ledger.js';
import { createLogger, type Logger } from '../../src/log/logger.js';
import { ServiceMetrics } from '../../src/ops/metrics.js';
import { LocalChatSequencer } from '../../src/pipeline/chat-sequencer.js';
import { UpdatePipeline } from '../../src/pipeline/update-pipeline.js';

export interface TestPipelineOptions {
  /** Called for each update with a reply to send, under its chat's turn; the signal aborts on a stop past its deadline. */
  perform?: (update: Update, signal: AbortSignal) => Promise<void>;
  concurrency?: number;
  maxPending?: number;
  /** Webhook: how long a request waits for its update before it is stored and acknowledged. */
  holdMs?: number;
  /** Keep an inbox (webhook mode); default true. */
  inbox?: boolean;
  dir?: string;
  logger?: Logger;
  metrics?: ServiceMetrics;
}

export interface TestPipeline {
  pipeline: UpdatePipeline;
  ledger: FileLedger;
  sequencer: LocalChatSequencer;
  /** Update ids in the order the ledger committed them. */
  committed: number[];
  dir: string;
}

export function testPipeline(options: TestPipelineOptions = {}): TestPipeline {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'hearsay-pipeline-'));
  const logger = options.logger ?? createLogger({ level: 'silent' });
  const ledger = FileLedger.open({ dir, logger, inbox: options.inbox ?? true });
  const committed: number[] = [];
  const commit = ledger.commit.bind(ledger);
  ledger.commit = async (update, state) => {
    await commit(update, state);
    committed.push(update.update_id);
  };
  const sequencer = new LocalChatSequencer({ concurrency: options.concurrency ?? 4 });
  const pipeline = new UpdatePipeline({
    ledger,
    states: ledger,
    sequencer,
    rules: { current: compileRules([{ id: 'echo', fallback: true, reply: '{{text}}' }]) },
    context: { botUsername: 'test_bot' },
    perform: async (_actions, { update }, signal) => {
      if (update) await options.perform?.(update, signal);
      return { sent: 1, dropped: false };
    },
    logger,
    metrics: options.metrics ?? new ServiceMetrics({ processMetrics: false }),
    maxPending: options.maxPending ?? 100,
    ...(options.holdMs !== undefined ? { holdMs: options.holdMs } : {}),
  });
  return { pipeline, ledger, sequencer, committed, dir };
}
