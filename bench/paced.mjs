// An open-model load generator: requests at evenly spaced moments, whatever the server does.
//
// autocannon's `overallRate` is a per-second allowance for each connection: every connection
// sends its share at the start of each second and then waits, so "200/s over 32 connections"
// is a burst of 200 requests once a second, and its coordinated-omission correction then
// records a sample for every millisecond of each slow answer. A paced target (p99 at N/s)
// needs arrivals N/s apart, each timed from the moment it was due, so that a late timer or a
// slow answer counts against the result rather than quietly delaying the next request.
import { Pool } from 'undici';

import { percentile } from './support.mjs';

/**
 * Sends `rate` requests a second for `seconds`, each at its own moment, over a pool of
 * keep-alive connections (a request waits in the pool when every connection is busy, and
 * that wait counts). Latency runs from the moment a request was due to its answer.
 *
 * @param {{ origin: string, rate: number, seconds: number, connections?: number,
 *   request: () => { path: string, method?: string, headers?: Record<string, string>, body?: string } }} options
 * @returns {Promise<{ perSecond: number, p50: number, p99: number, non2xx: number, total: number }>}
 */
export async function paced({ origin, rate, seconds, connections = 64, request }) {
  const pool = new Pool(origin, { connections, pipelining: 1 });
  const total = Math.round(rate * seconds);
  const intervalMs = 1000 / rate;
  const latencies = [];
  const inFlight = [];
  let non2xx = 0;
  const send = async (dueAt) => {
    const { path, method = 'POST', headers, body } = request();
    try {
      const response = await pool.request({ path, method, headers, body });
      await response.body.dump();
      if (response.statusCode < 200 || response.statusCode >= 300) non2xx += 1;
    } catch {
      non2xx += 1;
    }
    latencies.push(performance.now() - dueAt);
  };
  const start = performance.now();
  let sent = 0;
  while (sent < total) {
    // Everything due by now goes at once: a timer that fires late must not thin the load.
    const now = performance.now();
    while (sent < total && start + sent * intervalMs <= now) {
      inFlight.push(send(start + sent * intervalMs));
      sent += 1;
    }
    const nextDue = start + sent * intervalMs;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, nextDue - performance.now())));
  }
  await Promise.all(inFlight);
  const elapsedSeconds = (performance.now() - start) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    perSecond: total / elapsedSeconds,
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    non2xx,
    total,
  };
}
