import { shownUrl } from './webhooks-html';

describe("a receiver's URL as members see it", () => {
  it('keeps the origin and path, and drops credentials and the query', () => {
    expect(shownUrl('https://user:secret@hooks.example.ng/payments?token=abc')).toBe(
      'https://hooks.example.ng/payments?…',
    );
    expect(shownUrl('https://hooks.example.ng/payments')).toBe('https://hooks.example.ng/payments');
    expect(shownUrl(null)).toBe('—');
    expect(shownUrl('not a url')).toBe('—');
  });
});
