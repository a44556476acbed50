import { CamelCased, camelCased } from './camel-cased';

describe('camelCased', () => {
  it('renames snake_case columns to camelCase and keeps the values as they are', () => {
    const createdAt = new Date('2026-01-02T03:04:05Z');
    const row = {
      business_id: 'b1',
      sweep_interval_seconds: 60,
      name: 'Shop',
      created_at: createdAt,
      held_balance: '5',
    };

    const renamed: CamelCased<typeof row> = camelCased(row);

    expect(renamed).toEqual({ businessId: 'b1', sweepIntervalSeconds: 60, name: 'Shop', createdAt, heldBalance: '5' });
    expect(renamed.createdAt).toBe(createdAt);
  });

  it('renames a digit after the underscore too, and leaves a row without underscores alone', () => {
    expect(camelCased({ address_line_2: 'x', ref: 'y' })).toEqual({ addressLine2: 'x', ref: 'y' });
  });
});
