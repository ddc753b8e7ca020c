/**
 * The route families requests are counted by (curie_http_requests_total's `family`): each area's rate-limit
 * families (http/rate-limiter.ts; which request falls in which is resolverFamilyOf and registryFamilyOf), plus
 * the paths no limit applies to, `health` and `metrics`.
 */
export const RESOLVER_FAMILIES = ['resolution', 'reverse', 'batch', 'dataset', 'browse', 'health', 'metrics'] as const;
export const REGISTRY_FAMILIES = ['browse', 'dataset', 'validators', 'submissions', 'health', 'metrics'] as const;
