import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Agent, request } from 'undici';
import { Env } from '../config/env';
import { assertAllowedUrl, guardedLookup } from './target-guard';

export interface SendResult {
  statusCode: number | null;
  latencyMs: number;
  /** The first 1 KB of the answer. */
  responseBody: string | null;
  error: string | null;
  /** From Retry-After on 429 and 503. */
  retryAfterMs: number | null;
}

const excerptBytes = 1024;

/** One HTTP POST per attempt, with a hard timeout, to public addresses only (unless sandbox allows). */
@Injectable()
export class WebhookSender implements OnApplicationShutdown {
  private readonly publicOnly = new Agent({ connect: { lookup: guardedLookup(false), timeout: 5000 }, keepAliveTimeout: 4000 });
  private readonly anyAddress = new Agent({ connect: { timeout: 5000 }, keepAliveTimeout: 4000 });

  constructor(private readonly env: Env) {}

  async send(url: string, body: string, headers: Record<string, string>, allowPrivate: boolean): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      assertAllowedUrl(url, allowPrivate);
      const response = await request(url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'user-agent': 'payments-webhooks/1', ...headers },
        dispatcher: allowPrivate ? this.anyAddress : this.publicOnly,
        headersTimeout: this.env.WEBHOOK_TIMEOUT_MS,
        bodyTimeout: this.env.WEBHOOK_TIMEOUT_MS,
        signal: AbortSignal.timeout(this.env.WEBHOOK_TIMEOUT_MS),
      });
      const responseBody = await readExcerpt(response.body);
      return {
        statusCode: response.statusCode,
        latencyMs: elapsed(),
        responseBody,
        error: null,
        retryAfterMs: [429, 503].includes(response.statusCode) ? parseRetryAfter(response.headers['retry-after']) : null,
      };
    } catch (error) {
      return { statusCode: null, latencyMs: elapsed(), responseBody: null, error: describe(error), retryAfterMs: null };
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.publicOnly.close(), this.anyAddress.close()]);
  }
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
    if (error.name === 'TimeoutError' || error.name === 'HeadersTimeoutError' || error.name === 'AbortError') return 'timed out';
    const cause = (error as { cause?: Error }).cause;
    return cause?.message ?? error.message;
  }
  return String(error);
}
