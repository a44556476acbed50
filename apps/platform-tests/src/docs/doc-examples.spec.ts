import { answersWithoutRequest, examplesOf, parseCurl } from './doc-examples';
import { differences, Learned } from './shown-answer';

const fence = '```';

describe('reading the request examples of a page', () => {
  const page = [
    'Create one:',
    '',
    `${fence}bash`,
    'curl -s -X POST http://127.0.0.1:3000/outlets \\',
    "  -H 'x-api-key: pk_test_…' -d '{\"accountName\":",
    '       "Ikeja"}\'',
    fence,
    '',
    `${fence}json`,
    '{"status": true, "statusCode": 200, "message": "Outlet created", "data": {"outletId": "01JD…"}}',
    fence,
    '',
    `${fence}sh`,
    '# not run: another host',
    'curl -s https://example.com/',
    'curl -s http://127.0.0.1:3000/outlets -H "x-api-key: $API_KEY"',
    'npm run partner:create -- --name Acme',
    fence,
    '',
    `${fence}json`,
    '{"status": true, "statusCode": 200}',
    fence,
  ].join('\n');

  it('joins continued lines, keeps only requests to the platform, and pairs a lone request with its answer', () => {
    const examples = examplesOf('docs/x.md', page);
    expect(examples.map(({ line, shown }) => [line, shown !== undefined])).toEqual([
      [4, true],
      [16, true],
    ]);
    expect(examples[0].command).toBe(
      'curl -s -X POST http://127.0.0.1:3000/outlets -H \'x-api-key: pk_test_…\' -d \'{"accountName": "Ikeja"}\'',
    );
  });

  it('finds an answer shown with no request before it', () => {
    expect(answersWithoutRequest(`Text\n\n${fence}json\n{"statusCode": 200}\n${fence}\n`)).toEqual([3]);
    expect(answersWithoutRequest(page)).toEqual([]);
  });

  it('reads the curl options the pages use, and refuses others', () => {
    expect(
      parseCurl(`curl -s -X PATCH http://127.0.0.1:3000/a -H 'content-type: application/json' -d '{"x": 1}'`),
    ).toEqual({
      method: 'PATCH',
      url: 'http://127.0.0.1:3000/a',
      headers: { 'content-type': 'application/json' },
      body: '{"x": 1}',
      toFile: false,
    });
    expect(parseCurl(`curl -s http://127.0.0.1:3000/a -d '{}'`).method).toBe('POST');
    expect(parseCurl(`curl -si http://127.0.0.1:3000/a | grep -i '^ratelimit'`).headerPattern).toEqual(/^ratelimit/i);
    expect(() => parseCurl('curl -k http://127.0.0.1:3000/a')).toThrow('unexpected curl option -k');
  });
});

describe('comparing an answer with what the page shows', () => {
  it('holds fixed values and whole lists to the page, and learns the values of the run it stands for', () => {
    const learned: Learned = new Map();
    const shown = { statusCode: 200, data: { endpointId: 'we_01JD…', status: 'active', items: [{ a: 1 }] } };
    const answer = { statusCode: 200, data: { endpointId: 'we_01KX', status: 'active', items: [{ a: 1 }, { a: 2 }] } };
    expect(differences(shown, answer, learned)).toEqual([]);
    expect(learned.get('we_01JD…')).toBe('we_01KX');
    expect(differences(shown, { statusCode: 422, data: { status: 'active', items: [] } }, learned)).toEqual([
      'answer.statusCode: the page shows 200, the answer has 422',
      'answer.data.endpointId: shown on the page, missing from the answer',
      'answer.data.items: the page shows 1 items, the answer has 0',
    ]);
    // Any list but a page of results is shown whole: one more error than the page shows is a difference.
    expect(differences({ errors: ['a'] }, { errors: ['a', 'b'] }, learned)).toEqual([
      'answer.errors: the page shows 1 items, the answer has 2',
    ]);
  });

  it('takes for a run value only a value of its kind', () => {
    const differs = (shown: string, actual: unknown) => differences(shown, actual, new Map()).length > 0;
    expect(differs('CHK-01JD4…', 'CHK-01KXAB')).toBe(false);
    expect(differs('CHK-01JD4…', 'RFD-01KXAB')).toBe(true);
    expect(differs('CHK-01JD4…', '')).toBe(true);
    expect(differs('http://127.0.0.1:3000/checkout?checkoutReference=CHK-01JD4…', 'http://x/')).toBe(true);
    expect(differs('2026-11-23T10:20:00.000Z', 'yesterday')).toBe(true);
    expect(differs('3000000011', '30000000112')).toBe(true);
    expect(differs('SAHKWD1YZMK8TE0BDEX54HVJ8X', '01KXAB0000000000000000000Z')).toBe(false);
    expect(differs('we_…', null)).toBe(true);
  });
});
