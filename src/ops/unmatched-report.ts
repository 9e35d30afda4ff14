// `hearsay report`'s reading of a log: the per-update lines that carry an unmatched message's text
// (`log.unmatched: true`), normalised as the rules see text and counted, most frequent first; and the
// suggestions users took (`suggestion_taken`), by rule: phrasings to add to that rule's examples.
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
  /** Suggestions taken, by the rule taken (in first-seen order): the texts they were taken for, most frequent first. */
  taken: TakenSuggestions[];
}

/** The texts (normalised) for which users took the suggestion of one rule, with how often. */
export interface TakenSuggestions {
  rule: string;
  texts: { text: string; count: number }[];
}

const EDGE_PUNCTUATION = /^[\p{P}\p{S}\s]+|[\p{P}\p{S}\s]+$/gu;

/** How unmatched texts are grouped: as the rules compare text (docs/rules.md), and "Where?" counts with "where". */
export function reportKey(text: string): string {
  return normalize(text).replace(EDGE_PUNCTUATION, '');
}

/** Reads the log lines and counts the unmatched texts; keeps the `top` most frequent. */
export async function unmatchedReport(lines: AsyncIterable<string> | Iterable<string>, top: number): Promise<UnmatchedReport> {
  const counts = new Map<string, UnmatchedCount>();
  const report: UnmatchedReport = { handled: 0, unmatched: 0, withText: 0, notJson: 0, top: [], taken: [] };
  const taken = new Map<string, Map<string, number>>();
  for await (const line of lines) {
    const entry = parseLine(line);
    if (entry === undefined) {
      if (line.trim() !== '') report.notJson++;
      continue;
    }
    if (entry.msg !== 'update handled') continue;
    report.handled++;
    if (typeof entry.suggestion_taken === 'string' && typeof entry.text === 'string') countTaken(taken, entry.suggestion_taken, reportKey(entry.text));
    if (entry.unmatched !== 'fallback' && entry.unmatched !== 'none' && entry.unmatched !== 'suggested') continue;
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
  report.taken = [...taken].map(([rule, texts]) => ({
    rule,
    texts: [...texts].map(([text, count]) => ({ text, count })).sort((a, b) => b.count - a.count),
  }));
  return report;
}

function countTaken(taken: Map<string, Map<string, number>>, rule: string, text: string): void {
  if (text === '') return;
  const texts = taken.get(rule) ?? new Map<string, number>();
  texts.set(text, (texts.get(text) ?? 0) + 1);
  taken.set(rule, texts);
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
