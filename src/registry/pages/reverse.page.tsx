import { Layout } from '../../web/layout.js';
import type { Site } from '../../web/site.js';
import type { ReverseAnswer } from './reverse-lookup.service.js';
import { namespaceHref } from '../../web/search-box.js';

/** `/reverse-lookup?url=`: the compact identifier of a provider's address, or the nearest providers. */
export function ReversePage({ site, url, answer }: { site: Site; url: string; answer: ReverseAnswer }) {
  return (
    <Layout site={site} title="Identifier of an address" section="home">
      <h1>Identifier of an address</h1>
      <form class="box" action="/reverse-lookup" method="get">
        <div class="field">
          <label for="reverse-url">Provider address</label>
          <input type="url" id="reverse-url" name="url" value={url} required />
        </div>
        <button type="submit">Look up</button>
      </form>
      <div role="status">
        {answer.kind === 'invalid' ? <p>{answer.message}.</p> : null}
        {answer.kind === 'match' ? (
          <>
            <p>
              This address is <code class="curie">{answer.match.possible_resolver_curie ?? answer.match.prefix}</code>
              {answer.match.lui_pattern_match ? '' : ' (its local identifier does not fit the namespace’s pattern)'}.
            </p>
            <ul>
              {answer.match.possible_resolver_url ? (
                <li>
                  <a href={answer.match.possible_resolver_url}>Resolve it</a>: <code>{answer.match.possible_resolver_url}</code>
                </li>
              ) : null}
              <li>
                <a href={namespaceHref(answer.match.prefix)}>The namespace {answer.match.prefix}</a>
              </li>
            </ul>
          </>
        ) : null}
        {answer.kind === 'similar' ? (
          answer.matches.length === 0 ? (
            <p>No provider in the registry serves this address.</p>
          ) : (
            <>
              <p>No provider’s address fits exactly. The nearest:</p>
              <ul>
                {answer.matches.map((m, i) => (
                  <li key={i}>
                    <a href={namespaceHref(m.prefix)}>{m.prefix}</a>
                    {m.possible_resolver_curie ? (
                      <>
                        {' '}
                        <code>{m.possible_resolver_curie}</code>
                      </>
                    ) : null}
                  </li>
                ))}
              </ul>
            </>
          )
        ) : null}
      </div>
    </Layout>
  );
}
