import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { HEARSAY_BIN } from '../support/cli.js';

const cli = HEARSAY_BIN;
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('hearsay CLI', () => {
  it('prints the package version', () => {
    expect(execFileSync('node', [cli, '--version'], { encoding: 'utf8' }).trim()).toBe(pkg.version);
  });

  it('rejects an unknown command with exit code 2 and says so', () => {
    const result = spawnSync('node', [cli, 'frobnicate'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("unknown command 'frobnicate'");
    expect(result.stderr).toContain("(run 'hearsay --help' for usage)");
  });

  it('rejects an unknown flag with exit code 2, suggests the right one and names the help to read', () => {
    const result = spawnSync('node', [cli, 'run', '--mod', 'webhook'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("unknown option '--mod'");
    expect(result.stderr).toContain('Did you mean --mode?');
    expect(result.stderr).toContain("(run 'hearsay run --help' for usage)");
  });
});
