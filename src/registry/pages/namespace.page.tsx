import { buildProviderUrl } from '../../core/url-pattern.js';
import { BarChart } from '../../web/bar-chart.js';
import { BreakableUrl, COPY_SCRIPTS, Copyable, CopyButton } from '../../web/copyable.js';
import { Layout } from '../../web/layout.js';
import { ExternalLink } from '../../web/links.js';
import { resolverHref, type Site } from '../../web/site.js';
import type { LinkHealth, MonthlyVisits, NamespacePageData, ResourceView } from './registry-pages.service.js';
import type { SampleRoute } from './sample-route.js';
import { namespaceHref } from '../../web/search-box.js';

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function day(date: Date | null): string {
  return date ? date.toISOString().slice(0, 10) : '';
}

function rorHref(rorId: string): string {
  return /^https?:\/\//i.test(rorId) ? rorId : `https://ror.org/${rorId}`;
}

const DOWN = new Set(['http_error', 'not_found', 'timeout', 'dns', 'tls', 'refused', 'redirect_loop']);

/** How the latest link check reads in the table. */
function HealthState({ health }: { health: LinkHealth | null }) {
  if (!health) return <span class="muted">not checked yet</span>;
  const what = health.urlKind === 'sample' ? 'sample page' : 'home page';
  const when = ` (${what}, ${day(health.checkedAt)}; reliability ${health.reliability} %)`;
  if (health.outcome === 'up') return <span class="state-up">up{when}</span>;
  if (health.outcome === 'protected') return <span class="state-up">up, login required{when}</span>;
  if (DOWN.has(health.outcome)) {
    return (
      <span class="state-down">
        down: {health.outcome.replace(/_/g, ' ')}
        {health.httpStatus ? ` ${health.httpStatus}` : ''}
        {when}
      </span>
    );
  }
  if (health.outcome === 'bot_blocked') return <span class="muted">unknown, the site blocked the check{when}</span>;
  return <span class="muted">not checked{when}</span>;
}

/** One provider, as a card: what it is, who runs it, how to pick it, its sample page and its link check. */
function ResourceCard({ site, resource, sampleId, route }: { site: Site; resource: ResourceView; sampleId: string; route: SampleRoute | null }) {
  const sample = resource.sampleId || sampleId;
  // Registry URL patterns of embedded namespaces carry the prefix themselves: the sample id goes in as stored.
  const sampleUrl = sample ? buildProviderUrl(resource.urlPattern, sample, false) : null;
  const pick = route?.providerCompactIds.get(resource.id);
  const chosen = route?.target.kind === 'provider' && route.target.resourceId === resource.id;
  return (
    <li class={chosen ? 'provider chosen' : 'provider'} id={`resource-${resource.id}`}>
      <h3>
        <ExternalLink href={resource.resourceHomeUrl}>{resource.name}</ExternalLink>
        {resource.official ? <span class="badge official">official</span> : null}
        {resource.deprecated ? <span class="badge deprecated">deprecated</span> : null}
        {chosen ? <span class="badge chosen">where the resolver sends you</span> : null}
      </h3>
      <dl class="facts">
        <dt>Provider code</dt>
        <dd>{resource.providerCode ? <code>{resource.providerCode}</code> : <span class="muted">none: it cannot be picked by code</span>}</dd>
        {pick ? (
          <>
            <dt>Pick it with</dt>
            <dd>
              <Copyable text={pick} /> at{' '}
              <a href={resolverHref(site, pick)}>
                <BreakableUrl text={resolverHref(site, pick)} />
              </a>{' '}
              <CopyButton text={resolverHref(site, pick)} what={`the address of ${pick}`} />
            </dd>
          </>
        ) : null}
        <dt>Institution</dt>
        <dd>
          <ExternalLink href={resource.institutionHomeUrl}>{resource.institutionName}</ExternalLink>
          {resource.institutionRorId ? (
            <>
              {' '}
              <a href={rorHref(resource.institutionRorId)} rel="nofollow noopener" aria-label={`ROR record of ${resource.institutionName}`}>
                ROR
              </a>
            </>
          ) : null}
          {resource.locationCountryName ? `, ${resource.locationCountryName}` : null}
        </dd>
        <dt>URL pattern</dt>
        <dd>
          <code>
            <BreakableUrl text={resource.urlPattern} />
          </code>
        </dd>
        <dt>Sample page</dt>
        <dd>
          {sampleUrl ? (
            <ExternalLink href={sampleUrl}>
              <BreakableUrl text={sampleUrl} />
            </ExternalLink>
          ) : (
            '—'
          )}
        </dd>
        <dt>Link check</dt>
        <dd>
          <HealthState health={resource.health} />
        </dd>
        <dt>MIR id</dt>
        <dd>
          <code>{resource.mirId}</code>
        </dd>
      </dl>
    </li>
  );
}

