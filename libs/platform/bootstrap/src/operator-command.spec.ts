import { commandOptions, runCommand, usageOf } from './operator-command';

const commandLine = {
  script: 'thing',
  options: {
    name: { type: 'string', value: 'N', required: true },
    colour: { type: 'string', value: 'C', default: 'red' },
    size: { type: 'string', value: 'S' },
    json: { type: 'boolean' },
  },
  notes: '  N is any name.',
} as const;
const usage = 'usage: npm run thing -- --name N [--colour C] [--size S] [--json]\n  N is any name.';

describe('operator command options', () => {
  let stderr: jest.SpyInstance;

  beforeEach(() => {
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });

  afterEach(() => {
    stderr.mockRestore();
    process.exitCode = undefined;
  });

  it('shows each option in the usage line as its command line declares it, then the notes', () => {
    expect(usageOf(commandLine)).toBe(usage);
  });

  it('reads the options given, with their defaults', () => {
    expect(commandOptions(commandLine, ['--name', 'Ada'])).toEqual({ name: 'Ada', colour: 'red', json: false });
    expect(commandOptions(commandLine, ['--name', 'Ada', '--size', 'L', '--json'])).toMatchObject({
      size: 'L',
      json: true,
    });
  });

  it.each([
    ['an unknown option', ['--nmae', 'Ada'], "Unknown option '--nmae'"],
    ['an option without its value', ['--name'], "Option '--name <value>' argument missing"],
    ['a required option left out', ['--json'], '--name is required'],
    ['a required option left blank', ['--name', ' '], '--name is required'],
  ])('stops %s with exit code 2, naming it and the usage', async (_case, args, problem) => {
    await runCommand('thing', async () => void commandOptions(commandLine, args));
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
