import { describeDeployments } from '@payments/testing';

import { Env } from './env';

describeDeployments('outlet-service', Env);
