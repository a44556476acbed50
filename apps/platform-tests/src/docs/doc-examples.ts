import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { parse } from 'shell-quote';

/** The pages a partner reads: every request example in them is run by docs-examples.e2e-spec. */
export const partnerPages = [
  'README.md',
  'docs/api.md',
  'docs/checkout.md',
  'docs/outlets.md',
  'docs/transactions.md',
  'docs/refunds.md',
  'docs/keys.md',
  'docs/webhooks.md',
  'docs/rate-limits.md',
  'docs/pricing.md',
  'docs/pos.md',
];

/** What a page shows a request answers: an envelope (JSON) or the first line of a CSV file. */
export type ShownAnswer = { json: unknown } | { csvHeader: string };

/** One `curl` command of a page, with the answer shown right after it, if any. */
export interface DocExample {
  page: string;
  /** The line the command starts on, for the failure message. */
  line: number;
  command: string;
  shown?: ShownAnswer;
}

interface Fence {
  language: string;
  body: string;
  /** The line of the opening fence, counted from 1. */
  line: number;
  /** The line of the closing fence. */
  end: number;
}

function fences(markdown: string): Fence[] {
  const lines = markdown.split('\n');
  const found: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const opening = /^```(\w*)\s*$/.exec(lines[i]);
    if (!opening) continue;
    const end = lines.findIndex((line, j) => j > i && line.startsWith('```'));
    if (end < 0) throw new Error(`unclosed code block at line ${i + 1}`);
    found.push({ language: opening[1], body: lines.slice(i + 1, end).join('\n'), line: i + 1, end: end + 1 });
    i = end;
  }
  return found;
}

/** Whether a single-quoted string is still open at the end of the text: the shell reads on. */
const quoteOpen = (text: string) => (text.match(/'/g) ?? []).length % 2 === 1;

/** Shell commands of a block, with continued lines (a backslash, or an open quote) joined; comments dropped. */
function commands(block: Fence): { command: string; line: number }[] {
  const result: { command: string; line: number }[] = [];
  let current: { command: string; line: number } | null = null;
  block.body.split('\n').forEach((text, index) => {
    const line = block.line + 1 + index;
    if (!current && (text.trim() === '' || text.trim().startsWith('#'))) return;
    const continued = text.endsWith('\\');
    const part = continued ? text.slice(0, -1) : text;
    current = current ? { ...current, command: `${current.command} ${part.trim()}` } : { command: part.trim(), line };
    if (!continued && !quoteOpen(current.command)) {
      result.push(current);
      current = null;
    }
  });
  return result;
}

/** Every curl command of a page, in any code block: each must be an example the docs test runs. */
export function curlCommandsOf(markdown: string): string[] {
  return fences(markdown)
    .flatMap(commands)
    .map(({ command }) => command)
    .filter((command) => /^curl\s/.test(command));
}

const isRequestToPlatform = (command: string) => /^curl\s.*http:\/\/127\.0\.0\.1:300[02]\//.test(command);

/**
 * Every curl command to the platform in a page, in order. The answer shown is the JSON (or CSV)
 * block that follows a block of one command with nothing but blank lines or one short line of
 * prose between them.
 */
export function examplesOf(page: string, markdown: string): DocExample[] {
  const blocks = fences(markdown);
  const lines = markdown.split('\n');
  const examples: DocExample[] = [];
  blocks.forEach((block, index) => {
    if (!['bash', 'sh'].includes(block.language)) return;
    const requests = commands(block).filter(({ command }) => isRequestToPlatform(command));
    if (requests.length === 0) return;
    const next = blocks[index + 1];
    const between = next ? lines.slice(block.end, next.line - 1).filter((line) => line.trim() !== '') : [];
    const shownAfter = next && between.length <= 1 && ['json', 'csv'].includes(next.language) && requests.length === 1;
    for (const request of requests) {
      examples.push({
        page,
        line: request.line,
        command: request.command,
        shown: shownAfter ? shown(next) : undefined,
      });
    }
  });
  return examples;
}

function shown(block: Fence): ShownAnswer {
  if (block.language === 'csv') return { csvHeader: block.body.split('\n')[0] };
  try {
    return { json: JSON.parse(block.body) };
  } catch (error) {
    throw new Error(`the JSON at line ${block.line} does not parse: ${(error as Error).message}`);
  }
}

/**
 * Blocks of JSON that show a whole answer (an envelope) with no request before them: an answer
 * a reader cannot reproduce. Returned as the lines they start on.
 */
export function answersWithoutRequest(markdown: string): number[] {
  const blocks = fences(markdown);
  const lines = markdown.split('\n');
  return blocks
    .filter((block, index) => {
      if (block.language !== 'json' || !/"statusCode"/.test(block.body)) return false;
      const before = blocks[index - 1];
      const between = before ? lines.slice(before.end, block.line - 1).filter((line) => line.trim() !== '') : [];
      return !(before && ['bash', 'sh'].includes(before.language) && between.length <= 1);
    })
    .map((block) => block.line);
}

export const readPage = (root: string, page: string) => readFileSync(join(root, page), 'utf8');

/** A curl command as fetch needs it. */
export interface CurlRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** `-i`: the command shows the headers, and `| grep -i PATTERN` keeps those that match. */
  headerPattern?: RegExp;
  /** `-o FILE`: the answer is a file. */
  toFile: boolean;
}

/** Reads the curl options the pages use; any other option fails the test, so a page cannot use one unchecked. */
export function parseCurl(command: string): CurlRequest {
  const words = parse(command);
  const request: CurlRequest = { method: '', url: '', headers: {}, toFile: false };
  let showsHeaders = false;
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    if (typeof word === 'object') {
      if ('op' in word && word.op === '|') {
        const [grep, ...options] = words.slice(i + 1) as string[];
        const pattern = options.filter((option) => !option.startsWith('-'))[0];
        if (grep !== 'grep' || !pattern) throw new Error(`unexpected pipe in: ${command}`);
        request.headerPattern = new RegExp(pattern, options.includes('-i') ? 'i' : '');
        break;
      }
      throw new Error(`unexpected shell syntax in: ${command}`);
    }
    if (word === '-s') continue;
    if (word === '-si' || word === '-i') showsHeaders = true;
    else if (word === '-X') request.method = String(words[++i]);
    else if (word === '-H') {
      const header = String(words[++i]);
      const colon = header.indexOf(':');
      request.headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    } else if (word === '-d' || word === '--data') request.body = String(words[++i]);
    else if (word === '-o') {
      request.toFile = true;
      i++;
    } else if (/^https?:\/\//.test(word)) request.url = word;
    else throw new Error(`unexpected curl option ${word} in: ${command}`);
  }
  if (request.headerPattern && !showsHeaders) throw new Error(`grep without -i in: ${command}`);
  request.method ||= request.body === undefined ? 'GET' : 'POST';
  return request;
}
