import { flattenValidationErrors, ValidationFailedError } from '@payments/platform-envelope';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

/**
 * A page's query as the API's contract for it, validated as the API validates it, so that the
 * dashboard and the API accept the same filters; a ValidationFailedError names what is wrong.
 */
export function validated<T extends object>(contract: new () => T, plain: Record<string, unknown>): T {
  const query = plainToInstance(contract, plain);
  const errors = validateSync(query, { forbidUnknownValues: true });
  if (errors.length > 0) throw new ValidationFailedError(flattenValidationErrors(errors));
  return query;
}
