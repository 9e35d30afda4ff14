// `hearsay report [log file]`: the most frequent messages the bot failed to answer, read from a JSON log
// written with `log.unmatched: true` (standard input without a file). Exit 0 with a table, 2 on a usage error.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Command, InvalidArgumentError, Option } from 'commander';
import { unmatchedReport, type UnmatchedReport } from '../../ops/unmatched-report.js';
import { OK_EXIT_CODE, USAGE_EXIT_CODE } from '../../errors/exit-codes.js';

function parseTop(value: string): number {
  const top = Number(value);
  if (!/^\d+$/.test(value) || top < 1 || top > 10_000) throw new InvalidArgumentError('It must be an integer from 1 to 10000.');
  return top;
}

export function reportCommand(): Command {
  return new Command('report')
    .description('list the most frequent messages that only the fallback (or nothing) answered, from a JSON log')
    .argument('[log]', 'a log file written with log.unmatched: true and log.format json (standard input when omitted)')
    .addOption(new Option('--top <n>', 'how many texts to list').default(20).argParser(parseTop))
    .option('--json', 'print the report as JSON')
    .option('--suggestions', 'print the suggestions users took as examples: to paste into each rule')
    .addHelpText('after', '\nTexts are normalised as rules compare them (case, whitespace, punctuation at the ends). See docs/operations.md.')
    .action(async (path: string | undefined, options: { top: number; json?: boolean; suggestions?: boolean }) => {
      if (path !== undefined && (!existsSync(path) || !statSync(path).isFile())) {
        process.stderr.write(`hearsay report: ${path}: no such file\n`);
        process.exitCode = USAGE_EXIT_CODE;
        return;
      }
      const input = path === undefined ? process.stdin : createReadStream(path, { encoding: 'utf8' });
      const report = await unmatchedReport(createInterface({ input, crlfDelay: Infinity }), options.top);
      const source = path ?? 'standard input';
      const text = options.suggestions ? formatTakenSuggestions(report, source) : formatReport(report, source);
      process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : text);
      process.exitCode = OK_EXIT_CODE;
    });
}

/** The table an operator reads: count, how many got the fallback, the text; and why it may be empty. */
export function formatReport(report: UnmatchedReport, source: string): string {
  const lines = [`${source}: ${report.handled} updates handled, ${report.unmatched} unmatched (${report.withText} with their text)`];
  if (report.handled === 0 && report.notJson > 0) lines.push('No JSON log lines found: run hearsay with log.format json (--log-format json).');
  else if (report.unmatched > 0 && report.withText === 0) lines.push('The unmatched lines carry no text: turn on log.unmatched (--log-unmatched).');
  if (report.top.length > 0) {
    const width = Math.max(5, String(report.top[0]!.count).length);
    lines.push('', `${'count'.padStart(width)}  fallback  text`);
    for (const entry of report.top) lines.push(`${String(entry.count).padStart(width)}  ${String(entry.fallback).padStart(8)}  ${entry.text}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The suggestions users took, as YAML to paste: per rule, its id and the texts it was chosen for as
 * `examples:` (each a phrasing the rule's words did not reach: add it, or a keyword from it).
 */
export function formatTakenSuggestions(report: UnmatchedReport, source: string): string {
  const taken = report.taken.reduce((sum, rule) => sum + rule.texts.reduce((n, t) => n + t.count, 0), 0);
  const lines = [`# ${source}: ${taken} suggestions taken, for ${report.taken.length} rules; add these phrasings to each rule's examples`];
  if (report.handled > 0 && taken === 0) lines.push('# none with their text: turn on log.unmatched (--log-unmatched) to record what users wrote');
  for (const { rule, texts } of report.taken) {
    lines.push(`- id: ${rule}`, '  examples:');
    for (const { text, count } of texts) lines.push(`    - ${JSON.stringify(text)}  # taken ${count} time${count === 1 ? '' : 's'}`);
  }
  return `${lines.join('\n')}\n`;
}
