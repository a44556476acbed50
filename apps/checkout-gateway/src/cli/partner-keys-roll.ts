import 'reflect-metadata';

import { maxKeyGraceHours, RolledKeysResponse } from '@payments/contracts';
import { commandOptions, fail, runCommand } from '@payments/platform-bootstrap';

import { defaultGraceHours } from '../businesses/business-keys.service';
import { withGatewayServices } from './gateway-services';

const commandLine = {
  script: 'partner:keys:roll',
  options: {
    business: { type: 'string', value: 'ID', required: true },
    'grace-hours': { type: 'string', value: `0..${maxKeyGraceHours}`, default: String(defaultGraceHours) },
    json: { type: 'boolean' },
  },
} as const;

/**
 * Rolls a business's API key pair for an operator (a partner who reports a leak and cannot call
 * the API): prints the new pair once; the old one works for --grace-hours (default 24; 0 refuses
 * it at once, within the gateway's 30-second credential cache).
 */
async function main(): Promise<void> {
  const values = commandOptions(commandLine);
  const businessId = values.business.trim();
  const graceText = values['grace-hours'];
  const gracePeriodHours = Number(graceText);
  if (!/^\d+$/.test(graceText) || gracePeriodHours > maxKeyGraceHours) {
    return fail(`--grace-hours must be a whole number from 0 to ${maxKeyGraceHours}`);
  }

  await withGatewayServices(async ({ businesses, keys }) => {
    const business = await businesses.find(businessId);
    if (!business) return fail(`no business ${businessId}`);
    const rolled = await keys.roll(business, { gracePeriodHours, actor: 'operator' });
    process.stdout.write(values.json ? `${JSON.stringify(rolled)}\n` : describe(rolled));
  });
}

function describe(rolled: RolledKeysResponse): string {
  return [
    `Rolled the keys of business ${rolled.businessId}`,
    `  x-api-key:    ${rolled.apiKey}`,
    `  x-api-secret: ${rolled.apiSecret}`,
    `The previous pair works until ${rolled.previousKeyExpiresAt}. The secret is shown only now.`,
    '',
  ].join('\n');
}

void runCommand('partner:keys:roll', main);
