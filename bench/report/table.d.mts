// Types of table.mjs for the TypeScript tests (the bench itself is plain JavaScript).

/** One contestant's run as the results JSON holds it (only what the tables read is named). */
export interface BenchResult {
  name: string;
  label: string;
  mode: string;
  ruleCount: number;
  workload: string;
  /** From --rounds; results written before it have none (round 1). */
  round?: number;
  updates: number;
  updatesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  cpuUsPerUpdate: number;
  serviceCpuUsPerUpdate?: number;
  peakRssMb: number;
  startupMs: number;
  outcome: string;
  correctness: { ok: boolean; checkedAgainst?: string; wrong?: number; duplicates?: number; missing?: number; outOfOrder?: number };
}

export function median(values: readonly number[]): number;
export function correctnessLabel(correctness: BenchResult['correctness']): string;
export function formatTable(results: readonly BenchResult[]): string;
export function formatCostByRules(results: readonly BenchResult[]): string;
export function formatRoundMedians(results: readonly BenchResult[]): string;
