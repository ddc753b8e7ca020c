import { ResponseCache, type CachedAnswer } from '../../src/registry/rest-api/response-cache.js';

const answer = (bytes: number, at = Date.now()): CachedAnswer => ({
  head: Buffer.alloc(bytes, 'a'),
  tail: null,
  type: 'application/hal+json',
  lastModified: '',
  etag: '"h-test"',
  at,
});

describe('the browse answer cache', () => {
  it('holds at most its bound in bytes, dropping the least recently used answers first', () => {
    const cache = new ResponseCache({ maxBytes: 100_000 });
    cache.get('warm', 'v1');
    for (let i = 0; i < 50; i++) {
      cache.set(`/restApi/namespaces?page=${i}`, 'v1', answer(10_000));
      if (i > 0) cache.get('/restApi/namespaces?page=0', 'v1');
    }
    expect(cache.bytes).toBeLessThanOrEqual(100_000);
    expect(cache.get('/restApi/namespaces?page=0', 'v1')).toBeDefined();
    expect(cache.get('/restApi/namespaces?page=1', 'v1')).toBeUndefined();
    expect(cache.get('/restApi/namespaces?page=49', 'v1')).toBeDefined();
  });

  it('does not keep an answer larger than an entry may be', () => {
    const cache = new ResponseCache({ maxBytes: 1_000_000, maxEntryBytes: 50_000 });
    cache.get('warm', 'v1');
    cache.set('big', 'v1', answer(60_000));
    cache.set('small', 'v1', answer(1_000));
    expect(cache.get('big', 'v1')).toBeUndefined();
    expect(cache.get('small', 'v1')).toBeDefined();
  });

  it('forgets everything when the registry version moves, and an answer older than its time', () => {
    const cache = new ResponseCache({ maxBytes: 1_000_000, ttlMs: 1000 });
    cache.get('warm', 'v1');
    cache.set('a', 'v1', answer(10));
    cache.set('old', 'v1', answer(10, Date.now() - 2000));
    expect(cache.get('old', 'v1')).toBeUndefined();
    expect(cache.get('a', 'v2')).toBeUndefined();
    expect(cache.get('a', 'v1')).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  it('keeps nothing with a bound of 0', () => {
    const cache = new ResponseCache({ maxBytes: 0 });
    cache.get('warm', 'v1');
    cache.set('a', 'v1', answer(10));
    expect(cache.get('a', 'v1')).toBeUndefined();
  });
});
