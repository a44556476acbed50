import { Injectable } from '@nestjs/common';
import { BusinessMode, sandboxScenarios, VerificationStep } from '@payments/contracts';

/**
 * The verification steps a sandbox test card asks for before its charge goes to the card
 * network (docs/test-cards.json). Whether it is approved is the network's answer, never ours.
 */
@Injectable()
export class SandboxVerification {
  /** A live business's card is never walked through a sandbox card's steps (nor asked for the sandbox PIN). */
  steps(pan: string, mode: BusinessMode): VerificationStep[] {
    return mode === 'live' ? [] : [...(sandboxScenarios[pan] ?? [])];
  }
}
