import { PlatformEnv } from '@payments/platform-config';

/** card-processor: card charges, their verification state machine, POS authorisation. */
export class Env extends PlatformEnv {
  override SERVICE_NAME: string = 'card-processor';
  override PORT: number = 3001;
}
