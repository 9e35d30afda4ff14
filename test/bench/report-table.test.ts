// The bench's tables over several rounds: each run is compared with the minimal bot's run of the same round,
// and the medians table gives the median and range of those ratios (what a target such as "≥ 90% of the
// minimal bot's throughput" is judged by on a machine where single runs move ±10–15%).
import { describe, expect, it } from 'vitest';
import { formatCostByRules, formatRoundMedians, formatTable, median } from '../../bench/report/table.mjs';

const right = { ok: true, checkedAgainst: 'rule answers' };

function run(name: string, round: number, updatesPerSecond: number, cpuUsPerUpdate: number, extra: Record<string, unknown> = {}) {
  const minimal = name.startsWith('minimal');
  return {
    name,
    label: minimal ? 'minimal bot webhook' : 'hearsay webhook',
    mode: 'webhook',
    ruleCount: 50,
    workload: 'messages',
    round,
    updates: 1000,
    updatesPerSecond,
    p50Ms: 1,
    p99Ms: 5,
    cpuUsPerUpdate,
    serviceCpuUsPerUpdate: 50,
    peakRssMb: 100,
    startupMs: 100,
    outcome: 'complete',
    correctness: right,
    ...extra,
  };
}

/** The cells of the table row whose contestant column says `label`. */
function row(table: string, label: string): string[] {
  const line = table.split('\n').find((l) => l.includes(`| ${label} |`));
  expect(line, `a row for ${label}`).toBeDefined();
  return line!.split('|').map((cell) => cell.trim());
}

describe('bench tables over rounds', () => {
  // Round 2 is a slow spell for both: a ratio per round is steady where a ratio of medians or of totals would not be.
  const results = [
    run('minimal-webhook', 1, 20_000, 40),
    run('hearsay-webhook', 1, 18_000, 44),
    run('minimal-webhook', 2, 10_000, 80),
    run('hearsay-webhook', 2, 9_500, 84),
    run('minimal-webhook', 3, 20_000, 40),
    run('hearsay-webhook', 3, 16_000, 52, { correctness: { ok: false, wrong: 1, checkedAgainst: 'rule answers' } }),
  ];

  it('gives the median of the rounds and the median and range of each round’s ratio to the minimal bot', () => {
    const cells = row(formatRoundMedians(results), 'hearsay webhook');
    // rounds, median updates/s, then the throughput ratios 0.90, 0.95, 0.80 and the CPU ratios 1.10, 1.05, 1.30.
    expect(cells).toContain('3');
    expect(cells).toContain('16000');
    expect(cells).toContain('0.90× (0.80–0.95)');
    expect(cells).toContain('1.10× (1.05–1.30)');
    expect(cells).toContain('1 of 3 rounds wrong');
  });

  it('compares each run with the minimal bot of its own round', () => {
    const table = formatTable(results);
    const lines = table.split('\n').filter((l) => l.includes('| hearsay webhook |'));
    expect(lines.map((l) => l.split('|')[1]!.trim())).toEqual(['1', '2', '3']);
    expect(lines[1]).toContain('0.95×, 1.05×');
  });

  it('costs by rule count are the medians over the rounds', () => {
    expect(row(formatCostByRules(results), 'hearsay webhook')).toContain('52 µs, 1.10× minimal');
  });

  it('takes the middle value, or the mean of the two middle ones, and skips what was not measured', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([Number.NaN, 5])).toBe(5);
    expect(median([])).toBeNaN();
  });
});
