import 'reflect-metadata';

import { bootstrapApp } from '@payments/platform-bootstrap';

import { outletServiceApp } from './app';

void bootstrapApp(outletServiceApp);
