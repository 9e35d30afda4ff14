// The performer of `handoff` effects, each in the customer's turn (its order key is the customer's chat):
// `open` opens (or reopens) the customer's topic in the staff group and posts the header and the chat so far;
// `copy` copies a customer's message into the topic (without topics: into the group, naming the customer);
// `relay` copies a staff message to the customer while the hand-off lasts; `end` and `idle` hand the customer
// back, through a signal decided and committed in the customer's turn. What it learns (the topic) is committed
// the same way, so every replica and every later effect sees it.
import { classifyFailure, TokenRejectedError } from '../api/failure.js';
import type { BotApi, MethodName } from '../api/types.js';
import { HANDOFF_TOPIC_VARIABLE, isHandedOff, topicLink, type HandoffSignalEvent } from '../engine/handoff.js';
import { escapeFor, TOPIC_LINK_PENDING } from '../engine/render.js';
import type { ParseMode } from '../engine/reply.js';
import type { ConversationState } from '../engine/state.js';
import type { EffectAttempt, EffectPerformer } from '../pipeline/outbox.js';
import type { StoredEffect } from '../pipeline/outbox-port.js';

/** What the performer needs of the pipeline: the customer's state, and a signal decided and committed in their turn. */
export interface HandoffPipeline {
  /** The state of the customer's chat now (the caller holds the chat's turn). */
  stateOf(customer: number): Promise<ConversationState>;
  /** Decides and commits `signal` in the customer's chat, in the turn the caller holds; `cause` names it for its effects' ids. */
  signal(event: HandoffSignalEvent, cause: string, abort: AbortSignal): Promise<void>;
}

interface HandoffPayload {
  op: 'open' | 'copy' | 'relay' | 'end' | 'idle' | 'send';
  customer: number;
  staff: number;
  name?: string;
  label?: string;
  header?: string;
  history?: number[];
  message_id?: number;
  text?: string;
  entities?: Array<{ offset: number; length: number }>;
  caption?: string;
  caption_entities?: Array<{ offset: number; length: number }>;
  by?: string;
  /** `send`: a rule's message to another chat whose text links to the customer's topic, once it is known. */
  method?: string;
  params?: Record<string, unknown>;
}

/** The performer of `handoff` effects over the service's client. */
export function handoffEffectPerformer(api: BotApi, pipeline: HandoffPipeline): EffectPerformer {
  const call = async <T>(method: string, params: Record<string, unknown>, abort: AbortSignal): Promise<T> =>
    (await api.call(method as MethodName, params as never, { signal: abort })) as T;
  const kit: Kit = { call, pipeline };
  return async (effect, abort) => {
    const payload = effect.payload as unknown as HandoffPayload;
    try {
      switch (payload.op) {
        case 'open':
          try {
            await open(kit, payload, effect, abort);
          } catch (error) {
            // The staff group refuses (the bot was removed, no rights): the customer is handed back and told, once.
            if (classifyFailure(error).action !== 'drop') throw error;
            await pipeline.signal(signalOf(payload, 'unreachable'), `h${effect.id}`, abort);
            throw error;
          }
          break;
        case 'copy':
          await copy(kit, payload, abort);
          break;
        case 'relay':
          await relay(kit, payload, effect, abort);
          break;
        case 'send':
          await sendLinked(kit, payload, abort);
          break;
        case 'end':
        case 'idle':
          await pipeline.signal(signalOf(payload, payload.op), `h${effect.id}`, abort);
          break;
      }
      return { outcome: 'done' };
    } catch (error) {
      return failure(error, payload.op);
    }
  };
}

/** What the steps below use: the Bot API call and the pipeline. */
interface Kit {
  call<T>(method: string, params: Record<string, unknown>, abort: AbortSignal): Promise<T>;
  pipeline: HandoffPipeline;
}

/** The topic the customer has (0: none, the staff group has no topics), undefined when none was opened yet. */
async function knownTopic({ pipeline }: Kit, customer: number): Promise<number | undefined> {
  const value = (await pipeline.stateOf(customer)).user[HANDOFF_TOPIC_VARIABLE];
  return typeof value === 'number' ? value : undefined;
}

