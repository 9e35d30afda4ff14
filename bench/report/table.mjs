// Prints the results as Markdown tables: every run with throughput as a ratio to the ceiling
// and to the minimal bot of the same ingress (same rule set, same workload), and the CPU cost
// per update by rule count, so "cost at 1,000 and 10,000 rules vs 50" reads off one table.

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

const key = (r, name) => `${r.ruleCount}/${r.workload}/${name}`;

function byKey(results) {
  return new Map(results.map((r) => [key(r, r.name), r]));
}

/** The minimal bot's run with the same ingress, rules and workload as `r` (not for the ceiling or the minimal bot itself). */
function minimalPeer(index, r) {
  if (r.name === 'ceiling' || r.name.startsWith('minimal-')) return undefined;
  return index.get(key(r, `minimal-${r.mode}`));
}

function markdown(header, rows) {
  return [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

export function formatTable(results) {
  const index = byKey(results);
  const header = [
    'rules',
    'workload',
    'contestant',
    'updates',
    'updates/s',
    'vs ceiling',
    'p50 ms',
    'p99 ms',
    'CPU µs/update',
    'vs minimal: updates/s, CPU',
    'RSS MB peak',
    'start-up ms',
    'correctness',
  ];
  const rows = results.map((r) => {
    const ceiling = index.get(key(r, 'ceiling'));
    const minimal = minimalPeer(index, r);
    return [
      String(r.ruleCount),
      r.workload,
      r.label,
      String(r.updates),
      fmt(r.updatesPerSecond),
      ceiling ? `${fmt((r.updatesPerSecond / ceiling.updatesPerSecond) * 100)}%` : '—',
      fmt(r.p50Ms, 1),
      fmt(r.p99Ms, 1),
      fmt(r.cpuUsPerUpdate),
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
  const rows = names.map((name) => {
    const base = index.get(`${ruleCounts[0]}/messages/${name}`);
    const cells = ruleCounts.map((count) => {
      const r = index.get(`${count}/messages/${name}`);
      if (!r || !Number.isFinite(r.cpuUsPerUpdate)) return '—';
      const parts = [`${fmt(r.cpuUsPerUpdate)} µs`];
      if (count !== ruleCounts[0] && base) parts.push(`${ratio(r.cpuUsPerUpdate, base.cpuUsPerUpdate)} of ${ruleCounts[0]}`);
      const minimal = minimalPeer(index, r);
      if (minimal) parts.push(`${ratio(r.cpuUsPerUpdate, minimal.cpuUsPerUpdate)} minimal`);
      return parts.join(', ');
    });
    return [messages.find((r) => r.name === name).label, ...cells];
  });
  return markdown(['contestant', ...ruleCounts.map((n) => `${n} rules`)], rows);
}
