// What `hearsay broadcast` prints: a campaign planned (or a dry run's count and samples) with the time it takes at
// the broadcasts' pace, and where campaigns stand (`status`).
import { backgroundLimit } from '../../delivery/rate-limiter.js';
import { recipientsLeft, type CampaignRecord, type KnownUser } from '../../pipeline/broadcast-port.js';
import type { BroadcastAnswer } from '../../pipeline/broadcasts.js';
import type { BroadcastVenue } from '../../store/operator-store.js';

/** A sample recipient: their id and variables (not hearsay's own marks, `_private`…), cut to one line. */
function sampleLine(user: KnownUser): string {
  const variables = Object.entries(user.variables)
    .filter(([name]) => !name.includes('@') && !name.startsWith('_'))
    .map(([name, value]) => `${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
  const line = `  user ${user.userId}${variables ? `: ${variables}` : ''}`;
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

/** "about 7 min" for a number of seconds. */
function duration(seconds: number): string {
  if (seconds < 90) return `about ${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 90 * 60) return `about ${Math.round(seconds / 60)} min`;
  return `about ${(seconds / 3600).toFixed(1)} h`;
}

/** How long `count` messages take at the broadcasts' share of the overall limit (null: rate limits off). */
export function etaLine(count: number, overallPerSecond: number | null): string {
  if (overallPerSecond === null) return 'rate limits are off (rate_limits.enabled: false): sent as fast as the service takes them';
  const pace = backgroundLimit(Math.floor(overallPerSecond));
  return `${duration(count / pace)} at ${pace} messages a second (the broadcasts' share of rate_limits.overall_per_second ${overallPerSecond}; replies keep the rest)`;
}

/** The lines printed for an answer to `hearsay broadcast` (planned or dry run). */
export function plannedText(
  answer: Extract<BroadcastAnswer, { op: 'broadcast' }>,
  to: readonly string[],
  venue: BroadcastVenue,
  overallPerSecond: number | null,
): string {
  const audience = to.join(' and ');
  const lines: string[] = [];
  if (answer.count === 0) return `no recipient: no user the store knows matches ${audience} (users who blocked the bot are left out); nothing was sent\n`;
  if (!answer.campaign) lines.push(`dry run: ${answer.count} recipient${answer.count === 1 ? '' : 's'} match ${audience}; nothing was sent`);
  else lines.push(`campaign ${answer.campaign.id}: ${answer.count} recipient${answer.count === 1 ? '' : 's'} (${audience})`);
  lines.push(...answer.samples.map(sampleLine));
  if (answer.count > answer.samples.length) lines.push(`  … and ${answer.count - answer.samples.length} more`);
  lines.push(`${answer.campaign ? 'it takes' : 'it would take'} ${etaLine(answer.count, overallPerSecond)}`);
  if (answer.campaign) {
    const who = {
      running: 'the running bot sends it now',
      stopped: 'the bot is not running: it is sent once the bot starts',
      redis: 'the running replicas send it now',
    };
    lines.push(`${who[venue]}; follow it with: hearsay broadcast status ${answer.campaign.id}`);
  }
  return `${lines.join('\n')}\n`;
}

/** One campaign's standing, as `status` prints it. */
export function statusText(campaign: CampaignRecord): string {
  const { sent, blocked, failed, cancelled } = campaign.counts;
  const state = campaign.cancelledAt !== undefined ? 'cancelled' : recipientsLeft(campaign) === 0 ? 'finished' : 'sending';
  const planned = new Date(campaign.createdAt).toISOString().replace('T', ' ').slice(0, 19);
  return (
    `campaign ${campaign.id} (${state}), planned ${planned} UTC, to ${campaign.audience.join(' and ')}\n` +
    `  sent ${sent}, blocked ${blocked}, failed ${failed}, ${cancelled > 0 ? `cancelled ${cancelled}, ` : ''}left ${recipientsLeft(campaign)} of ${campaign.total}\n`
  );
}
