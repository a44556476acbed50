import { describeDeployments } from '@payments/testing';

import { Env } from './env';

describeDeployments('pos-ingest', Env);
