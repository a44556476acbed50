import 'reflect-metadata';

import { commandOptions, fail, runCommand, usageOf, withAppDatabase } from '@payments/platform-bootstrap';

import { BusinessesRepository } from '../businesses/businesses.repository';
import { Env } from '../config/env';
import { database } from '../database/data-source';
import { PricePlan, Product, products } from '../money/price';
import { PricePlansRepository } from '../money/price-plans.repository';

const commandLine = {
  script: 'pricing:set',
  options: {
    business: { type: 'string', value: 'ID' },
    default: { type: 'boolean' },
    product: { type: 'string', value: products.join('|'), required: true },
    percent: { type: 'string', value: 'P' },
    cap: { type: 'string', value: 'KOBO|none' },
    floor: { type: 'string', value: 'KOBO' },
    flat: { type: 'string', value: 'KOBO' },
    commission: { type: 'string', value: 'P' },
    json: { type: 'boolean' },
  },
  notes: `  Give either --business or --default.
  P is a percentage with at most two decimals (1.5 is 1.5%); --commission is the partner's share of the fee.
  Options left out keep the value of the plan in force. The new plan applies to new payments only.`,
} as const;

/** Sets a business's price for one product (or the platform default for businesses without their own). */
async function main(): Promise<void> {
  const values = commandOptions(commandLine);
  const businessId = values.business?.trim() || null;
  if ((businessId === null) === !values.default) {
    return fail(`give either --business or --default\n${usageOf(commandLine)}`);
  }
  const product = values.product as Product;
  if (!products.includes(product)) {
    return fail(`--product must be one of ${products.join(', ')}\n${usageOf(commandLine)}`);
  }
  const parsed = {
    percentBps: optional(values.percent, basisPoints, '--percent must be a percentage from 0 to 100, like 1.5'),
    capKobo: optional(values.cap, (text) => (text === 'none' ? null : kobo(text)), '--cap must be kobo or none'),
    floorKobo: optional(values.floor, kobo, '--floor must be a whole number of kobo'),
    flatKobo: optional(values.flat, kobo, '--flat must be a whole number of kobo'),
    commissionBps: optional(values.commission, basisPoints, '--commission must be a percentage from 0 to 100'),
  };
  const invalid = Object.values(parsed).find((value): value is Error => value instanceof Error);
  if (invalid) return fail(invalid.message);

  await withAppDatabase(Env, database, async (dataSource) => {
    const plans = new PricePlansRepository();
    const em = dataSource.manager;
    if (businessId && !(await new BusinessesRepository().find(em, businessId))) {
      return fail(`business ${businessId} is not known to outlet-service`);
    }
    const current = await plans.current(em, businessId ?? '', product);
    const plan = { ...current, ...defined(parsed as Partial<PricePlan>) };
    if (plan.capKobo !== null && plan.capKobo < plan.floorKobo) return fail('--cap must not be below --floor');
    await plans.set(em, businessId, product, plan, 'operator');
    const shown = {
      businessId,
      product,
      percent: plan.percentBps / 100,
      capKobo: plan.capKobo?.toString() ?? null,
      floorKobo: plan.floorKobo.toString(),
      flatKobo: plan.flatKobo.toString(),
      commissionPercent: plan.commissionBps / 100,
    };
    process.stdout.write(
      values.json
        ? `${JSON.stringify(shown)}\n`
        : `${businessId ? `Business ${businessId}` : 'Default plan'}, ${product}: ${shown.percent}%` +
            `${shown.capKobo === null ? '' : ` capped at ${shown.capKobo} kobo`}, floor ${shown.floorKobo} kobo,` +
            ` plus ${shown.flatKobo} kobo; commission ${shown.commissionPercent}% of the fee. New payments only.\n`,
    );
  });
}

/** A percentage with at most two decimals, in basis points. */
function basisPoints(text: string): number | Error {
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(text)) return new Error();
  const [whole, fraction = ''] = text.split('.');
  const bps = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return bps <= 10_000 ? bps : new Error();
}

function kobo(text: string): bigint | Error {
  return /^\d{1,15}$/.test(text) ? BigInt(text) : new Error();
}

/** The parsed option, undefined when left out, or an Error carrying `message`. */
function optional<T>(text: string | undefined, parse: (text: string) => T | Error, message: string) {
  if (text === undefined) return undefined;
  const value = parse(text.trim());
  return value instanceof Error ? new Error(message) : value;
}

function defined<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

void runCommand('pricing:set', main);
