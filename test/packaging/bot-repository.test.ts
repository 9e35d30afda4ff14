// A bot's own repository: `npm pack` of hearsay makes a package that installs and runs from the tarball in an
// empty folder; a project made by `hearsay init` with that tarball in vendor/ installs it and passes its own
// `npm test` (check --strict and test --junit, what its CI workflow runs); and its Dockerfile's build steps,
// run here without Docker (no Docker daemon on the test machines), make the single executable whose entry
// command (`hearsay run`, in a folder laid out as the image's /bot) answers a bot in the sandbox.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XMLValidator } from 'fast-xml-parser';
import { EXECUTABLE_BUILD_STEPS } from '../../src/scaffold/repository-files.js';
import { HEARSAY_BIN } from '../support/cli.js';
import { createBotViaAssistant, sendAsUser, startSandbox, waitForBotReplies, type StartedSandbox } from '../support/sandbox-harness.js';
import { startRun } from '../e2e/run-process.js';

const root = new URL('../..', import.meta.url).pathname;
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
let dir: string;
let tarball: string;

/**
 * The environment of a user's shell: without the npm_* variables of the `npm test` running this suite (its
 * local prefix would point npm and npx at this repository), taking packages from npm's cache where it can
 * (the suite's own `npm ci` filled it), and without node_modules/.bin of this repository on the PATH.
 */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!/^npm_/i.test(name) && name !== 'NODE' && name !== 'NODE_ENV') env[name] = value;
  env.PATH = (process.env.PATH ?? '')
    .split(':')
    .filter((folder) => !folder.includes('node_modules'))
    .join(':');
  return { ...env, npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
}

/** npm as a user runs it in `cwd`. */
function npm(args: string[], cwd: string): { status: number | null; output: string } {
  const result = spawnSync('npm', args, { cwd, env: userEnv(), encoding: 'utf8', timeout: 240_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hearsay-repository-'));
  // dist/ is built by the suite's `npm run build`; --ignore-scripts keeps `prepare` from building it again.
  const packed = npm(['pack', '--ignore-scripts', '--pack-destination', dir], root);
  expect(packed.status, packed.output).toBe(0);
  tarball = join(dir, `hearsay-${version}.tgz`);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }), 120_000);

