// An explanation in words, one line per part, as the chat page's "why" and `hearsay chat --why` show it:
//   rule 'refund' (rules/20-conversation.yaml:45) answered: keyword "refund"
//   changed: user.name = "Ada"
//   backend calls: none · took 0.8 ms
import type { Explanation } from './explanation.js';

const HOW: Readonly<Record<Exclude<Explanation['match'], 'flow' | 'none' | 'fallback'>, string>> = {
  command: 'its command',
  text: 'the whole message, as written',
  keyword: 'a keyword',
  pattern: 'its pattern',
  callback: "the button's data",
  event: 'a member joining or leaving',
};

/** `name = value` for a changed variable or flow position (removed: `name removed`). */
function changeText({ name, value }: Explanation['changed'][number]): string {
  if (value === null) return name === 'flow' ? 'left the flow' : `${name} removed`;
  if (name === 'flow') return `flow at ${String(value).replace('#', ', step ')}`;
  return `${name} = ${JSON.stringify(value)}`;
}

/** The first line: what answered and how it matched; `at` is where it is written (`rules/bot.yaml:4`), if known. */
function answerLine(e: Explanation, at: string | undefined): string {
  const where = at === undefined ? '' : ` (${at})`;
  if (e.match === 'none' && e.contested) return `rule '${e.contested}' matched a keyword, but other rules are closer; suggested: ${e.suggested!.join(', ')}`;
  if (e.match === 'none') return e.suggested ? `no rule matched; suggested: ${e.suggested.join(', ')}` : 'no rule matched; nothing answered';
  if (e.match === 'fallback') return `no rule matched; the fallback answered (rule '${e.rule}'${at === undefined ? '' : `, ${at}`})`;
  const flow = e.flow;
  if (flow?.part === 'start') return `flow '${flow.id}'${where} started: ${howText(e)}`;
  if (flow) {
    switch (flow.part) {
      case 'step': {
        const again = e.changed.some((c) => c.name === 'flow' && c.value === `${flow.id}#${flow.step}`);
        return `step '${flow.step}' of flow '${flow.id}'${where} ${again ? 'did not accept the answer and asked again' : 'took the answer'}`;
      }
      case 'done':
        return `flow '${flow.id}'${where} ended: its last step was answered`;
      case 'cancel':
        return `flow '${flow.id}'${where} was cancelled`;
      case 'timeout':
        return `flow '${flow.id}'${where} timed out`;
      default:
        return `flow '${flow.id}' was left: the operator changed it`;
    }
  }
  return `rule '${e.rule}'${where} answered: ${howText(e)}`;
}

function howText(e: Explanation): string {
  const how = e.match === 'keyword' && e.keyword !== undefined ? `keyword "${e.keyword}"` : (HOW[e.match as keyof typeof HOW] ?? e.match);
  if (e.suggestion) return `chosen among the suggestions for "${e.suggestion.text}"`;
  if (e.forms !== undefined) return `another form of a word (${e.forms}), then ${how}`;
  if (!e.corrected || e.corrected.length === 0) return how;
  return `corrected typo ${e.corrected.map(({ from, to }) => `${from} → ${to}`).join(', ')}, then ${how}`;
}

/** The explanation as lines; `shownPath` turns a rule file's path into the form to show (relative to the rules' folder, say). */
export function explanationLines(e: Explanation, shownPath: (file: string) => string = (file) => file): string[] {
  const at = e.file !== undefined ? `${shownPath(e.file)}${e.line !== undefined ? `:${e.line}` : ''}` : undefined;
  const backend =
    e.backend.length === 0 ? 'none' : e.backend.map((call) => `${call.backend} ${call.request} → ${call.status ?? call.failure ?? 'no answer'}`).join(', ');
  return [
    answerLine(e, at),
    e.changed.length === 0 ? 'changed: nothing' : `changed: ${e.changed.map(changeText).join('; ')}`,
    `backend calls: ${backend} · took ${e.ms} ms`,
  ];
}
