// Prints the results as a plain-text / Markdown table, with throughput as a ratio to
// the ceiling measured in the same run on the same rule set.

function fmt(value, digits = 0) {
  return Number.isFinite(value) ? value.toFixed(digits) : '—';
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

export function formatTable(results) {
  const ceilings = new Map(results.filter((r) => r.name === 'ceiling').map((r) => [r.ruleCount, r.updatesPerSecond]));
  const header = ['rules', 'contestant', 'updates', 'updates/s', 'vs ceiling', 'p50 ms', 'p99 ms', 'RSS MB peak / end', 'startup ms', 'correctness'];
  const rows = results.map((r) => {
    const ceiling = ceilings.get(r.ruleCount);
    return [
      String(r.ruleCount),
      r.label,
      String(r.updates),
      fmt(r.updatesPerSecond),
      ceiling ? `${fmt((r.updatesPerSecond / ceiling) * 100)}%` : '—',
      fmt(r.p50Ms, 2),
      fmt(r.p99Ms, 2),
      `${fmt(r.peakRssMb)} / ${fmt(r.endRssMb)}`,
      fmt(r.startupMs),
      correctnessLabel(r.correctness) + (r.outcome === 'complete' ? '' : ` (${r.outcome})`),
    ];
  });
  const lines = [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`);
  return lines.join('\n');
}
