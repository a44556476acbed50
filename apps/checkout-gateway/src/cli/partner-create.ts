import 'reflect-metadata';

import { isHttpUrl, PartnerCredentials } from '@payments/contracts';
import { commandOptions, fail, runCommand } from '@payments/platform-bootstrap';
import { webhookUrlRefusal } from '@payments/platform-webhook-targets';

import { withGatewayServices } from './gateway-services';

const commandLine = {
  script: 'partner:create',
  options: {
    name: { type: 'string', value: '"Acme Ltd"', required: true },
    'webhook-url': { type: 'string', value: 'URL' },
    live: { type: 'boolean' },
    json: { type: 'boolean' },
  },
} as const;

/**
 * Onboards a partner and prints its credentials once. With --json, stdout carries exactly one
 * JSON object and nothing else, so scripts can parse it; everything else goes to stderr.
 */
async function main(): Promise<void> {
  const values = commandOptions(commandLine);
  const name = values.name.trim();
  if (name.length > 200) return fail('--name cannot exceed 200 characters');
  const webhookUrl = values['webhook-url'] ?? null;
  if (webhookUrl !== null && !isHttpUrl(webhookUrl)) return fail('--webhook-url must be an http(s) URL');

  await withGatewayServices(async ({ businesses, env }) => {
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
    process.stdout.write(values.json ? `${JSON.stringify(credentials)}\n` : describe(name, credentials));
  });
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
