import 'reflect-metadata';

import { isHttpUrl, PartnerCredentials } from '@payments/contracts';
import { commandOptions, fail, runCommand } from '@payments/platform-bootstrap';
import { webhookUrlRefusal } from '@payments/platform-webhook-targets';

import { waitForOnboarding } from '../businesses/onboarding-wait';
import { withGatewayServices } from './gateway-services';

const commandLine = {
  script: 'partner:create',
  options: {
    name: { type: 'string', value: '"Acme Ltd"', required: true },
    'webhook-url': { type: 'string', value: 'URL' },
    live: { type: 'boolean' },
    json: { type: 'boolean' },
    'wait-seconds': { type: 'string', value: 'SECONDS', default: '60' },
  },
  notes:
    'Returns once every service knows the business (at most --wait-seconds, 0 not to wait); a running checkout-gateway publishes the onboarding.',
} as const;

const longestWaitSeconds = 3600;

/**
 * Onboards a partner and prints its credentials once. With --json, stdout carries exactly one
 * JSON object and nothing else, so scripts can parse it; everything else goes to stderr.
 * It returns once every service has confirmed it knows the business, so the partner's first
 * requests are served; if they have not within --wait-seconds, the command says what is missing
 * and exits 1 (the credentials, printed before the wait, are the business's all the same).
 */
async function main(): Promise<void> {
  const values = commandOptions(commandLine);
  const name = values.name.trim();
  if (name.length > 200) return fail('--name cannot exceed 200 characters');
  const webhookUrl = values['webhook-url'] ?? null;
  if (webhookUrl !== null && !isHttpUrl(webhookUrl)) return fail('--webhook-url must be an http(s) URL');
  const waitSeconds = Number(values['wait-seconds']);
  if (!/^\d+$/.test(values['wait-seconds']) || waitSeconds > longestWaitSeconds) {
    return fail(`--wait-seconds must be a whole number from 0 to ${longestWaitSeconds}`);
  }

  await withGatewayServices(async ({ businesses, onboarding, env }) => {
    // Refused now, as PUT /webhooks/endpoint would, rather than by every delivery for days.
    const refusal =
      webhookUrl &&
      (await webhookUrlRefusal(webhookUrl, {
        live: Boolean(values.live),
        allowPrivate: env.WEBHOOK_SANDBOX_ALLOW_PRIVATE,
        check: 'resolved-if-it-can-be',
      }));
    if (refusal) return fail(`--webhook-url is not allowed (WEBHOOK_URL_NOT_ALLOWED): ${refusal}`);
    const credentials = await businesses.provision({ name, mode: values.live ? 'live' : 'test', webhookUrl });
    // Printed before the wait: whatever happens to it, the only copy of the secret is not lost.
    process.stdout.write(values.json ? `${JSON.stringify(credentials)}\n` : describe(name, credentials));
    const pending = await waitForOnboarding(() => onboarding.awaits(credentials.businessId), waitSeconds * 1000);
    if (pending.length === 0) {
      process.stderr.write('Every service knows the business: its requests are served from now on.\n');
    } else if (waitSeconds === 0) {
      process.stderr.write(`Not waited for onboarding to reach ${pending.join(', ')}: ${untilThen}\n`);
    } else {
      process.stderr.write(notOnboarded(pending, waitSeconds));
      process.exitCode = 1;
    }
  });
}

const untilThen = 'until it has, requests that need them answer 503 SERVICE_UNAVAILABLE with Retry-After.';

/** What the operator does when onboarding has not reached every service in time. */
function notOnboarded(pending: string[], waitSeconds: number): string {
  return [
    `Onboarding has not reached ${pending.join(', ')} within ${waitSeconds} s; ${untilThen}`,
    'The business exists and the credentials printed above are its only copy: keep them, and do not run',
    `partner:create again. Check that checkout-gateway (it publishes the onboarding and records each service's`,
    `confirmation) and ${pending.join(', ')} are running and consuming business.events.v1 (docs/operations.md);`,
    'onboarding then completes by itself, with nothing to run again.',
    '',
  ].join('\n');
}

function describe(name: string, credentials: PartnerCredentials): string {
  return [
    `Created business "${name}" (${credentials.businessId})`,
    `  x-api-key:          ${credentials.apiKey}`,
    `  x-api-secret:       ${credentials.apiSecret}`,
    `  POS encryption key: ${credentials.posEncryptionKey}`,
    `  webhook URL:        ${credentials.webhookUrl ?? '(none)'}`,
    'The secret and the POS key are shown only now: store them safely.',
    '',
  ].join('\n');
}

void runCommand('partner:create', main);
