import { dispatchCommand, joinCommandHandlers } from './dispatch-command';

type Command = { type: 'add'; a: number; b: number } | { type: 'negate'; a: number };
interface Results {
  add: number;
  negate: number;
}

describe('joinCommandHandlers', () => {
  it('joins each feature’s share into one map that dispatches every command', async () => {
    const handlers = joinCommandHandlers(
      { add: (command: Extract<Command, { type: 'add' }>) => Promise.resolve(command.a + command.b) },
      { negate: (command: Extract<Command, { type: 'negate' }>) => Promise.resolve(-command.a) },
    );
    expect(await dispatchCommand<Command, Results>(handlers, { type: 'add', a: 2, b: 3 })).toBe(5);
    expect(await dispatchCommand<Command, Results>(handlers, { type: 'negate', a: 2 })).toBe(-2);
  });

  it('refuses a command two shares both claim', () => {
    const add = () => Promise.resolve(0);
    expect(() => joinCommandHandlers({ add }, { negate: add }, { add })).toThrow('Two handlers for the command add');
  });
});
