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
    .addHelpText('after', '\nTexts are normalised as rules compare them (case, whitespace, punctuation at the ends). See docs/operations.md.')
    .action(async (path: string | undefined, options: { top: number; json?: boolean }) => {
      if (path !== undefined && (!existsSync(path) || !statSync(path).isFile())) {
        process.stderr.write(`hearsay report: ${path}: no such file\n`);
        process.exitCode = USAGE_EXIT_CODE;
        return;
      }
      const input = path === undefined ? process.stdin : createReadStream(path, { encoding: 'utf8' });
      const report = await unmatchedReport(createInterface({ input, crlfDelay: Infinity }), options.top);
      process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report, path ?? 'standard input'));
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
