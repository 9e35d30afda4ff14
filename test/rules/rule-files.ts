// Writes rule files into a fresh temp directory for a test and removes it afterwards.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function withRuleDir<T>(files: Record<string, string>, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'hearsay-rules-'));
  try {
    for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
