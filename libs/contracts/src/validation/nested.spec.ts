import { plainToInstance } from 'class-transformer';
import { IsString, validateSync } from 'class-validator';

import { Nested, NestedList } from './nested';

class Wallet {
  @IsString()
  walletId!: string;
}

class Outlet {
  @Nested(() => Wallet)
  wallet!: Wallet;

  @NestedList(() => Wallet)
  wallets!: Wallet[];
}

/** Each failing path, as `outer.inner` (or `outer.index.inner` in a list). */
function failingPaths(plain: object): string[] {
  const paths = (errors: ReturnType<typeof validateSync>, prefix: string): string[] =>
    errors.flatMap((error) =>
      error.children?.length ? paths(error.children, `${prefix}${error.property}.`) : [`${prefix}${error.property}`],
    );
  return paths(validateSync(plainToInstance(Outlet, plain)), '');
}

describe('nested contracts', () => {
  it('builds a nested object and each item of a nested list as their classes', () => {
    const outlet = plainToInstance(Outlet, { wallet: { walletId: 'a' }, wallets: [{ walletId: 'b' }] });
    expect(outlet.wallet).toBeInstanceOf(Wallet);
    expect(outlet.wallets[0]).toBeInstanceOf(Wallet);
    expect(failingPaths({ wallet: { walletId: 'a' }, wallets: [{ walletId: 'b' }] })).toEqual([]);
  });

  it("refuses what breaks the nested class's own rules, naming where", () => {
    expect(failingPaths({ wallet: { walletId: 7 }, wallets: [{ walletId: 'b' }, {}] })).toEqual([
      'wallet.walletId',
      'wallets.1.walletId',
    ]);
  });
});
