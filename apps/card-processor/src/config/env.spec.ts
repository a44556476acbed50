import { describeDeployments } from '@payments/testing';

import { Env } from './env';

describeDeployments('card-processor', Env);
