import { KeySetting, PlatformEnv } from '@payments/platform-config';

/** card-processor: card charges, their verification state machine, POS authorisation. */
export class Env extends PlatformEnv {
  override SERVICE_NAME: string = 'card-processor';
  override PORT: number = 3001;

  /** Opens card data sealed by pos-ingest (and the gateway); the same key on both sides. */
  @KeySetting() CARD_DATA_KEY: string = '';
}
