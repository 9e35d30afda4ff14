// How the conversation state beyond plain variables is laid out in a store's flat documents: a user's flow
// position in a chat is the document `flow:<chat>:<user>`, and every document carries the time of its last
// change under a key no variable can have (`@written`), so retention (`state.ttl`) can forget what nobody
// touched for that long. Pure functions, shared by every store.
import type { FlowPosition, StateValue } from '../engine/state.js';

/** A stored document: a flat JSON object of texts and numbers. */
export type FlatDocument = Readonly<Record<string, StateValue>>;

/** When the document last changed (ms since the epoch); variable names cannot start with '@'. */
export const WRITTEN_KEY = '@written';

const FLOW_ID = '@flow';
const STEP_ID = '@step';
const ACTIVITY = '@activity';
/** Answers are kept under their step id (steps ids cannot start with '@'). */

/** The document key of a user's flow position in a chat. */
export function flowKey(chatId: number, userId: number): string {
  return `flow:${chatId}:${userId}`;
}

/** The user and chat a flow document key names, or undefined for another key. */
export function parseFlowKey(key: string): { chatId: number; userId: number } | undefined {
  const m = /^flow:(-?\d+):(-?\d+)$/.exec(key);
  return m ? { chatId: Number(m[1]), userId: Number(m[2]) } : undefined;
}

/** A flow position as a flat document (without its `@written` stamp). */
export function encodeFlow(position: FlowPosition): FlatDocument {
  const document: Record<string, StateValue> = {};
  for (const [step, value] of Object.entries(position.values)) {
    Object.defineProperty(document, step, { value, enumerable: true, writable: true, configurable: true });
  }
  document[FLOW_ID] = position.flowId;
  document[STEP_ID] = position.stepId;
  document[ACTIVITY] = position.lastActivity;
  return document;
}

/** The flow position a document holds; undefined when it is not a flow document. */
export function decodeFlow(document: FlatDocument | undefined): FlowPosition | undefined {
  if (!document) return undefined;
  const flowId = document[FLOW_ID];
  const stepId = document[STEP_ID];
  const lastActivity = document[ACTIVITY];
  if (typeof flowId !== 'string' || typeof stepId !== 'string' || typeof lastActivity !== 'number') return undefined;
  return { flowId, stepId, values: withoutReserved(document), lastActivity };
}

/** The document without the keys that start with '@' (stamps and flow bookkeeping): what decide sees. */
export function withoutReserved(document: FlatDocument): Record<string, StateValue> {
  const out: Record<string, StateValue> = {};
  for (const [key, value] of Object.entries(document)) {
    if (!key.startsWith('@')) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The document with its last-change time set to `now`. */
export function stamped(document: FlatDocument, now: number): FlatDocument {
  return { ...document, [WRITTEN_KEY]: now };
}

/** Whether a document was last changed `ttlMs` or longer before `now` (a document without a stamp never expires). */
export function isExpired(document: FlatDocument, now: number, ttlMs: number): boolean {
  const written = document[WRITTEN_KEY];
  return typeof written === 'number' && now - written >= ttlMs;
}

/** The size of a document's variables as JSON, in bytes (what `state.max_user_bytes` bounds). */
export function documentBytes(document: FlatDocument): number {
  return Buffer.byteLength(JSON.stringify(withoutReserved(document)));
}
