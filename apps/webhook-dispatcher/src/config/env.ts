import { PlatformEnv } from '@payments/platform-config';

/** webhook-dispatcher: signed webhook deliveries with retries. */
export class Env extends PlatformEnv {
  override SERVICE_NAME: string = 'webhook-dispatcher';
  override PORT: number = 3004;
}
