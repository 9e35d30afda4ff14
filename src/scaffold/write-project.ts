// Writes a new bot project (`hearsay init`): every file or none. Existing files are never overwritten, so
// running init twice, or in a folder that already holds rules, loses nothing. Every path init would write
// is looked at with lstat first (a symbolic link counts as taken, even one that leads nowhere), and a write
// that still fails takes back what this run wrote.
import { lstat, mkdir, readlink, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { projectFiles } from './project-files.js';

/** The project could not be written; `message` says why and what to do. */
export class ScaffoldError extends Error {
  override readonly name = 'ScaffoldError';
}

export interface WrittenProject {
  /** The project folder, absolute. */
  dir: string;
  /** The files written, relative to `dir`. */
  files: string[];
}

/** What stands at a path, without following a link there: nothing, a folder, a link (and where it leads), or something else. */
type Entry = { kind: 'none' } | { kind: 'folder' } | { kind: 'other' } | { kind: 'link'; target: string; leadsTo: 'folder' | 'other' | 'nothing' };

async function entryAt(path: string): Promise<Entry> {
  let info;
  try {
    info = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' };
    throw new ScaffoldError(`cannot look at ${path}: ${(error as Error).message}`, { cause: error });
  }
  if (info.isDirectory()) return { kind: 'folder' };
  if (!info.isSymbolicLink()) return { kind: 'other' };
  const target = await readlink(path);
  const followed = await stat(path).catch(() => undefined);
  return { kind: 'link', target, leadsTo: followed === undefined ? 'nothing' : followed.isDirectory() ? 'folder' : 'other' };
}

/** Why a link cannot be written over, in words. */
function describeLink(shown: string, entry: Extract<Entry, { kind: 'link' }>): string {
  if (entry.leadsTo === 'nothing') return `${shown} is a symbolic link to ${entry.target}, which does not exist`;
  return `${shown} is a symbolic link to ${entry.target}`;
}

/** Why a folder init needs (the project folder, rules/, tests/, schemas/) cannot hold its files, or undefined when it can. */
function folderProblem(shown: string, entry: Entry): string | undefined {
  if (entry.kind === 'none' || entry.kind === 'folder') return undefined;
  if (entry.kind === 'link') return entry.leadsTo === 'folder' ? undefined : `${describeLink(shown, entry)}, not a folder`;
  return `${shown} exists and is not a folder`;
}

/** The folders between `dir` (included) and each file, each once, outermost first. */
function foldersOf(dir: string, files: readonly string[]): string[] {
  const folders = new Set<string>([dir]);
  for (const file of files) {
    const parts = file.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i++) folders.add(join(dir, ...parts.slice(0, i)));
  }
  return [...folders];
}

/** Every reason the project cannot be written into `dir` (empty when it can), each naming the path as the user gave it. */
async function refusals(target: string, dir: string, files: readonly string[]): Promise<string[]> {
  const shown = (path: string) => (path === dir ? target : join(target, relative(dir, path)));
  const reasons: string[] = [];
  for (const folder of foldersOf(dir, files)) {
    const problem = folderProblem(shown(folder), await entryAt(folder));
    if (problem !== undefined) reasons.push(problem);
  }
  if (reasons.length > 0) return reasons;
  const taken: string[] = [];
  for (const file of files) {
    const entry = await entryAt(join(dir, file));
    if (entry.kind === 'link') reasons.push(describeLink(shown(join(dir, file)), entry));
    else if (entry.kind !== 'none') taken.push(shown(join(dir, file)));
  }
  if (taken.length > 0) reasons.unshift(`${taken.join(', ')} already exist${taken.length === 1 ? 's' : ''}`);
  return reasons;
}

/** Writes the project into `target` (created if missing); `spec` is how its package.json pins hearsay (default: the vendored tarball). */
export async function writeProject(target: string, spec?: string): Promise<WrittenProject> {
  const dir = resolve(target);
  const files = projectFiles(basename(dir), spec);
  const reasons = await refusals(target, dir, [...files.keys()]);
  if (reasons.length > 0) throw new ScaffoldError(`${reasons.join('; ')}; nothing was written (choose another folder)`);
  await writeAll(target, dir, files);
  return { dir, files: [...files.keys()] };
}

/** Writes every file; when one fails, removes the files and folders this run made, so a failure leaves nothing. */
async function writeAll(target: string, dir: string, files: ReadonlyMap<string, string>): Promise<void> {
  const written: string[] = [];
  const madeFolders: string[] = [];
  try {
    for (const [relativePath, content] of files) {
      const path = join(dir, relativePath);
      const made = await mkdir(dirname(path), { recursive: true });
      if (made !== undefined) madeFolders.push(...foldersFrom(made, dirname(path)));
      // wx: never through a link or over a file that appeared since the checks.
      await writeFile(path, content, { flag: 'wx' });
      written.push(path);
    }
  } catch (error) {
    const left = await takeBack(written, madeFolders);
    const after = left.length === 0 ? 'nothing was written' : `could not remove ${left.join(', ')}`;
    throw new ScaffoldError(`cannot write into ${target}: ${(error as Error).message}; ${after}`, { cause: error });
  }
}

/** `first` (the outermost folder mkdir made) and each folder below it down to `last`. */
function foldersFrom(first: string, last: string): string[] {
  const folders = [last];
  for (let folder = last; folder !== first && dirname(folder) !== folder; folder = dirname(folder)) folders.unshift(dirname(folder));
  return folders;
}

/** Removes the files written and then the folders made (innermost first, only if empty); returns what could not be removed. */
async function takeBack(written: readonly string[], madeFolders: readonly string[]): Promise<string[]> {
  const left: string[] = [];
  for (const file of written) await unlink(file).catch(() => left.push(file));
  const folders = [...new Set(madeFolders)].sort((a, b) => b.length - a.length);
  for (const folder of folders) await rmdir(folder).catch(() => left.push(folder));
  return left;
}
