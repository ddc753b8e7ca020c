import path from 'node:path';
import { ajv, type ErrorObject } from './lib/json-schema.js';
import { projectRoot } from './lib/project-root.js';
import { parseTrustedProxies } from './lib/trusted-proxies.js';

/**
 * Every setting of the service, read from the environment once at start.
 * Nothing else in the code reads process.env: it receives a Config.
 */
const configSchema = {
  type: 'object',
  properties: {
    DATABASE_URL: {
      type: 'string',
      pattern: '^postgres(ql)?://',
      maxLength: 2000,
      default: 'postgres://postgres@127.0.0.1:5432/curie_resolver',
      description: 'PostgreSQL connection URL; the database is created on start if it is missing.',
    },
    DATABASE_READ_URL: {
      type: 'string',
      pattern: '^(postgres(ql)?://.+)?$',
      maxLength: 2000,
      default: '',
      description: 'A read replica of DATABASE_URL (streaming replication): the registry browse API and the resolver snapshot read from it; writes, migrations and change notifications (LISTEN) stay on DATABASE_URL. Empty: everything reads DATABASE_URL.',
    },
    REDIS_URL: {
      type: 'string',
      pattern: '^rediss?://',
      maxLength: 2000,
      default: 'redis://127.0.0.1:6379',
      description: 'Redis connection URL (queues and usage counters only; no registry data).',
    },
    REDIS_SENTINELS: {
      type: 'string',
      pattern: '^([^,:\\s]+:[0-9]{1,5}(,[^,:\\s]+:[0-9]{1,5})*)?$',
      maxLength: 2000,
      default: '',
      description: 'Redis Sentinel: the Sentinels as host:port,host:port. When set, every connection asks them for the current primary named REDIS_SENTINEL_NAME and follows its failovers; REDIS_URL then gives only the database number and the password. Empty: REDIS_URL is the server.',
    },
    REDIS_SENTINEL_NAME: {
      type: 'string',
      pattern: '^[A-Za-z0-9_.-]+$',
      maxLength: 100,
      default: 'mymaster',
      description: 'The primary\'s name the Sentinels watch (their `sentinel monitor <name> …`); used only with REDIS_SENTINELS.',
    },
    HOST: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      default: '0.0.0.0',
      description: 'Address both HTTP areas listen on.',
    },
    RESOLVER_PORT: {
      type: 'integer',
      minimum: 0,
      maximum: 65535,
      default: 8080,
      description: 'Port of the resolver area (resolution, redirects, reverse lookup).',
    },
    REGISTRY_PORT: {
      type: 'integer',
      minimum: 0,
      maximum: 65535,
      default: 8081,
      description: 'Port of the registry area (browse, dataset, registration, statistics).',
    },
    RESOLVER_METRICS_PORT: {
      type: 'integer',
      minimum: 0,
      maximum: 65535,
      default: 0,
      description: 'Port of a listener of its own for the resolver\'s Prometheus /metrics (on HOST), e.g. one only the monitoring network reaches (npm run start:cluster gives its second resolver the port after it). 0: /metrics is served on RESOLVER_PORT.',
    },
    REGISTRY_METRICS_PORT: {
      type: 'integer',
      minimum: 0,
      maximum: 65535,
      default: 0,
      description: 'Port of a listener of its own for the registry area\'s Prometheus /metrics (on HOST; npm run start:cluster gives its second registry area the port after it). 0: /metrics is served on REGISTRY_PORT.',
    },
    WORKER_METRICS_PORT: {
      type: 'integer',
      minimum: 0,
      maximum: 65535,
      default: 0,
      description: 'Port of the worker process\'s Prometheus /metrics listener (on HOST): queue depths, job outcomes, dataset builds, URL and link checks (npm run start:cluster gives its second worker the port after it). 0: the worker serves no metrics.',
    },
    METRICS_TOKEN: {
      type: 'string',
      // A space could never be matched by `Authorization: Bearer <token>`: the metrics could never be read.
      pattern: '^(\\S{16,})?$',
      maxLength: 1000,
      default: '',
      description: 'Bearer token /metrics asks for (Authorization: Bearer <token>) on every part, whichever port serves it; without it a scrape is answered 401. At least 16 characters without whitespace. Empty: /metrics is open to whoever reaches its port.',
    },
    PUBLIC_RESOLVER_URL: {
      type: 'string',
      pattern: '^https?://[^/?#]+(/[^?#]*)?$',
      maxLength: 2000,
      default: 'http://localhost:8080',
      description: 'Public base URL of the resolver area, used for every absolute resolver link printed.',
    },
    PUBLIC_REGISTRY_URL: {
      type: 'string',
      pattern: '^https?://[^/?#]+(/[^?#]*)?$',
      maxLength: 2000,
      default: 'http://localhost:8081',
      description: 'Public base URL of the registry area, used for every absolute registry link printed.',
    },
    LOG_LEVEL: {
      type: 'string',
      enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      default: 'info',
      description: 'Log level. One line per request is written at debug; at info only a sample of requests (see LOG_REQUEST_SAMPLE_RATE) and every error.',
    },
    LOG_REQUEST_SAMPLE_RATE: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      default: 0.001,
      description: 'Share of requests logged at info level; an access line per request costs about 13 % of resolution throughput.',
    },
    HTTP_REQUEST_TIMEOUT_MS: {
      type: 'integer',
      minimum: 1000,
      maximum: 600000,
      default: 30000,
      description: 'Longest time a client may take to send a whole request (Node requestTimeout).',
    },
    HTTP_KEEP_ALIVE_TIMEOUT_MS: {
      type: 'integer',
      minimum: 1000,
      maximum: 600000,
      default: 65000,
      description: 'Idle keep-alive timeout; above the usual 60 s of load balancers so they close first.',
    },
    SHUTDOWN_TIMEOUT_MS: {
      type: 'integer',
      minimum: 100,
      maximum: 120000,
      default: 10000,
      description: 'After a stop signal, force the exit after this long if connections or jobs do not drain.',
    },
    SNAPSHOT_CHECK_INTERVAL_MS: {
      type: 'integer',
      minimum: 100,
      maximum: 3600000,
      default: 30000,
      description: 'How often the resolver checks the registry version in case a change notification was missed (changes normally arrive at once through LISTEN/NOTIFY).',
    },
    REGISTRY_CACHE_MAX_MB: {
      type: 'integer',
      minimum: 0,
      maximum: 65536,
      default: 256,
      description: 'Registry area: bound on the browse API\'s (/restApi) cache of whole answers, in MB of their JSON text; the least recently used answers are dropped beyond it (every page of 100,000 namespaces sorted one way is about 100 MB: below that, a crawl through the pages misses on every page). Answers are kept per registry version and per what the route reads of the query (paging, sort, search parameters), so made-up parameters cannot fill it. 0 turns the cache off.',
    },
    USAGE_COUNTING: {
      type: 'boolean',
      default: true,
      description: 'Count resolutions per namespace for the usage statistics (requests with DNT: 1 are never counted).',
    },
    USAGE_FLUSH_INTERVAL_MS: {
      type: 'integer',
      minimum: 100,
      maximum: 60000,
      default: 1000,
      description: 'How often the in-process usage counters are flushed to Redis; a crash loses at most this much.',
    },
    TRUST_PROXY: {
      type: 'string',
      // false, true, a hop count, or a comma-separated list of addresses and CIDR blocks (checked further in client-address.ts).
      pattern: '^(false|true|[0-9]{1,2}|[0-9A-Fa-f:.]+(/[0-9]{1,3})?(\\s*,\\s*[0-9A-Fa-f:.]+(/[0-9]{1,3})?)*)$',
      maxLength: 4000,
      default: 'false',
      description: 'Which X-Forwarded-For entries to believe for the client address (rate limits, fair sharing, usage counts). false: none, the connection\'s peer is the client. A number N: N proxies of yours append to X-Forwarded-For, the client is the N-th address from the right (1 for one nginx or HAProxy). A comma-separated list of addresses and CIDR blocks (10.0.0.0/8, 192.168.1.7): the proxies you run; the client is the right-most address that is not one of them, when the peer is one. true: every entry, the client is the left-most (only when your proxy replaces the header, since a client can write its own).',
    },
    RESOLVER_HEAVY_REQUESTS_PER_CLIENT: {
      type: 'integer',
      minimum: 1,
      maximum: 10000,
      default: 4,
      description: 'Heavy resolver requests (POST /resolve/batch, POST /reverse/batch, long similarity lookups, POST /mcp) one client address may have under way at once; more answer 429 with Retry-After. Heavy work is done in slices shared fairly between clients, so single resolutions stay fast meanwhile. Behind a reverse proxy set TRUST_PROXY, or every client counts as the proxy.',
    },
    RESOLVER_MCP: {
      type: 'boolean',
      default: true,
      description: 'Serve the MCP server (Model Context Protocol, Streamable HTTP, stateless) at POST /mcp on the resolver area: the tools resolve, resolveBest, convert, getSimilar, searchRegistry and describeNamespace, and three prompts. Its requests count against RATE_LIMIT_RESOLUTION, each message of a JSON-RPC batch as one. Off: /mcp answers 404.',
    },
    RATE_LIMITS: {
      type: 'boolean',
      default: true,
      description: 'Rate limits per client address and route family (RATE_LIMIT_*; answered 429 with Retry-After, RateLimit and RateLimit-Policy). false turns every limit off. Health checks, /metrics and requests with the curator token are never limited.',
    },
    RESOLVER_INSTANCES: {
      type: 'integer',
      minimum: 1,
      maximum: 1000,
      default: 1,
      description: 'How many resolver processes share the traffic behind your load balancer. The resolver keeps its limits in memory (no Redis round trip per resolution), each process allowing RATE_LIMIT_*/RESOLVER_INSTANCES of a client\'s requests, so that the deployment as a whole allows about the setting.',
    },
    RATE_LIMIT_RESOLUTION: {
      type: 'integer',
      minimum: 0,
      maximum: 100000000,
      default: 6000,
      description: 'Resolver: resolutions (GET /{compactId}, JSON or redirect; MIR ids and landing pages; MCP messages to POST /mcp) per client address per minute. 0: unlimited.',
    },
    RATE_LIMIT_REVERSE: {
      type: 'integer',
      minimum: 0,
      maximum: 100000000,
      default: 1200,
      description: 'Resolver: single reverse lookups (POST /reverse/byPrefix, /reverse/bySimilarity) per client address per minute. 0: unlimited.',
    },
    RATE_LIMIT_BATCH: {
      type: 'integer',
      minimum: 0,
      maximum: 100000000,
      default: 60000,
      description: 'Resolver: items of batches (POST /resolve/batch, /reverse/batch; a batch counts one per item, at least one) and provider-metadata requests (/metadataApi/..., one each) per client address per minute. 0: unlimited.',
    },
    RATE_LIMIT_VALIDATORS: {
      type: 'integer',
      minimum: 0,
      maximum: 100000000,
      default: 300,
      description: 'Registry: registration field validators (POST .../validate*) and ROR lookups per client address per minute, across every registry process (Redis). 0: unlimited.',
    },
    RATE_LIMIT_SUBMISSIONS: {
      type: 'integer',
      minimum: 0,
      maximum: 100000000,
      default: 30,
      description: 'Registry: registration requests, requesters\' comments and every other write (POST, PUT, PATCH, DELETE) but the validators per client address per minute, across every registry process (Redis). 0: unlimited.',
    },
    RATE_LIMIT_BROWSE: {
      type: 'integer',
      minimum: 0,
      maximum: 100000000,
      default: 1200,
      description: 'Registry: reads (/restApi, search, pages, statistics, schema.org, the health API, /openapi.json and /docs) per client address per minute, across every registry process (Redis); on each resolver, its /openapi.json and /docs (in memory, a share per RESOLVER_INSTANCES). 0: unlimited.',
    },
    RATE_LIMIT_DATASET: {
      type: 'integer',
      minimum: 0,
      maximum: 100000000,
      default: 60,
      description: 'Whole-registry downloads per client address per minute: the dataset and the EBI Search export on the registry (shared through Redis), the insight API on each resolver. 0: unlimited.',
    },
    RESOLVER_CACHE_MAX_AGE: {
      type: 'integer',
      minimum: 0,
      maximum: 31536000,
      default: 300,
      description: 'Resolver: Cache-Control max-age (seconds) of resolution answers (JSON and redirects), which also carry an ETag of the registry snapshot and answer 304 to If-None-Match, for a CDN or browser cache in front.',
    },
    RESOLVER_ERROR_CACHE_MAX_AGE: {
      type: 'integer',
      minimum: 0,
      maximum: 31536000,
      default: 60,
      description: 'Resolver: Cache-Control max-age (seconds) of failed resolutions (400 and 404, JSON or the HTML page): short, so that a namespace just registered is not hidden long by a cache. 0: no-store.',
    },
    QUEUE_PREFIX: {
      type: 'string',
      // Letters, digits, _ . - and at most one {hash tag}, which Redis Cluster needs (see deploy/README.md).
      pattern: '^[A-Za-z0-9_.-]*(\\{[A-Za-z0-9_.-]+\\})?[A-Za-z0-9_.-]*$',
      minLength: 1,
      maxLength: 100,
      default: 'bull',
      description: 'Redis key prefix of every BullMQ queue; deployments sharing one Redis use different ones. On Redis Cluster give it a hash tag, e.g. {curie}, so that each queue\'s keys share one slot.',
    },
    CLUSTER_BACKEND_PORT: {
      type: 'integer',
      minimum: 1,
      maximum: 65531,
      default: 18080,
      description: 'npm run start:cluster: the first of the five consecutive ports its instances listen on at 127.0.0.1 (resolver 1 and 2, registry 1 and 2, behind HAProxy on RESOLVER_PORT and REGISTRY_PORT; then its satellite resolver).',
    },
    SATELLITE_UPSTREAM_URL: {
      type: 'string',
      pattern: '^(https?://[^/?#\\s]+(/[^?#\\s]*)?)?$',
      maxLength: 2000,
      default: '',
      description: 'Satellite resolver (node dist/src/cli.js satellite): base URL of the upstream registry area it loads the registry from (GET /resolutionApi/getResolverDataset) and whose change feed (GET /changes) it follows, e.g. https://registry.example.org. Required by the satellite; unused by the other parts.',
    },
    SATELLITE_TOKEN: {
      type: 'string',
      // A space could never be matched by `Authorization: Bearer <token>`.
      pattern: '^(\\S{32,})?$',
      maxLength: 1000,
      default: '',
      description: 'Shared bearer token of the satellite resolvers and their upstream registry area: the registry area serves its satellite API (/satelliteApi: changed namespaces, usage batches) only to requests carrying it, and does not rate-limit them; a satellite sends it with every upstream request. At least 32 characters without whitespace. Empty: the registry area answers /satelliteApi 404, and a satellite will not start.',
    },
    SATELLITE_POLL_INTERVAL_MS: {
      type: 'integer',
      minimum: 200,
      maximum: 600000,
      default: 1000,
      description: 'Satellite resolver: how often it asks the upstream change feed for new changes (and, while the upstream is unreachable, tries it again).',
    },
    SATELLITE_MEASUREMENT_INTERVAL_MS: {
      type: 'integer',
      minimum: 200,
      maximum: 3600000,
      // The resolvers' own cadence (resolver/snapshot-store.ts): the 7-day window slides even without new checks.
      default: 300000,
      description: 'Satellite resolver: how often it reads the link-check measurements the providers are ranked by from the upstream (GET /satelliteApi/measurements), as the resolvers read them from Postgres every 5 minutes; also read after every load of the dataset.',
    },
    SATELLITE_SNAPSHOT_DIR: {
      type: 'string',
      minLength: 1,
      maxLength: 4000,
      default: 'var/satellite',
      description: 'Satellite resolver: the directory (relative to the project) where it keeps its last registry snapshot, so that it serves after a restart while the upstream is unreachable.',
    },
    DATASET_DIR: {
      type: 'string',
      minLength: 1,
      maxLength: 4000,
      default: 'var/dataset',
      description: 'Directory of the prebuilt resolver dataset files (written by the worker, served by the registry area; both must see the same directory). A relative path is taken from the project root.',
    },
    DATASET_RETENTION_DAYS: {
      type: 'integer',
      minimum: 1,
      maximum: 36500,
      default: 365,
      description: 'How many days each dated dataset (DATASET_DIR/dated/YYYY-MM-DD, served by getResolverDataset?version=) is kept; the hourly housekeeping job prunes older ones, which then answer 410.',
    },
    DATASET_FIRST_BUILD_WAIT_MS: {
      type: 'integer',
      minimum: 0,
      maximum: 600000,
      default: 60000,
      description: 'When no dataset has been built yet, how long a request for it waits for the first build before answering 503 with Retry-After.',
    },
    WORKER_LOCK_DURATION_MS: {
      type: 'integer',
      minimum: 1000,
      maximum: 3600000,
      default: 30000,
      description: 'How long a worker holds a job without renewing its lock, and how often workers look for stalled jobs: a job whose worker died is retried by another worker after about twice this long.',
    },
    WORKER_SCHEDULE_CHECK_INTERVAL_MS: {
      type: 'integer',
      minimum: 100,
      maximum: 3600000,
      default: 60000,
      description: 'How often each worker checks that every job schedule (nightly dataset build and usage rollup, notification poll, housekeeping) is still in Redis, and puts back any that an emptied or replaced Redis lost (it also checks on every reconnection).',
    },
    URL_CHECK_WAIT_MS: {
      type: 'integer',
      minimum: 0,
      maximum: 600000,
      default: 15000,
      description: 'How long a registration validation waits for a live URL check done by the worker; past it the validation answers that the check is still running (400, or 503 with Retry-After for registerPrefix).',
    },
    URL_CHECK_CACHE_SECONDS: {
      type: 'integer',
      minimum: 1,
      maximum: 86400,
      default: 300,
      description: 'How long the verdict of a live URL check is reused for the same URL before the URL is fetched again.',
    },
    URL_CHECK_TIMEOUT_MS: {
      type: 'integer',
      minimum: 100,
      maximum: 120000,
      default: 10000,
      description: 'Total time a live URL check may take (every redirect and the first MiB of the body included) before it fails as not answering.',
    },
    URL_CHECK_ALLOW_PRIVATE_NETWORKS: {
      type: 'boolean',
      default: false,
      description: 'Let live URL checks reach loopback, private, link-local and other non-public addresses. Off in production (server-side request forgery guard); only for private deployments and tests.',
    },
    URL_CHECK_CONCURRENCY: {
      type: 'integer',
      minimum: 1,
      maximum: 200,
      default: 10,
      description: 'Live URL checks one worker process runs at once (at most 2 of them against the same host).',
    },
    LINKCHECK_ENABLED: {
      type: 'boolean',
      default: false,
      description: 'Run the scheduled link checks (every provider\'s sample URL and home page, spread over LINKCHECK_INTERVAL; they decide the providers\' measured reliability). Set true in production. Off by default so that tests, benchmarks and a developer\'s npm start never send requests to the real providers; npm run linkcheck starts a run whatever this says.',
    },
    LINKCHECK_INTERVAL: {
      type: 'string',
      pattern: '^[1-9][0-9]{0,8}(ms|s|m|h|d)$',
      maxLength: 16,
      default: '24h',
      description: 'How often a link-check run is planned, and the time its checks are spread over (never all at once): a whole number with a unit, ms, s, m, h or d (e.g. 12h, 90m).',
    },
    LINKCHECK_CONCURRENCY: {
      type: 'integer',
      minimum: 1,
      maximum: 200,
      default: 10,
      description: 'Link checks one worker process runs at once (the per-host limits below hold across all processes).',
    },
    LINKCHECK_HOST_CONCURRENCY: {
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 2,
      description: 'Link-check requests to one host at once, across every worker process (kept in Redis).',
    },
    LINKCHECK_HOST_DELAY_MS: {
      type: 'integer',
      minimum: 0,
      maximum: 600000,
      default: 1000,
      description: 'Least time between the starts of two link-check requests to one host, across every worker process (kept in Redis).',
    },
    LINKCHECK_TIMEOUT_MS: {
      type: 'integer',
      minimum: 100,
      maximum: 120000,
      default: 15000,
      description: 'Total time one link-check request may take (redirects and the first 64 KiB of the body included) before it counts as a timeout.',
    },
    LINKCHECK_HISTORY_DAYS: {
      type: 'integer',
      minimum: 1,
      maximum: 3650,
      default: 30,
      description: 'How long link-check results (and finished runs) are kept; the hourly housekeeping job deletes older ones.',
    },
    LINKCHECK_CONTACT_URL: {
      type: 'string',
      pattern: '^(https?://\\S+)?$',
      maxLength: 2000,
      default: '',
      description: 'Named in the User-Agent of link checks, so that a provider\'s operator can find out who checks their site and how to reach whoever runs it (a page about your deployment with a contact address). Empty: PUBLIC_REGISTRY_URL.',
    },
    METADATA_WAIT_MS: {
      type: 'integer',
      minimum: 0,
      maximum: 60000,
      default: 5000,
      description: 'Resolver: how long a provider-metadata request (/metadataApi/...) waits for the worker to fetch the page before answering 202 with Retry-After (the fetch goes on, and a later request is served from the cache).',
    },
    METADATA_CACHE_SECONDS: {
      type: 'integer',
      minimum: 1,
      maximum: 2592000,
      default: 86400,
      description: 'How long the metadata extracted from a provider page is kept in Redis and served without fetching the page again (answers carry an Age header).',
    },
    METADATA_ERROR_CACHE_SECONDS: {
      type: 'integer',
      minimum: 1,
      maximum: 86400,
      default: 60,
      description: 'How long a failed provider-metadata fetch (page unreachable, refused address, no metadata) is answered from Redis before the page is fetched again.',
    },
    METADATA_TIMEOUT_MS: {
      type: 'integer',
      minimum: 100,
      maximum: 120000,
      default: 10000,
      description: 'Total time the metadata worker gives one provider page (every redirect and the body read included) before it answers 504.',
    },
    METADATA_MAX_BODY_BYTES: {
      type: 'integer',
      minimum: 1024,
      maximum: 10485760,
      default: 1048576,
      description: 'The most of a provider page the metadata worker reads; the metadata is extracted from what was read (the head of a page holds it).',
    },
    METADATA_CONCURRENCY: {
      type: 'integer',
      minimum: 1,
      maximum: 200,
      default: 5,
      description: 'Provider pages one worker process fetches for their metadata at once (the per-host limits below hold across all processes).',
    },
    METADATA_HOST_CONCURRENCY: {
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 2,
      description: 'Metadata fetches to one host at once, across every worker process (kept in Redis).',
    },
    METADATA_HOST_DELAY_MS: {
      type: 'integer',
      minimum: 0,
      maximum: 600000,
      default: 500,
      description: 'Least time between the starts of two metadata fetches from one host, across every worker process (kept in Redis).',
    },
    ROR_API_URL: {
      type: 'string',
      pattern: '^(off|https?://[^/?#]+(/[^?#]*)?)$',
      maxLength: 2000,
      default: 'https://api.ror.org/v2',
      description: 'Base URL of the ROR API (version 2) that an institution lookup by ROR id asks when the registry has no institution with that id (/rorIdApi/getInstitutionForRorId and the request forms), as {ROR_API_URL}/organizations/{id}, through the guarded fetcher (loopback and private addresses only with URL_CHECK_ALLOW_PRIVATE_NETWORKS). off: only the registry\'s own institutions are found.',
    },
    IDEMPOTENCY_KEY_RETENTION_HOURS: {
      type: 'integer',
      minimum: 1,
      maximum: 8760,
      default: 24,
      description: 'How long a submission retried with the same Idempotency-Key gets the first answer back; older keys are deleted by the hourly housekeeping job.',
    },
    SEED_SAMPLE_REGISTRY: {
      type: 'boolean',
      default: true,
      description: 'Load the small sample registry on start when the registry is empty.',
    },
    REGISTRATION_REQUESTS_PER_DAY: {
      type: 'integer',
      minimum: 0,
      maximum: 100000000,
      default: 20,
      description: 'Registration requests (prefix and resource, API and forms) one client address may have stored per day (24 hours from its first), across every registry process (Redis); the next is refused 429 with Retry-After before any check runs. Curators (the curator token, a desk session) are exempt; off with RATE_LIMITS=false. 0: unlimited.',
    },
    REGISTRATION_MIN_DESCRIPTION_LENGTH: {
      type: 'integer',
      minimum: 0,
      maximum: 1999,
      default: 50,
      description: 'Registration requests: every description (namespace, provider, institution, authentication help) must be LONGER than this many characters, counted after trimming and collapsing runs of whitespace.',
    },
    REGISTRATION_URL_PATTERN_SIMILARITY: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      default: 0.9,
      description: 'Registration requests: a provider URL pattern whose pg_trgm similarity to an existing resource\'s pattern is above this is refused as a probable duplicate (resource requests compare only with active resources of other namespaces).',
    },
    SPARQL_TIMEOUT_MS: {
      type: 'integer',
      minimum: 100,
      maximum: 600000,
      default: 5000,
      description: 'SPARQL endpoint (/sparql): longest a query may run in its worker thread; a slower one is stopped (its thread terminated and replaced) and answered 503 saying so. Also bounds the memory a query can take, which grows with its running time.',
    },
    SPARQL_MAX_QUERY_LENGTH: {
      type: 'integer',
      minimum: 100,
      maximum: 1000000,
      default: 20000,
      description: 'SPARQL endpoint: longest query in characters; a longer one is refused with 414 (in the URL) or 413 (in the body). Behind the endpoint\'s URL, HTTP servers also limit a GET\'s length (POST a long query).',
    },
    SPARQL_MAX_RESULT_BYTES: {
      type: 'integer',
      minimum: 1024,
      maximum: 1073741824,
      default: 10485760,
      description: 'SPARQL endpoint: largest answer in bytes; a query whose answer would be larger is refused with 400 saying so (nothing is truncated): narrow it or add a LIMIT.',
    },
    SPARQL_THREADS: {
      type: 'integer',
      minimum: 1,
      maximum: 64,
      default: 2,
      description: 'SPARQL endpoint: worker threads answering queries, each holding the registry\'s RDF (tens of MB); started on the first query.',
    },
    SPARQL_QUERIES_PER_CLIENT: {
      type: 'integer',
      minimum: 1,
      maximum: 1000,
      default: 2,
      description: 'SPARQL endpoint: queries one client address may have waiting or running at once; more answer 429 with Retry-After. A free thread takes the next query of the waiting client with the fewest running. Behind a reverse proxy set TRUST_PROXY.',
    },
    REGEX_CHECK_TIMEOUT_MS: {
      type: 'integer',
      minimum: 10,
      maximum: 60000,
      default: 500,
      description: 'Registration requests: longest time a user-supplied ID regex pattern may take to compile and test against the sample ID, in a worker thread; a slower pattern (catastrophic backtracking) is refused as invalid and its thread replaced.',
    },
    REGEX_CHECKS_PER_CLIENT: {
      type: 'integer',
      minimum: 1,
      maximum: 1000,
      default: 2,
      description: 'Registration requests: ID regex checks one client address may have waiting or running at once (identical checks under way are shared and not counted); more answer 429 with Retry-After. Free check threads go to the waiting client with the fewest checks running. Behind a reverse proxy set TRUST_PROXY, or every client counts as the proxy.',
    },
    REGEX_CHECK_QUEUE_WAIT_MS: {
      type: 'integer',
      minimum: 100,
      maximum: 600000,
      default: 5000,
      description: 'Registration requests: longest an ID regex check waits for a free check thread; past it the check is refused with 503 and Retry-After (nothing is decided about the pattern).',
    },
    REGEX_MAX_PATTERN_LENGTH: {
      type: 'integer',
      minimum: 1,
      maximum: 100000,
      default: 1000,
      description: 'Registration requests: longest accepted ID regex pattern, in characters; longer ones are refused as invalid without being compiled.',
    },
    CURATOR_TOKEN: {
      type: 'string',
      // A space could never be matched by `Authorization: Bearer <token>`: curation would silently never work.
      pattern: '^(\\S{32,})?$',
      maxLength: 1000,
      default: '',
      description: 'Bearer token of the curators (Authorization: Bearer <token>) for the curation endpoints: open sessions, events, amend, comment, reject, accept. Empty: curation is off and those endpoints answer 404. Otherwise at least 32 characters without whitespace (a long random value, e.g. openssl rand -hex 32); anything else stops the service at start.',
    },
    CURATOR_NAME: {
      type: 'string',
      // Recorded as the actor of every curation event made with CURATOR_TOKEN: a name, not blank.
      pattern: '^\\S(.*\\S)?$',
      maxLength: 255,
      default: 'curator',
      description: 'The name recorded as the actor of every curation event made with CURATOR_TOKEN (session events, registry edits, deactivations, deletions).',
    },
    CURATOR_SESSION_HOURS: {
      type: 'integer',
      minimum: 1,
      maximum: 720,
      default: 8,
      description: 'How long a sign-in to the curator desk (/curation) lasts, in hours; the curator then signs in again. Sessions are kept in PostgreSQL (curator_sessions), so signing out ends one at once.',
    },
    OIDC_ISSUER: {
      type: 'string',
      // https, or http for a provider on this machine (local development, tests).
      pattern: '^(https://[^/?#\\s]+(/[^?#\\s]*)?|http://(127\\.0\\.0\\.1|localhost|\\[::1\\])(:[0-9]+)?(/[^?#\\s]*)?)?$',
      maxLength: 2000,
      default: '',
      description: 'Issuer URL of an OpenID Connect provider the curators sign in to the desk with (authorization code flow with PKCE; its discovery document is read from <issuer>/.well-known/openid-configuration). The provider must allow the redirect URI PUBLIC_REGISTRY_URL/curation/oidc/callback. With OIDC_API_AUDIENCE, the curator APIs take its access tokens too. https, or http on 127.0.0.1 or localhost only. Empty: the desk signs in with CURATOR_TOKEN only.',
    },
    OIDC_CLIENT_ID: {
      type: 'string',
      maxLength: 1000,
      default: '',
      description: 'Client id of the registry at the OpenID Connect provider, for the desk sign-in (required with OIDC_ISSUER, unless the provider is set for access tokens only: OIDC_API_AUDIENCE without a desk sign-in).',
    },
    OIDC_CLIENT_SECRET: {
      type: 'string',
      maxLength: 1000,
      default: '',
      description: 'Client secret of the registry at the OpenID Connect provider (sent as client_secret_post). Empty: a public client, with PKCE only.',
    },
    OIDC_CURATORS: {
      type: 'string',
      maxLength: 10000,
      default: '',
      description: 'Who may sign in to the desk with OpenID Connect: a comma-separated list of subjects (the provider\'s sub claim) and e-mail addresses (matched, whatever their case, against an e-mail the provider says is verified). Required with OIDC_CLIENT_ID; anyone else is refused after signing in at the provider.',
    },
    OIDC_API_AUDIENCE: {
      type: 'string',
      maxLength: 1000,
      default: '',
      description: 'Turns on OpenID Connect access tokens on the curator APIs (as the reference web app sends them after a Keycloak sign-in): a bearer token that is a JWT is verified against the keys of OIDC_ISSUER (discovery document, jwks_uri; signature RS, PS, ES or EdDSA, issuer, expiry) and must carry this audience (aud claim, e.g. the Keycloak client id hq-registry). Needs OIDC_ISSUER and OIDC_CURATOR_ROLE. Empty: the curator APIs take CURATOR_TOKEN only.',
    },
    OIDC_CURATOR_ROLE: {
      type: 'string',
      maxLength: 1000,
      default: '',
      description: 'Which access tokens are curators\': a role or group name (a comma-separated list: any of them), looked up in the token\'s realm_access.roles, resource_access.<OIDC_API_AUDIENCE>.roles, groups (also as the Keycloak group path /name) and roles claims. A valid token without it is answered 403. Required with OIDC_API_AUDIENCE.',
    },
    CURATION_CORS_ORIGINS: {
      type: 'string',
      // Comma-separated origins (scheme, host and port; no path but a trailing slash): what a browser sends as Origin.
      pattern: '^(https?://[^/,\\s]+/?(\\s*,\\s*https?://[^/,\\s]+/?)*)?$',
      maxLength: 4000,
      default: '',
      description: 'Comma-separated origins (e.g. https://curation.example.org) whose pages may send curators\' requests (PATCH, PUT, DELETE and POST with Authorization) across origins: their CORS preflights are allowed. Empty: no other origin may.',
    },
    CURATOR_EMAIL: {
      type: 'string',
      maxLength: 1000,
      default: '',
      description: 'Where the notice of each new registration request goes (a comma-separated list is allowed). Empty: no curator notice is written.',
    },
    SMTP_URL: {
      type: 'string',
      pattern: '^(smtps?://.+)?$',
      maxLength: 2000,
      default: '',
      description: 'SMTP server the notification worker sends e-mail through, e.g. smtp://user:password@smtp.example.org:587 (STARTTLS when offered) or smtps://... (TLS). Empty: notifications are written to the log (info) instead of sent.',
    },
    NOTIFICATION_FROM: {
      type: 'string',
      minLength: 3,
      maxLength: 255,
      default: 'registry@localhost',
      description: 'From address of the notification e-mails.',
    },
    NOTIFICATION_POLL_INTERVAL_MS: {
      type: 'integer',
      minimum: 100,
      maximum: 3600000,
      default: 5000,
      description: 'How often the notification worker looks for e-mails to send (a failed send is retried with back-off, at most 10 attempts).',
    },
  },
  additionalProperties: true,
} as const;