describe('npm pack of hearsay', () => {
  it('installs from the tarball in an empty folder, and npx hearsay --version runs', () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const installed = npm(['install', tarball], empty);
    expect(installed.status, installed.output).toBe(0);
    const npx = spawnSync('npx', ['--no-install', 'hearsay', '--version'], { cwd: empty, env: userEnv(), encoding: 'utf8' });
    expect(npx.stdout.trim()).toBe(version);
    expect(npx.status).toBe(0);
    // The licence package.json names comes with the package.
    expect(readFileSync(join(empty, 'node_modules', 'hearsay', 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
  }, 240_000);
});

describe('a project made by hearsay init', () => {
  let project: string;
  beforeAll(() => {
    const made = spawnSync(process.execPath, [HEARSAY_BIN, 'init', 'shop-bot'], { cwd: dir, encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    project = join(dir, 'shop-bot');
    copyFileSync(tarball, join(project, 'vendor', `hearsay-${version}.tgz`));
  }, 60_000);

  it('installs the pinned hearsay and passes its own npm test: check --strict, then the tests with JUnit XML', () => {
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(manifest.dependencies.hearsay).toBe(`file:vendor/hearsay-${version}.tgz`);
    expect(manifest.scripts.test).toBe('hearsay check --strict rules/ && hearsay test --junit test-results.xml');
    expect(readFileSync(join(project, '.github', 'workflows', 'bot.yml'), 'utf8')).toMatch(/- run: npm test/);

    const installed = npm(['install'], project);
    expect(installed.status, installed.output).toBe(0);
    const tested = npm(['test'], project);
    expect(tested.output).toMatch(/1 file, 5 rules, 0 problems/);
    expect(tested.output).toMatch(/1 file, 3 tests, 6 steps, 0 failed/);
    expect(tested.status).toBe(0);
    expect(XMLValidator.validate(readFileSync(join(project, 'test-results.xml'), 'utf8'))).toBe(true);
  }, 300_000);

  it("builds the single executable with the Dockerfile's steps, and the image's entry command answers with the mounted rules", async () => {
    const dockerfile = readFileSync(join(project, 'Dockerfile'), 'utf8');
    // The build stage, as Docker runs it: its WORKDIR holds the project (COPY . .), then each RUN in turn.
    const runs = [...dockerfile.matchAll(/^RUN ((?:.*\\\n)*.*)$/gm)].map((m) => m[1]!.replace(/\\\n/g, ''));
    const buildRuns = runs.slice(0, -1);
    expect(buildRuns.join(' && ').replace(/\s+/g, ' ')).toBe(EXECUTABLE_BUILD_STEPS.join(' && ').replace(/\s+/g, ' '));
    const build = join(dir, 'build');
    cpSync(project, build, { recursive: true, filter: (source) => !source.includes('node_modules') });
    for (const step of buildRuns) {
      const ran = spawnSync('sh', ['-c', step], { cwd: build, encoding: 'utf8', timeout: 240_000, env: userEnv() });
      expect(ran.status, `${step}\n${ran.stdout}${ran.stderr}`).toBe(0);
    }
    expect(dockerfile).toMatch(/^COPY --from=build \/build\/hearsay \/usr\/local\/bin\/hearsay$/m);

    // The image's /bot: hearsay.yaml and the rules (mounted), the executable on its own; ENTRYPOINT + CMD run there.
    const image = join(dir, 'image');
    mkdirSync(join(image, 'bot'), { recursive: true });
    copyFileSync(join(build, 'hearsay'), join(image, 'hearsay'));
    execFileSync('chmod', ['+x', join(image, 'hearsay')]);
    copyFileSync(join(project, 'hearsay.yaml'), join(image, 'bot', 'hearsay.yaml'));
    cpSync(join(project, 'rules'), join(image, 'bot', 'rules'), { recursive: true });
    const entrypoint = JSON.parse(/^ENTRYPOINT (.*)$/m.exec(dockerfile)![1]!) as string[];
    const cmd = JSON.parse(/^CMD (.*)$/m.exec(dockerfile)![1]!) as string[];
    expect(entrypoint).toEqual(['hearsay']);
    expect(cmd).toEqual(['run']);
    expect(readdirSync(join(image, 'bot')).sort()).toEqual(['hearsay.yaml', 'rules']);

    const sandbox: StartedSandbox = await startSandbox();
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 7100, name: 'Shop', username: 'shop_image_bot' });
    // The image's environment (ENV NAME=VALUE ...), then the container's own (-e BOT_TOKEN).
    const imageEnv = Object.fromEntries(
      [...dockerfile.matchAll(/^ENV (.*)$/gm)].flatMap((m) => m[1]!.split(/\s+/).map((pair) => pair.split('=', 2) as [string, string])),
    );
    expect(imageEnv).toEqual({ MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' });
    // startRun runs `<executable> run`: the entry command with its CMD.
    const run = startRun({
      executable: join(image, 'hearsay'),
      cwd: join(image, 'bot'),
      env: { ...imageEnv, BOT_TOKEN: bot.token, BASE_URL: sandbox.baseUrl },
    });
    try {
      await run.waitForLine(/hearsay is running/, 20_000);
      const sent = await sendAsUser(sandbox.baseUrl, { id: 7101, first_name: 'Ida' }, bot.username, '/start');
      const [reply] = await waitForBotReplies(sandbox.baseUrl, { userId: 7101, bot: bot.username, after: sent.message_id });
      expect(reply?.text).toBe('Hello, Ida! I am a brand-new bot. Try /help.');
    } finally {
      await run.stop();
      await sandbox.close();
    }
  }, 300_000);
});
