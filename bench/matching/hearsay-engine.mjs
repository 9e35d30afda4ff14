// Loads hearsay's rule loader and matchers from dist/ (run `npm run build` first),
// with a clear message when they are not there or their names changed.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../contestants/registry.mjs';

async function importDist(relative, names) {
  const file = path.join(REPO_ROOT, 'dist', relative);
  let module;
  try {
    module = await import(pathToFileURL(file).href);
  } catch (error) {
    throw new Error(`cannot load ${path.relative(REPO_ROOT, file)} (run npm run build first): ${error instanceof Error ? error.message : error}`);
  }
  for (const name of names) {
    if (typeof module[name] !== 'function') throw new Error(`${path.relative(REPO_ROOT, file)} does not export ${name}()`);
  }
  return module;
}

export async function loadHearsayEngine() {
  const { loadRuleSet } = await importDist('rules/load.js', ['loadRuleSet']);
  const { matchMessage } = await importDist('engine/match.js', ['matchMessage']);
  const { matchLinear } = await importDist('engine/linear-scan.js', ['matchLinear']);
  return { loadRuleSet, matchMessage, matchLinear };
}
