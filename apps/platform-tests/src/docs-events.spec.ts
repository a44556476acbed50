import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { PartnerEvents, subscribableEvents } from '@payments/contracts';

import { repoRoot } from './apps';

/** The events named in the first column of docs/webhooks.md's event table (`a` / `b` rows name several). */
function documentedEvents(): string[] {
  const page = readFileSync(join(repoRoot, 'docs/webhooks.md'), 'utf8');
  const section = page.split('\n## Events\n')[1].trimStart();
  const table = section.slice(0, section.indexOf('\n\n')).split('\n');
  return table.slice(2).flatMap((row) => [...row.split('|')[1].matchAll(/`([^`]+)`/g)].map((match) => match[1]));
}

describe('the webhook event table of docs/webhooks.md', () => {
  it('lists every event the platform sends, and no other', () => {
    expect(documentedEvents().sort()).toEqual(Object.values(PartnerEvents).sort());
  });

  it('lists exactly the events an endpoint filter may name', () => {
    expect(documentedEvents().sort()).toEqual([...subscribableEvents].sort());
  });
});
