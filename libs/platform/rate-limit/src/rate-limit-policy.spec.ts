import { isPolicyText, parsePolicy, writeRateLimitHeaders } from './rate-limit-policy';

describe('rate limit policies', () => {
  it('reads <requests>/<seconds>s and off', () => {
    expect(parsePolicy('terminal', '120/60s')).toEqual({ name: 'terminal', quota: 120, windowSeconds: 60 });
    expect(parsePolicy('terminal', 'off')).toBeUndefined();
    expect(() => parsePolicy('terminal', '0/60s')).toThrow('rate limit terminal');
  });

  it.each(['6000/60s', '1/1s', 'off'])('accepts %s as a setting', (text) => expect(isPolicyText(text)).toBe(true));

  it.each(['6000', '6000/60', '0/60s', '10/0s', '-1/60s', 'OFF', 60])('refuses %s as a setting', (text) =>
    expect(isPolicyText(text)).toBe(false),
  );

  it('writes the draft fields, and Retry-After on a refusal only', () => {
    const headers: Record<string, string | number> = {};
    const reply = { header: (name: string, value: string | number) => (headers[name] = value) };
    const policy = { name: 'partner-api', quota: 6000, windowSeconds: 60 };
    writeRateLimitHeaders(reply, { policy, allowed: true, remaining: 5999, resetSeconds: 42 });
    expect(headers).toEqual({
      'RateLimit-Policy': '"partner-api";q=6000;w=60',
      RateLimit: '"partner-api";r=5999;t=42',
    });
    writeRateLimitHeaders(reply, { policy, allowed: false, remaining: 0, resetSeconds: 7 });
    expect(headers).toMatchObject({ RateLimit: '"partner-api";r=0;t=7', 'Retry-After': 7 });
  });
});
