import { describeLimit } from '../../../http/json-body.js';
import { REFERENCE_LIST_FORM_LIMIT, type ReferenceSource } from '../reference-prefixes.service.js';
import { DESK_PATH } from '../../model/desk-auth.js';
import { CsrfField, DeskFrame, ErrorSummary, Notice, TextBox, When, type DeskContext } from './desk-parts.js';

export const REFERENCE_PREFIXES_PATH = `${DESK_PATH}/reference-prefixes`;
/** Reads a chosen file into the list box; without it, the list is pasted. */
export const REFERENCE_PREFIXES_SCRIPTS = ['reference-prefix-file.js'] as const;

export interface ReferencePrefixesForm {
  source: string;
  format: string;
  list: string;
  errors: Record<string, string>;
}

/**
 * `/curation/reference-prefixes` (issue 15 item 6): the other registries' prefix lists loaded, and a form
 * that loads one (replacing that registry's earlier list). A requested prefix found in one of them is
 * flagged on its request's page and by validateRequestedPrefix.
 */
export function ReferencePrefixesPage({
  desk,
  sources,
  form,
  notice,
}: {
  desk: DeskContext;
  sources: readonly ReferenceSource[];
  form?: ReferencePrefixesForm;
  notice?: string;
}) {
  const errors = form?.errors ?? {};
  return (
    <DeskFrame desk={desk} title="Other registries’ prefixes" section="registry" scripts={REFERENCE_PREFIXES_SCRIPTS}>
      <h1>Other registries’ prefixes</h1>
      <Notice text={notice} />
      <ErrorSummary errors={errors} problems={[]} fieldId={(name) => `list-${name}`} />
      <p>
        A requested prefix that one of these registries already uses is flagged on the request’s page and in the answer of
        validateRequestedPrefix. It is a warning: the request stays valid.
      </p>
      {sources.length > 0 ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Registry</th>
                <th scope="col">Prefixes</th>
                <th scope="col">Loaded</th>
              </tr>
            </thead>
            <tbody>
              {sources.map((s) => (
                <tr key={s.source}>
                  <td>{s.source}</td>
                  <td>{s.prefixes}</td>
                  <td>
                    <When date={s.loaded} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>No list is loaded yet.</p>
      )}
      <h2>Load a list</h2>
      <form method="post" action={REFERENCE_PREFIXES_PATH} class="request-form" novalidate>
        <CsrfField desk={desk} />
        <TextBox id="list" name="source" label="Registry" hint="Its short name, such as bioregistry; its earlier list is replaced." value={form?.source ?? ''} error={errors.source} required />
        <div class="field">
          <label for="list-format">Format</label>
          <select id="list-format" name="format">
            {['', 'json', 'tsv', 'csv'].map((value) => (
              <option key={value} value={value} selected={(form?.format ?? '') === value}>
                {value === '' ? 'As the text looks' : value.toUpperCase()}
              </option>
            ))}
          </select>
        </div>
        <div class="field" data-file-for="list-list" hidden>
          <label for="list-file">File</label>
          <input type="file" id="list-file" accept=".json,.tsv,.csv,.txt,application/json,text/csv,text/tab-separated-values" />
        </div>
        <TextBox
          id="list"
          name="list"
          label="The list"
          hint={`JSON ([{"prefix": ..., "name": ...}] or {"prefix": "name"}), TSV or CSV with a prefix column and a name column; at most ${describeLimit(REFERENCE_LIST_FORM_LIMIT)} as sent (a larger list is loaded with the command line: reference-prefixes --source <name> <file>).`}
          value={form?.list ?? ''}
          error={errors.list}
          multiline
          required
        />
        <button type="submit">Load the list</button>
      </form>
    </DeskFrame>
  );
}
