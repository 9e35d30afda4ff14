// Scheduled posts at run time. Each occurrence of a schedule is an outbox effect (kind `schedule`), planned
// before it is due and stored with an id made of the schedule and the occurrence (`s.<id>.<ms>`): every replica
// plans the same effect, the store keeps it once, and the outbox hands it to one replica, once, through
// restarts and kill -9; one found more than its `late_after` overdue (the bot was down) is dropped and logged.
// A planner runs on every replica: at start, after a reload, and at each occurrence (when it plans the next),
// so no single replica's death leaves a schedule unplanned. The text is rendered when the post goes out, from
// the rules of that moment: a schedule a reload removed or moved sends nothing.
import { nextOccurrence } from '../calendar/recurrence.js';
import type { CompiledSchedule } from '../engine/compile-schedules.js';
import type { JsonValue } from '../engine/actions.js';
import type { Logger } from '../log/logger.js';
import type { NewEffect } from './outbox-port.js';
import type { UpdateLedger } from './ports.js';

/** Node's timers cannot wait longer than this (about 24.8 days). */
const MAX_WAIT_MS = 2 ** 31 - 1;

/** What a `schedule` effect carries: which schedule, and which of its occurrences (ms since the epoch). */
export interface ScheduleEffectPayload {
  readonly schedule: string;
  readonly at: number;
}

export interface SchedulePlannerOptions {
  readonly ledger: Pick<UpdateLedger, 'commitState'>;
  /** The schedules of the rules in force. */
  readonly schedules: () => readonly CompiledSchedule[];
  /** The configuration's named chats. */
  readonly chats: Readonly<Record<string, number | string>>;
  readonly logger: Logger;
  readonly now?: () => number;
  /** Told after occurrences were stored (the outbox looks for them). */
  readonly onPlanned?: () => void;
}

/** The chat a schedule posts to: its id as written, or the id the configuration gives its name. */
export function scheduleChat(schedule: CompiledSchedule, chats: Readonly<Record<string, number | string>>): number | string | undefined {
  return typeof schedule.to === 'number' ? schedule.to : chats[schedule.to];
}

/** The outbox effect of one occurrence. */
export function occurrenceEffect(schedule: CompiledSchedule, at: number, chatId: number | string): NewEffect {
  const payload: ScheduleEffectPayload = { schedule: schedule.id, at };
  return {
    id: `s.${schedule.id}.${at}`,
    kind: 'schedule',
    payload: payload as unknown as JsonValue,
    dueAt: at,
    orderKey: `chat:${chatId}`,
    lateAfterMs: schedule.lateAfterMs,
    source: `schedule:${schedule.id}`,
    ...(typeof chatId === 'number' ? { chatId } : {}),
  };
}

/** Whether `at` is still an occurrence of the schedule as the rules now have it. */
export function isOccurrence(schedule: CompiledSchedule, at: number): boolean {
  return nextOccurrence(schedule.recurrence, schedule.zone, at - 1) === at;
}

/** Plans the next occurrence of every schedule, and plans again when it comes. */
export class SchedulePlanner {
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly now: () => number;
  private readonly unresolved = new Set<string>();

  constructor(private readonly options: SchedulePlannerOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * Stores the next occurrence after now of each schedule (one already stored is kept as it is); resolves with the
   * earliest of them, null when there is none.
   */
  async plan(): Promise<number | null> {
    const now = this.now();
    const effects: NewEffect[] = [];
    for (const schedule of this.options.schedules()) {
      const chatId = scheduleChat(schedule, this.options.chats);
      if (chatId === undefined) {
        this.warnUnresolved(schedule);
        continue;
      }
      const at = nextOccurrence(schedule.recurrence, schedule.zone, now);
      if (at !== null) effects.push(occurrenceEffect(schedule, at, chatId));
    }
    if (effects.length === 0) return null;
    await this.options.ledger.commitState({ scope: { chatId: null, userId: null }, changes: [], effects });
    this.options.onPlanned?.();
    return Math.min(...effects.map((effect) => effect.dueAt));
  }

  /** Plans now, and again at each next occurrence (a failed plan is tried again a minute later). */
  async start(): Promise<void> {
    clearTimeout(this.timer);
    if (this.closed) return;
    let next: number | null;
    try {
      next = await this.plan();
    } catch (error) {
      this.options.logger.warn({ err: error }, 'scheduled posts not planned now; tried again in a minute');
      next = this.now() + 60_000;
    }
    if (next === null || this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.start(), Math.min(Math.max(next - this.now(), 0) + 1, MAX_WAIT_MS));
    this.timer.unref();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private warnUnresolved(schedule: CompiledSchedule): void {
    if (this.unresolved.has(schedule.id)) return;
    this.unresolved.add(schedule.id);
    this.options.logger.error({ schedule: schedule.id, to: schedule.to }, 'schedule not planned: its chat is not declared under chats: in the configuration');
  }
}
