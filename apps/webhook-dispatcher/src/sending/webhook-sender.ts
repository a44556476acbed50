import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { assertAllowedUrl, guardedLookup, hostOf, isPublicAddress } from '@payments/platform-webhook-targets';
import { Agent, request } from 'undici';

import { Env } from '../config/env';

export interface SendResult {
  statusCode: number | null;
  latencyMs: number;
  /** The first 1 KB of the answer; never kept from a private address. */
  responseBody: string | null;
  error: string | null;
  /** From Retry-After on 429 and 503. */
  retryAfterMs: number | null;
}

const excerptBytes = 1024;

/**
 * One HTTP POST per attempt, with a hard timeout, to public addresses only. Where a developer
 * allowed private addresses for sandbox businesses, those are reached too, but never link-local
 * or metadata ones, and nothing a private address answers is kept: the delivery log must not
 * become a way to read internal services.
 */
@Injectable()
export class WebhookSender implements OnApplicationShutdown {
  private readonly publicOnly = new Agent({
    connect: { lookup: guardedLookup(false), timeout: 5000 },
    keepAliveTimeout: 4000,
  });
  private readonly privateAllowed = new Agent({
    connect: { lookup: guardedLookup(true), timeout: 5000 },
    keepAliveTimeout: 4000,
  });

  constructor(private readonly env: Env) {}

  async send(url: string, body: string, headers: Record<string, string>, allowPrivate: boolean): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const target = assertAllowedUrl(url, allowPrivate);
      const keepBody = !allowPrivate || (await isPublicHost(hostOf(target)));
      const response = await request(url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'user-agent': 'payments-webhooks/1', ...headers },
        dispatcher: allowPrivate ? this.privateAllowed : this.publicOnly,
        headersTimeout: this.env.WEBHOOK_TIMEOUT_MS,
        bodyTimeout: this.env.WEBHOOK_TIMEOUT_MS,
        signal: AbortSignal.timeout(this.env.WEBHOOK_TIMEOUT_MS),
      });
      const responseBody = keepBody ? await readExcerpt(response.body) : await response.body.dump().then(() => null);
      return {
        statusCode: response.statusCode,
        latencyMs: elapsed(),
        responseBody,
        error: null,
        retryAfterMs: [429, 503].includes(response.statusCode)
          ? parseRetryAfter(response.headers['retry-after'])
          : null,
      };
    } catch (error) {
      return { statusCode: null, latencyMs: elapsed(), responseBody: null, error: describe(error), retryAfterMs: null };
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.publicOnly.close(), this.privateAllowed.close()]);
  }
}

/** True when every address of `host` is public (an unresolvable name counts as not public). */
async function isPublicHost(host: string): Promise<boolean> {
  if (isIP(host)) return isPublicAddress(host);
  const addresses = await lookup(host, { all: true }).catch(() => []);
  return addresses.length > 0 && addresses.every((entry) => isPublicAddress(entry.address));
}

async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= excerptBytes) break;
  }
  body.destroy();
  return Buffer.concat(chunks).subarray(0, excerptBytes).toString('utf8');
}

/** Seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'HeadersTimeoutError' || error.name === 'AbortError') {
      return 'timed out';
    }
    const cause = (error as { cause?: Error }).cause;
    return cause?.message ?? error.message;
  }
  return String(error);
}
