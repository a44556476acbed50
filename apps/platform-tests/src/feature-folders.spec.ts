import { join } from 'node:path';

import { folderImports, importCycle, repoRoot } from '@payments/testing';

describe('importCycle', () => {
  const graph = (edges: Record<string, string[]>) =>
    new Map(Object.entries(edges).map(([from, to]) => [from, new Set(to)]));

  it('finds a loop however deep it runs', () => {
    expect(importCycle(graph({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] }))).toEqual(['a', 'b', 'c', 'a']);
  });

  it('finds none in a layered graph', () => {
    expect(importCycle(graph({ a: ['b', 'c'], b: ['c'], c: [], d: ['a', 'c'] }))).toBeNull();
  });
});

describe("outlet-service's feature folders", () => {
  const graph = folderImports(join(repoRoot, 'apps/outlet-service/src'));

  it('import one another without a loop', () => {
    expect(graph.get('refunds')?.size).toBeGreaterThan(0);
    expect(importCycle(graph)).toBeNull();
  });

  it('build on a money core that imports no feature', () => {
    expect([...(graph.get('money') ?? [])]).toEqual([]);
    for (const feature of ['checkouts', 'transfers', 'refunds', 'pos', 'sweeps', 'outlets', 'funding']) {
      expect([feature, graph.get(feature)?.has('money')]).toEqual([feature, true]);
    }
  });
});
