// Lets the compiled apps resolve `@payments/*` imports: the tsconfig path aliases, pointed at
// the JavaScript that `npm run build` writes to dist/. Loaded with `node -r`.
const path = require('node:path');
const { register } = require('tsconfig-paths');
const { compilerOptions } = require('../../tsconfig.base.json');

const paths = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, targets]) => [
    alias,
    targets.map((target) => target.replace(/\.ts$/, '.js')),
  ]),
);
register({ baseUrl: path.resolve(__dirname, '../../dist'), paths });
