import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { HEARSAY_BIN } from '../support/cli.js';
import { buildProgram } from '../../src/cli/main-program.js';
import type { Command } from 'commander';

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

  it('--help lists every command and every flag of every command, as README says', () => {
    const help = execFileSync('node', [cli, '--help'], { encoding: 'utf8' });
    const commands: Array<[string, Command]> = [];
    const visit = (command: Command, prefix: string) => {
      if (command.commands.length === 0) commands.push([`${prefix}${command.name()}`, command]);
      for (const sub of command.commands) visit(sub, `${prefix}${command.name()} `);
    };
    for (const command of buildProgram().commands) visit(command, '');
    expect(commands.length).toBeGreaterThanOrEqual(9);
    for (const [name, command] of commands) {
      expect(help, name).toMatch(new RegExp(`^  ${name} `, 'm'));
      for (const option of command.options) if (option.long !== '--help') expect(help, `${name} ${option.long}`).toContain(option.long);
    }
  });

  it("each command's --help says only what is true of it: state show does not describe forget", () => {
    const show = execFileSync('node', [cli, 'state', 'show', '--help'], { encoding: 'utf8' });
    expect(show).toContain("print a user's variables and unfinished flows as JSON");
    expect(show).toContain('nothing is changed');
    expect(show).not.toMatch(/kept|delete|forget/);
    const forget = execFileSync('node', [cli, 'state', 'forget', '--help'], { encoding: 'utf8' });
    expect(forget).toContain('Chat variables belong to the chat and are kept');
  });
});
