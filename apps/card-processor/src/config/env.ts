import { PlatformEnv } from '@payments/platform-config';
import { Matches } from 'class-validator';

/** card-processor: card charges, their verification state machine, POS authorisation. */
export class Env extends PlatformEnv {
  override SERVICE_NAME: string = 'card-processor';
  override PORT: number = 3001;

  /** Opens card data sealed by pos-ingest (and the gateway); the same key on both sides. */
  @Matches(/^[A-Za-z0-9+/]{43}=$/, { message: 'must be 32 bytes, base64-encoded (openssl rand -base64 32)' })
  CARD_DATA_KEY: string = '';
}
