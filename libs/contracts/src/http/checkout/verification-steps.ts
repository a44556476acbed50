/** The steps a card charge may ask for, in the words of `nextAction`. */
export const verificationSteps = ['pin', 'otp', 'avs', '3ds', 'birthday', 'phone'] as const;
export type VerificationStep = (typeof verificationSteps)[number];

/**
 * The field of POST /checkout/{reference}/authorize that answers each step. 3-D Secure has none:
 * it is answered on the bank's page.
 */
export const answerFields = { pin: 'pin', otp: 'otp', birthday: 'birthday', phone: 'phone', address: 'avs' } as const;
export type AnswerField = keyof typeof answerFields;

/** The steps an authorize body answers, one per field present; a valid body answers exactly one. */
export function answeredSteps(answer: Partial<Record<AnswerField, unknown>>): VerificationStep[] {
  return (Object.keys(answerFields) as AnswerField[])
    .filter((field) => answer[field] !== undefined)
    .map((field) => answerFields[field]);
}
