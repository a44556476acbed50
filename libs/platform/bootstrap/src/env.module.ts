import { DynamicModule, Global, Module } from '@nestjs/common';
import { PlatformEnv } from '@payments/platform-config';

/** Makes the validated environment injectable, as PlatformEnv and as the app's own Env class. */
@Global()
@Module({})
export class EnvModule {
  static register<E extends PlatformEnv>(env: E): DynamicModule {
    const providers = [
      { provide: PlatformEnv, useValue: env },
      { provide: env.constructor, useValue: env },
    ];
    return { module: EnvModule, providers, exports: providers.map((provider) => provider.provide) };
  }
}
