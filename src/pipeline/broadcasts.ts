// Broadcasts as an operator asks for them (`hearsay broadcast`), carried out on a store wherever the request is
// served: by the running bot (the file store's request files) or by the command itself (a stopped bot's files,
// or Redis, which every replica shares). A campaign is planned whole: one `broadcast` effect per recipient
// (`b.<campaign>.<user id>`) in one record of the store, so the outbox performs each once, through restarts and
// kill -9, at the low-priority lane's pace; then its entry in the campaign book (the message, the counts).
import { randomBytes } from 'node:crypto';
import type { JsonValue } from '../engine/actions.js';
import { audienceOf, parseAudience } from './broadcast-audience.js';
import type { Campaign, CampaignBook, CampaignRecord, KnownUser } from './broadcast-port.js';
import type { NewEffect, StoredEffect } from './outbox-port.js';
import type { StateCommit } from './ports.js';

/** The kind of a recipient's effect. */
export const BROADCAST_EFFECT_KIND = 'broadcast';
/** Recipients shown by a dry run. */
export const SAMPLE_SIZE = 5;

/** What a store offers a broadcast. */
export interface BroadcastStore {
  knownUsers(): Promise<KnownUser[]>;
  commitState(state: StateCommit): Promise<unknown>;
  readonly campaigns: CampaignBook;
}

/** The message of a campaign, as it is sent. */
export interface BroadcastMessage {
  readonly text: string;
  readonly parseMode?: Campaign['parseMode'];
  readonly replyMarkup?: Campaign['replyMarkup'];
}

/** What `hearsay broadcast` asks for. */
export type BroadcastRequest =
  | { readonly op: 'broadcast'; readonly to: readonly string[]; readonly message: BroadcastMessage; readonly dryRun: boolean }
  | { readonly op: 'broadcast-status'; readonly id?: string }
  | { readonly op: 'broadcast-cancel'; readonly id: string };

/** The answer to each request. */
export type BroadcastAnswer =
  | { readonly op: 'broadcast'; readonly count: number; readonly samples: readonly KnownUser[]; readonly campaign?: CampaignRecord }
  | { readonly op: 'broadcast-status'; readonly campaigns: readonly CampaignRecord[] }
  | { readonly op: 'broadcast-cancel'; readonly campaign: CampaignRecord };

/** What a recipient's effect carries: its campaign (the message is the campaign's, kept once). */
export interface BroadcastEffectPayload {
  readonly campaign: string;
}

/** A request that names no campaign the store keeps, or that cannot be carried out as written. */
export class BroadcastRequestError extends Error {
  override readonly name = 'BroadcastRequestError';
}

/** Whether a value is a broadcast request (a request file is read from disk). */
export function isBroadcastRequest(value: unknown): value is BroadcastRequest {
  const v = value as { op?: unknown; to?: unknown; message?: { text?: unknown }; id?: unknown } | null;
  if (v === null || typeof v !== 'object') return false;
  if (v.op === 'broadcast') return Array.isArray(v.to) && typeof v.message?.text === 'string';
  if (v.op === 'broadcast-status') return v.id === undefined || typeof v.id === 'string';
  return v.op === 'broadcast-cancel' && typeof v.id === 'string';
}

/** A new campaign id: the day it is planned and a random part (`20261127-3fa9c1`). */
export function newCampaignId(now: number): string {
  return `${new Date(now).toISOString().slice(0, 10).replaceAll('-', '')}-${randomBytes(3).toString('hex')}`;
}

/** The effect of one recipient. */
export function recipientEffect(campaign: Campaign, userId: number): NewEffect {
  const payload: BroadcastEffectPayload = { campaign: campaign.id };
  return {
    id: `b.${campaign.id}.${userId}`,
    kind: BROADCAST_EFFECT_KIND,
    payload: payload as unknown as JsonValue,
    dueAt: campaign.createdAt,
    // In the chat's turn: a reply to the same user and the campaign's message never cross.
    orderKey: `chat:${userId}`,
    userId,
    chatId: userId,
    source: `broadcast:${campaign.id}`,
  };
}

/** Carries out one request on the store. Rejects with {@link BroadcastRequestError} for a request that cannot be. */
export async function handleBroadcast(store: BroadcastStore, request: BroadcastRequest, now = Date.now()): Promise<BroadcastAnswer> {
  if (request.op === 'broadcast-status') {
    if (request.id === undefined) return { op: request.op, campaigns: await store.campaigns.list() };
    return { op: request.op, campaigns: [await known(store.campaigns, request.id)] };
  }
  if (request.op === 'broadcast-cancel') {
    await known(store.campaigns, request.id);
    await store.campaigns.cancel(request.id, now);
    return { op: request.op, campaign: await known(store.campaigns, request.id) };
  }
  let conditions;
  try {
    conditions = parseAudience(request.to);
  } catch (error) {
    throw new BroadcastRequestError((error as Error).message);
  }
  const audience = audienceOf(await store.knownUsers(), conditions, now);
  const samples = audience.slice(0, SAMPLE_SIZE);
  if (request.dryRun || audience.length === 0) return { op: request.op, count: audience.length, samples };
  const campaign: Campaign = { id: newCampaignId(now), ...request.message, audience: [...request.to], total: audience.length, createdAt: now };
  // Every recipient in one record (a crash keeps the whole campaign or none of it), then the campaign's entry. In
  // this order a kill -9 between the two leaves recipients whose campaign the book never kept, which the performer
  // gives up without sending anything (delivery/broadcast-effects.ts), and the command never said it was planned;
  // the other order left an entry that said "sending" for ever, waiting for recipients that were never stored.
  await store.commitState({ scope: { chatId: null, userId: null }, changes: [], effects: audience.map((user) => recipientEffect(campaign, user.userId)) });
  await store.campaigns.create(campaign);
  return { op: request.op, count: audience.length, samples, campaign: await known(store.campaigns, campaign.id) };
}

async function known(book: CampaignBook, id: string): Promise<CampaignRecord> {
  const campaign = await book.get(id);
  if (!campaign) throw new BroadcastRequestError(`no campaign '${id}' is kept; 'hearsay broadcast status' lists them`);
  return campaign;
}

/**
 * Forgets a user (`hearsay state forget`), which drops their pending effects, and settles their part of each
 * campaign still waiting to reach them as `cancelled`, so the campaign finishes rather than counting them "left" for
 * ever. Resolves with what was kept of the user (as `forgetUser` does).
 */
export async function forgetRecipient(
  store: { forgetUser(userId: number): Promise<unknown>; readonly campaigns: CampaignBook },
  userId: number,
): Promise<unknown> {
  const record = await store.forgetUser(userId);
  const effects = (record as { effects?: readonly StoredEffect[] } | null)?.effects ?? [];
  for (const effect of effects) {
    if (effect.kind !== BROADCAST_EFFECT_KIND) continue;
    await store.campaigns.record((effect.payload as unknown as BroadcastEffectPayload).campaign, userId, 'cancelled');
  }
  return record;
}
