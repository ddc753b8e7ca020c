import { joinJsonInSlices, nextLoopTurn } from '../../src/lib/loop-turns.js';

describe('turns of the event loop shared by large answers', () => {
  it('lets the waiting callers go on one per turn of the loop, first come first served', async () => {
    let turns = 0;
    let ticking = true;
    const tick = (): void => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const resumed: { name: string; turn: number }[] = [];
    const wait = async (name: string) => {
      await nextLoopTurn();
      resumed.push({ name, turn: turns });
    };
    await Promise.all([wait('a'), wait('b'), wait('c')]);
    ticking = false;
    expect(resumed.map((r) => r.name)).toEqual(['a', 'b', 'c']);
    expect(resumed[1]!.turn).toBeGreaterThan(resumed[0]!.turn);
    expect(resumed[2]!.turn).toBeGreaterThan(resumed[1]!.turn);
  });

  it('writes the same text as JSON.stringify of the whole list', async () => {
    const items = Array.from({ length: 1234 }, (_, i) => ({ i, text: `"${i}"\u2028` }));
    expect(`[${await joinJsonInSlices(items, (item) => item, 100)}]`).toBe(JSON.stringify(items));
  });
});
