import 'reflect-metadata';

import { bootstrapApp } from '@payments/platform-bootstrap';

import { cardProcessorApp } from './app';

void bootstrapApp(cardProcessorApp);
