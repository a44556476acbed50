import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

import ts from 'typescript';

/** Each top-level folder of `sourceRoot` and the other folders its production files import. */
export function folderImports(sourceRoot: string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const folderOf = (file: string) => relative(sourceRoot, file).split(sep)[0];
  for (const file of productionFiles(sourceRoot)) {
    const from = folderOf(file);
    const imports = graph.get(from) ?? new Set<string>();
    graph.set(from, imports);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, false);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = folderOf(join(dirname(file), fileName));
      if (to !== from && !to.startsWith('..')) imports.add(to);
    }
  }
  return graph;
}

/** A chain of folders that leads back to its first one, or null when the graph has none. */
export function importCycle(graph: Map<string, Set<string>>): string[] | null {
  const finished = new Set<string>();
  const visit = (folder: string, path: string[]): string[] | null => {
    const seen = path.indexOf(folder);
    if (seen >= 0) return [...path.slice(seen), folder];
    if (finished.has(folder)) return null;
    for (const next of graph.get(folder) ?? []) {
      const cycle = visit(next, [...path, folder]);
      if (cycle) return cycle;
    }
    finished.add(folder);
    return null;
  };
  for (const folder of graph.keys()) {
    const cycle = visit(folder, []);
    if (cycle) return cycle;
  }
  return null;
}

/** TypeScript files that ship: tests and their helpers left out. */
function productionFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : productionFiles(path);
    return /\.ts$/.test(entry.name) && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(entry.name) ? [path] : [];
  });
}
