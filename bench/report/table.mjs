// Prints the results as Markdown tables: every run with throughput as a ratio to the ceiling
// and to the minimal bot of the same ingress (same rule set, same workload), and the CPU cost
// per update by rule count, so "cost at 1,000 and 10,000 rules vs 50" reads off one table. With
// several rounds (--rounds), a run is compared with the minimal bot's run of the same round, and a
// table of medians over the rounds gives each ratio's median and range.

function fmt(value, digits = 0) {
  return Number.isFinite(value) ? value.toFixed(digits) : '—';
}

/** value / base as "1.23×"; "—" when either is missing (NaN becomes null in the results JSON). */
function ratio(value, base) {
  if (!Number.isFinite(value) || !Number.isFinite(base) || base === 0) return '—';
  return `${(value / base).toFixed(2)}×`;
}

export function correctnessLabel(c) {
  if (c.ok) return c.checkedAgainst === 'rule answers' ? 'all right' : 'n/a (fixed answer)';
  const parts = [];
  if (c.wrong) parts.push(`${c.wrong} wrong`);
  if (c.duplicates) parts.push(`${c.duplicates} dup`);
  if (c.missing) parts.push(`${c.missing} missing`);
  if (c.outOfOrder) parts.push(`${c.outOfOrder} out of order`);
  return parts.join(', ');
}

/** Results from before --rounds have no round: they are round 1. */
const roundOf = (r) => r.round ?? 1;
const key = (r, name) => `${r.ruleCount}/${r.workload}/${roundOf(r)}/${name}`;

function byKey(results) {
  return new Map(results.map((r) => [key(r, r.name), r]));
}

/** The middle value (the mean of the two middle ones), of the finite values only; NaN without any. */
export function median(values) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The minimal bot's run with the same ingress, rules and workload as `r` (not for the ceiling or the minimal bot itself). */
function minimalPeer(index, r) {
  if (r.name === 'ceiling' || r.name.startsWith('minimal-')) return undefined;
  return index.get(key(r, `minimal-${r.mode}`));
}

/** Each run's `field` over its minimal peer's (the same round's): NaN where there is no peer. */
function ratiosToMinimal(index, runs, field) {
  return runs.map((r) => r[field] / minimalPeer(index, r)?.[field]);
}

function markdown(header, rows) {
  return [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

export function formatTable(results) {
  const index = byKey(results);
  const rounds = results.some((r) => roundOf(r) > 1);
  const header = [
    ...(rounds ? ['round'] : []),
    'rules',
    'workload',
    'contestant',
    'updates',
    'updates/s',
    'vs ceiling',
    'p50 ms',
    'p99 ms',
    'CPU µs/update',
    'service CPU µs/update',
    'vs minimal: updates/s, CPU',
    'RSS MB peak',
    'start-up ms',
    'correctness',
  ];
  const rows = results.map((r) => {
    const ceiling = index.get(key(r, 'ceiling'));
    const minimal = minimalPeer(index, r);
    return [
      ...(rounds ? [String(roundOf(r))] : []),
      String(r.ruleCount),
      r.workload,
      r.label,
      String(r.updates),
      fmt(r.updatesPerSecond),
      ceiling ? `${fmt((r.updatesPerSecond / ceiling.updatesPerSecond) * 100)}%` : '—',
      fmt(r.p50Ms, 1),
      fmt(r.p99Ms, 1),
      fmt(r.cpuUsPerUpdate),
      fmt(r.serviceCpuUsPerUpdate),
      minimal ? `${ratio(r.updatesPerSecond, minimal.updatesPerSecond)}, ${ratio(r.cpuUsPerUpdate, minimal.cpuUsPerUpdate)}` : '—',
      fmt(r.peakRssMb),
      fmt(r.startupMs),
      correctnessLabel(r.correctness) + (r.outcome === 'complete' ? '' : ` (${r.outcome})`),
    ];
  });
  return markdown(header, rows);
}

/** One row per contestant, one column per rule count: CPU µs per update, its ratio to the 50-rule (smallest) cost, and to the minimal bot's. */
export function formatCostByRules(results) {
  const messages = results.filter((r) => r.workload === 'messages');
  const index = byKey(messages);
  const ruleCounts = [...new Set(messages.map((r) => r.ruleCount))].sort((a, b) => a - b);
  const names = [...new Set(messages.map((r) => r.name))];
  // With several rounds: the median CPU of the rounds, and the median of each round's ratio to the minimal bot.
  const runsOf = (name, count) => messages.filter((r) => r.name === name && r.ruleCount === count);
  const rows = names.map((name) => {
    const base = median(runsOf(name, ruleCounts[0]).map((r) => r.cpuUsPerUpdate));
    const cells = ruleCounts.map((count) => {
      const runs = runsOf(name, count);
      const cpu = median(runs.map((r) => r.cpuUsPerUpdate));
      if (!Number.isFinite(cpu)) return '—';
      const parts = [`${fmt(cpu)} µs`];
      if (count !== ruleCounts[0]) parts.push(`${ratio(cpu, base)} of ${ruleCounts[0]}`);
      const vsMinimal = median(ratiosToMinimal(index, runs, 'cpuUsPerUpdate'));
      if (Number.isFinite(vsMinimal)) parts.push(`${vsMinimal.toFixed(2)}× minimal`);
      return parts.join(', ');
    });
    return [messages.find((r) => r.name === name).label, ...cells];
  });
  return markdown(['contestant', ...ruleCounts.map((n) => `${n} rules`)], rows);
}

/** "0.93× (0.80–1.09)": the median of the rounds' ratios and their range; "—" without any. */
function ratioSpread(ratios) {
  const finite = ratios.filter(Number.isFinite);
  if (finite.length === 0) return '—';
  return `${median(finite).toFixed(2)}× (${Math.min(...finite).toFixed(2)}–${Math.max(...finite).toFixed(2)})`;
}

/**
 * One row per rule count, workload and contestant over every round: medians of throughput, latency and CPU
 * (the bot's and the stand-in service's), and each round's ratio to the minimal bot of that round as median (range).
 */
export function formatRoundMedians(results) {
  const index = byKey(results);
  const groups = new Map();
  for (const r of results) {
    const group = `${r.ruleCount}/${r.workload}/${r.name}`;
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(r);
  }
  const header = [
    'rules',
    'workload',
    'contestant',
    'rounds',
    'updates/s',
    'p99 ms',
    'CPU µs/update',
    'service CPU µs/update',
    'vs minimal: updates/s',
    'vs minimal: CPU',
    'correctness',
  ];
  const rows = [...groups.values()].map((runs) => {
    const [first] = runs;
    const wrong = runs.filter((r) => !r.correctness.ok).length;
    return [
      String(first.ruleCount),
      first.workload,
      first.label,
      String(runs.length),
      fmt(median(runs.map((r) => r.updatesPerSecond))),
      fmt(median(runs.map((r) => r.p99Ms)), 1),
      fmt(median(runs.map((r) => r.cpuUsPerUpdate))),
      fmt(median(runs.map((r) => r.serviceCpuUsPerUpdate))),
      ratioSpread(ratiosToMinimal(index, runs, 'updatesPerSecond')),
      ratioSpread(ratiosToMinimal(index, runs, 'cpuUsPerUpdate')),
      wrong === 0 ? correctnessLabel(first.correctness) : `${wrong} of ${runs.length} rounds wrong`,
    ];
  });
  return markdown(header, rows);
}
