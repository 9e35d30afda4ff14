// The polling lease of a bot's replicas on the Redis store: one replica at a time may poll the service. The
// lease is a key set only when free (SET NX PX) and renewed by its holder; each acquisition draws a new
// fencing token (INCR), and the scripts that store fetched updates and confirm the offset check it, so a
// replica paused past its lease (whose lease another took meanwhile) can neither store nor confirm.
import { ACQUIRE_LEAD_SCRIPT, RENEW_LEAD_SCRIPT, RESIGN_LEAD_SCRIPT } from './ledger-scripts.js';
import { script } from './redis-access.js';
import type { RedisLedger } from './redis-ledger.js';

const ACQUIRE = script(ACQUIRE_LEAD_SCRIPT);
const RENEW = script(RENEW_LEAD_SCRIPT);
const RESIGN = script(RESIGN_LEAD_SCRIPT);

/** Who polls: this replica (with its fencing token) or another one (by name). */
export type LeaseState = { held: true; token: string } | { held: false; holder: string };

export class PollLease {
  constructor(
    private readonly ledger: RedisLedger,
    /** How long the lease outlives its holder's last renewal. */
    readonly leaseMs: number,
  ) {}

  /** Takes the lease when it is free; rejects (StoreUnavailableError) when the store cannot be reached. */
  async acquire(): Promise<LeaseState> {
    const [state, value] = (await this.ledger.runScript(ACQUIRE, [], [this.ledger.owner, this.leaseMs])) as [string, string];
    if (state !== 'acquired') return { held: false, holder: value };
    await this.ledger.durable();
    return { held: true, token: value };
  }

  /** Renews the lease; false when it is no longer this replica's under `token` (it ran out, and maybe another took it). */
  async renew(token: string): Promise<boolean> {
    return (await this.ledger.runScript(RENEW, [], [this.ledger.owner, token, this.leaseMs])) === 1;
  }

  /** Gives the lease up (a clean stop), so another replica polls at once instead of after the lease. */
  async resign(token: string): Promise<void> {
    await this.ledger.runScript(RESIGN, [], [this.ledger.owner, token]);
  }
}
