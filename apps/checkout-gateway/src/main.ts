import 'reflect-metadata';

import { bootstrapApp } from '@payments/platform-bootstrap';

import { gatewayApp } from './app';

void bootstrapApp(gatewayApp);
