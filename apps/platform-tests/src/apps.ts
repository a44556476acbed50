import { ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

import { nodeOptionsOf, repoRoot, testEnvironment } from '@payments/testing';

export { repoRoot };

/** Each app on a port away from the defaults, so a developer's `npm start` does not collide. */
export const appPorts = {
  'checkout-gateway': 13000,
  'card-processor': 13001,
  'pos-ingest': 13002,
  'outlet-service': 13003,
  'webhook-dispatcher': 13004,
} as const;

export type AppName = keyof typeof appPorts;

/** One data key for every process of a test run, as in a real deployment. */
export const sharedSecrets = {
  API_KEY_SEALING_KEY: randomBytes(32).toString('base64'),
  POS_KEY_SEALING_KEY: randomBytes(32).toString('base64'),
  PAGE_CURSOR_KEY: randomBytes(32).toString('base64'),
  MEMBER_SECRET_SEALING_KEY: randomBytes(32).toString('base64'),
  WEBHOOK_SECRET_SEALING_KEY: randomBytes(32).toString('base64'),
  CARD_FINGERPRINT_KEY: randomBytes(32).toString('base64'),
  CARD_DATA_KEY: randomBytes(32).toString('base64'),
  POS_REFERENCE_KEY: randomBytes(32).toString('base64'),
  // The PIN security module's master key: pos-ingest wraps terminal PIN keys under it, card-processor opens them.
  PIN_MASTER_KEY: randomBytes(32).toString('base64'),
};

/** `npm run <script> -- <args>` against the test database, with this run's shared secrets. */
export function npmRun(script: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('npm', ['run', script, '--', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...testEnvironment(sharedSecrets) },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr };
}

/**
 * npmRun without blocking this process: the receivers a suite runs in it keep answering while
 * the command runs. (A receiver held for seconds has its idle keep-alive sockets closed the
 * moment it wakes, under a webhook already sent on them: the attempt fails with ECONNRESET.)
 */
export async function npmRunAsync(
  script: string,
  args: string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env, ...testEnvironment(sharedSecrets) };
  try {
    const { stdout, stderr } = await promisify(execFile)('npm', ['run', script, '--', ...args], {
      cwd: repoRoot,
      env,
      encoding: 'utf8',
    });
    return { status: 0, stdout: stdout.trim(), stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    return {
      status: typeof failed.code === 'number' ? failed.code : null,
      stdout: (failed.stdout ?? '').trim(),
      stderr: failed.stderr ?? '',
    };
  }
}

/** A script of tools/runtime as an operator runs it in an image (`node -r register-paths …`), to its end. */
export function nodeScriptSync(
  script: string,
  overrides: Record<string, string> = {},
  args: string[] = [],
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['-r', './tools/runtime/register-paths.cjs', script, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...testEnvironment({ ...sharedSecrets, ...overrides }) },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export interface RunningApp {
  name: AppName;
  process: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the built app as production runs it: `node <its options> -r register-paths dist/.../main.js`. */
export function spawnApp(name: AppName, overrides: Record<string, string> = {}): RunningApp {
  const env = {
    ...process.env,
    ...testEnvironment({ PORT: String(appPorts[name]), LOG_LEVEL: 'info', ...sharedSecrets, ...overrides }),
  };
  const main = `dist/apps/${name}/src/main.js`;
  const child = spawn(process.execPath, [...nodeOptionsOf(name), '-r', './tools/runtime/register-paths.cjs', main], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  return { name, process: child, output: () => output, exited };
}

/** Every app of the platform, in the order they are listed above. */
export const allApps = Object.keys(appPorts) as AppName[];

/**
 * Starts `names` as production runs them, each with the settings given for it (and those for
 * `every` app), and resolves once every one is ready. If one is not, all are killed and the
 * error carries what it printed.
 */
export async function startApps(names: AppName[], settings: AppSettings = {}): Promise<RunningApp[]> {
  const apps = names.map((name) => spawnApp(name, { ...settings.every, ...settings[name] }));
  try {
    await Promise.all(apps.map((app) => waitForReady(appPorts[app.name], app)));
    return apps;
  } catch (error) {
    for (const app of apps) app.process.kill('SIGKILL');
    throw error;
  }
}

export type AppSettings = Partial<Record<AppName | 'every', Record<string, string>>>;

/**
 * For a suite: starts `names` before its tests (and before its own later beforeAll hooks) and
 * stops them after. `settings` may be a function, read when the apps start. Returns the running
 * apps, for tests that restart one.
 */
export function useApps(names: AppName[], settings: AppSettings | (() => AppSettings) = {}): RunningApp[] {
  const apps: RunningApp[] = [];
  beforeAll(async () => {
    apps.push(...(await startApps(names, typeof settings === 'function' ? settings() : settings)));
  });
  afterAll(() => stopApps(apps));
  return apps;
}

/** Waits for /health/ready; on failure the error carries what the app printed. */
export async function waitForReady(port: number, app?: RunningApp, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = await fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(2000) }).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `port ${port} not ready within ${timeoutMs} ms${app ? `; ${app.name} printed:\n${app.output().slice(-3000)}` : ''}`,
  );
}

/** Resolves with the exit, or rejects if the process outlives `ms`. */
export function exitWithin<T>(exited: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still running ${ms} ms after the signal`)), ms);
  });
  return Promise.race([exited, timeout]).finally(() => clearTimeout(timer));
}

/** Stops the apps as an orchestrator would (SIGTERM) and waits for each to exit. */
export async function stopApps(apps: RunningApp[]): Promise<void> {
  for (const app of apps) app.process.kill('SIGTERM');
  await Promise.all(apps.map((app) => app.exited));
}
