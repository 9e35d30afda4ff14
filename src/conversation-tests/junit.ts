// JUnit XML for CI systems (GitLab, Jenkins, GitHub test reporters): one testsuite per test file, one
// testcase per test, a <failure> with the step's position and the diff for a failed one.
import { isAbsolute, relative } from 'node:path';
import type { TestResult } from './run-tests.js';

/** Text safe inside XML: markup characters escaped, characters XML 1.0 cannot hold dropped. */
export function xmlText(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** Relative to `base` when the file is inside it (as CI shows repository paths), else as given. */
function shortPath(base: string, file: string): string {
  const rel = relative(base, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

/** The whole report; `base` makes file names relative (to the working directory). */
export function junitReport(results: readonly TestResult[], base: string): string {
  const byFile = new Map<string, TestResult[]>();
  for (const result of results) {
    const list = byFile.get(result.file.file) ?? [];
    list.push(result);
    byFile.set(result.file.file, list);
  }
  const failures = results.filter((r) => r.failure).length;
  const total = results.reduce((sum, r) => sum + r.durationMs, 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="hearsay test" tests="${results.length}" failures="${failures}" errors="0" time="${seconds(total)}">`,
  ];
  for (const [file, list] of byFile) {
    const name = xmlText(shortPath(base, file));
    const time = list.reduce((sum, r) => sum + r.durationMs, 0);
    lines.push(`  <testsuite name="${name}" tests="${list.length}" failures="${list.filter((r) => r.failure).length}" errors="0" time="${seconds(time)}">`);
    for (const result of list) {
      const open = `    <testcase name="${xmlText(result.test.name)}" classname="${name}" file="${name}" line="${result.test.position.line}" time="${seconds(result.durationMs)}"`;
      if (!result.failure) {
        lines.push(`${open}/>`);
        continue;
      }
      const { step, message, diff } = result.failure;
      const where = `${shortPath(base, step.position.file)}:${step.position.line}:${step.position.column}`;
      const summary = `step ${step.index + 1} (${step.label}) at ${where}: ${message}`;
      lines.push(
        `${open}>`,
        `      <failure message="${xmlText(summary)}" type="ExpectationFailed">${xmlText([summary, ...diff].join('\n'))}</failure>`,
        '    </testcase>',
      );
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}