/** Where the resolver sends the sample identifier, and why: the question a reader of the page comes with. */
function Route({ route, resources }: { route: SampleRoute; resources: ResourceView[] }) {
  const { target } = route;
  const curie = <code>{route.compactId}</code>;
  const byId = (id: number) => resources.find((r) => r.id === id);
  const picks = [...route.providerCompactIds.values()];
  let where;
  if (target.kind === 'provider') {
    const resource = byId(target.resourceId);
    where = (
      <p>
        {curie} takes you to <a href={`#resource-${target.resourceId}`}>{resource?.name ?? 'its provider'}</a> ({target.explanation}).
      </p>
    );
  } else if (target.kind === 'protected-landing') {
    where = (
      <p>
        {curie} takes you to a page of the resolver explaining that {byId(target.resourceId)?.name ?? 'its provider'} asks you to sign in.
      </p>
    );
  } else if (target.kind === 'deprecated-landing') {
    where = <p>{curie} takes you to a page of the resolver saying that this namespace or its provider is deprecated.</p>;
  } else {
    where = (
      <p>
        {curie} takes you nowhere: {target.reason}
      </p>
    );
  }
  return (
    <section aria-labelledby="route-heading" class="route">
      <h2 id="route-heading">Where an identifier takes you</h2>
      {where}
      {resources.length > 1 ? (
        <p class="muted">
          The resolver prefers official providers, then those its link checks find available, then those hosted at EBI; a
          provider whose sample page has not been found for days is passed over while another works.
        </p>
      ) : null}
      {picks.length > 0 ? (
        <p>
          To go to another provider, put its code before the identifier: <Copyable text={picks[0]!} />
          {picks.length > 1 ? ' (each provider below shows its own).' : '.'}
        </p>
      ) : null}
    </section>
  );
}

function Usage({ usage, prefix }: { usage: MonthlyVisits[] | null; prefix: string }) {
  if (!usage) return <p class="muted">Usage figures are unavailable right now.</p>;
  const bars = usage.map((m) => ({ label: m.month, short: MONTH_NAMES[Number(m.month.slice(5, 7)) - 1] ?? m.month, value: m.visits }));
  const total = bars.reduce((sum, b) => sum + b.value, 0);
  // An empty chart is 150 px of axes saying nothing.
  if (total === 0) return <p>No resolution of its identifiers has been counted in the last 12 months yet.</p>;
  return (
    <>
      <p>{`${total} resolutions of its identifiers in these months.`}</p>
      <BarChart title={`Resolutions of ${prefix} identifiers per month`} bars={bars} valueLabel="Visits" />
    </>
  );
}

