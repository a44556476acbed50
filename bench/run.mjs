// The entry of every `npm run bench*` command: installs the dependencies first, as a fresh clone
// has none and the benches import them (autocannon, undici) at their top, then runs the named
// bench with the arguments after its name. This file imports only what Node and tools/lib.mjs
// bring, which are built in.
//
//   node bench/run.mjs <bench> [--option value …]     e.g. node bench/run.mjs pos --rounds 1
import { existsSync } from 'node:fs';

import { ensureDependencies } from '../tools/lib.mjs';

const [name] = process.argv.splice(2, 1);
const script = new URL(`./${name}.mjs`, import.meta.url);
if (!name || !existsSync(script)) {
  console.error(`usage: node bench/run.mjs <bench> [options]: no bench named ${name ?? '(none)'} in bench/`);
  process.exit(2);
}
ensureDependencies();
await import(script.href);
