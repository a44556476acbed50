import { commandContracts, eventContracts, MessageContract } from '@payments/contracts';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';

import { PoisonMessageError } from './failures';

/**
 * Checks a decoded message against its contract in libs/contracts before any handler acts on it.
 * A message that breaks it can never succeed, so it is poison: parked with the reason. Unknown
 * event types pass (a newer producer's event is the handler's to ignore); an unknown command
 * does not. Newer fields a contract does not name pass too. The reason names fields and rules,
 * never values: a message may carry sealed card data.
 */
export function checkContract(topic: string, kind: 'command' | 'event' | 'events', value: unknown): void {
  const violation = kind === 'command' ? commandViolation(topic, value) : eventViolation(value);
  if (violation) throw new PoisonMessageError(violation);
}

function eventViolation(value: unknown): string | null {
  if (
    !isRecord(value) ||
    typeof value.eventId !== 'string' ||
    typeof value.type !== 'string' ||
    !isRecord(value.payload)
  ) {
    return 'not an event envelope: eventId, type and payload are required';
  }
  const contract = eventContracts[value.type];
  return contract ? violation(value.type, contract, value.payload) : null;
}

function commandViolation(topic: string, value: unknown): string | null {
  if (!isRecord(value) || typeof value.type !== 'string') return 'not a command: type is required';
  const contracts = commandContracts[topic];
  if (!contracts) return null;
  const contract = Object.hasOwn(contracts, value.type) ? contracts[value.type] : undefined;
  if (!contract) return `unknown command type on ${topic}`;
  return violation(value.type, contract, value);
}

function violation(type: string, contract: MessageContract, value: Record<string, unknown>): string | null {
  const errors = validateSync(plainToInstance(contract, value), { forbidUnknownValues: true });
  if (errors.length === 0) return null;
  return `${type} breaks its contract: ${failedRules(errors).join('; ')}`;
}

/** `field: rule, rule` for each failing field, nested fields by their path. */
function failedRules(errors: ValidationError[], path = ''): string[] {
  return errors.flatMap((error) => {
    const field = path ? `${path}.${error.property}` : error.property;
    const own = error.constraints ? [`${field}: ${Object.keys(error.constraints).join(', ')}`] : [];
    return [...own, ...failedRules(error.children ?? [], field)];
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
