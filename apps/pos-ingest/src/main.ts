import 'reflect-metadata';

import { bootstrapApp } from '@payments/platform-bootstrap';

import { posIngestApp } from './app';

void bootstrapApp(posIngestApp);
