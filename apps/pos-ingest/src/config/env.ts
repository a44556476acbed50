import { PlatformEnv } from '@payments/platform-config';

/** pos-ingest: accepts encrypted POS submissions; stateless and scaled on its own. */
export class Env extends PlatformEnv {
  override SERVICE_NAME: string = 'pos-ingest';
  override PORT: number = 3002;
}
