// Reads and validates the YAML config file: every problem at once, each with its file position.
import { readFile } from 'node:fs/promises';
import { LineCounter, parseDocument } from 'yaml';
import { configSchema, type ConfigFile } from '../generated/config-schema.js';
import { ConfigError, ConfigProblem } from './errors.js';
import { describeSchemaError, validatorFor } from './schema-messages.js';
import { positionOf } from './yaml-positions.js';

export interface LoadedConfigFile {
  path: string;
  /** The validated file content. */
  content: ConfigFile;
  /** Where each dotted setting key was written, for later error messages. */
  positionOf(key: string): { line: number; column: number };
}

const validateFile = validatorFor(configSchema);

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
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (line: number, column: number) => ({ kind: 'file' as const, file: displayPath, line, column });

  if (doc.errors.length > 0) {
    throw new ConfigError(
      doc.errors.map((e) => {
        const pos = e.linePos?.[0] ?? { line: 1, col: 1 };
        return new ConfigProblem(null, at(pos.line, pos.col), `invalid YAML: ${e.message.split('\n')[0]}`);
      }),
    );
  }
  const data: unknown = doc.toJS() ?? {};
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ConfigError([new ConfigProblem(null, at(1, 1), 'the config file must be a mapping of settings (key: value)')]);
  }
  if (!validateFile(data)) {
    const problems = (validateFile.errors ?? []).map((error) => {
      const described = describeSchemaError(error, data);
      const pos = positionOf(doc, lineCounter, described.pointer, described.atKey);
      return new ConfigProblem(described.setting, at(pos.line, pos.column), described.message);
    });
    throw new ConfigError(dedupe(problems));
  }
  return {
    path,
    content: data as ConfigFile,
    positionOf: (key: string) => positionOf(doc, lineCounter, '/' + key.split('.').join('/')),
  };
}

function dedupe(problems: ConfigProblem[]): ConfigProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => (seen.has(p.format()) ? false : (seen.add(p.format()), true)));
}
