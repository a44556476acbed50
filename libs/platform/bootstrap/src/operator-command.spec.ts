import { commandOptions, runCommand } from './operator-command';

const usage = 'usage: npm run thing -- --name N [--json]';
const options = { name: { type: 'string' }, json: { type: 'boolean', default: false } } as const;

describe('operator command options', () => {
  let stderr: jest.SpyInstance;

  beforeEach(() => {
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });

  afterEach(() => {
    stderr.mockRestore();
    process.exitCode = undefined;
  });

  it('reads the options given, with their defaults', () => {
    expect(commandOptions(usage, options, ['--name', 'Ada'])).toEqual({ name: 'Ada', json: false });
  });

  it.each([
    ['an unknown option', ['--nmae', 'Ada'], "Unknown option '--nmae'"],
    ['an option without its value', ['--name'], "Option '--name <value>' argument missing"],
  ])('stops %s with exit code 2, naming it and the usage', async (_case, args, problem) => {
    await runCommand('thing', async () => void commandOptions(usage, options, args));
    expect(process.exitCode).toBe(2);
    expect(stderr).toHaveBeenCalledWith(expect.stringContaining(problem));
    expect(stderr).toHaveBeenCalledWith(expect.stringContaining(usage));
  });

  it('reports any other failure as the command failing, with exit code 1', async () => {
    await runCommand('thing', async () => {
      throw new Error('database unreachable');
    });
    expect(process.exitCode).toBe(1);
    expect(stderr).toHaveBeenCalledWith('thing failed: database unreachable\n');
  });
});
