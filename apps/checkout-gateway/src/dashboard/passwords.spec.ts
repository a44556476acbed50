import { hashPassword, nobodysHash, passwordMatches } from './passwords';

describe('password hashes', () => {
  it('match the password they were made from, and no other', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    await expect(passwordMatches('correct horse battery staple', hash)).resolves.toBe(true);
    await expect(passwordMatches('correct horse battery stapl', hash)).resolves.toBe(false);
  });

  it('are salted: one password hashes differently each time', async () => {
    expect(await hashPassword('same password twice')).not.toBe(await hashPassword('same password twice'));
  });

  it('read the same password in either Unicode form', async () => {
    const hash = await hashPassword('cre\u0300me brule\u0301e');
    await expect(passwordMatches('crème brulée', hash)).resolves.toBe(true);
  });

  it.each(['', 'bcrypt$1$2', 'scrypt$32768$8$1$$', nobodysHash])('match nothing for %s', async (hash) => {
    await expect(passwordMatches('anything at all', hash)).resolves.toBe(false);
  });
});
