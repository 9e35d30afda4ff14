// A bot under test driven through the real update pipeline, as `hearsay run` handles updates: the file
// ledger in a temporary directory (on tmpfs when there is one, so its fdatasyncs cost nothing), the per-chat
// sequencer, the service's perform step and reply sender talking to the Bot API double, flow timeouts raised
// through the pipeline as the runtime's timers do. Only the network and the clock are replaced. The bot's
// warnings and errors are kept for the failure report.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Update } from '@grammyjs/types';
import type { BotApi } from '../api/types.js';
import { ReplySender } from '../delivery/reply-sender.js';
import { decide } from '../engine/decide.js';
import { flowDeadline } from '../engine/flows.js';
import type { RuleSet } from '../engine/rule-set.js';
import { FileLedger } from '../store/file/file-ledger.js';
import { createLogger, type Logger } from '../log/logger.js';
import { ServiceMetrics } from '../ops/metrics.js';
import { LocalChatSequencer } from '../pipeline/chat-sequencer.js';
import { UpdatePipeline } from '../pipeline/update-pipeline.js';
import { createActionPerformer } from '../delivery/perform-actions.js';
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

/** A logger at `warn` whose lines are kept, each as its message and reason, for the failure report. */
function keptLog(): { log: string[]; logger: Logger } {
  const log: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const line = JSON.parse(chunk.toString()) as { msg?: string; reason?: string; err?: { message?: string } };
      log.push([line.msg, line.reason ?? line.err?.message].filter(Boolean).join(': '));
      done();
    },
  });
  return { log, logger: createLogger({ level: 'warn', destination, pretty: false }) };
}

/** The open flow whose timeout is due first by `now`, if any. */
async function firstDueTimeout(ledger: FileLedger, ruleSet: RuleSet, now: number) {
  return (await ledger.flows())
    .map((entry) => ({ ...entry, at: flowDeadline(entry.position, ruleSet) }))
    .filter((entry): entry is typeof entry & { at: number } => entry.at !== null && entry.at <= now)
    .sort((a, b) => a.at - b.at)[0];
}

export function createPipelineDriver(options: DriverOptions): BotDriver {
  const dir = mkdtempSync(join(storeBase(), 'hearsay-test-'));
  const { log, logger } = keptLog();
  const metrics = new ServiceMetrics({ processMetrics: false });
  const ledger = FileLedger.open({ dir, logger, inbox: false });
  const api = options.api as unknown as BotApi;
  const sender = new ReplySender({ api, logger, metrics });
  const pipeline = new UpdatePipeline({
    ledger,
    states: ledger,
    sequencer: new LocalChatSequencer({ concurrency: 1 }),
    rules: { current: options.ruleSet },
    context: { botUsername: options.botUsername, random: options.random, now: () => options.clock.now },
    perform: createActionPerformer({ sender, api, logger }),
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

  return {
    async handle(update: Update) {
      await pipeline.handle(update);
    },
    async advanceTo(now: number) {
      const fired = new Set<string>();
      for (;;) {
        // The runtime's timers fire each flow's timeout at its deadline; the frozen clock jumps there instead.
        const due = await firstDueTimeout(ledger, options.ruleSet, now);
        if (!due) break;
        const key = `${due.chatId}:${due.userId}:${due.at}`;
        if (fired.has(key)) throw new Error(`the flow timeout of user ${due.userId} in chat ${due.chatId} did not end the flow`);
        fired.add(key);
        options.clock.now = Math.max(options.clock.now, due.at);
        await pipeline.flowTimeout(due.chatId, due.userId);
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