/**
 * A setting's type, read from its schema: the enum's values, a number, a boolean or a string. The settings
 * are all given a default, so none is optional.
 */
type SettingValue<S> = S extends { enum: readonly (infer E)[] }
  ? E
  : S extends { type: 'integer' | 'number' }
    ? number
    : S extends { type: 'boolean' }
      ? boolean
      : string;

type SettingSchemas = typeof configSchema.properties;

/** Every setting, typed from configSchema so the two cannot drift. */
export type Config = { -readonly [K in keyof SettingSchemas]: SettingValue<SettingSchemas[K]> };

export type ConfigKey = keyof Config;
export const configKeys = Object.keys(configSchema.properties) as ConfigKey[];

/** A setting's default, for code that runs without the settings (a script building the dataset). */
export function settingDefault<K extends ConfigKey>(name: K): Config[K] {
  return (configSchema.properties[name] as { default: unknown }).default as Config[K];
}

/** Descriptions for the README and `--help` output, straight from the schema. */
export function describeConfig(): { name: string; default: unknown; description: string }[] {
  return Object.entries(configSchema.properties).map(([name, p]) => ({
    name,
    default: p.default,
    description: p.description,
  }));
}

/** The descriptions of `names` only, in the schema's order (a command's `--help`). */
export function describeSettings(names: readonly ConfigKey[]): { name: string; default: unknown; description: string }[] {
  return describeConfig().filter(({ name }) => names.includes(name as ConfigKey));
}

