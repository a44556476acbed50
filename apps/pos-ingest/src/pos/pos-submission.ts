import { PosSubmissionRequest } from '@payments/contracts';
import { flattenValidationErrors, refusedInput, ValidationFailedError } from '@payments/platform-envelope';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

/** The body as a PosSubmissionRequest, or a 422 naming each bad field, as the global pipe would. */
export function posSubmission(received: unknown): PosSubmissionRequest {
  const body = typeof received === 'object' && received !== null && !Array.isArray(received) ? received : {};
  const refused = refusedInput(body, '');
  if (refused !== null) {
    throw new ValidationFailedError([
      { field: refused.field || 'body', messages: [`${refused.field || 'body'} ${refused.reason}`] },
    ]);
  }
  // Terminals send valid bodies almost always: accept one that plainly meets the DTO's rules
  // without class-validator's cost, and let it judge (and word the errors of) everything else.
  const { serialNumber, data } = body as Record<string, unknown>;
  if (withinLength(serialNumber, serialNumberMax) && withinLength(data, dataMax)) return { serialNumber, data };
  const submission = plainToInstance(PosSubmissionRequest, body);
  const errors = validateSync(submission, { forbidUnknownValues: true });
  if (errors.length > 0) throw new ValidationFailedError(flattenValidationErrors(errors));
  return submission;
}

/** PosSubmissionRequest's @MaxLength: a string no longer than this in UTF-16 units passes it. */
const [serialNumberMax, dataMax] = [64, 16_384];

function withinLength(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= max;
}