async function open(kit: Kit, payload: HandoffPayload, effect: StoredEffect, abort: AbortSignal): Promise<void> {
  const { call, pipeline } = kit;
  const { customer, staff } = payload;
  let topic = await knownTopic(kit, customer);
  if (topic !== undefined && topic > 0) {
    try {
      await call('reopenforumtopic', { chat_id: staff, message_thread_id: topic }, abort);
    } catch (error) {
      const text = error instanceof Error ? error.message : '';
      if (/message thread not found/i.test(text)) topic = undefined;
      else if (!/TOPIC_NOT_MODIFIED/.test(text)) throw error;
    }
  }
  if (topic === undefined) {
    try {
      topic = (await call<{ message_thread_id: number }>('createforumtopic', { chat_id: staff, name: payload.name }, abort)).message_thread_id;
    } catch (error) {
      if (!/the chat is not a forum/i.test(error instanceof Error ? error.message : '')) throw error;
      topic = 0;
    }
    await pipeline.signal({ kind: 'handoff_signal', chat: { id: customer }, from: { id: customer }, signal: 'topic', topic }, `h${effect.id}`, abort);
  }
  const thread = topic > 0 ? { message_thread_id: topic } : {};
  await call('sendmessage', { chat_id: staff, text: payload.header, ...thread }, abort);
  if (payload.history && payload.history.length > 0)
    await call('forwardmessages', { chat_id: staff, from_chat_id: customer, message_ids: payload.history, ...thread }, abort);
}

/** A staff message to the customer while the hand-off lasts; a customer who blocked the bot ends it, with one line for staff. */
async function relay({ call, pipeline }: Kit, payload: HandoffPayload, effect: StoredEffect, abort: AbortSignal): Promise<void> {
  if (!isHandedOff(await pipeline.stateOf(payload.customer))) return;
  try {
    await call('copymessage', { chat_id: payload.customer, from_chat_id: payload.staff, message_id: payload.message_id }, abort);
  } catch (error) {
    if (!/blocked by the user/i.test(error instanceof Error ? error.message : '')) throw error;
    await pipeline.signal(signalOf(payload, 'blocked'), `h${effect.id}`, abort);
  }
}

async function copy(kit: Kit, payload: HandoffPayload, abort: AbortSignal): Promise<void> {
  const { call } = kit;
  const { customer, staff } = payload;
  const topic = (await knownTopic(kit, customer)) ?? 0;
  const source = { chat_id: staff, from_chat_id: customer, message_id: payload.message_id };
  if (topic > 0) return void (await call('copymessage', { ...source, message_thread_id: topic }, abort));
  // Without topics the copy names the customer on its first line: a staff reply to it finds them again.
  const prefix = `${payload.label ?? `id ${customer}`}:\n`;
  const shift = (entities: HandoffPayload['entities']) => entities?.map((entity) => ({ ...entity, offset: entity.offset + prefix.length }));
  if (payload.text !== undefined) {
    await call('sendmessage', { chat_id: staff, text: prefix + payload.text, ...(payload.entities ? { entities: shift(payload.entities) } : {}) }, abort);
    return;
  }
  const caption = prefix + (payload.caption ?? '');
  await call('copymessage', { ...source, caption, ...(payload.caption_entities ? { caption_entities: shift(payload.caption_entities) } : {}) }, abort);
}

/** A rule's `send` with {{handoff.topic_link}}: the link to the customer's topic filled in (escaped for its parse mode), then sent. */
async function sendLinked(kit: Kit, payload: HandoffPayload, abort: AbortSignal): Promise<void> {
  const topic = await knownTopic(kit, payload.customer);
  const link = topic !== undefined && topic > 0 ? topicLink(payload.staff, topic) : '';
  const params = payload.params ?? {};
  const escaped = escapeFor(link, params.parse_mode as ParseMode | undefined);
  const filled = (value: unknown, inText: boolean): unknown => {
    if (typeof value === 'string') return value.split(TOPIC_LINK_PENDING).join(inText ? escaped : link);
    if (Array.isArray(value)) return value.map((item) => filled(item, false));
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, filled(item, false)]));
    return value;
  };
  const sent = Object.fromEntries(Object.entries(params).map(([key, value]) => [key, filled(value, key === 'text')]));
  await kit.call(payload.method ?? 'sendmessage', sent, abort);
}

function signalOf(payload: HandoffPayload, signal: HandoffSignalEvent['signal']): HandoffSignalEvent {
  const customer = payload.customer;
  return { kind: 'handoff_signal', chat: { id: customer }, from: { id: customer }, signal, ...(payload.by ? { by: payload.by } : {}) };
}

function failure(error: unknown, op: string): EffectAttempt {
  const verdict = classifyFailure(error);
  if (verdict.action === 'aborted') throw error;
  if (verdict.action === 'stop') throw new TokenRejectedError(op);
  const reason = error instanceof Error ? error.message : String(error);
  if (verdict.action === 'wait_retry_after') return { outcome: 'retry', reason, retryAfterMs: verdict.retryAfter! * 1000 };
  if (verdict.action === 'backoff') return { outcome: 'retry', reason };
  return { outcome: 'failed', reason };
}
