/**
 * The queue board in real Chromium, on loopback: a curator asks for /admin/queues, is sent to the desk's
 * sign-in, signs in with the curator token and lands on the board, which lists every queue of the service;
 * a job a real worker failed is retried from the board's page and completes; the desk's menu leads to the
 * board as well. The Content-Security-Policy
 * and nosniff let every file of the board load (the only thing refused is the font service bull-board's page
 * asks for). Photographed into test/artifacts/.
 *
 * axe-core: bull-board's page is third-party markup that this project cannot fix, so its serious and
 * critical violations are written to test/artifacts/queue-board-axe.json and reported, not failed on; the
 * desk's sign-in page on the way, which is ours, must pass as every page of ours does.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { Browser, ConsoleMessage } from 'playwright-core';
import { queueNames } from '../../src/queue/queues.js';
import { startBothAreas, type BothAreas } from '../support/areas.js';
import { ARTIFACTS, chromiumBrowser, launchChromium, openLoopbackPage, saveScreenshot, seriousAxeViolations, type LoopbackPage } from '../support/browser.js';
import { describeRequiring } from '../support/requirements.js';
import { TEST_REDIS_URL } from '../support/test-database.js';
import { waitFor } from '../support/wait.js';

const QUEUE = queueNames.housekeeping;

describeRequiring([chromiumBrowser()], 'the queue board in a browser', () => {
  let areas: BothAreas;
  let browser: Browser;
  let curator: LoopbackPage;
  let registry: string;
  let connection: Redis;
  let queue: Queue;
  let worker: Worker;
  const consoleErrors: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    areas = await startBothAreas('board_browser', { listeningPublicUrls: true });
    registry = `http://127.0.0.1:${areas.registry.port}`;
    connection = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    queue = new Queue(QUEUE, { connection, prefix: areas.config.QUEUE_PREFIX });
    const runs = new Map<string, number>();
    // Each job fails its first run and completes when retried.
    worker = new Worker(
      QUEUE,
      async (job: Job) => {
        const run = (runs.get(job.id!) ?? 0) + 1;
        runs.set(job.id!, run);
        if (run === 1) throw new Error(`run ${run} of job ${job.id} fails`);
        return { run };
      },
      { connection, prefix: areas.config.QUEUE_PREFIX },
    );
    worker.on('error', () => undefined);
    browser = await launchChromium();
    curator = await openLoopbackPage(browser);
    curator.page.on('console', (message: ConsoleMessage) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    curator.page.on('pageerror', (error) => pageErrors.push(String(error)));
  }, 60_000);

  afterAll(async () => {
    await curator?.context.close();
    expect(curator.refused).toEqual([]);
    await browser?.close();
    await worker?.close();
    await queue?.close();
    connection?.disconnect();
    await areas?.close();
  });

  it('signs a curator in on the way to /admin/queues, lists every queue, and retries a failed job from the page', async () => {
    const job = await queue.add('board-browser-test', {}, { attempts: 1 });
    await waitFor(async () => (await job.getState()) === 'failed', { timeoutMs: 10_000, what: 'the job to fail' });
    const page = curator.page;

    await page.goto(`${registry}/admin/queues`);
    expect(new URL(page.url()).pathname).toBe('/curation/sign-in');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await saveScreenshot(page, 'queue-board-sign-in');
    await page.getByLabel('Curator token', { exact: true }).fill(areas.curatorToken);
    await Promise.all([page.waitForURL(`${registry}/curation/queues`), page.getByRole('button', { name: 'Sign in' }).click()]);

    // Every queue of the service, by name, in the board's menu.
    for (const name of Object.values(queueNames)) {
      await page.getByRole('link', { name, exact: true }).first().waitFor({ timeout: 15_000 });
    }
    await page.getByText('Loading...').waitFor({ state: 'hidden', timeout: 15_000 });
    await saveScreenshot(page, 'queue-board-overview');
    const axe = await seriousAxeViolations(page);
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(path.join(ARTIFACTS, 'queue-board-axe.json'), `${JSON.stringify(axe, null, 2)}\n`);
    if (axe.length > 0) console.info(`bull-board's page (third-party markup, reported only): ${axe.map((v) => `${v.id} (${v.impact})`).join(', ')}`);

    // The failed job, on its queue's page, retried with the board's button.
    await page.goto(`${registry}/curation/queues/queue/${QUEUE}?status=failed`);
    await page.getByText(`run 1 of job ${job.id} fails`).first().waitFor({ timeout: 15_000 });
    await saveScreenshot(page, 'queue-board-failed-job');
    await page.getByRole('button', { name: 'Retry all', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await page.getByText('All failed jobs were sent back to the queue').waitFor({ timeout: 15_000 });
    await waitFor(async () => (await job.getState()) === 'completed', { timeoutMs: 15_000, what: 'the retried job to complete' });
    await page.getByText('No failed jobs in this queue.').waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Confirm', exact: true }).waitFor({ state: 'hidden' });
    await saveScreenshot(page, 'queue-board-retried');

    // The desk's menu leads to the board too.
    await page.goto(`${registry}/curation`);
    await Promise.all([page.waitForURL(`${registry}/curation/queues`), page.getByRole('navigation', { name: 'Curator desk' }).getByRole('link', { name: 'Queues' }).click()]);
    await page.getByRole('link', { name: QUEUE, exact: true }).first().waitFor({ timeout: 15_000 });

    // Nothing the board needs was refused: only the font service its page asks for.
    const refusals = consoleErrors.filter((text) => /Content Security Policy|MIME type|Failed to load/i.test(text));
    expect(refusals.filter((text) => !text.includes('fonts.googleapis.com'))).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
