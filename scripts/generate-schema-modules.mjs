// Turns each schemas/<name>.schema.json into src/generated/<name>-schema.ts: the schema as a value
// (so the code and a single-file build need no JSON import at run time) and its TypeScript types,
// so the schema stays the single source of truth for the format.
import { readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile } from 'json-schema-to-typescript';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const schemaDir = join(root, 'schemas');
const outDir = join(root, 'src', 'generated');
mkdirSync(outDir, { recursive: true });

/** Per schema: the webhook's body check stops at the first error (the 400 names one problem) and needs no data in it. */
const VALIDATOR_OPTIONS = { 'webhook-update': { allErrors: false, verbose: false } };

const camel = (s) => s.replace(/[-_.](\w)/g, (_, c) => c.toUpperCase());

for (const file of readdirSync(schemaDir)
  .filter((f) => f.endsWith('.schema.json'))
  .sort()) {
  const name = file.replace(/\.schema\.json$/, '');
  const schema = JSON.parse(readFileSync(join(schemaDir, file), 'utf8'));
  const types = await compile(structuredClone(schema), schema.title ?? name, {
    bannerComment: '',
    additionalProperties: false,
    strictIndexSignatures: true,
    format: true,
    cwd: schemaDir,
  });
  const out =
    `// Generated from schemas/${file} by scripts/generate-schema-modules.mjs; do not edit.\n` +
    `// Edit the schema and run \`npm run build\`.\n\n` +
    `export const ${camel(name)}Schema = ${JSON.stringify(schema, null, 2)} as const;\n\n` +
    types;
  const target = join(outDir, `${name}-schema.ts`);
  let previous = '';
  try {
    previous = readFileSync(target, 'utf8');
  } catch {
    // Not generated yet: write it.
  }
  if (previous !== out) writeFileSync(target, out);
  writeIfChanged(join(outDir, `${name}-validator.ts`), validatorModule(name, file, schema));
}

/**
 * The schema's validator as generated code (Ajv's standalone output, the way Fastify ships its validators):
 * compiling the rules and config schemas took 150-400 ms of every start; loading the generated code takes a few.
 * Same options as the messages expect (all errors, verbose, so `parentSchema` and `data` are there).
 */
function validatorModule(name, file, schema) {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    strictRequired: false,
    verbose: true,
    ...VALIDATOR_OPTIONS[name],
    code: { source: true, esm: true },
  });
  let code = standaloneCode.default(ajv, ajv.compile(schema));
  // Ajv's ESM output still require()s its small runtime helpers: import them instead.
  const imports = new Map();
  code = code.replace(/require\("([^"]+)"\)/g, (_, module) => {
    if (!imports.has(module)) imports.set(module, `runtime${imports.size}`);
    return `runtimeModule(${imports.get(module)})`;
  });
  return (
    `// Generated from schemas/${file} by scripts/generate-schema-modules.mjs (Ajv standalone code); do not edit.\n` +
    `// @ts-nocheck -- generated JavaScript; typed by the export below.\n` +
    [...imports].map(([module, local]) => `import ${local} from '${module}.js';\n`).join('') +
    // A CommonJS module's default import is its exports object under Node, but its default export under some
    // bundlers: either way, what the code reads is `.default`.
    `const runtimeModule = (m) => (typeof m === 'function' ? { default: m } : m);\n` +
    code
      .replace(/^"use strict";/, '')
      .replace(/export default \w+;/, '')
      .replace('export const validate = ', "export const validate: import('ajv/dist/2020.js').ValidateFunction = ") +
    `\n`
  );
}

function writeIfChanged(target, content) {
  let previous = '';
  try {
    previous = readFileSync(target, 'utf8');
  } catch {
    // Not generated yet: write it.
  }
  if (previous !== content) writeFileSync(target, content);
}

// The version shown by `hearsay --version`, taken from package.json at build time.
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const versionModule = `// Generated from package.json by scripts/generate-schema-modules.mjs; do not edit.\nexport const VERSION = ${JSON.stringify(version)};\n`;
const versionTarget = join(outDir, 'version.ts');
let previousVersion = '';
try {
  previousVersion = readFileSync(versionTarget, 'utf8');
} catch {
  // Not generated yet: write it.
}
if (previousVersion !== versionModule) writeFileSync(versionTarget, versionModule);

// The web chat page's static files as strings, so the sandbox serves them from the code itself and a
// single-file bundle needs no files beside it. The real files stay in src/sandbox/web/public/.
const webDir = join(root, 'src', 'sandbox', 'web', 'public');
const webFiles = [
  'index.html',
  'app.css',
  'app.js',
  'chat-view.js',
  'forum-view.js',
  'media-view.js',
  'chat-controls.js',
  'identity.js',
  'people.js',
  'group-admins.js',
  'render-text.js',
];
const webModule =
  `// Generated from src/sandbox/web/public/ by scripts/generate-schema-modules.mjs; do not edit.\n` +
  `// Edit the files there and run \`npm run build\`.\n\n` +
  `export type WebAssetName = ${webFiles.map((f) => JSON.stringify(f)).join(' | ')};\n\n` +
  `export const WEB_ASSETS: Readonly<Record<WebAssetName, string>> = {\n` +
  webFiles.map((f) => `  ${JSON.stringify(f)}: ${JSON.stringify(readFileSync(join(webDir, f), 'utf8'))},\n`).join('') +
  `};\n`;
const webTarget = join(outDir, 'web-assets.ts');
let previousWeb = '';
try {
  previousWeb = readFileSync(webTarget, 'utf8');
} catch {
  // Not generated yet: write it.
}
if (previousWeb !== webModule) writeFileSync(webTarget, webModule);

// The demo's rule files as strings, so `hearsay start` of the single executable has a bot to run where
// there is no rules/ folder (the real files stay in rules/).
const rulesDir = join(root, 'rules');
const ruleFiles = readdirSync(rulesDir)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort();
const demoMediaFiles = readdirSync(join(rulesDir, 'media')).sort();
const demoRulesModule =
  `// Generated from rules/ by scripts/generate-schema-modules.mjs; do not edit.\n` +
  `// Edit the files there and run \`npm run build\`.\n\n` +
  `export const DEMO_RULES: Readonly<Record<string, string>> = {\n` +
  ruleFiles.map((f) => `  ${JSON.stringify(f)}: ${JSON.stringify(readFileSync(join(rulesDir, f), 'utf8'))},\n`).join('') +
  `};\n\n` +
  `/** The files the demo's rules send (rules/media/), base64. */\n` +
  `export const DEMO_MEDIA: Readonly<Record<string, string>> = {\n` +
  demoMediaFiles.map((f) => `  ${JSON.stringify(f)}: ${JSON.stringify(readFileSync(join(rulesDir, 'media', f)).toString('base64'))},\n`).join('') +
  `};\n`;
const demoRulesTarget = join(outDir, 'demo-rules.ts');
let previousDemoRules = '';
try {
  previousDemoRules = readFileSync(demoRulesTarget, 'utf8');
} catch {
  // Not generated yet: write it.
}
if (previousDemoRules !== demoRulesModule) writeFileSync(demoRulesTarget, demoRulesModule);
