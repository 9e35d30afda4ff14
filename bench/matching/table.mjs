// Formats the matching results: µs per message by kind (indexed / hearsay linear scan /
// reference scan), then load, reload, RSS, and whether the index agreed with the reference.

const us = (ns) => (Number.isFinite(ns) ? (ns / 1000).toFixed(ns < 10_000 ? 2 : 0) : '—');
const KINDS = ['command', 'text', 'keywords', 'pattern', 'fallback'];

export function formatMatchingTable(results) {
  const header = ['rules', ...KINDS.map((k) => `${k} µs (index / scan / ref)`), 'first load ms', 'reload ms', 'RSS MB', 'rules heap MB', 'agrees'];
  const rows = results.map((r) => [
    String(r.size),
    ...KINDS.map((k) => (r.perKind[k] ? `${us(r.perKind[k].indexedNs)} / ${us(r.perKind[k].linearScanNs)} / ${us(r.perKind[k].referenceScanNs)}` : '—')),
    r.firstLoadMs.toFixed(0),
    r.reloadMs.toFixed(0),
    r.rssAfterMb.toFixed(0),
    r.heapRulesMb.toFixed(1),
    r.disagreements === 0 ? 'yes' : `${r.disagreements} differ`,
  ]);
  return [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}
