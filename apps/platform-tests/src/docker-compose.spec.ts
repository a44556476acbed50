import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { appDockerfile, appDockerfileProblems, readCompose, repoRoot } from '@payments/testing';

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
    expect(Object.keys(services).sort()).toEqual([...apps, 'card-host', 'kafka', 'postgres', 'topics'].sort());
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

  it('gives PostgreSQL, Kafka and the card host health checks the apps wait on', () => {
    expect(services.postgres).toMatchObject({
      image: expect.stringMatching(/^postgres:15/),
      healthcheck: expect.anything(),
    });
    expect(services.kafka).toMatchObject({ healthcheck: expect.anything() });
    expect(services['card-host']).toMatchObject({ healthcheck: expect.anything() });
  });

  it('runs the development card host from its own image, and card-processor authorises cards there', () => {
    const host = services['card-host'];
    expect(host.build).toEqual({ context: '.', dockerfile: 'deploy/card-host/Dockerfile' });
    expect(host.ports).toEqual(['${CARD_HOST_HOST_PORT:-8583}:8583', '${CARD_HOST_CONTROL_HOST_PORT:-8584}:8584']);
    expect(host.healthcheck?.test.join(' ')).toContain('/dev/tcp/127.0.0.1/8583');
    const processor = services['card-processor'];
    expect(processor.environment?.CARD_NETWORK_SANDBOX_ADDRESS).toBe('card-host:8583');
    expect(processor.environment?.CARD_NETWORK_LIVE_ADDRESS).toBeUndefined();
    // PIN blocks travel under the key both sides hold.
    expect(host.environment?.CARD_HOST_ZONE_PIN_KEY).toMatch(/^[0-9A-F]{32}$/i);
    expect(host.environment?.CARD_HOST_ZONE_PIN_KEY).toBe(processor.environment?.CARD_NETWORK_SANDBOX_ZONE_PIN_KEY);
    expect(processor.depends_on?.['card-host']).toEqual({ condition: 'service_healthy' });
  });

  it("builds the card host, on jPOS (AGPL), in a development image of its own: the platform's images copy none of it", () => {
    const dockerfile = readFileSync(join(repoRoot, 'deploy/card-host/Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^FROM maven:3\.9-eclipse-temurin-17$/m);
    expect(dockerfile).toMatch(/AGPL/);
    expect(dockerfile).toMatch(/^USER 1000:1000$/m);
    expect(dockerfile).toMatch(/^CMD \["bash", "deploy\/card-host\/card-host\.sh", "run"\]$/m);
    expect(dockerfile).toMatch(/^ENV CARD_HOST_BIND=0\.0\.0\.0 /m);
    // deploy/Dockerfile, which every app's image is built from, copies nothing of the host or its build.
    const copied = readFileSync(join(repoRoot, appDockerfile), 'utf8').match(/^(COPY|ADD) .*$/gm) ?? [];
    expect(copied.length).toBeGreaterThan(3);
    expect(copied.filter((line) => /(^\S+ (--\S+ )*\. )|deploy( |\/card-host)|\.data|jpos/i.test(line))).toEqual([]);
  });
});
