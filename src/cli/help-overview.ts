// The part of `hearsay --help` that lists every flag of every command (README promises it), built from the
// commands themselves so it cannot fall behind: each command's own flags, then the setting flags that the
// commands running a bot share once, since they are the same list.
import type { Command } from 'commander';
import { SETTINGS } from '../config/settings.js';

const WIDTH = 100;
const SETTING_FLAGS: ReadonlySet<string> = new Set(SETTINGS.flatMap((spec) => (spec.flag ? [spec.flag] : [])));

/** `words` joined by spaces and wrapped at WIDTH, every line after the first indented by `indent`. */
function wrapped(first: string, words: readonly string[], indent: number): string[] {
  const lines: string[] = [];
  let line = first;
  for (const word of words) {
    if (line.length + 1 + word.length > WIDTH && line.trim() !== '') {
      lines.push(line);
      line = ' '.repeat(indent) + word;
    } else line = line.length === 0 || line.endsWith(' ') ? line + word : `${line} ${word}`;
  }
  lines.push(line);
  return lines;
}

/** The flags of `command` as typed (`--strict`, `--rules <path>`), without --help; the setting flags apart when it has them all. */
function flagsOf(command: Command): { own: string[]; settings: boolean } {
  const shown = command.options.filter((option) => option.long !== '--help');
  const settings = shown.filter((option) => option.long !== undefined && SETTING_FLAGS.has(option.long)).length === SETTING_FLAGS.size;
  const own = shown.filter((option) => !(settings && SETTING_FLAGS.has(option.long ?? ''))).map((option) => option.flags.replace(/^-\w, /, ''));
  return { own, settings };
}

/** Every command (subcommands as `state show`) with its flags, and the shared setting flags once. */
export function flagsOverview(program: Command): string {
  const rows: Array<[string, string[]]> = [];
  let sharing: string[] = [];
  const visit = (command: Command, prefix: string) => {
    const name = `${prefix}${command.name()}`;
    if (command.commands.length > 0) {
      for (const sub of command.commands) visit(sub, `${name} `);
      return;
    }
    const { own, settings } = flagsOf(command);
    if (settings) sharing = [...sharing, name];
    rows.push([name, [...own, ...(settings ? ['and the setting flags below'] : [])]]);
  };
  for (const command of program.commands) if (command.name() !== 'help') visit(command, '');
  const width = Math.max(...rows.map(([name]) => name.length)) + 2;
  const lines = ['', 'Flags of every command (hearsay <command> --help says what each does):'];
  for (const [name, flags] of rows) lines.push(...wrapped(`  ${name.padEnd(width)}`, flags.length > 0 ? flags : ['(none)'], width + 2));
  const settingFlags = [...SETTING_FLAGS];
  lines.push('', `Setting flags (${sharing.join(', ')}; each also has an environment variable, see docs/configuration.md):`);
  lines.push(...wrapped('  ', settingFlags, 2));
  return lines.join('\n');
}
