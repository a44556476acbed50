// Commit messages a reviewer can scan: each commit since .ci/commits-checked-since has a subject
// of at most 72 characters and the reason in a body. Prints `N passed, N failed` over them.
//   node tools/commit-messages.mjs
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { root } from './lib.mjs';

const since = readFileSync(join(root, '.ci/commits-checked-since'), 'utf8').trim();
const git = (args) => spawnSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const logged = git(['log', '--no-merges', '--format=%h%x1f%s%x1f%b%x1e', `${since}..HEAD`]);
if (logged.status !== 0) {
  console.error(`git log ${since}..HEAD failed: ${logged.stderr.trim()}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const commits = logged.stdout
  .split('\x1e')
  .map((record) => record.trim())
  .filter(Boolean)
  .map((record) => {
    const [hash, subject, body = ''] = record.split('\x1f');
    return { hash, subject, body: body.trim() };
  });
let failed = 0;
for (const { hash, subject, body } of commits) {
  const problems = [
    subject.length > 72 && `its subject has ${subject.length} characters (72 at most)`,
    body === '' && 'it has no body saying why',
  ].filter(Boolean);
  if (problems.length === 0) continue;
  failed += 1;
  console.log(`${hash} "${subject}": ${problems.join('; ')}`);
}
console.log(`${commits.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
