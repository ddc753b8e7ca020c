import { LinkedText } from '../../../web/links.js';
import { PageNavigation } from '../../../web/prev-next-links.js';
import { SUMMARY_USAGE_DAYS, type OpenWarning, type WarningsOverviewEntry, type WarningsOverviewPage } from '../../model/curation-warnings.js';
import { DESK_PATH } from '../../model/desk-auth.js';
import { DeskFrame, When, type DeskContext } from './desk-parts.js';
import { deskInstitutionHref, deskNamespaceHref, deskResourceHref } from './registry-desk.page.js';

export const WARNINGS_PATH = `${DESK_PATH}/warnings`;
/** Namespaces and institutions per page, each with all its open warnings. */
export const WARNINGS_PAGE_SIZE = 25;

/** The warning types the registry validator reports (registry-behaviour.md §5.3), as curators read them. */
const TYPE_NAMES: Readonly<Record<string, string>> = {
  'url-not-ok': 'Failing URL',
  'low-availability-resource': 'Provider rarely available',
  'curator-review': 'Waits for a curator’s value',
  'wikidata-institution-diff': 'Differs from Wikidata',
};

const warningsHref = (page: number) => (page > 0 ? `${WARNINGS_PATH}?page=${page}` : WARNINGS_PATH);

function About({ about }: { about: OpenWarning['about'] }) {
  switch (about.type) {
    case 'namespace':
      return (
        <>
          namespace{' '}
          <a href={deskNamespaceHref(about.label)}>
            <code>{about.label}</code>
          </a>
        </>
      );
    case 'resource':
      return (
        <>
          provider <a href={deskResourceHref(about.id)}>{about.label}</a>
        </>
      );
    case 'institution':
      return (
        <>
          institution <a href={deskInstitutionHref(about.id)}>{about.label}</a>
        </>
      );
  }
}

function Warning({ warning }: { warning: OpenWarning }) {
  const details = Object.entries(warning.moreDetails);
  const latest = warning.latestEvent.type;
  return (
    <li>
      <p>
        <strong>{TYPE_NAMES[warning.type] ?? warning.type}</strong> about <About about={warning.about} />
        <span class="muted">
          {' '}
          since {warning.created ? <When date={warning.created} /> : 'an unknown date'}
          {latest === 'DISABLED' ? ', disabled by a curator' : latest === 'REOPENED' ? ', reopened' : ''}
        </span>
      </p>
      {details.length > 0 ? (
        <dl class="facts">
          {details.map(([label, value]) => [
            <dt key={`${label}-t`}>{label}</dt>,
            <dd key={`${label}-d`}>
              <LinkedText text={value} />
            </dd>,
          ])}
        </dl>
      ) : null}
    </li>
  );
}

function Target({ entry }: { entry: WarningsOverviewEntry }) {
  const { type, identifier, label } = entry.summary.targetInfo;
  const link =
    type === 'Prefix' ? (
      <a href={deskNamespaceHref(identifier)}>
        <code>{identifier}</code>
      </a>
    ) : (
      <a href={deskInstitutionHref(Number(identifier))}>{label}</a>
    );
  return (
    <th scope="row">
      <span class="muted">{type === 'Prefix' ? 'Namespace' : 'Institution'}</span> {link}
      {type === 'Prefix' ? <span class="target-name"> {label}</span> : null}
      {entry.summary.allDisabled ? <span class="badge">all disabled</span> : null}
    </th>
  );
}

const yes = (flag: boolean) => (flag ? 'Yes' : <span class="muted">No</span>);

function Entry({ entry }: { entry: WarningsOverviewEntry }) {
  const { summary } = entry;
  const count = entry.warnings.length;
  return (
    <tbody>
      <tr>
        <Target entry={entry} />
        <td>{entry.visits ?? <span class="muted">—</span>}</td>
        <td>{summary.failingInstitutionUrl}</td>
        <td>{summary.lowAvailabilityResources}</td>
        <td>{yes(summary.hasCurationValues)}</td>
        <td>{yes(summary.hasPossibleWikidataError)}</td>
      </tr>
      <tr class="warning-details">
        <td colSpan={6}>
          <details>
            <summary>
              {count} open warning{count === 1 ? '' : 's'} of {summary.targetInfo.type === 'Prefix' ? summary.targetInfo.identifier : summary.targetInfo.label}
            </summary>
            <ul class="warnings">
              {entry.warnings.map((warning) => (
                <Warning key={warning.id} warning={warning} />
              ))}
            </ul>
          </details>
        </td>
      </tr>
    </tbody>
  );
}

/**
 * `/curation/warnings`: the open curation warnings, as the reference's curation dashboard shows them: a
 * table of the namespaces and institutions they are about (a provider's under its namespace) with their
 * counts, and each one's warnings with their details below its row.
 */
export function WarningsPage({ desk, overview }: { desk: DeskContext; overview: WarningsOverviewPage }) {
  const { total } = overview;
  return (
    <DeskFrame desk={desk} title="Curation warnings" section="warnings">
      <h1>Curation warnings</h1>
      <p>
        What the registry validator found wrong, by namespace and institution, in the order of their names. A warning is solved when the validator
        no longer reports it.
      </p>
      {total === 0 ? (
        <p class="muted">No open warnings.</p>
      ) : (
        <section aria-labelledby="warnings-heading">
          <h2 id="warnings-heading">
            {total} {total === 1 ? 'namespace or institution' : 'namespaces and institutions'} with open warnings
          </h2>
          <div class="table-wrap">
            <table class="warnings">
              <thead>
                <tr>
                  <th scope="col">Namespace or institution</th>
                  <th scope="col">Visits ({SUMMARY_USAGE_DAYS} days)</th>
                  <th scope="col">Failing URLs</th>
                  <th scope="col">Providers rarely available</th>
                  <th scope="col">Waits for curators’ values</th>
                  <th scope="col">Possible Wikidata error</th>
                </tr>
              </thead>
              {overview.entries.map((entry) => (
                <Entry key={`${entry.summary.targetInfo.type}:${entry.summary.targetInfo.identifier}`} entry={entry} />
              ))}
            </table>
          </div>
          <PageNavigation label="Pages of warnings" page={overview.page} pages={overview.pages} href={warningsHref} />
        </section>
      )}
    </DeskFrame>
  );
}
