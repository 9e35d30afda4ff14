// schemas/tests.schema.json and the loader agree with the documentation: every test file shown in
// docs/testing.md and the README loads without a problem, and the shipped tests pass the schema alone (as
// editors use it).
import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { compileTestFile } from '../../src/conversation-tests/load-tests.js';
import { parseYaml } from '../../src/yaml/source.js';

const root = new URL('../..', import.meta.url).pathname;

async function yamlBlocks(file: string): Promise<string[]> {
  const text = await readFile(`${root}${file}`, 'utf8');
  return [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((block) => /^tests:/m.test(block));
}

describe('the test file format', () => {
  it('loads every test file the docs show', async () => {
    const blocks = [...(await yamlBlocks('docs/testing.md')), ...(await yamlBlocks('README.md'))];
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    for (const block of blocks) expect(compileTestFile(parseYaml('doc.yaml', block), 'rules/').problems.map((p) => p.format())).toEqual([]);
  });

  it('the schema alone accepts the shipped tests and refuses a misspelt key', async () => {
    const schema = JSON.parse(await readFile(`${root}schemas/tests.schema.json`, 'utf8'));
    const validate = new Ajv2020({ strict: true, strictRequired: false }).compile(schema);
    for (const file of ['demo.yaml', 'buttons.yaml']) expect(validate(parse(await readFile(`${root}tests/${file}`, 'utf8'))), file).toBe(true);
    expect(validate({ tests: [{ name: 'x', steps: [{ sya: 'hi' }] }] })).toBe(false);
  });
});
