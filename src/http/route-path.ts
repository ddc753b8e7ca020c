/**
 * A request path as the areas' routers match it, for what is decided before any router runs (the rate-limit
 * and metrics families). @koa/router is used with its defaults: case-insensitive, one optional trailing
 * slash, on the path as sent (not percent-decoded). Deciding on the path as written let
 * `/RESOLUTIONAPI/getResolverDataset` count as browsing while the dataset route answered it.
 */
export function routePath(path: string): string {
  const lower = path.toLowerCase();
  return lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower;
}

/** Whether the route of `route` (a routePath) is `prefix` or one below it, `prefix` written in any case. */
export function isRouteUnder(route: string, prefix: string): boolean {
  const start = prefix.toLowerCase();
  return route === start || route.startsWith(`${start}/`);
}
