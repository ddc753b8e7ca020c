import { buildProviderUrl } from '../../core/url-pattern.js';
import { BarChart } from '../../web/bar-chart.js';
import { Layout } from '../../web/layout.js';
import { ExternalLink } from '../../web/links.js';
import type { Site } from '../../web/site.js';
import type { LinkHealth, MonthlyVisits, NamespacePageData, ResourceView } from './registry-pages.service.js';
import { namespaceHref } from '../../web/search-box.js';

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function day(date: Date | null): string {
  return date ? date.toISOString().slice(0, 10) : '';
}

/** The address of a compact identifier at the resolver. */
export function resolverHref(site: Site, prefix: string, lui: string): string {
  return `${site.publicResolverUrl}/${prefix}:${encodeURI(lui).replace(/[?#]/g, encodeURIComponent)}`;
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

function ResourceRow({ resource, sampleId }: { resource: ResourceView; sampleId: string }) {
  const sample = resource.sampleId || sampleId;
  // Registry URL patterns of embedded namespaces carry the prefix themselves: the sample id goes in as stored.
  const sampleUrl = sample ? buildProviderUrl(resource.urlPattern, sample, false) : null;
  return (
    <tr>
      <td>
        <code>{resource.providerCode || '—'}</code>
      </td>
      <td>
        <ExternalLink href={resource.resourceHomeUrl}>{resource.name}</ExternalLink>
        {resource.official ? <span class="badge official">official</span> : null}
        {resource.deprecated ? <span class="badge deprecated">deprecated</span> : null}
        <br />
        <span class="muted mono">{resource.mirId}</span>
      </td>
      <td>
        <ExternalLink href={resource.institutionHomeUrl}>{resource.institutionName}</ExternalLink>
        {resource.institutionRorId ? (
          <>
            {' '}
            <a href={rorHref(resource.institutionRorId)} rel="nofollow noopener" aria-label={`ROR record of ${resource.institutionName}`}>
              ROR
            </a>
          </>
        ) : null}
      </td>
      <td>{resource.locationCountryName}</td>
      <td>
        <code>{resource.urlPattern}</code>
      </td>
      <td>{sampleUrl ? <ExternalLink href={sampleUrl}>{sample}</ExternalLink> : '—'}</td>
      <td>
        <HealthState health={resource.health} />
      </td>
    </tr>
  );
}

function Usage({ usage, prefix }: { usage: MonthlyVisits[] | null; prefix: string }) {
  if (!usage) return <p class="muted">Usage figures are unavailable right now.</p>;
  const bars = usage.map((m) => ({ label: m.month, short: MONTH_NAMES[Number(m.month.slice(5, 7)) - 1] ?? m.month, value: m.visits }));
  const total = bars.reduce((sum, b) => sum + b.value, 0);
  return (
    <>
      <p>{total === 0 ? 'No resolution of its identifiers was counted in these months.' : `${total} resolutions of its identifiers in these months.`}</p>
      <BarChart title={`Resolutions of ${prefix} identifiers per month`} bars={bars} valueLabel="Visits" />
    </>
  );
}

/** `/registry/{prefix}` for browsers: everything the registry knows of a namespace. */
export function NamespacePage({ site, data }: { site: Site; data: NamespacePageData }) {
  const { namespace: ns, successor, resources, usage } = data;
  const curie = `${ns.prefix}:${ns.sampleId}`;
  const sampleHref = resolverHref(site, ns.prefix, ns.sampleId);
  return (
    <Layout site={site} title={`${ns.name} (${ns.prefix})`} section="browse">
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
        <dt>MIR id</dt>
        <dd>
          <code>{ns.mirId}</code>
        </dd>
        <dt>LUI pattern</dt>
        <dd>
          <code>{ns.pattern}</code>
        </dd>
        <dt>Sample identifier</dt>
        <dd>
          <a href={sampleHref} class="sample-link">
            {curie}
          </a>
        </dd>
        <dt>How to write it</dt>
        <dd>
          As a compact identifier, <code>{curie}</code>; as an address, <code>{sampleHref}</code>
        </dd>
        <dt>Prefix inside the local identifier</dt>
        <dd>{ns.namespaceEmbeddedInLui ? 'yes' : 'no'}</dd>
        <dt>Registered</dt>
        <dd>
          {day(ns.created)}, last changed {day(ns.modified)}
        </dd>
      </dl>

      <h2>Resources</h2>
      {resources.length === 0 ? (
        <p>This namespace has no resource.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Resources (providers) of {ns.prefix}</caption>
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Resource</th>
                <th scope="col">Institution</th>
                <th scope="col">Location</th>
                <th scope="col">URL pattern</th>
                <th scope="col">Sample</th>
                <th scope="col">Link check</th>
              </tr>
            </thead>
            <tbody>
              {resources.map((r) => (
                <ResourceRow key={r.id} resource={r} sampleId={ns.sampleId} />
              ))}
            </tbody>
          </table>
        </div>
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
