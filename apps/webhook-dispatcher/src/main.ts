// First: tracing instruments PostgreSQL and Fastify as they load.
import './tracing';
import 'reflect-metadata';

import { bootstrapApp } from '@payments/platform-bootstrap';

import { webhookDispatcherApp } from './app';

void bootstrapApp(webhookDispatcherApp);
