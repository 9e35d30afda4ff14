// `hearsay test --update`: writes what the bot actually did into the test files — the `expect:` of each
// step whose expectation failed or was left empty, the listed `state:` values that differ — editing the
// YAML document in place so comments and the rest of the layout stay as the author wrote them.
import { readFile, writeFile } from 'node:fs/promises';
import { isMap, isScalar, isSeq, parseDocument, type Document } from 'yaml';
import type { RecordedOutput } from './bot-api-double.js';
import { buttonRows, compareOutputs } from './compare.js';
import { moderationValue } from './moderation-double.js';
import { NOTHING } from './compile-expect.js';
import type { StepRecord, TestResult } from './run-tests.js';

/** What changed in one file. */
export interface UpdatedFile {
  readonly file: string;
  readonly steps: number;
}

/** Rewrites the test files of these results; returns the files it changed. */
export async function updateTestFiles(results: readonly TestResult[]): Promise<UpdatedFile[]> {
  const byFile = new Map<string, StepRecord[]>();
  for (const result of results) byFile.set(result.file.file, [...(byFile.get(result.file.file) ?? []), ...result.steps]);
  const changed: UpdatedFile[] = [];
  for (const [file, records] of byFile) {
    const text = await readFile(file, 'utf8');
    const updated = updateText(text, records);
    if (updated.steps > 0 && updated.text !== text) {
      await writeFile(file, updated.text);
      changed.push({ file, steps: updated.steps });
    }
  }
  return changed;
}

/** The file's text with these steps' actual outputs and state recorded (see the module comment). */
export function updateText(text: string, records: readonly StepRecord[]): { text: string; steps: number } {
  const doc = parseDocument(text, { keepSourceTokens: false });
  let steps = 0;
  for (const record of records) {
    const { step } = record;
    let touched = false;
    const expectFailed = step.expect !== undefined && step.expect !== 'record' && compareOutputs(step.expect, record.outputs) !== null;
    if (step.expect === 'record' || expectFailed) {
      const repeated = (step.action.kind === 'say' || step.action.kind === 'send') && step.action.times > 1;
      setIn(doc, [...step.path, 'expect'], expectValue(record.outputs, repeated));
      touched = true;
    }
    if (step.state && record.state) {
      for (const [key, want] of step.state) {
        const got = record.state.get(key) ?? null;
        const same = want === null || got === null ? want === got : String(want) === String(got);
        if (same) continue;
        setIn(doc, [...step.path, 'state', key], got);
        touched = true;
      }
    }
    if (touched) steps++;
  }
  return { text: doc.toString({ lineWidth: 0 }), steps };
}

function setIn(doc: Document, path: readonly (string | number)[], value: unknown): void {
  const node = doc.createNode(value);
  // Outputs read best on one line each, as the docs write them: `{ edit: "..." }`.
  if (isMap(node)) node.flow = true;
  if (isSeq(node)) for (const item of node.items) if (isMap(item)) item.flow = true;
  const existing = doc.getIn(path, true);
  // Keep a comment written after the old value.
  if (isScalar(existing) || isMap(existing) || isSeq(existing)) node.comment = existing.comment ?? null;
  doc.setIn(path, node);
}

/** What the bot did, in the notation of `expect:`; `repeated` (a step sent `times`): a run of the same output as one item with `times`. */
function expectValue(outputs: readonly RecordedOutput[], repeated = false): unknown {
  if (outputs.length === 0) return NOTHING;
  const values = repeated ? runsOf(outputs.map(outputValue)) : outputs.map(outputValue);
  return values.length === 1 ? values[0] : values;
}

/** Each run of equal values in a row as one value with `times: N` (`{ text: "got it", times: 10 }`). */
function runsOf(values: readonly unknown[]): unknown[] {
  const runs: unknown[] = [];
  for (let i = 0; i < values.length;) {
    let n = 1;
    while (i + n < values.length && JSON.stringify(values[i + n]) === JSON.stringify(values[i])) n++;
    const value = values[i];
    runs.push(n === 1 ? value : { ...(typeof value === 'string' ? { text: value } : (value as object)), times: n });
    i += n;
  }
  return runs;
}

function outputValue(output: RecordedOutput): unknown {
  switch (output.kind) {
    case 'message': {
      // Where it went, when not the step's chat or into a hand-off topic.
      const place =
        output.elsewhere || output.topicOf ? { ...(output.in ? { in: output.in } : {}), ...(output.topicOf ? { topic_of: output.topicOf } : {}) } : {};
      if (output.suggestions) return { suggestions: [...output.suggestions], ...place };
      const rows = buttonRows(output.replyMarkup);
      if (rows.length > 0) return { text: output.text, buttons: rows.length === 1 ? rows[0] : rows, ...place };
      // A text that reads as the silence keyword must be written as { text: ... }.
      return output.text === NOTHING || Object.keys(place).length > 0 ? { text: output.text, ...place } : output.text;
    }
    case 'edit':
      return { edit: output.text };
    case 'answer':
      return output.showAlert ? { answer: output.text ?? '', alert: true } : { answer: output.text ?? '' };
    default:
      return moderationValue(output);
  }
}
