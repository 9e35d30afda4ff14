// Reads a bot command from a message: `/name`, `/name@botusername`, then arguments after whitespace.
// Prefers the `bot_command` entity at offset 0 (what the real service sends), but also parses plain
// text starting with '/' because the sandbox and tests may leave entities out.
import type { MessageEntity } from '@grammyjs/types';

export interface ParsedCommand {
  /** Lower-cased command name (Telegram commands are lower-case; we compare without case). */
  name: string;
  /** The @username the command was addressed to (as written); undefined when none. */
  target: string | undefined;
  /** Everything after the command and the whitespace that follows it. */
  args: string;
}

const COMMAND = /^\/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]{1,64}))?(?=$|\s)/;

export function parseCommand(text: string, entities?: readonly MessageEntity[]): ParsedCommand | undefined {
  if (!text.startsWith('/')) return undefined;
  const entity = entities?.find((e) => e.type === 'bot_command' && e.offset === 0);
  // The entity's length counts UTF-16 code units, like JavaScript string indices.
  const head = entity ? text.slice(0, entity.length) : text;
  const match = COMMAND.exec(head);
  if (!match) return undefined;
  const end = entity ? entity.length : match[0].length;
  if (end < text.length && !/^\s/.test(text.slice(end))) return undefined;
  return { name: match[1]!.toLowerCase(), target: match[2], args: text.slice(end).trim() };
}

/** A command addressed to another bot (`/start@otherbot`) is not ours; usernames compare without case. */
export function isForBot(command: ParsedCommand, botUsername: string): boolean {
  return command.target === undefined || command.target.toLowerCase() === botUsername.replace(/^@/, '').toLowerCase();
}
