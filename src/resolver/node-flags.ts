/**
 * V8 flags the resolver process runs with (npm start forks it with them; `npm run start:resolver` and the
 * benchmark pass the same). Every resolution allocates short-lived objects and strings; a larger young
 * generation lets nearly all of them die in cheap scavenges instead of being promoted into an old space
 * that, at 100,000 namespaces, already holds half a gigabyte and is costly to collect.
 */
export const RESOLVER_NODE_FLAGS = ['--max-semi-space-size=32'];