/**
 * The `.env.example` of the repository, made from the config schema so the two cannot drift (a test
 * compares them): every setting commented out at its default, so a copy changes nothing until edited.
 */
export function envExample(): string {
  const blocks = describeConfig().map(({ name, default: value, description }) => {
    const shown = value === undefined ? '' : String(value);
    return `# ${description}\n# ${name}=${shown}`;
  });
  return [
    '# Every setting of curie-resolver with its default (generated: node dist/src/cli.js settings > .env.example).',
    '# Copy it to .env and uncomment what you change: every npm script and `node dist/src/cli.js <command>` read',
    '# .env from the folder they run in, and docker compose passes it to the service (env_file). A variable set',
    '# in the environment wins over the file.',
    '',
    blocks.join('\n\n'),
    '',
  ].join('\n');
}

// On the one ajv instance (json-schema.ts), whose useDefaults fills what is unset.
const validateConfig = ajv.compile(configSchema);

/**
 * A setting's environment text as the type its schema gives it, converted as ajv's coerceTypes did ("8080"
 * to 8080, "false" to false): the one ajv instance does not coerce, since that would hold for request
 * bodies too. A text that does not convert is left as it is and fails as "must be integer" (or boolean).
 */
function typedSetting(type: string, text: string): unknown {
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  if (type !== 'integer' && type !== 'number') return text;
  const value = Number(text);
  // "Infinity" too stays text: ajv's coercion took it, and its minimum and maximum let it through.
  if (!Number.isFinite(value) || (type === 'integer' && !Number.isInteger(value))) return text;
  return value;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

function describeProblem(error: ErrorObject, env: Record<string, unknown>): string {
  const name = error.instancePath.replace(/^\//, '');
  const shown = JSON.stringify(env[name]);
  if (error.keyword === 'enum') {
    return `${name}=${shown} must be one of ${(error.params as { allowedValues: string[] }).allowedValues.join(', ')}`;
  }
  if (name === 'CURATOR_TOKEN') {
    // A secret: never echoed into logs, whatever is wrong with it.
    return 'CURATOR_TOKEN must be at least 32 characters without whitespace (or empty to turn curation off)';
  }
  if (name === 'SATELLITE_TOKEN') return 'SATELLITE_TOKEN must be at least 32 characters without whitespace (or empty to turn the satellite API off)';
  if (name === 'METRICS_TOKEN') return 'METRICS_TOKEN must be at least 16 characters without whitespace (or empty to leave /metrics open)';
  if (error.keyword === 'pattern' && name === 'CURATOR_NAME') return `CURATOR_NAME=${shown} must be a name (not blank, no leading or trailing space)`;
  if (name === 'OIDC_CLIENT_SECRET') return 'OIDC_CLIENT_SECRET is too long';
  if (error.keyword === 'pattern' && name === 'OIDC_ISSUER') {
    return `OIDC_ISSUER=${shown} must be an https:// URL (http:// only on 127.0.0.1 or localhost)`;
  }
  if (error.keyword === 'pattern' && name === 'CURATION_CORS_ORIGINS') {
    return `CURATION_CORS_ORIGINS=${shown} must be a comma-separated list of origins such as https://curation.example.org (no path)`;
  }
  if (name === 'TRUST_PROXY') return `TRUST_PROXY=${shown} must be false, true, a number of proxies or a comma-separated list of addresses and CIDR blocks`;
  if (name === 'LINKCHECK_INTERVAL') return `${name}=${shown} must be a duration: a whole number and ms, s, m, h or d (e.g. 24h)`;
  if (error.keyword === 'pattern' && name === 'QUEUE_PREFIX') {
    return `QUEUE_PREFIX=${shown} may hold letters, digits, _ . - and one {hash tag}, e.g. bull or {curie}`;
  }
  if (error.keyword === 'pattern') return `${name}=${shown} is not a valid URL of the expected kind`;
  return `${name}=${shown} ${error.message ?? 'is invalid'}`;
}

/**
 * The OpenID Connect settings go together: the desk's sign-in needs a client id and the curators it lets in;
 * access tokens on the APIs need the issuer and the curators' role. An issuer with neither is a mistake.
 */
function checkOidcSettings(config: Config): string[] {
  const problems: string[] = [];
  const apiTokens = config.OIDC_API_AUDIENCE.trim() !== '';
  if (apiTokens && config.OIDC_ISSUER === '') problems.push('OIDC_ISSUER is required when OIDC_API_AUDIENCE is set (the provider whose access tokens are taken)');
  if (apiTokens && splitList(config.OIDC_CURATOR_ROLE).length === 0) {
    problems.push('OIDC_CURATOR_ROLE is required when OIDC_API_AUDIENCE is set (the role or group that makes an access token a curator\'s)');
  }
  if (!apiTokens && config.OIDC_CURATOR_ROLE.trim() !== '') problems.push('OIDC_CURATOR_ROLE is used only with OIDC_API_AUDIENCE, which is not set');
  if (config.OIDC_ISSUER === '' || (apiTokens && config.OIDC_CLIENT_ID.trim() === '' && config.OIDC_CURATORS.trim() === '')) return problems;
  if (config.OIDC_CLIENT_ID.trim() === '') problems.push('OIDC_CLIENT_ID is required when OIDC_ISSUER is set');
  if (splitList(config.OIDC_CURATORS).length === 0) problems.push('OIDC_CURATORS is required when OIDC_ISSUER is set (the subjects or e-mail addresses of the curators)');
  return problems;
}

/** Whether the desk offers the OpenID Connect sign-in (OIDC_ISSUER for the desk, not only for access tokens). */
export function deskOidcSignInOn(config: Pick<Config, 'OIDC_ISSUER' | 'OIDC_CLIENT_ID'>): boolean {
  return config.OIDC_ISSUER !== '' && config.OIDC_CLIENT_ID.trim() !== '';
}

/** A comma-separated setting's entries, trimmed, without empty ones. */
export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** What the schema's pattern cannot tell: that each entry of a TRUST_PROXY list is an address or CIDR block. */
function checkTrustProxy(setting: string): string[] {
  try {
    parseTrustedProxies(setting);
    return [];
  } catch (error) {
    return [`TRUST_PROXY=${JSON.stringify(setting)}: ${(error as Error).message}`];
  }
}

/**
 * Every bad setting's problem, in the schema's order. The one ajv instance stops at the first problem (no
 * allErrors: request bodies are untrusted), so each pass drops the setting found, which its default then
 * replaces, and validates again: the operator is still told about every bad variable at once.
 */
function settingsProblems(candidate: Record<string, unknown>, texts: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const reported = new Set<string>();
  while (!validateConfig(candidate)) {
    const error = validateConfig.errors![0]!;
    const name = error.instancePath.replace(/^\//, '');
    if (reported.has(name)) break;
    reported.add(name);
    problems.push(describeProblem(error, texts));
    delete candidate[name];
  }
  return problems;
}

/**
 * Adds the settings of a `.env` file in the current folder (npm runs every script in the project's) to the
 * environment, when there is one; a variable the environment already has keeps its value (Node's own rule
 * for env files). Run once by the entry point before anything reads the settings, so that the parts and
 * tools it starts as child processes inherit them.
 */
export function loadDotEnv(file = '.env'): void {
  try {
    process.loadEnvFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Parses the environment. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const texts: Record<string, string> = {};
  const candidate: Record<string, unknown> = {};
  for (const key of configKeys) {
    const value = env[key];
    if (value === undefined || value === '') continue;
    texts[key] = value;
    candidate[key] = typedSetting(configSchema.properties[key].type, value);
  }
  const problems = settingsProblems(candidate, texts);
  if (problems.length > 0) throw new ConfigError(problems);
  const config = candidate as unknown as Config;
  const settingProblems = [...checkOidcSettings(config), ...checkTrustProxy(config.TRUST_PROXY)];
  if (settingProblems.length > 0) throw new ConfigError(settingProblems);
  config.PUBLIC_RESOLVER_URL = config.PUBLIC_RESOLVER_URL.replace(/\/+$/, '');
  config.PUBLIC_REGISTRY_URL = config.PUBLIC_REGISTRY_URL.replace(/\/+$/, '');
  config.ROR_API_URL = config.ROR_API_URL.replace(/\/+$/, '');
  config.DATASET_DIR = path.resolve(projectRoot(), config.DATASET_DIR);
  config.SATELLITE_SNAPSHOT_DIR = path.resolve(projectRoot(), config.SATELLITE_SNAPSHOT_DIR);
  config.SATELLITE_UPSTREAM_URL = config.SATELLITE_UPSTREAM_URL.replace(/\/+$/, '');
  return Object.freeze(config);
}

/**
 * This process's environment with `overrides`, for a child process of the service (npm run start:cluster
 * gives each instance its own port); kept here, where the environment is read.
 */
export function environmentWith(overrides: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, ...overrides };
}

/** Database name from DATABASE_URL, for messages and for creating it when missing. */
export function databaseName(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, '')) || 'postgres';
}
