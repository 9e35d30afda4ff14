// Finds and reads rule files, turning everything that would make one silently absent into a reported
// problem: a dangling or looping symlink, an unreadable file, a file over the size limit (checked before it
// is read, so a huge file costs nothing), text that is not UTF-8.
import { isUtf8 } from 'node:buffer';
import { lstat, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { RuleProblem } from '../diagnostics/problem.js';

/** Bounds on what a rule load may take in, checked before parsing. */
export interface RuleLimits {
  /** Largest rule file, in bytes. */
  maxFileBytes: number;
  /** Most rules in all files together. */
  maxRules: number;
}

/** The defaults of `rule_limits.*`: far above hand-written rules, far below what would exhaust memory. */
export const DEFAULT_RULE_LIMITS: RuleLimits = { maxFileBytes: 1_048_576, maxRules: 20_000 };

/** Whether a directory entry is a rule file: *.yaml or *.yml, not hidden (editors' temp files are). */
export function isRuleFileName(name: string): boolean {
  return !name.startsWith('.') && /\.ya?ml$/i.test(name);
}

/** Why a path cannot be used, in words (ELOOP and dangling links named as such). */
export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ELOOP') return 'symlink loop (too many levels of symbolic links)';
  if (code === 'ENOTDIR') return 'a part of the path is not a directory';
  return error instanceof Error ? error.message : String(error);
}

/**
 * The rule files at `path` (the file itself, or the directory's rule files sorted by name, code point order,
 * not recursive) and a problem for each entry named like a rule file that cannot be used. Throws when `path`
 * itself cannot be read.
 */
export async function listRuleFiles(path: string): Promise<{ files: string[]; problems: RuleProblem[] }> {
  const info = await stat(path);
  if (!info.isDirectory()) return { files: [path], problems: [] };
  const names = (await readdir(path)).filter(isRuleFileName).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const files: string[] = [];
  const problems: RuleProblem[] = [];
  for (const name of names) {
    const file = join(path, name);
    // Symlinks are followed (Kubernetes mounts files as links); one that leads nowhere is a problem, not a skip.
    const entry = await stat(file).catch((error: unknown) => error as NodeJS.ErrnoException);
    if (entry instanceof Error) {
      const link = await lstat(file).catch(() => undefined);
      const why = link?.isSymbolicLink() && entry.code === 'ENOENT' ? 'dangling symlink (its target does not exist)' : describeFsError(entry);
      problems.push(new RuleProblem(file, 0, 0, `cannot read the file: ${why}`));
    } else if (entry.isFile()) {
      files.push(file);
    }
    // A directory named like a rule file is not one: skipped, as documented.
  }
  return { files, problems };
}

/** A rule file's text, or the problem that keeps it from being used; the size is checked before reading. */
export function readRuleFile(file: string, limits: RuleLimits): Promise<{ text: string } | { problem: RuleProblem }> {
  return readYamlFile(file, limits.maxFileBytes, 'rule_limits.max_file_bytes');
}

/**
 * A YAML file's text (rules, conversation tests), or the problem that keeps it from being used: larger than
 * `maxBytes` (checked before it is read, so a huge file costs neither time nor memory; `limitName` says where the
 * limit is set), unreadable, or not UTF-8.
 */
export async function readYamlFile(file: string, maxBytes: number, limitName: string): Promise<{ text: string } | { problem: RuleProblem }> {
  try {
    const { size } = await stat(file);
    if (size > maxBytes) return { problem: new RuleProblem(file, 0, 0, `the file is ${size} bytes, over the limit of ${maxBytes} (${limitName})`) };
    const bytes = await readFile(file);
    if (!isUtf8(bytes)) return { problem: new RuleProblem(file, firstBadLine(bytes), 1, 'not UTF-8 text; save the file as UTF-8') };
    return { text: bytes.toString('utf8') };
  } catch (error) {
    return { problem: new RuleProblem(file, 0, 0, `cannot read the file: ${describeFsError(error)}`) };
  }
}

/** The 1-based line of the first byte sequence that is not UTF-8. */
function firstBadLine(bytes: Buffer): number {
  let line = 1;
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === 0x0a) {
      if (!isUtf8(bytes.subarray(start, i))) return line;
      line += 1;
      start = i + 1;
    }
  }
  return 1;
}
