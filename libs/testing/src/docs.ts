import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { repoRoot } from './compose';

/** A path under docs/: tests hold what the published guides show to what the code does. */
export const docsPath = (...parts: string[]): string => resolve(repoRoot, 'docs', ...parts);

/** A file under docs/, as text. */
export const readDocs = (...parts: string[]): string => readFileSync(docsPath(...parts), 'utf8');

/** A JSON file under docs/, as the type the test takes it for. */
export const readDocsJson = <T>(...parts: string[]): T => JSON.parse(readDocs(...parts)) as T;
