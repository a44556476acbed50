import { PlatformEnv } from '@payments/platform-config';

import { composeServiceProblems } from './compose';
import { deploymentProblems, overlays } from './kubernetes';

/**
 * An app's deployment descriptions checked against its own configuration class: its service in
 * docker-compose.yml and its Deployment in each Kubernetes overlay. Each app's env.spec.ts calls it.
 */
export function describeDeployments<E extends PlatformEnv>(app: string, envClass: new () => E): void {
  describe(`${app} in docker-compose.yml`, () => {
    it('has an environment its Env accepts, its port, and a hardened multi-stage image', () => {
      expect(composeServiceProblems(app, envClass)).toEqual([]);
    });
  });

  describe(`${app} in the Kubernetes overlays`, () => {
    it.each(overlays)('%s: has an environment its Env accepts, its port, its probes and room to drain', (overlay) => {
      expect(deploymentProblems(overlay, app, envClass)).toEqual([]);
    });
  });
}
