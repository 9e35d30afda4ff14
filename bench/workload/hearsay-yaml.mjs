// Turns the neutral rule list into hearsay rule files: several YAML files whose
// names sort in rule order, so first-match order across files equals the list order.
// A button rule becomes a callback rule answering the press with its reply as the
// notification, plus one message rule (`/menu`) showing every button the rules answer.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';

function toHearsayRule(rule) {
  switch (rule.kind) {
    case 'command':
      return { id: rule.id, command: rule.command, reply: rule.reply };
    case 'text':
      return { id: rule.id, text: rule.text, reply: rule.reply };
    case 'pattern':
      return { id: rule.id, pattern: rule.pattern, reply: rule.replyCapture ? `${rule.reply}{{match.1}}` : rule.reply };
    case 'keywords':
      return { id: rule.id, keywords: rule.keywords, reply: rule.reply };
    case 'fallback':
      return { id: rule.id, fallback: true, reply: rule.reply };
    case 'button':
      // The data is exactly the button's (anchored, case-sensitive like the reference matcher).
      return { id: rule.id, callback: `^${escapeRegExp(rule.data)}$`, case_sensitive: true, answer: rule.reply };
    default:
      throw new Error(`unknown rule kind ${rule.kind}`);
  }
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The service takes at most this many buttons on one message. */
const MAX_BUTTONS = 100;

/**
 * The message rules that show the buttons: `/menu` (then `/menu2`, ... past 100 buttons), each
 * button in its own row. The workload presses buttons under an earlier message and never says
 * /menu, so these change no answer; they make the rule set what an operator writes (buttons on
 * a message, a callback rule for each one's data).
 */
function menuRules(rules) {
  const buttons = rules.filter((rule) => rule.kind === 'button');
  const menus = [];
  for (let i = 0; i < buttons.length; i += MAX_BUTTONS) {
    const n = menus.length === 0 ? '' : String(menus.length + 1);
    const rows = buttons.slice(i, i + MAX_BUTTONS).map((button) => [{ text: button.id, data: button.data }]);
    menus.push({ id: `menu${n}`, command: `menu${n}`, reply: 'menu', buttons: rows });
  }
  return menus;
}

/** The state workload's form of a rule: it counts the chat's updates and ends its reply with " #<count>". */
function withChatCount(rule) {
  return { ...rule, set: { 'chat.n': { increment: 1 } }, reply: `${rule.reply} #{{var.chat.n}}` };
}

/** Writes `rules` into `dir` as files of at most `perFile` rules (counting per chat with `state`); returns the file count. */
export async function writeHearsayRules(rules, dir, perFile = 1000, { state = false } = {}) {
  await mkdir(dir, { recursive: true });
  const files = Math.ceil(rules.length / perFile);
  for (let f = 0; f < files; f += 1) {
    const chunk = rules.slice(f * perFile, (f + 1) * perFile).map((rule) => (state ? withChatCount(toHearsayRule(rule)) : toHearsayRule(rule)));
    if (f === files - 1) chunk.push(...menuRules(rules));
    const text = `# yaml-language-server: $schema=../schemas/rules.schema.json\n${YAML.stringify({ rules: chunk }, { lineWidth: 0 })}`;
    await writeFile(path.join(dir, `${String(f).padStart(4, '0')}-rules.yaml`), text);
  }
  return files;
}
