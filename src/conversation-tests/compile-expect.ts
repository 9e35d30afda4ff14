// Compiles a step's `expect:` (already valid against the schema) into expected outputs, checking what the
// schema cannot: one way to give a text, patterns that compile (RE2 syntax, as in rules), `alert` only with `answer`.
import { checkPattern } from '../engine/pattern-syntax.js';
import type { NodePath } from '../yaml/source.js';
import type { ExpectedOutput, StepAction, TestStep, TextMatcher } from './model.js';
import { compileModeration, MODERATION_KEYS } from './moderation-double.js';

type Raw = Record<string, unknown>;
type Report = (path: NodePath, message: string) => void;

/** The word that says "the bot stays silent". */
export const NOTHING = 'nothing';

/** The compiled expectation; false when it has problems (reported). */
export function compileExpect(raw: unknown, report: Report, users: readonly string[] = []): TestStep['expect'] | false {
  if (raw === undefined) return undefined;
  if (raw === null) return 'record';
  if (raw === NOTHING) return 'nothing';
  const list = Array.isArray(raw) ? raw : [raw];
  const outputs: ExpectedOutput[] = [];
  let ok = true;
  list.forEach((item: unknown, n) => {
    const at = Array.isArray(raw) ? [n] : [];
    if (item === NOTHING) {
      report(at, '`nothing` stands alone (expect: nothing); in a list, write the outputs');
      ok = false;
      return;
    }
    // `times: N`: the same output N times in a row (a flood answered message by message).
    const { times, ...one } = typeof item === 'string' ? { times: 1 } : (item as Raw);
    const output = compileOutput(
      typeof item === 'string' ? item : one,
      (path, message) => {
        ok = false;
        report([...at, ...path], message);
      },
      users,
    );
    if (output) for (let n = 0; n < ((times as number | undefined) ?? 1); n++) outputs.push(output);
  });
  if (outputs.length === 0 && ok) return 'nothing';
  return ok ? outputs : false;
}

function compileOutput(item: string | Raw, report: Report, users: readonly string[]): ExpectedOutput | undefined {
  if (typeof item === 'string') return { kind: 'message', text: { kind: 'exact', text: item }, flatButtons: true };
  const moderation = MODERATION_KEYS.filter((k) => k in item);
  if (moderation.length > 0) return compileModerationOutput(item, moderation, report, users);
  const kinds = ['edit', 'answer'].filter((k) => k in item);
  const textForms = ['text', 'contains', 'pattern'].filter((k) => k in item);
  if (kinds.length === 1 && ('in' in item || 'topic_of' in item)) {
    report([], '`in` and `topic_of` say where a message went: an edit or an answer has no place of its own');
    return undefined;
  }
  if (kinds.length > 1 || (kinds.length === 1 && (textForms.length > 0 || 'buttons' in item))) {
    report([], `one output is a message, an edit or an answer: split ${Object.keys(item).join(', ')} into separate list items`);
    return undefined;
  }
  if (item.alert !== undefined && kinds[0] !== 'answer') {
    report(['alert'], '`alert` goes with `answer`');
    return undefined;
  }
  if (kinds[0] === 'edit' || kinds[0] === 'answer') {
    const text = compileText(item[kinds[0]] as string | Raw, (path, message) => report([kinds[0]!, ...path], message));
    if (!text) return undefined;
    if (kinds[0] === 'edit') return { kind: 'edit', text };
    return { kind: 'answer', text, ...(item.alert !== undefined ? { alert: item.alert as boolean } : {}) };
  }
  if (textForms.length > 1) {
    report([], `give the text one way: ${textForms.join(' or ')}`);
    return undefined;
  }
  let text: TextMatcher | undefined;
  if (textForms[0] === 'text') text = compileText(item.text as string | Raw, (path, message) => report(['text', ...path], message));
  else if (textForms[0]) text = compileText({ [textForms[0]]: item[textForms[0]] }, report);
  if (textForms.length === 1 && !text) return undefined;
  const buttons = item.buttons as string[] | string[][] | undefined;
  const suggestions = item.suggestions as string[] | undefined;
  if (suggestions && buttons) {
    report([], '`suggestions` names the buttons of a suggestion message by rule: give suggestions or buttons');
    return undefined;
  }
  const flat = buttons === undefined || buttons.every((b) => typeof b === 'string');
  return {
    kind: 'message',
    ...(typeof item.in === 'string' ? { in: item.in } : {}),
    ...(typeof item.topic_of === 'string' ? { topicOf: item.topic_of } : {}),
    ...(text ? { text } : {}),
    ...(suggestions ? { suggestions } : {}),
    ...(buttons ? { buttons: flat ? [buttons as string[]] : (buttons as string[][]) } : {}),
    flatButtons: flat,
  };
}

/** A moderation call expected (`deleted: true`, `restricted: { user, for }` …): one per list item. */
function compileModerationOutput(item: Raw, keys: readonly string[], report: Report, users: readonly string[]): ExpectedOutput | undefined {
  if (Object.keys(item).length > 1) {
    report([], `one output is one moderation call or one message: split ${Object.keys(item).join(', ')} into separate list items`);
    return undefined;
  }
  const compiled = compileModeration(keys[0]!, item[keys[0]!], users);
  if (typeof compiled === 'string') {
    report([keys[0]!], compiled);
    return undefined;
  }
  return compiled;
}

function compileText(raw: string | Raw, report: Report): TextMatcher | undefined {
  if (typeof raw === 'string') return { kind: 'exact', text: raw };
  if (typeof raw.contains === 'string') return { kind: 'contains', text: raw.contains };
  const source = raw.pattern as string;
  // The rules' engine (RE2, linear time): a pattern that would backtrack on some reply cannot hang a CI run.
  const checked = checkPattern(source, true, 'write (?i) at its start to ignore case');
  if ('problem' in checked) {
    report(['pattern'], checked.problem);
    return undefined;
  }
  return { kind: 'pattern', source, pattern: checked.pattern };
}

/** How the report names a step: its action as written (`say: /book`, `press: Ja`, `wait: 16m`). */
export function stepLabel(action: StepAction, raw: Raw): string {
  switch (action.kind) {
    case 'say':
      return `say: ${/^\s|\s$|\n/.test(action.text) ? JSON.stringify(action.text) : action.text}${timesLabel(action.times)}`;
    case 'send':
      return `${action.label}${timesLabel(action.times)}`;
    case 'request_join':
      return `request_join: ${action.user.key}`;
    case 'press':
      return action.by === 'text' ? `press: ${action.value}` : `press: { ${action.by}: ${action.value} }`;
    case 'wait':
      return `wait: ${action.source}`;
    case 'join':
    case 'leave':
      return `${action.kind}: ${action.users.map((u) => u.key).join(', ')}`;
    case 'none':
      return raw.state ? 'state' : raw.expect_call ? 'expect_call' : 'step';
  }
}

function timesLabel(times: number): string {
  return times > 1 ? `, times: ${times}` : '';
}
