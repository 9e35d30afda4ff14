// Turns the neutral rule list into hearsay rule files: several YAML files whose
// names sort in rule order, so first-match order across files equals the list order.
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
    default:
      throw new Error(`unknown rule kind ${rule.kind}`);
  }
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
    const text = `# yaml-language-server: $schema=../schemas/rules.schema.json\n${YAML.stringify({ rules: chunk }, { lineWidth: 0 })}`;
    await writeFile(path.join(dir, `${String(f).padStart(4, '0')}-rules.yaml`), text);
  }
  return files;
}
