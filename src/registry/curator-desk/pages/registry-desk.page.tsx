import { namespaceHref } from '../../../web/search-box.js';
import type { SearchResult } from '../../model/namespace-search.service.js';
import { DESK_PATH } from '../../model/desk-auth.js';
import { RECORD_FIELDS } from '../desk-forms.js';
import type { InstitutionView, NamespaceView, ResourceView } from '../desk.service.js';
import { ChangeLog, CsrfField, DeskFrame, ErrorSummary, Notice, TextBox, When, type DeskContext } from './desk-parts.js';
import { ButtonForm, RecordForm, type RecordRefusal } from './record-form.js';
import type { FormValues } from '../../model/registration-fields.js';

export const deskNamespaceHref = (prefix: string) => `${DESK_PATH}/namespaces/${encodeURIComponent(prefix)}`;
export const deskResourceHref = (id: number) => `${DESK_PATH}/resources/${id}`;
export const deskInstitutionHref = (id: number) => `${DESK_PATH}/institutions/${id}`;

interface RecordPageProps {
  desk: DeskContext;
  values: FormValues;
  notice?: string;
  refused?: RecordRefusal;
}

function Refusal({ refused }: { refused?: RecordRefusal }) {
  if (!refused) return null;
  const prefix = refused.form === 'edit' ? 'edit' : refused.form;
  return <ErrorSummary errors={refused.errors} problems={refused.problems} fieldId={(name) => `${prefix}-${name}`} />;
}

const editErrors = (refused?: RecordRefusal) => (refused?.form === 'edit' ? refused.errors : {});

