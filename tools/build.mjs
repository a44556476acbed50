// Compiles apps and libs to dist/ (incremental), then copies the files apps serve as they are
// (every `public/` folder under apps/*/src, such as the hosted checkout page's script and styles).
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const compiled = spawnSync(join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
});
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

for (const entry of readdirSync(join(root, 'apps'), { recursive: true, withFileTypes: true })) {
  if (!entry.isDirectory() || entry.name !== 'public') continue;
  const source = join(entry.parentPath, entry.name);
  cpSync(source, join(root, 'dist', relative(root, source)), {
    recursive: true,
    filter: (path) => !path.endsWith('tsconfig.json'),
  });
}
