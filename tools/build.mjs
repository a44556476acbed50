// Compiles apps and libs to dist/ (incremental), then copies the files apps serve as they are
// (every `public/` folder under apps/*/src, such as the hosted checkout page's script and styles).
//
//   node tools/build.mjs                      everything, type-checked (npm run build, npm test)
//   node tools/build.mjs --project <root>     one Nx project's own files, transpiled file by file
//                                             (the Nx `build` target: libs first, then each app;
//                                             the types of everything are checked by npm test)
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { project: { type: 'string' } } });

/** The files of a project that are built: sources, not tests or test helpers. */
const built = (path) =>
  path.endsWith('.ts') && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(path) && !/[\\/]testing[\\/]/.test(path);

function compileAll() {
  const compiled = spawnSync(join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (compiled.status !== 0) process.exit(compiled.status ?? 1);
}

/** Each file on its own, as ts-jest runs them: the project's output depends on its files alone. */
function transpileProject(projectRoot) {
  const ts = createRequire(import.meta.url)('typescript');
  const { config } = ts.readConfigFile(join(root, 'tsconfig.base.json'), ts.sys.readFile);
  const { options } = ts.convertCompilerOptionsFromJson(config.compilerOptions, root);
  for (const entry of readdirSync(join(root, projectRoot), { recursive: true, withFileTypes: true })) {
    const source = join(entry.parentPath, entry.name);
    if (!entry.isFile() || !built(source)) continue;
    const fileName = relative(root, source);
    const output = ts.transpileModule(readFileSync(source, 'utf8'), { compilerOptions: options, fileName });
    const target = join(root, 'dist', fileName.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, output.outputText);
    if (output.sourceMapText) writeFileSync(`${target}.map`, output.sourceMapText);
  }
}

function copyPublic(under) {
  for (const entry of readdirSync(join(root, under), { recursive: true, withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name !== 'public') continue;
    const source = join(entry.parentPath, entry.name);
    cpSync(source, join(root, 'dist', relative(root, source)), {
      recursive: true,
      filter: (path) => !path.endsWith('tsconfig.json'),
    });
  }
}

if (values.project) {
  transpileProject(values.project);
  copyPublic(values.project);
} else {
  compileAll();
  copyPublic('apps');
}
