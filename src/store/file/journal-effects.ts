// The outbox's part of the file journal. A record that carries effects (or drops some) is still one `D` line
// (an update's) or `S` line (no update's), so a crash keeps its done mark, state and effects together or
// none of them: its JSON is then an object `{"d": documents, "e": new effects, "x": replace keys cancelled,
// "f": effect ids dropped}` instead of the plain array of documents. An effect's progress is one short line
// each: `a <id>` (an attempt begins), `f <id>` (finished: done or given up), `r <id> <retryAt>` (to be tried
// again then); a compaction keeps every pending effect as an `e <json>` line.
import type { EffectOutcome, NewEffect } from '../../pipeline/outbox-port.js';
import type { StateCommit } from '../../pipeline/ports.js';
import type { EffectQueue, EffectSnapshot } from '../effect-queue.js';
import type { StateDocumentMap } from '../state-document-map.js';
import type { StateDocument } from '../state-documents.js';

/** What one record writes: documents, and the outbox's changes when it has any. */
interface JournalRecord {
  readonly d?: Array<[string, StateDocument | null]>;
  readonly e?: readonly NewEffect[];
  readonly x?: readonly string[];
  readonly f?: readonly string[];
}

/** The outbox's changes of a commit, or null when it has none (the line then stays a plain array of documents). */
export function outboxChanges(state: StateCommit | null | undefined, dropped: readonly string[] = []): Omit<JournalRecord, 'd'> | null {
  const effects = state?.effects ?? [];
  const cancel = state?.cancel ?? [];
  if (effects.length === 0 && cancel.length === 0 && dropped.length === 0) return null;
  return { ...(effects.length > 0 ? { e: effects } : {}), ...(cancel.length > 0 ? { x: cancel } : {}), ...(dropped.length > 0 ? { f: dropped } : {}) };
}

/** The JSON of a record line: the plain array of documents, or the record object when the outbox changes too. */
export function recordJson(documents: Map<string, StateDocument | null>, outbox: Omit<JournalRecord, 'd'> | null): string {
  return outbox ? JSON.stringify({ d: [...documents], ...outbox }) : JSON.stringify([...documents]);
}

/** Applies a record's outbox changes to the queue, in the order a commit makes them. */
export function applyOutbox(outbox: Omit<JournalRecord, 'd'> | null, effects: EffectQueue): void {
  if (!outbox) return;
  effects.drop(outbox.f ?? []);
  effects.cancel(outbox.x ?? []);
  effects.add(outbox.e ?? []);
}

/** Applies a record line's JSON (either form) read back from the file; throws on damage. */
export function applyRecordJson(json: string, documents: StateDocumentMap, effects: EffectQueue): void {
  const record = JSON.parse(json) as JournalRecord | Array<[string, StateDocument | null]>;
  if (Array.isArray(record)) {
    documents.store(record);
    return;
  }
  if (typeof record !== 'object' || record === null) throw new Error('not a record');
  documents.store(record.d ?? []);
  applyOutbox(record, effects);
}

const PROGRESS = /^([afr]) ([A-Za-z0-9._:-]+)(?: (\d+))?$/;

/** Reads an effect line (`a`, `f`, `r`, `e`) into the queue; false when the line is not one (or is damaged). */
export function readEffectLine(line: string, effects: EffectQueue): boolean {
  if (line.startsWith('e ')) {
    try {
      effects.restore(JSON.parse(line.slice(2)) as EffectSnapshot);
      return true;
    } catch {
      return false;
    }
  }
  const match = PROGRESS.exec(line);
  if (!match) return false;
  const id = match[2]!;
  if (match[1] === 'a') effects.begin(id);
  else if (match[1] === 'f') effects.finish(id, { outcome: 'done' });
  else if (match[3] !== undefined) effects.finish(id, { outcome: 'retry', retryAt: Number(match[3]), reason: '' });
  else return false;
  return true;
}

/** Whether a line is one of the outbox's (so the journal hands it to {@link readEffectLine}). */
export function isEffectLine(line: string): boolean {
  const kind = line.charCodeAt(0);
  return line.charCodeAt(1) === 32 && (kind === 97 || kind === 102 || kind === 114 || kind === 101); // a f r e
}

/** The line of an attempt's beginning, or of its end. */
export function effectProgressLine(id: string, step: 'begun' | EffectOutcome): string {
  if (step === 'begun') return `a ${id}`;
  return step.outcome === 'retry' ? `r ${id} ${Math.round(step.retryAt)}` : `f ${id}`;
}

/** The lines that keep every pending effect through a compaction, in order. */
export function* effectSnapshotLines(effects: EffectQueue): Iterable<string> {
  for (const snapshot of effects.snapshot()) yield `e ${JSON.stringify(snapshot)}`;
}