/** `/registry/{prefix}` for browsers: everything the registry knows of a namespace. */
export function NamespacePage({ site, data }: { site: Site; data: NamespacePageData }) {
  const { namespace: ns, successor, resources, usage, route } = data;
  const curie = route?.compactId ?? `${ns.prefix}:${ns.sampleId}`;
  const sampleHref = resolverHref(site, curie);
  return (
    <Layout site={site} title={`${ns.name} (${ns.prefix})`} description={ns.description} section="browse" scripts={COPY_SCRIPTS}>
      <h1>
        {ns.name} <code>{ns.prefix}</code>
        {ns.deprecated ? <span class="badge deprecated">deprecated</span> : null}
      </h1>
      {ns.deprecated ? (
        <div class="note" role="note">
          <p>
            This namespace is deprecated{ns.deprecationDate ? ` since ${day(ns.deprecationDate)}` : ''}.
            {ns.deprecationOfflineDate ? ` Its providers went offline on ${day(ns.deprecationOfflineDate)}.` : ''}
          </p>
          {ns.deprecationStatement ? <p>{ns.deprecationStatement}</p> : null}
          {ns.infoOnPostmortemAccess ? <p>{ns.infoOnPostmortemAccess}</p> : null}
          {successor ? (
            <p>
              Its successor is <a href={namespaceHref(successor.prefix)}>{successor.name}</a> (<code>{successor.prefix}</code>).
            </p>
          ) : null}
        </div>
      ) : null}
      <p>{ns.description}</p>
      <dl class="facts">
        <dt>Prefix</dt>
        <dd>
          <code>{ns.prefix}</code>
        </dd>
        {ns.synonyms && ns.synonyms.length > 0 ? (
          <>
            <dt>Synonyms</dt>
            <dd>
              <code>{ns.synonyms.join(', ')}</code> (the resolver takes each in place of the prefix)
            </dd>
          </>
        ) : null}
        <dt>Sample identifier</dt>
        <dd>
          <a href={sampleHref} class="sample-link">
            {curie}
          </a>
        </dd>
        <dt>How to write it</dt>
        <dd>
          As a compact identifier, <Copyable text={curie} />; as an address, <Copyable text={sampleHref} />
          {ns.namespaceEmbeddedInLui ? (
            <>
              {' '}
              (its local identifiers start with the prefix, so the compact identifier is the local identifier itself)
            </>
          ) : null}
          {ns.suffixPassthrough ? (
            <>
              {' '}
              — versions and parts of a record resolve too: what follows the identifier from a <code>/</code>, <code>.</code>,{' '}
              <code>;</code>, <code>#</code> or <code>?</code> is passed through to the providers (<code>{curie}/…</code>)
            </>
          ) : null}
        </dd>
        <dt>Identifier pattern</dt>
        <dd>
          <code>{ns.pattern}</code>
        </dd>
        <dt>MIR id</dt>
        <dd>
          <code>{ns.mirId}</code>
        </dd>
        <dt>Registered</dt>
        <dd>
          {day(ns.created)}, last changed {day(ns.modified)}
        </dd>
      </dl>

      {route && resources.length > 0 ? <Route route={route} resources={resources} /> : null}

      <h2>{resources.length === 1 ? 'Provider' : `Providers (${resources.length})`}</h2>
      {resources.length === 0 ? (
        <p>This namespace has no provider.</p>
      ) : (
        <ul class="providers">
          {resources.map((r) => (
            <ResourceCard key={r.id} site={site} resource={r} sampleId={ns.sampleId} route={route} />
          ))}
        </ul>
      )}

      <h2>Usage over the last 12 months</h2>
      <Usage usage={usage} prefix={ns.prefix} />

      <h2>Data</h2>
      <ul>
        <li>
          <a href={`/restApi/namespaces/${ns.id}`}>This namespace in the registry API (HAL JSON)</a>
        </li>
        <li>
          <a href={`/statistics/namespace/${encodeURIComponent(ns.prefix)}?period=month`}>Its usage figures (JSON)</a>
        </li>
        <li>
          <a href={`/schemaOrgApi/getMetadataForNamespacePrefix/${encodeURIComponent(ns.prefix)}`}>Its schema.org metadata (JSON-LD)</a>
        </li>
        <li>
          <a href="/resolutionApi/getResolverDataset">The whole registry dataset (JSON)</a>
        </li>
      </ul>
    </Layout>
  );
}
