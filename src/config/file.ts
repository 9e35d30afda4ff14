// Reads and validates the YAML config file: every problem at once, each with its file position.
import { readFile } from 'node:fs/promises';
import type { ConfigFile } from '../generated/config-schema.js';
// The rules loader's position-keeping YAML parser, shared so both kinds of file report positions alike.
import { parseYaml } from '../yaml/source.js';
import { ConfigError, ConfigProblem } from './errors.js';
import { describeSchemaError, validateConfigDocument as validateFile } from './schema-messages.js';

export interface LoadedConfigFile {
  path: string;
  /** The validated file content. */
  content: ConfigFile;
  /** Where each dotted setting key was written, for later error messages. */
  positionOf(key: string): { line: number; column: number };
}

export async function readConfigFile(path: string, displayPath = path): Promise<LoadedConfigFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a directory, not a file' : `cannot be read (${code ?? 'error'})`;
    throw new ConfigError([new ConfigProblem(null, { kind: 'flag', name: '--config' }, `${displayPath}: ${why}`)]);
  }
  return parseConfigText(text, displayPath, path);
}

export function parseConfigText(text: string, displayPath: string, path = displayPath): LoadedConfigFile {
  const parsed = parseYaml(displayPath, text);
  const at = (line: number, column: number) => ({ kind: 'file' as const, file: displayPath, line, column });
  const segments = (pointer: string) => pointer.split('/').filter(Boolean);

  if (parsed.problems.length > 0) {
    throw new ConfigError(
      parsed.problems.map((p) => new ConfigProblem(null, at(p.line || 1, p.column || 1), `invalid YAML: ${p.message.replace(/^YAML: /, '')}`)),
    );
  }
  const data: unknown = parsed.data ?? {};
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ConfigError([new ConfigProblem(null, at(1, 1), 'the config file must be a mapping of settings (key: value)')]);
  }
  if (!validateFile(data)) {
    const problems = (validateFile.errors ?? []).map((error) => {
      const described = describeSchemaError(error, data);
      const pos = parsed.locate(segments(described.pointer), described.atKey);
      return new ConfigProblem(described.setting, at(pos.line, pos.column), described.message);
    });
    throw new ConfigError(dedupe(problems));
  }
  const handoffChat = (data as ConfigFile).handoff?.chat;
  if (typeof handoffChat === 'string' && (data as ConfigFile).chats?.[handoffChat] === undefined) {
    const pos = parsed.locate(['handoff', 'chat']);
    const declared = Object.keys((data as ConfigFile).chats ?? {});
    const known = declared.length > 0 ? ` (declared: ${declared.join(', ')})` : '';
    throw new ConfigError([
      new ConfigProblem(
        'handoff.chat',
        at(pos.line, pos.column),
        `handoff.chat names '${handoffChat}', which is not declared under chats:${known}; add it, e.g. chats: { ${handoffChat}: -1001234567890 }`,
      ),
    ]);
  }
  return {
    path,
    content: data as ConfigFile,
    positionOf: (key: string) => {
      const pos = parsed.locate(key.split('.'));
      return { line: pos.line, column: pos.column };
    },
  };
}

function dedupe(problems: ConfigProblem[]): ConfigProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => (seen.has(p.format()) ? false : (seen.add(p.format()), true)));
}
