// The polling lease of a bot's replicas on the Redis store: one replica at a time may poll the service. The
// lease is a key set only when free (SET NX PX) and renewed by its holder; each acquisition draws a new
// fencing token (INCR), and the scripts that store fetched updates and confirm the offset check it, so a
// replica paused past its lease (whose lease another took meanwhile) can neither store nor confirm.
import type { Update } from '../../api/types.js';
import type { AcceptedWithRead, AcceptResult, StateScope } from '../../pipeline/ports.js';
import type { InboxBacklog, InboxClaim, LeaseState, PollLeadership } from '../../pipeline/replica-ports.js';
import { ACQUIRE_LEAD_SCRIPT, RENEW_LEAD_SCRIPT, RESIGN_LEAD_SCRIPT } from './ledger-scripts.js';
import { script } from './redis-access.js';
import type { RedisLedger } from './redis-ledger.js';

const ACQUIRE = script(ACQUIRE_LEAD_SCRIPT);
const RENEW = script(RENEW_LEAD_SCRIPT);
const RESIGN = script(RESIGN_LEAD_SCRIPT);

/** The Redis store's {@link PollLeadership}: the lease and its token in Redis, the fetched updates in the shared inbox. */
export class RedisPollLeadership implements PollLeadership {
  constructor(private readonly ledger: RedisLedger) {}

  get owner(): string {
    return this.ledger.owner;
  }

  async acquire(leaseMs: number): Promise<LeaseState> {
    const [state, value] = (await this.ledger.runScript(ACQUIRE, [], [this.ledger.owner, leaseMs])) as [string, string];
    if (state !== 'acquired') return { held: false, holder: value };
    await this.ledger.durable();
    return { held: true, token: value };
  }

  async renew(token: string, leaseMs: number): Promise<boolean> {
    return (await this.ledger.runScript(RENEW, [], [this.ledger.owner, token, leaseMs])) === 1;
  }

  async resign(token: string): Promise<void> {
    await this.ledger.runScript(RESIGN, [], [this.ledger.owner, token]);
  }

  accept(update: Update, token: string): Promise<AcceptResult> {
    return this.ledger.accept(update, { token });
  }

  acceptAndKeep(update: Update, token: string, scope: StateScope): Promise<AcceptedWithRead> {
    return this.ledger.acceptAndBegin(update, scope, { token });
  }

  confirm(offset: number, token: string): Promise<void> {
    return this.ledger.confirm(offset, { token });
  }

  backlog(): Promise<InboxBacklog> {
    return this.ledger.backlog();
  }

  claim(limit: number): Promise<InboxClaim> {
    return this.ledger.claim(limit);
  }
}
