// `hearsay report`'s reading of a log: the per-update lines that carry an unmatched message's text
// (`log.unmatched: true`), normalised as the rules see text and counted, most frequent first.
import { normalize } from '../engine/normalize.js';

export interface UnmatchedCount {
  /** The normalised text (case-folded, whitespace collapsed, punctuation at the ends dropped). */
  text: string;
  count: number;
  /** How many of them a fallback rule answered (the rest got no answer at all). */
  fallback: number;
}

export interface UnmatchedReport {
  /** Handled updates seen in the log (lines `update handled`). */
  handled: number;
  /** Of those, text messages no ordinary rule matched. */
  unmatched: number;
  /** Unmatched lines that carry their text (only with `log.unmatched: true` or at debug level). */
  withText: number;
  /** Lines that were not JSON (a pretty log, or other output mixed in). */
  notJson: number;
  /** The most frequent texts, ties in first-seen order. */
  top: UnmatchedCount[];
}

const EDGE_PUNCTUATION = /^[\p{P}\p{S}\s]+|[\p{P}\p{S}\s]+$/gu;

/** How unmatched texts are grouped: as the rules compare text (docs/rules.md), and "Where?" counts with "where". */
export function reportKey(text: string): string {
  return normalize(text).replace(EDGE_PUNCTUATION, '');
}

/** Reads the log lines and counts the unmatched texts; keeps the `top` most frequent. */
export async function unmatchedReport(lines: AsyncIterable<string> | Iterable<string>, top: number): Promise<UnmatchedReport> {
  const counts = new Map<string, UnmatchedCount>();
  const report: UnmatchedReport = { handled: 0, unmatched: 0, withText: 0, notJson: 0, top: [] };
  for await (const line of lines) {
    const entry = parseLine(line);
    if (entry === undefined) {
      if (line.trim() !== '') report.notJson++;
      continue;
    }
    if (entry.msg !== 'update handled') continue;
    report.handled++;
    if (entry.unmatched !== 'fallback' && entry.unmatched !== 'none') continue;
    report.unmatched++;
    if (typeof entry.text !== 'string') continue;
    const key = reportKey(entry.text);
    if (key === '') continue;
    report.withText++;
    const counted = counts.get(key) ?? { text: key, count: 0, fallback: 0 };
    counted.count++;
    if (entry.unmatched === 'fallback') counted.fallback++;
    counts.set(key, counted);
  }
  // Array.prototype.sort is stable, so equal counts keep the order they were first seen in.
  report.top = [...counts.values()].sort((a, b) => b.count - a.count).slice(0, top);
  return report;
}

function parseLine(line: string): Record<string, unknown> | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
