import 'reflect-metadata';

import { isHttpUrl, PartnerCredentials } from '@payments/contracts';
import { commandOptions, fail, runCommand } from '@payments/platform-bootstrap';
import { webhookUrlRefusal } from '@payments/platform-webhook-targets';

import { waitForOnboarding } from '../businesses/onboarding-wait';
import { Env } from '../config/env';
import { normalisedEmail } from '../dashboard/dashboard-auth.service';
import { dashboardSignUpLink } from '../dashboard/dashboard-links';
import { invitationLifetimeDays, MembersRepository } from '../dashboard/members.repository';
import { withGatewayServices } from './gateway-services';

const commandLine = {
  script: 'partner:create',
  options: {
    name: { type: 'string', value: '"Acme Ltd"', required: true },
    'webhook-url': { type: 'string', value: 'URL' },
    'owner-email': { type: 'string', value: 'EMAIL' },
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

  const ownerEmail = values['owner-email'] === undefined ? undefined : normalisedEmail(values['owner-email']);
  if (values['owner-email'] !== undefined && !ownerEmail) return fail('--owner-email must be an email address');

  await withGatewayServices(async ({ businesses, onboarding, members, env }) => {
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
    // An invitation that cannot be made must not take the credentials with it: they print regardless.
    const owner = ownerEmail ? await ownerInvitation(members, env, credentials.businessId, ownerEmail) : undefined;
    const ownerSignUpLink = owner && 'link' in owner ? owner.link : undefined;
    // Printed before the wait: whatever happens to it, the only copy of the secret is not lost.
    process.stdout.write(
      values.json
        ? `${JSON.stringify({ ...credentials, ...(ownerSignUpLink ? { ownerSignUpLink } : {}) })}\n`
        : describe(name, credentials, ownerSignUpLink),
    );
    if (owner && 'failure' in owner) {
      process.stderr.write(`The owner's invitation could not be made: ${owner.failure}\n`);
      process.exitCode = 1;
    }
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

/** The owner's one-time sign-up link, or why it could not be made. */
async function ownerInvitation(
  members: MembersRepository,
  env: Env,
  businessId: string,
  email: string,
): Promise<{ link: string } | { failure: string }> {
  try {
    const token = await members.invite({ businessId, email, role: 'owner', invitedBy: null });
    return { link: dashboardSignUpLink(env.CHECKOUT_URL, token) };
  } catch (error) {
    return { failure: (error as Error).message };
  }
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

function describe(name: string, credentials: PartnerCredentials, ownerSignUpLink: string | undefined): string {
  return [
    `Created business "${name}" (${credentials.businessId})`,
    `  x-api-key:          ${credentials.apiKey}`,
    `  x-api-secret:       ${credentials.apiSecret}`,
    `  POS encryption key: ${credentials.posEncryptionKey}`,
    `  webhook URL:        ${credentials.webhookUrl ?? '(none)'}`,
    ...(ownerSignUpLink
      ? [
          `  owner's sign-up:    ${ownerSignUpLink}`,
          `    (the dashboard link works once, for ${invitationLifetimeDays} days: send it to the owner only)`,
        ]
      : []),
    'The secret and the POS key are shown only now: store them safely.',
    '',
  ].join('\n');
}

void runCommand('partner:create', main);
