import { Fragment, type ComponentChildren } from 'preact';
import type { RegistrySnapshot } from '../core/registry-snapshot.js';
import { adviseOnFailure, type FailureAdvice, type NamespaceHint } from '../core/resolution-advice.js';
import type { UnresolvedReason } from '../core/resolve.js';
import { Layout } from '../web/layout.js';
import { renderDocument } from '../web/render-page.js';
import { namespaceHref, SearchBox } from '../web/search-box.js';
import { registryHref, resolverHref, type Site } from '../web/site.js';

// A request is reflected in the page; the address bar still has all of it, the page only its start.
const SHOWN_REQUEST_LENGTH = 120;
const SHOWN_MESSAGE_LENGTH = 600;

function shortened(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length)}…`;
}

export interface ResolutionFailedProps {
  site: Site;
  /** The request as the resolver read it (percent-decoded once). */
  raw: string;
  /** The API's answer to the same request, word for word (shown as a detail). */
  message: string;
  advice: FailureAdvice;
}

/** A compact identifier linked to the resolver, as a reader would copy it. */
function CurieLink({ site, curie }: { site: Site; curie: string }) {
  return (
    <a href={resolverHref(site, curie)}>
      <code>{curie}</code>
    </a>
  );
}

function NamespaceLink({ site, namespace }: { site: Site; namespace: { prefix: string; name: string } }) {
  return <a href={registryHref(site, namespaceHref(namespace.prefix))}>{namespace.name}</a>;
}

/** The identifier did not fit its namespace's pattern: what its identifiers are, with the sample. */
function LocalIdExplanation({ site, namespace, localId }: { site: Site; namespace: NamespaceHint; localId: string }) {
  const { prefix, sample, shape } = namespace;
  const example = sample === null ? null : <CurieLink site={site} curie={sample} />;
  const what =
    localId === '' ? (
      <>The identifier after the prefix {prefix} is missing</>
    ) : (
      <>
        <code>{shortened(localId, SHOWN_REQUEST_LENGTH)}</code> is not a valid identifier in {prefix}
      </>
    );
  if (shape !== null) {
    return (
      <p>
        {what}: {prefix} identifiers are {shape}
        {example ? <>, such as {example}</> : null}.
      </p>
    );
  }
  return (
    <p>
      {what}
      {example ? <>: {prefix} identifiers look like {example}.</> : '.'}
    </p>
  );
}

function Explanation({ site, advice }: { site: Site; advice: FailureAdvice }) {
  const { namespace } = advice;
  switch (advice.reason) {
    case 'lui-mismatch':
      return namespace && advice.localId !== null ? <LocalIdExplanation site={site} namespace={namespace} localId={advice.localId} /> : null;
    case 'no-providers':
      return namespace ? (
        <p>
          The namespace {namespace.prefix} is in the registry, but no provider of its identifiers is registered yet, so there is no page to
          send you to.
        </p>
      ) : null;
    case 'no-provider-with-code':
      return namespace ? (
        <>
          <p>
            No provider of {namespace.prefix} identifiers has the code <code>{shortened(advice.providerCode ?? '', SHOWN_REQUEST_LENGTH)}</code>.
            A provider code is written exactly as the registry lists it.
          </p>
          {advice.providerCodes.length > 0 ? (
            <p>
              The codes of its providers:{' '}
              {advice.providerCodes.map((code, i) => (
                <Fragment key={code}>
                  {i > 0 ? ', ' : null}
                  <code>{code}</code>
                </Fragment>
              ))}
              .
            </p>
          ) : null}
        </>
      ) : null;
    default:
      return (
        <>
          <p>
            {advice.unknownPrefix ? (
              <>
                No namespace of the registry has the prefix <code>{shortened(advice.unknownPrefix, SHOWN_REQUEST_LENGTH)}</code>.
              </>
            ) : (
              'The request names no namespace: it has no prefix.'
            )}
          </p>
          <p>
            A compact identifier is the prefix of a namespace, a colon and an identifier of that namespace
            {advice.example ? (
              <>
                , such as <CurieLink site={site} curie={advice.example} />
              </>
            ) : null}
            .
          </p>
        </>
      );
  }
}

function Suggestions({ site, advice }: { site: Site; advice: FailureAdvice }) {
  const items: ComponentChildren[] = [];
  if (advice.repaired !== null) {
    items.push(
      <li key="repaired">
        <CurieLink site={site} curie={advice.repaired} />
      </li>,
    );
  }
  for (const close of advice.closePrefixes) {
    items.push(
      <li key={close.prefix}>
        {close.compactId !== null ? (
          <>
            <CurieLink site={site} curie={close.compactId} /> (<NamespaceLink site={site} namespace={close} />)
          </>
        ) : (
          <>
            <a href={registryHref(site, namespaceHref(close.prefix))}>{close.prefix}</a> ({close.name})
          </>
        )}
      </li>,
    );
  }
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="suggestions-heading">
      <h2 id="suggestions-heading">Did you mean</h2>
      <ul class="suggested">{items}</ul>
    </section>
  );
}

function AboutNamespace({ site, advice, namespace }: { site: Site; advice: FailureAdvice; namespace: NamespaceHint }) {
  // With no provider, its sample goes nowhere either.
  const sample = advice.reason === 'no-providers' ? null : namespace.sample;
  return (
    <section aria-labelledby="namespace-heading">
      <h2 id="namespace-heading">The namespace {namespace.prefix}</h2>
      <ul>
        <li>
          Its page in the registry: <NamespaceLink site={site} namespace={namespace} />
        </li>
        {sample !== null ? (
          <li>
            Its sample identifier: <CurieLink site={site} curie={sample} />
          </li>
        ) : null}
      </ul>
      {advice.reason === 'lui-mismatch' ? (
        <details>
          <summary>The pattern of its identifiers</summary>
          <p>
            The regular expression a {namespace.prefix} identifier must match: <code>{namespace.pattern}</code>
          </p>
        </details>
      ) : null}
    </section>
  );
}

/** A failed resolution, for a browser: what went wrong in plain words, what may have been meant, the search. */
export function ResolutionFailedPage({ site, raw, message, advice }: ResolutionFailedProps) {
  const shown = shortened(raw, SHOWN_REQUEST_LENGTH);
  const { namespace } = advice;
  return (
    <Layout site={site} title={`Not resolved: ${shown}`}>
      <h1>
        Could not resolve <code>{shown}</code>
      </h1>
      <Explanation site={site} advice={advice} />
      <Suggestions site={site} advice={advice} />
      {namespace ? <AboutNamespace site={site} advice={advice} namespace={namespace} /> : null}
      <h2>Find a namespace</h2>
      <SearchBox id="failure-search" base={site.registryLinkBase} value={advice.unknownPrefix ?? ''} />
      <details>
        <summary>What the resolver’s API answers</summary>
        <p>
          <code>{shortened(message, SHOWN_MESSAGE_LENGTH)}</code>
        </p>
      </details>
    </Layout>
  );
}

/** Why a request failed: the reason and the API's message (an Unresolved resolution's). */
export interface ResolutionFailure {
  reason: UnresolvedReason;
  message: string;
}

/** The page of a request that failed on `snapshot`, the advice read from that same snapshot. */
export function renderResolutionFailed(site: Site, snapshot: RegistrySnapshot, raw: string, failure: ResolutionFailure): string {
  const advice = adviseOnFailure(raw, failure.reason, snapshot, { publicRegistryUrl: site.publicRegistryUrl });
  return renderDocument(<ResolutionFailedPage site={site} raw={raw} message={failure.message} advice={advice} />);
}
