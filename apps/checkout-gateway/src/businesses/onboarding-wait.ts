/**
 * Waits until every service has confirmed the business, or `timeoutMs` has passed; answers the
 * services still awaited, [] once it is onboarded everywhere. `awaits` reads them afresh.
 */
export async function waitForOnboarding(
  awaits: () => Promise<string[] | null>,
  timeoutMs: number,
  pollMs = 250,
): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pending = (await awaits()) ?? [];
    if (pending.length === 0 || Date.now() >= deadline) return pending;
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, Math.max(0, deadline - Date.now()))));
  }
}
