import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { commandContracts, eventContracts, TopicKey, Topics, topicUsage } from '@payments/contracts';
import { getMetadataStorage } from 'class-validator';

import { repoRoot } from './compose';

const contractsSource = resolve(repoRoot, 'libs/contracts/src');

const sourcesIn = (folder: string) =>
  readdirSync(join(contractsSource, folder))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.spec.ts'))
    .map((name) => readFileSync(join(contractsSource, folder, name), 'utf8'));

/** A doc comment's text on one line, safe inside a Markdown table cell. */
function oneLine(comment: string): string {
  return comment
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, '').trim())
    .join(' ')
    .replace(/\s+/g, ' ')
    .replaceAll('|', '\\|')
    .trim();
}

/** The doc comment right above `declaration` in `source`, or '' when it has none. */
function docAbove(sources: string[], declaration: RegExp): string {
  for (const source of sources) {
    const match = new RegExp(`/\\*\\*((?:(?!\\*/)[\\s\\S])*)\\*/\\s*${declaration.source}`).exec(source);
    if (match) return oneLine(match[1]);
  }
  return '';
}

/** The fields a message contract validates, in declaration order (its class-validator metadata). */
function fieldsOf(contract: new () => object): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(contract, '', true, false);
  return [...new Set(metadata.map(({ propertyName }) => propertyName))];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const apps = Object.keys(topicUsage) as (keyof typeof topicUsage)[];
const appsThat = (use: 'consumes' | 'produces', topic: TopicKey) =>
  apps.filter((app) => (topicUsage[app][use] as readonly TopicKey[]).includes(topic)).join(', ');

/**
 * The command and event catalogue of docs/architecture.md, from libs/contracts as it is: every
 * topic with who writes and reads it and every event type, with the doc comment their
 * declarations carry, and every command by its topic with the fields its contract validates.
 */
export function contractsCatalogue(): string {
  const topicsSource = [readFileSync(join(contractsSource, 'topics.ts'), 'utf8')];
  const lines = [
    '### Topics',
    '',
    '| topic | partitions | written by | read by | carries |',
    '| ----- | ---------- | ---------- | ------- | ------- |',
    ...(Object.keys(Topics) as TopicKey[]).map((key) => {
      const { name, partitions } = Topics[key];
      const carries = docAbove(topicsSource, new RegExp(`${key}: \\{`));
      return `| \`${name}\` | ${partitions} | ${appsThat('produces', key)} | ${appsThat('consumes', key)} | ${carries} |`;
    }),
    '',
    '### Events',
    '',
    '| type | what it says |',
    '| ---- | ------------ |',
    ...Object.keys(eventContracts)
      .sort()
      .map((type) => {
        const says = docAbove(sourcesIn('events'), new RegExp(`export const \\w+ = '${escape(type)}';`));
        return `| \`${type}\` | ${says} |`;
      }),
    '',
    '### Commands',
    '',
    'Each is a request on its topic, answered on `command.replies.v1`.',
    '',
    '| topic | command | contract | fields |',
    '| ----- | ------- | -------- | ------ |',
    ...Object.entries(commandContracts).flatMap(([topic, contracts]) =>
      Object.entries(contracts).map(
        ([type, contract]) =>
          `| \`${topic}\` | \`${type}\` | \`${contract.name}\` | ${fieldsOf(contract)
            .map((field) => `\`${field}\``)
            .join(', ')} |`,
      ),
    ),
  ];
  return `${lines.join('\n')}\n`;
}
