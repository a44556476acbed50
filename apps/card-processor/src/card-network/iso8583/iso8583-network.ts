import {
  AuthorisationAnswer,
  AuthorisationRequest,
  CardNetwork,
  NetworkName,
  ReconciliationAnswer,
  ReconciliationRequest,
  ReversalAnswer,
  ReversalRequest,
  UnmatchedAnswer,
} from '../card-network';
import { HostConnector, NotSentError, OutcomeUnknownError } from '../connection';
import { answerOf } from '../response-codes';
import { IsoMessage } from './codec';
import { authorisationMessage, reconciliationMessage, reversalMessage } from './messages';

/** The card network of docs/card-network.md: ISO 8583:1987 over a HostConnector's connections. */
export class Iso8583Network implements CardNetwork {
  private readonly listeners: ((answer: UnmatchedAnswer) => void)[] = [];

  constructor(
    readonly name: NetworkName,
    readonly acquirerId: string,
    private readonly connector: HostConnector,
    readonly zonePinKey?: string,
  ) {
    connector.onUnmatchedAnswer((message) => {
      const stan = message.fields.get(11);
      const rrn = message.fields.get(37);
      if (message.mti !== '0210' || !stan || !rrn) return;
      const unmatched = { network: name, acquirerId, stan, rrn, answer: answerFrom(message) };
      for (const listener of this.listeners) listener(unmatched);
    });
  }

  async authorise(request: AuthorisationRequest): Promise<AuthorisationAnswer> {
    const message = authorisationMessage(request);
    try {
      const answer = await this.connector.exchange(message);
      // An answer that is not about this request's money decides nothing: it is reversed.
      if (!echoesRequest(answer, message)) {
        return {
          outcome: 'unknown',
          responseCode: answer.fields.get(39) ?? null,
          why: 'the answer is for another amount or acceptor',
        };
      }
      return answerFrom(answer);
    } catch (error) {
      if (error instanceof NotSentError) return { outcome: 'not-sent', why: error.message };
      if (error instanceof OutcomeUnknownError) return { outcome: 'unknown', responseCode: null, why: error.message };
      throw error;
    }
  }

  /** Any 0430 acknowledges the reversal, whatever its DE39 (the contract's "Reversals"). */
  async reverse(request: ReversalRequest): Promise<ReversalAnswer> {
    try {
      const answer = await this.connector.exchange(reversalMessage(request));
      return { acknowledged: true, responseCode: answer.fields.get(39) ?? '' };
    } catch (error) {
      if (error instanceof NotSentError || error instanceof OutcomeUnknownError) {
        return { acknowledged: false, why: error.message };
      }
      throw error;
    }
  }

  /** 0510 `00`: the host's totals for the date agree; `95` (or any other code): they do not. */
  async reconcile(request: ReconciliationRequest): Promise<ReconciliationAnswer> {
    try {
      const responseCode = (await this.connector.exchange(reconciliationMessage(request))).fields.get(39) ?? '';
      return { answered: true, agreed: responseCode === '00', responseCode };
    } catch (error) {
      if (error instanceof NotSentError || error instanceof OutcomeUnknownError) {
        return { answered: false, why: error.message };
      }
      throw error;
    }
  }

  onUnmatchedAnswer(listener: (answer: UnmatchedAnswer) => void): void {
    this.listeners.push(listener);
  }

  isReady(): boolean {
    return this.connector.state().ready > 0;
  }

  close(): Promise<void> {
    return this.connector.close();
  }
}

/** Whether an answer carries the request's DE3, DE4, DE41 and DE42 where it carries them (padding aside). */
function echoesRequest(answer: IsoMessage, request: IsoMessage): boolean {
  const same = (field: number, equal: (a: string, b: string) => boolean) => {
    const answered = answer.fields.get(field);
    const asked = request.fields.get(field);
    return answered === undefined || asked === undefined || equal(answered, asked);
  };
  return (
    same(3, (a, b) => a === b.padStart(6, '0')) &&
    same(4, (a, b) => BigInt(a) === BigInt(b)) &&
    same(41, (a, b) => a.trim() === b.trim()) &&
    same(42, (a, b) => a.trim() === b.trim())
  );
}

/** An 0210 as the outcome it means; one without a response code decides nothing, so it is reversed. */
function answerFrom(message: IsoMessage): AuthorisationAnswer {
  const code = message.fields.get(39);
  if (code === undefined) return { outcome: 'unknown', responseCode: null, why: 'the answer carried no response code' };
  return answerOf(code, message.fields.get(38)?.trim(), message.fields.get(15) ?? null);
}
