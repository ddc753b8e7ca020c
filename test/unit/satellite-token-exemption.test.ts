// Requests carrying SATELLITE_TOKEN are part of the deployment (a satellite polls the feed every second and
// sends usage batches), so the rate limits let them through, as they do the curator token; nothing else.
import { loadConfig } from '../../src/config.js';
import { memoryRateLimits } from '../../src/http/rate-limiter.js';

const SATELLITE_TOKEN = 'satellite-token-of-the-exemption-test-0123456789';

const limitsWith = (env: Record<string, string>) =>
  memoryRateLimits({ config: loadConfig({ RATE_LIMITS: 'true', ...env }), families: ['browse', 'submissions'], onError: () => undefined, instances: 1 });

describe('the rate limits and the satellite token', () => {
  it('exempt a request with the satellite token, and not one with another bearer token', () => {
    const limits = limitsWith({ SATELLITE_TOKEN });
    expect(limits.exempt(`Bearer ${SATELLITE_TOKEN}`)).toBe(true);
    expect(limits.exempt(`Bearer ${SATELLITE_TOKEN}x`)).toBe(false);
    expect(limits.exempt(undefined)).toBe(false);
  });

  it('exempt nothing for it while SATELLITE_TOKEN is empty', () => {
    const limits = limitsWith({});
    expect(limits.exempt('Bearer ')).toBe(false);
    expect(limits.exempt(`Bearer ${SATELLITE_TOKEN}`)).toBe(false);
  });
});