/** `/curation/registry`: find a namespace to maintain. */
export function FindNamespacePage({ desk, text, result }: { desk: DeskContext; text: string; result?: SearchResult }) {
  return (
    <DeskFrame desk={desk} title="Registry maintenance" section="registry">
      <h1>Registry maintenance</h1>
      <p>Find the namespace to edit; its providers and their institutions are edited from its page.</p>
      <p>
        <a href={`${DESK_PATH}/reference-prefixes`}>Other registries’ prefixes</a>, which requested prefixes are checked against.
      </p>
      <form method="get" action={`${DESK_PATH}/registry`} class="box" role="search">
        <div class="field">
          <label for="find-namespace">Prefix or name</label>
          <input type="search" id="find-namespace" name="q" value={text} spellcheck={false} />
        </div>
        <button type="submit">Find</button>
      </form>
      {result ? (
        <section aria-labelledby="found-heading">
          <h2 id="found-heading">
            {result.total} namespace{result.total === 1 ? '' : 's'} found
          </h2>
          <ol class="results">
            {result.hits.map((hit) => (
              <li key={hit.id}>
                <a href={deskNamespaceHref(hit.prefix)}>
                  <code>{hit.prefix}</code>
                </a>{' '}
                {hit.name}
                {hit.deprecated ? <span class="badge deprecated">deprecated</span> : null}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </DeskFrame>
  );
}

/** `/curation/namespaces/{prefix}`: edit, successor, deactivation, and the namespace's providers. */
export function NamespaceDeskPage({ desk, view, values, notice, refused }: RecordPageProps & { view: NamespaceView }) {
  const { namespace } = view;
  const base = `${DESK_PATH}/namespaces/${namespace.id}`;
  const successorValue = refused?.form === 'successor' ? (refused.values?.successor ?? '') : (view.successor?.prefix ?? '');
  return (
    <DeskFrame desk={desk} title={`${refused ? 'Error: ' : ''}Namespace ${namespace.prefix}`} section="registry">
      <h1>
        Namespace <code>{namespace.prefix}</code>
        {namespace.deprecated ? <span class="badge deprecated">deprecated</span> : null}
      </h1>
      <Notice text={notice} />
      <Refusal refused={refused} />
      <dl class="facts">
        <dt>MIR id</dt>
        <dd>{namespace.mirId}</dd>
        <dt>Public page</dt>
        <dd>
          <a href={namespaceHref(namespace.prefix)}>{`/registry/${namespace.prefix}`}</a>
        </dd>
        <dt>Last changed</dt>
        <dd>
          <When date={namespace.modified} />
        </dd>
      </dl>

      <section aria-labelledby="edit-heading">
        <h2 id="edit-heading">Edit</h2>
        <RecordForm desk={desk} action={`${base}/edit`} fields={RECORD_FIELDS.namespaces} values={values} errors={editErrors(refused)} modified={namespace.modified} button="Save the namespace" />
      </section>

      <section aria-labelledby="successor-heading">
        <h2 id="successor-heading">Successor</h2>
        <form method="post" action={`${base}/successor`} class="desk-action" novalidate>
          <CsrfField desk={desk} />
          <input type="hidden" name="modified" value={namespace.modified.toISOString()} />
          <TextBox
            id="successor"
            name="successor"
            label="Prefix of the successor"
            hint="The namespace that replaces this one. Leave empty for none."
            value={successorValue}
            error={refused?.form === 'successor' ? refused.errors.successor : undefined}
          />
          <button type="submit">Set the successor</button>
        </form>
      </section>

      <section aria-labelledby="lifecycle-heading">
        <h2 id="lifecycle-heading">{namespace.deprecated ? 'Reactivate' : 'Deactivate'}</h2>
        {namespace.deprecated ? (
          <>
            <p>Deprecated since {namespace.deprecationDate ? <When date={namespace.deprecationDate} /> : 'an unknown date'}. Reactivating clears the deprecation and the successor.</p>
            <ButtonForm desk={desk} action={`${base}/reactivate`} label="Reactivate the namespace" />
          </>
        ) : (
          <>
            <p>A deactivated namespace stays in the registry, marked deprecated; the resolver shows its landing page.</p>
            <ButtonForm desk={desk} action={`${base}/deactivate`} label="Deactivate the namespace" danger />
          </>
        )}
      </section>

      <section aria-labelledby="resources-heading">
        <h2 id="resources-heading">Providers</h2>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Provider</th>
                <th scope="col">Code</th>
                <th scope="col">MIR id</th>
                <th scope="col">Institution</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {view.resources.map((resource) => (
                <tr key={resource.id}>
                  <td>
                    <a href={deskResourceHref(resource.id)}>{resource.name}</a>
                    {resource.official ? <span class="badge official">official</span> : null}
                  </td>
                  <td>
                    <code>{resource.providerCode}</code>
                  </td>
                  <td>{resource.mirId}</td>
                  <td>
                    <a href={deskInstitutionHref(resource.institutionId)}>{resource.institutionName}</a>
                  </td>
                  <td>{resource.deprecated ? 'Deprecated' : 'Active'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <ChangeLog changes={view.changes} />
    </DeskFrame>
  );
}

/** `/curation/resources/{id}`: edit a provider, deactivate or reactivate it. */
export function ResourceDeskPage({ desk, view, values, notice, refused }: RecordPageProps & { view: ResourceView }) {
  const { resource } = view;
  const base = deskResourceHref(resource.id);
  return (
    <DeskFrame desk={desk} title={`${refused ? 'Error: ' : ''}Provider ${resource.name}`} section="registry">
      <h1>
        Provider {resource.name}
        {resource.deprecated ? <span class="badge deprecated">deprecated</span> : null}
      </h1>
      <Notice text={notice} />
      <Refusal refused={refused} />
      <dl class="facts">
        <dt>Namespace</dt>
        <dd>
          <a href={deskNamespaceHref(view.namespace.prefix)}>
            <code>{view.namespace.prefix}</code>
          </a>{' '}
          {view.namespace.name}
        </dd>
        <dt>MIR id</dt>
        <dd>{resource.mirId}</dd>
        <dt>Institution</dt>
        <dd>
          <a href={deskInstitutionHref(view.institution.id)}>{view.institution.name}</a>
        </dd>
      </dl>
      <section aria-labelledby="edit-heading">
        <h2 id="edit-heading">Edit</h2>
        <RecordForm desk={desk} action={`${base}/edit`} fields={RECORD_FIELDS.resources} values={values} errors={editErrors(refused)} modified={resource.modified} button="Save the provider" />
      </section>
      <section aria-labelledby="lifecycle-heading">
        <h2 id="lifecycle-heading">{resource.deprecated ? 'Reactivate' : 'Deactivate'}</h2>
        {resource.deprecated ? (
          <form method="post" action={`${base}/reactivate`} class="desk-action" novalidate>
            <CsrfField desk={desk} />
            <TextBox
              id="lifecycle"
              name="urlPattern"
              label="URL pattern to serve it at (optional)"
              hint="Empty: its current pattern."
              value={refused?.form === 'lifecycle' ? (refused.values?.urlPattern ?? '') : ''}
              error={refused?.form === 'lifecycle' ? refused.errors.reactivateUrlPattern : undefined}
            />
            <button type="submit">Reactivate the provider</button>
          </form>
        ) : (
          <ButtonForm desk={desk} action={`${base}/deactivate`} label="Deactivate the provider" danger />
        )}
      </section>
      <ChangeLog changes={view.changes} />
    </DeskFrame>
  );
}

/** `/curation/institutions/{id}`: edit an institution. */
export function InstitutionDeskPage({ desk, view, values, notice, refused }: RecordPageProps & { view: InstitutionView }) {
  const { institution } = view;
  return (
    <DeskFrame desk={desk} title={`${refused ? 'Error: ' : ''}Institution ${institution.name}`} section="institutions">
      <h1>Institution {institution.name}</h1>
      <Notice text={notice} />
      <Refusal refused={refused} />
      <section aria-labelledby="edit-heading">
        <h2 id="edit-heading">Edit</h2>
        <RecordForm
          desk={desk}
          action={`${deskInstitutionHref(institution.id)}/edit`}
          fields={RECORD_FIELDS.institutions}
          values={values}
          errors={editErrors(refused)}
          modified={institution.modified}
          button="Save the institution"
        />
      </section>
      <section aria-labelledby="providers-heading">
        <h2 id="providers-heading">Its providers</h2>
        {view.resources.length === 0 ? (
          <>
            <p>No provider uses it. Deleting it removes it from the registry; the curation log keeps what it held.</p>
            <ButtonForm desk={desk} action={`${deskInstitutionHref(institution.id)}/delete`} label="Delete the institution" danger />
          </>
        ) : (
          <>
            <ul>
              {view.resources.map((resource) => (
                <li key={resource.id}>
                  <a href={deskResourceHref(resource.id)}>{resource.name}</a> (<code>{resource.prefix}</code>, {resource.mirId})
                </li>
              ))}
            </ul>
            <p class="muted">It cannot be deleted while providers use it.</p>
          </>
        )}
      </section>
      <ChangeLog changes={view.changes} />
    </DeskFrame>
  );
}
