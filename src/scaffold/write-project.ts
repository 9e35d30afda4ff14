// Writes a new bot project (`hearsay init`): every file or none. Existing files are never overwritten, so
// running init twice, or in a folder that already holds rules, loses nothing.
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
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

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** Writes the project into `target` (created if missing); `hearsay` is how the README says to start hearsay. */
export async function writeProject(target: string, hearsay: string): Promise<WrittenProject> {
  const dir = resolve(target);
  if ((await exists(dir)) && !(await stat(dir)).isDirectory()) throw new ScaffoldError(`${target} exists and is not a folder`);
  const files = projectFiles(basename(dir), hearsay);
  const taken: string[] = [];
  for (const relative of files.keys()) if (await exists(join(dir, relative))) taken.push(relative);
  if (taken.length > 0) {
    throw new ScaffoldError(
      `${taken.map((file) => join(target, file)).join(', ')} already exist${taken.length === 1 ? 's' : ''}; nothing was written (choose another folder)`,
    );
  }
  try {
    for (const [relative, content] of files) {
      await mkdir(dirname(join(dir, relative)), { recursive: true });
      await writeFile(join(dir, relative), content, { flag: 'wx' });
    }
  } catch (error) {
    throw new ScaffoldError(`cannot write into ${target}: ${(error as Error).message}`, { cause: error });
  }
  return { dir, files: [...files.keys()] };
}
