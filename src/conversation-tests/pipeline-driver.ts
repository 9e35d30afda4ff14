// A bot under test driven through the real update pipeline, as `hearsay run` handles updates: the file
// ledger in a temporary directory (on tmpfs when there is one, so its fdatasyncs cost nothing), the per-chat
// sequencer, the service's perform step and reply sender talking to the Bot API double. Only the network and
// the clock are replaced. The bot's warnings and errors are kept for the failure report.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Update } from '@grammyjs/types';
import type { BotApi } from '../api/types.js';
import { ReplySender } from '../delivery/reply-sender.js';
import { decide } from '../engine/decide.js';
import { flowDeadline } from '../engine/flows.js';
import type { FlowPosition } from '../engine/state.js';
import { FileLedger } from '../journal/file-ledger.js';
import { createLogger } from '../log/logger.js';
import { ServiceMetrics } from '../ops/metrics.js';
import { LocalChatSequencer } from '../pipeline/chat-sequencer.js';
import { UpdatePipeline } from '../pipeline/update-pipeline.js';
import { createActionPerformer } from '../service/perform-actions.js';
import type { BotDriver, DriverOptions } from './driver.js';

/** Where temporary stores go: tmpfs when the machine has one. */
function storeBase(): string {
  try {
    if (statSync('/dev/shm').isDirectory()) return '/dev/shm';
  } catch {
    // No tmpfs: the system's temp directory.
  }
  return tmpdir();
}

/** Whether the pipeline raises flow timeouts itself (the conversation runtime); until then `wait` needs the engine driver. */
export const PIPELINE_HAS_FLOW_TIMEOUTS = typeof (UpdatePipeline.prototype as { flowTimeout?: unknown }).flowTimeout === 'function';

export function createPipelineDriver(options: DriverOptions): BotDriver {
  const dir = mkdtempSync(join(storeBase(), 'hearsay-test-'));
  const log: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const line = JSON.parse(chunk.toString()) as { msg?: string; reason?: string; err?: { message?: string } };
      log.push([line.msg, line.reason ?? line.err?.message].filter(Boolean).join(': '));
      done();
    },
  });
  const logger = createLogger({ level: 'warn', destination, pretty: false });
  const metrics = new ServiceMetrics({ processMetrics: false });
  const ledger = FileLedger.open({ dir, logger, inbox: false });
  const api = options.api as unknown as BotApi;
  const sender = new ReplySender({ api, logger, metrics, maxAttempts: 1 });
  const flows = new Map<string, { chatId: number; userId: number; position: FlowPosition }>();
  const pipeline = new UpdatePipeline({
    ledger,
    states: ledger,
    sequencer: new LocalChatSequencer({ concurrency: 1 }),
    rules: { current: options.ruleSet },
    context: { botUsername: options.botUsername, random: options.random, now: () => options.clock.now },
    perform: createActionPerformer({ sender, api, logger, metrics }),
    decide: (event, ruleSet, state, context) => {
      const decision = decide(event, ruleSet, state, context);
      const stepsAsked = decision.actions.flatMap((a) => (a.type === 'set_flow' && a.flow ? [`${a.flow.flowId}#${a.flow.stepId}`] : []));
      options.onDecision({ ruleId: decision.ruleId, stepsAsked });
      return decision;
    },
    logger,
    metrics,
    maxPending: 1000,
  });

  /** Keeps the flows of a scope as committed, to know which timeouts fall due. */
  const track = async (chatId: number | undefined, userId: number | undefined) => {
    if (chatId === undefined || userId === undefined) return;
    const position = (await ledger.load({ chatId, userId })).flow;
    if (position) flows.set(`${chatId}:${userId}`, { chatId, userId, position });
    else flows.delete(`${chatId}:${userId}`);
  };

  return {
    async handle(update: Update) {
      await pipeline.handle(update);
      const message = update.message ?? update.callback_query?.message;
      await track(message?.chat.id, update.message?.from?.id ?? update.callback_query?.from.id);
    },
    async advanceTo(now: number) {
      for (;;) {
        const due = [...flows.values()]
          .map((entry) => ({ ...entry, at: flowDeadline(entry.position, options.ruleSet) }))
          .filter((entry): entry is typeof entry & { at: number } => entry.at !== null && entry.at <= now)
          .sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        options.clock.now = Math.max(options.clock.now, due.at);
        const raise = (pipeline as unknown as { flowTimeout?: (chatId: number, userId: number) => Promise<void> }).flowTimeout;
        if (!raise) throw new Error('flow timeouts do not go through the update pipeline in this build');
        await raise.call(pipeline, due.chatId, due.userId);
        await track(due.chatId, due.userId);
      }
      options.clock.now = now;
    },
    async state(chatId: number, userId: number) {
      return ledger.load({ chatId, userId });
    },
    takeLog() {
      return log.splice(0);
    },
    async close() {
      await ledger.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
