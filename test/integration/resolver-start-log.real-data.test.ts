/**
 * What a resolver process writes about LUI patterns when it starts on the complete identifiers.org dataset
 * (REGISTRY_DATASET), at the default LOG_LEVEL (info): one summary line of the ReDoS check, however many
 * patterns it flags (it wrote a warning per flagged pattern, 26 to 28 lines, on every start).
 */
import { startStack, type AreaStack } from '../support/areas.js';
import { stopProcess } from '../support/processes.js';
import { describeRequiring, registryDataset } from '../support/requirements.js';
import { startAreaProcess, type AreaProcess } from '../support/service-processes.js';
import { waitFor } from '../support/wait.js';

const realDataset = registryDataset();

interface LogLine {
  level: number;
  msg: string;
  checked?: number;
  flagged?: number;
}
const INFO = 30;

describeRequiring([realDataset], 'the resolver’s start log on the real dataset', () => {
  let t: AreaStack;
  let resolver: AreaProcess;

  beforeAll(async () => {
    t = await startStack('resolver_start_log_real', { data: { file: realDataset.file as string } });
    resolver = await startAreaProcess('resolver', t, { LOG_LEVEL: 'info' });
  }, 120_000);
  afterAll(async () => {
    await stopProcess(resolver);
    await t?.close();
  });

  it('says what the ReDoS check of the LUI patterns found in one line at info', async () => {
    const lines = () =>
      resolver
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as LogLine);
    const summary = await waitFor(() => lines().find((line) => line.msg.startsWith('LUI patterns checked')), {
      timeoutMs: 120_000,
      what: 'the summary of the pattern checks',
    });
    // The public registry has patterns that can backtrack catastrophically (ncbiprotein's among them).
    expect(summary.flagged).toBeGreaterThan(0);
    const aboutPatterns = lines().filter((line) => line.level >= INFO && /pattern/i.test(line.msg));
    expect(aboutPatterns).toEqual([summary]);
  }, 150_000);
});
