import { AppName, appPorts, exitWithin, RunningApp, spawnApp, waitForReady } from './apps';

jest.setTimeout(120_000);

const names = Object.keys(appPorts) as AppName[];

describe('the five apps as processes', () => {
  const running: RunningApp[] = [];

  afterAll(() => {
    for (const app of running) app.process.kill('SIGKILL');
  });

  it('all boot and report ready with the real database and broker', async () => {
    running.push(...names.map((name) => spawnApp(name)));
    await Promise.all(
      running.map((app) =>
        waitForReady(appPorts[app.name]).catch((error: Error) => {
          throw new Error(`${app.name}: ${error.message}\n${app.output()}`);
        }),
      ),
    );
    for (const name of names) {
      const live = await fetch(`http://127.0.0.1:${appPorts[name]}/health/live`);
      expect(await live.json()).toEqual({ status: true, statusCode: 200, message: 'live', data: { status: 'up' } });
    }
  });

  it('publish OpenAPI documents from the gateway and pos-ingest', async () => {
    for (const name of ['checkout-gateway', 'pos-ingest'] as const) {
      const response = await fetch(`http://127.0.0.1:${appPorts[name]}/docs-json`);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { openapi: string }).openapi).toMatch(/^3\./);
    }
  });

  it('log JSON lines carrying the request id', async () => {
    const requestLine = async (name: AppName, traceId: string) => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const line = running
        .find((app) => app.name === name)!
        .output()
        .split('\n')
        .find((candidate) => candidate.includes(traceId));
      return line && (JSON.parse(line) as Record<string, unknown>);
    };
    await fetch(`http://127.0.0.1:${appPorts['checkout-gateway']}/business`, {
      headers: { 'x-request-id': 'e2e-trace-42' },
    });
    expect(await requestLine('checkout-gateway', 'e2e-trace-42')).toMatchObject({
      service: 'checkout-gateway',
      requestId: 'e2e-trace-42',
    });
    // pos-ingest writes request lines from a Fastify hook, probes excepted.
    await fetch(`http://127.0.0.1:${appPorts['pos-ingest']}/pos`, {
      method: 'POST',
      headers: { 'x-request-id': 'e2e-trace-43', 'content-type': 'application/json' },
      body: JSON.stringify({ serialNumber: 'SN-UNKNOWN', data: 'AAAA' }),
    });
    expect(await requestLine('pos-ingest', 'e2e-trace-43')).toMatchObject({
      service: 'pos-ingest',
      requestId: 'e2e-trace-43',
      req: { method: 'POST', url: '/pos' },
      res: { statusCode: 400 },
    });
    await fetch(`http://127.0.0.1:${appPorts['pos-ingest']}/health/live`, {
      headers: { 'x-request-id': 'e2e-trace-44' },
    });
    expect(await requestLine('pos-ingest', 'e2e-trace-44')).toBeUndefined();
  });

  it('each exits 0 within 10 s of SIGTERM', async () => {
    expect(running).toHaveLength(names.length);
    for (const app of running) app.process.kill('SIGTERM');
    const exits = await Promise.all(running.map((app) => exitWithin(app.exited, 10_000)));
    expect(exits).toEqual(names.map(() => ({ code: 0, signal: null })));
  });
});

describe('configuration checked at boot', () => {
  it('stops an app with a bad value, naming the variable', async () => {
    const app = spawnApp('outlet-service', { PORT: 'eighty', KAFKA_BROKERS: 'no brokers here' });
    const exit = await exitWithin(app.exited, 20_000);
    expect(exit.code).toBe(78);
    expect(app.output()).toMatch(/PORT: .*integer/);
    expect(app.output()).toMatch(/KAFKA_BROKERS: .*host:port/);
  });

  it('stops the gateway without its API key sealing key, naming it', async () => {
    const app = spawnApp('checkout-gateway', { API_KEY_SEALING_KEY: '' });
    const exit = await exitWithin(app.exited, 20_000);
    expect(exit.code).toBe(78);
    expect(app.output()).toContain('API_KEY_SEALING_KEY: must list 32-byte keys');
  });
});
