import { describeDeployments } from '@payments/testing';

import { Env } from './env';

describeDeployments('checkout-gateway', Env);
