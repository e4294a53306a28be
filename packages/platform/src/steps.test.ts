import { describe, expect, it } from 'vitest';
import { runSteps, step } from './steps';

describe('runSteps: each step with its undo', () => {
  const journal = () => {
    const log: string[] = [];
    const ok = (name: string, undo = true) =>
      step<{ n: number }>(
        name,
        async (c) => {
          c.n += 1;
          log.push(`run ${name}`);
        },
        undo
          ? async () => {
              log.push(`undo ${name}`);
            }
          : undefined,
      );
    const fail = (name: string) =>
      step<{ n: number }>(name, async () => {
        log.push(`run ${name}`);
        throw new Error(`${name} failed`);
      });
    return { log, ok, fail };
  };

  it('runs every step in order on the same context when all succeed, and undoes nothing', async () => {
    const { log, ok } = journal();
    const ctx = await runSteps({ n: 0 }, [ok('reserve'), ok('write'), ok('publish')]);
    expect(ctx.n).toBe(3);
    expect(log).toEqual(['run reserve', 'run write', 'run publish']);
  });

  it('a failing step undoes the finished ones in reverse, not itself nor the later ones, and throws its error', async () => {
    const { log, ok, fail } = journal();
    await expect(runSteps({ n: 0 }, [ok('reserve'), ok('hold'), fail('write'), ok('publish')])).rejects.toThrow('write failed');
    expect(log).toEqual(['run reserve', 'run hold', 'run write', 'undo hold', 'undo reserve']);
  });

  it('a step without an undo is skipped when undoing', async () => {
    const { log, ok, fail } = journal();
    await expect(runSteps({ n: 0 }, [ok('reserve'), ok('read', false), fail('write')])).rejects.toThrow('write failed');
    expect(log).toEqual(['run reserve', 'run read', 'run write', 'undo reserve']);
  });

  it('an undo that fails is reported, the other undos still run, and the original error is thrown', async () => {
    const { log, ok, fail } = journal();
    const broken = step<{ n: number }>('hold', async () => void log.push('run hold'), async () => {
      throw new Error('undo hold failed');
    });
    const reported: string[] = [];
    await expect(
      runSteps({ n: 0 }, [ok('reserve'), broken, fail('write')], { onUndoError: (name, err) => reported.push(`${name}: ${(err as Error).message}`) }),
    ).rejects.toThrow('write failed');
    expect(reported).toEqual(['hold: undo hold failed']);
    expect(log).toEqual(['run reserve', 'run hold', 'run write', 'undo reserve']);
  });

  it('the first step failing undoes nothing', async () => {
    const { log, ok, fail } = journal();
    await expect(runSteps({ n: 0 }, [fail('reserve'), ok('write')])).rejects.toThrow('reserve failed');
    expect(log).toEqual(['run reserve']);
  });
});

describe('runSteps: a step whose failure may have done its work', () => {
  it('is undone too when its undoWhenFailed says so (a lost answer), and not on a definite refusal', async () => {
    const log: string[] = [];
    const ask = (err: Error) =>
      ({
        name: 'reserve',
        run: async () => {
          log.push('run reserve');
          throw err;
        },
        undo: async () => void log.push('undo reserve'),
        undoWhenFailed: (e: unknown) => (e as Error).message === 'timeout',
      }) as const;
    await expect(runSteps({}, [ask(new Error('timeout'))])).rejects.toThrow('timeout');
    expect(log).toEqual(['run reserve', 'undo reserve']);
    log.length = 0;
    await expect(runSteps({}, [ask(new Error('out of stock'))])).rejects.toThrow('out of stock');
    expect(log).toEqual(['run reserve']);
  });
});
