/**
 * Steps with their compensation declared next to them (issue 23; as Medusa's workflows do): a
 * change that spans services (reserve stock in the catalog, then write the order) runs as steps,
 * each with the undo of what it did. When a step fails, the steps done before it are undone in
 * reverse order, then the step's error is thrown on. An undo that fails is reported (the caller
 * logs it; housekeeping or a retry finishes it) and the others still run.
 */
export interface Step<C> {
  name: string;
  run: (ctx: C) => Promise<void>;
  /** Undoes what `run` did (called when `run` succeeded and a later step failed). */
  undo?: (ctx: C) => Promise<void>;
  /**
   * Whether this step's own failure may still have done its work, so it is undone too: a request
   * whose answer was lost (a timeout) may have been carried out; a definite refusal was not.
   */
  undoWhenFailed?: (err: unknown) => boolean;
}

export interface StepsOptions {
  /** Told of an undo that failed (after all undos ran): log it; the original error is thrown anyway. */
  onUndoError?: (step: string, err: unknown) => void;
}

/** Declares a step (typed against its context), with its undo and when its own failure needs it. */
export function step<C>(name: string, run: (ctx: C) => Promise<void>, undo?: (ctx: C) => Promise<void>, undoWhenFailed?: (err: unknown) => boolean): Step<C> {
  return { name, run, ...(undo ? { undo } : {}), ...(undoWhenFailed ? { undoWhenFailed } : {}) };
}

/** Runs the steps in order on `ctx`; on a failure undoes the finished ones in reverse and rethrows. */
export async function runSteps<C>(ctx: C, steps: ReadonlyArray<Step<C>>, opts: StepsOptions = {}): Promise<C> {
  const done: Array<Step<C>> = [];
  for (const s of steps) {
    try {
      await s.run(ctx);
    } catch (err) {
      if (s.undo && s.undoWhenFailed?.(err)) done.push(s);
      for (const d of done.reverse()) {
        if (!d.undo) continue;
        try {
          await d.undo(ctx);
        } catch (undoErr) {
          opts.onUndoError?.(d.name, undoErr);
        }
      }
      throw err;
    }
    done.push(s);
  }
  return ctx;
}
