import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { appDockerfileProblems, readCompose, repoRoot } from '@payments/testing';

describe('docker-compose.yml', () => {
  const { services } = readCompose();

  it('runs every app under apps/ that has a main.ts, and nothing unknown', () => {
    const apps = readdirSync(join(repoRoot, 'apps')).filter((name) =>
      existsSync(join(repoRoot, 'apps', name, 'src/main.ts')),
    );
    expect(apps.sort()).toEqual([
      'card-processor',
      'checkout-gateway',
      'outlet-service',
      'pos-ingest',
      'webhook-dispatcher',
    ]);
    expect(Object.keys(services).sort()).toEqual([...apps, 'kafka', 'postgres', 'topics'].sort());
  });

  it('applies the declared topics once before any app starts: the apps create none', () => {
    const topics = services.topics as { command: string[]; depends_on: Record<string, { condition: string }> };
    expect(topics.command).toEqual(['topics-apply']);
    expect(topics.depends_on.kafka).toEqual({ condition: 'service_healthy' });
    for (const app of ['card-processor', 'checkout-gateway', 'outlet-service', 'pos-ingest', 'webhook-dispatcher']) {
      expect([app, services[app].depends_on?.topics]).toEqual([app, { condition: 'service_completed_successfully' }]);
    }
  });

  it('runs Kafka in KRaft mode from the official image, without auto-created topics', () => {
    const kafka = services.kafka as { image: string; environment: Record<string, string | number> };
    expect(kafka.image).toMatch(/^apache\/kafka:3\.9\./);
    expect(kafka.environment.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    expect(kafka.environment.KAFKA_ADVERTISED_LISTENERS).toBe('PLAINTEXT://kafka:9092');
    expect(kafka.environment.KAFKA_AUTO_CREATE_TOPICS_ENABLE).toBe('false');
  });

  it('builds every app from the one Dockerfile, with no copy of it beside an app', () => {
    expect(appDockerfileProblems()).toEqual([]);
    const copies = readdirSync(join(repoRoot, 'apps')).filter((name) =>
      existsSync(join(repoRoot, 'apps', name, 'Dockerfile')),
    );
    expect(copies).toEqual([]);
  });

  it('gives PostgreSQL and Kafka health checks the apps wait on', () => {
    expect(services.postgres).toMatchObject({
      image: expect.stringMatching(/^postgres:15/),
      healthcheck: expect.anything(),
    });
    expect(services.kafka).toMatchObject({ healthcheck: expect.anything() });
  });
});
