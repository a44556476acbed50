import { Module } from '@nestjs/common';
import { SchemaState } from '@payments/platform-database';

import { DependencyWatch } from './dependency-watch';
import { HealthController, ShutdownState } from './health.controller';

@Module({ controllers: [HealthController], providers: [ShutdownState, SchemaState, DependencyWatch] })
export class HealthModule {}
