// The epoch of a bot's data in Redis: a key written when that data begins, checked after every reconnect and
// now and then, so that a Redis that came back without it (restarted with no AOF, flushed, failed over to a
// server that never had it) is found by every replica instead of silently started over: its listener (the
// service's store watch, which logs and counts it) hears which updates the store held for this replica. After
// every reconnect the server's persistence settings are checked again, as at start.
import { randomBytes } from 'node:crypto';
import type { Logger } from '../../log/logger.js';
import type { StoreDataLoss } from '../../pipeline/replica-ports.js';
import { script } from './redis-access.js';
import type { RedisConnection } from './redis-connection.js';
import type { RedisLedger } from './redis-ledger.js';

/** Told each time this replica finds that the store lost its data. */
export type DataLossListener = (loss: StoreDataLoss) => void;

/**
 * KEYS[1]: the bot's prefix. ARGV: the epoch this replica knows ('' at open), a new epoch to begin if there is
 * none → {'same'|'new'|'other', the epoch now}. 'new': none was there, ARGV[2] begins now; 'other': another
 * epoch than the one known (at open: the one the other replicas share). One script, so that when several
 * replicas find the key gone at once exactly one begins the new epoch and the others see it as 'other'.
 */
const EPOCH_SCRIPT = script(`
local key = KEYS[1] .. 'epoch'
local current = redis.call('GET', key)
if current == ARGV[1] then return {'same', current} end
if not current then
  redis.call('SET', key, ARGV[2])
  return {'new', ARGV[2]}
end
return {'other', current}`);

const CHECK_EVERY_MS = 5000;

export interface StoreEpochOptions {
  ledger: RedisLedger;
  connection: RedisConnection;
  logger: Logger;
  /** The store as it may be shown (no password). */
  storeUrl: string;
  /** How often the epoch is checked besides after each reconnect (a flush does not drop the connection). */
  checkEveryMs?: number;
}

export class StoreEpoch {
  private known = '';
  private readonly listeners = new Set<DataLossListener>();
  private readonly unsubscribe: () => void;
  private readonly timer: NodeJS.Timeout;
  /** The check running now; another asked for meanwhile runs after it. */
  private checking: Promise<void> | null = null;
  private again = false;

  private constructor(private readonly options: StoreEpochOptions) {
    this.unsubscribe = options.connection.onAvailability((outage) => {
      if (outage === null) void this.afterReconnect();
    });
    this.timer = setInterval(() => void this.check().catch(() => undefined), options.checkEveryMs ?? CHECK_EVERY_MS);
    this.timer.unref();
  }

  /** Learns the store's epoch, beginning one when there is none (a first start, or data lost while no replica ran). */
  static async open(options: StoreEpochOptions): Promise<StoreEpoch> {
    const epoch = new StoreEpoch(options);
    try {
      const [found, current] = await epoch.ask();
      epoch.known = current;
      if (found === 'new') {
        options.logger.info(
          { store: options.storeUrl },
          'the Redis store holds no data of this bot yet (a first start, or a store that lost its data while no replica ran); starting it',
        );
      }
    } catch (error) {
      epoch.close();
      throw error;
    }
    return epoch;
  }

  /** Calls `listener` each time this replica finds the store's data lost; returns the function that stops it. */
  onDataLost(listener: DataLossListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Compares the store's epoch with the one this replica knows, and reports a loss once per epoch lost. */
  check(): Promise<void> {
    if (this.checking) {
      this.again = true;
      return this.checking;
    }
    this.checking = this.compare().finally(() => {
      this.checking = null;
      if (this.again) {
        this.again = false;
        void this.check().catch(() => undefined);
      }
    });
    return this.checking;
  }

  close(): void {
    clearInterval(this.timer);
    this.unsubscribe();
    this.listeners.clear();
  }

  private async afterReconnect(): Promise<void> {
    // A failure means the store went down again: its outage is reported, and the next reconnect checks again.
    await this.check().catch(() => undefined);
    await this.options.ledger.checkPersistence().catch(() => undefined);
  }

  private async compare(): Promise<void> {
    const [found, current] = await this.ask();
    if (found === 'same') return;
    const was = this.known;
    this.known = current;
    this.report(was, current);
  }

  private async ask(): Promise<[string, string]> {
    const candidate = `${new Date().toISOString()} ${randomBytes(6).toString('hex')}`;
    const [found, current] = (await this.options.ledger.runScript(EPOCH_SCRIPT, [], [this.known, candidate])) as [string, string];
    // The new epoch must outlast a restart of the server as the data it marks does.
    if (found === 'new') await this.options.ledger.durable();
    return [found, current];
  }

  private report(was: string, now: string): void {
    const loss: StoreDataLoss = { store: this.options.storeUrl, since: was.split(' ')[0]!, heldIds: this.options.ledger.dropUpdatesInHand() };
    this.options.logger.debug(
      { store: loss.store, epoch_was: was, epoch: now, held: loss.heldIds.length },
      'the Redis store has another epoch than this replica knew',
    );
    for (const listener of this.listeners) listener(loss);
  }
}
