import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { contractsCatalogue, repoRoot } from '@payments/testing';

const file = join(repoRoot, 'docs/architecture.md');
const [start, end] = ['<!-- catalogue:start (npm run docs:catalogue) -->', '<!-- catalogue:end -->'];

/** docs/architecture.md's command and event catalogue is libs/contracts as it is. */
describe('docs/architecture.md', () => {
  it('carries the catalogue of libs/contracts as it is (npm run docs:catalogue rewrites it)', () => {
    const text = readFileSync(file, 'utf8');
    const [before, rest] = text.split(start);
    expect(rest).toBeDefined();
    const after = rest.slice(rest.indexOf(end));
    // As Prettier lays it out, which npm test checks for every file (its CLI: Jest cannot load its ES modules).
    const current = execFileSync(join(repoRoot, 'node_modules/.bin/prettier'), ['--stdin-filepath', file], {
      input: `${before}${start}\n\n${contractsCatalogue()}\n${after}`,
      encoding: 'utf8',
    });
    if (process.env.CATALOGUE_UPDATE === '1') writeFileSync(file, current);
    else expect(text).toBe(current);
  });
});
