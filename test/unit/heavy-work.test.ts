import { HeavyWork } from '../../src/resolver/heavy-work.js';
import { waitFor } from '../support/wait.js';

const busyFor = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Holding the thread, as a slice of a batch does.
  }
};

describe('HeavyWork (issue 10: heavy requests shared fairly between clients)', () => {
  it('counts heavy requests per client and refuses the one beyond the cap', () => {
    const work = new HeavyWork({ perClient: 2 });
    expect(work.enter('a')).toBe(true);
    expect(work.enter('a')).toBe(true);
    expect(work.atCap('a')).toBe(true);
    expect(work.enter('a')).toBe(false);
    expect(work.underWay('a')).toBe(2);
    // Another client is not affected.
    expect(work.enter('b')).toBe(true);
    work.leave('a');
    expect(work.atCap('a')).toBe(false);
    expect(work.enter('a')).toBe(true);
    work.leave('a');
    work.leave('a');
    expect(work.underWay('a')).toBe(0);
  });

  it('builds its 429 once, with Retry-After and a message naming the cap', () => {
    const work = new HeavyWork({ perClient: 3 });
    expect(work.refusal).toMatchObject({ status: 429, headers: { 'Retry-After': '1' } });
    expect(work.refusal.message).toMatch(/at most 3 batches and long similarity lookups/);
  });

  it('takes units from the clients in turn', async () => {
    const work = new HeavyWork({ perClient: 4 });
    const order: string[] = [];
    for (const name of ['a1', 'a2', 'a3']) work.defer('a', () => order.push(name));
    work.defer('b', () => order.push('b1'));
    work.defer('c', () => {
      order.push('c1');
      work.defer('c', () => order.push('c2'));
    });
    await waitFor(() => order.length === 6, { timeoutMs: 5000, everyMs: 1, what: 'all six units run' });
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'c2', 'a3']);
  });

  it('runs a bounded amount of work per turn of the event loop, so that other callbacks run in between', async () => {
    const work = new HeavyWork({ perClient: 4, turnMs: 2 });
    let unitsDone = 0;
    for (let n = 0; n < 40; n++) {
      work.defer(`client${n % 4}`, () => {
        busyFor(1);
        unitsDone++;
      });
    }
    // I/O of other requests is read between turns; a timer stands for it here.
    const seenAt = await new Promise<number>((resolve) => setTimeout(() => resolve(unitsDone), 0));
    expect(seenAt).toBeLessThan(10);
    // About 40 ms of work in turns; the deadline is generous for a busy CI machine (a fixed 200 ms failed there).
    await waitFor(() => unitsDone === 40, { timeoutMs: 5000, what: 'every unit done' }).catch(() => undefined);
    expect(unitsDone).toBe(40);
  });

  it('runs a stepwise job to the end, and reports a unit that throws without stopping the others', async () => {
    const errors: unknown[] = [];
    const work = new HeavyWork({ perClient: 4, onError: (error) => errors.push(error) });
    let steps = 0;
    const job = work.runInTurns('a', () => ++steps === 5);
    work.defer('b', () => {
      throw new Error('broken unit');
    });
    await job;
    expect(steps).toBe(5);
    expect(errors).toEqual([new Error('broken unit')]);
    await expect(
      work.runInTurns('a', () => {
        throw new Error('broken step');
      }),
    ).rejects.toThrow('broken step');
  });

  it("ends the turn after a unit whose work goes on in promise callbacks, so that they run before the next client's unit", async () => {
    const work = new HeavyWork({ perClient: 4 });
    const order: string[] = [];
    const answered = work.runAsync('mcp', () =>
      Promise.resolve()
        .then(() => order.push('mcp message answered'))
        .then(() => 'answer'),
    );
    const next = new Promise<void>((resolve) =>
      work.defer('batch', () => {
        order.push('next unit');
        resolve();
      }),
    );
    await expect(answered).resolves.toBe('answer');
    await next;
    expect(order).toEqual(['mcp message answered', 'next unit']);
    await expect(work.runAsync('mcp', () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
  });

  it('refuses a cap below one', () => {
    expect(() => new HeavyWork({ perClient: 0 })).toThrow(RangeError);
  });
});
