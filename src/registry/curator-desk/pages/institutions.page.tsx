import { ExternalLink } from '../../../web/links.js';
import { PageNavigation } from '../../../web/prev-next-links.js';
import { DESK_PATH } from '../../model/desk-auth.js';
import { INSTITUTION_SEARCH_MAX, type InstitutionPage, type ListedInstitution } from '../institution-list.service.js';
import { DeskFrame, Notice, type DeskContext } from './desk-parts.js';
import { ButtonForm } from './record-form.js';
import { deskInstitutionHref } from './registry-desk.page.js';

export const INSTITUTIONS_PATH = `${DESK_PATH}/institutions`;

/** The list's address for a search and page (from 0). */
export function institutionsHref(text: string, page: number): string {
  const params = new URLSearchParams();
  if (text !== '') params.set('q', text);
  if (page > 0) params.set('page', String(page));
  const query = params.toString();
  return query ? `${INSTITUTIONS_PATH}?${query}` : INSTITUTIONS_PATH;
}

function Row({ desk, institution }: { desk: DeskContext; institution: ListedInstitution }) {
  return (
    <tr>
      <td>
        <a href={deskInstitutionHref(institution.id)}>{institution.name}</a>
      </td>
      <td>{institution.locationCountryCode}</td>
      <td>{institution.rorId ? <ExternalLink href={institution.rorId}>{institution.rorId}</ExternalLink> : <span class="muted">—</span>}</td>
      <td>{institution.providers}</td>
      <td>
        {institution.providers === 0 ? (
          <ButtonForm desk={desk} action={`${deskInstitutionHref(institution.id)}/delete`} label="Delete" of={institution.name} danger />
        ) : (
          <span class="muted">In use</span>
        )}
      </td>
    </tr>
  );
}

/** `/curation/institutions?q=&page=`: the institutions by name, a page at a time; those no provider uses can be deleted. */
export function InstitutionsPage({ desk, list, notice }: { desk: DeskContext; list: InstitutionPage; notice?: string }) {
  const { text } = list;
  return (
    <DeskFrame desk={desk} title={text ? `Institutions: ${text}` : 'Institutions'} section="institutions">
      <h1>Institutions</h1>
      <Notice text={notice} />
      <p>An institution no provider uses can be deleted; the curation log keeps what it held.</p>
      <form method="get" action={INSTITUTIONS_PATH} class="box" role="search">
        <div class="field">
          <label for="find-institution">Name, or a part of it</label>
          <input type="search" id="find-institution" name="q" value={text} maxLength={INSTITUTION_SEARCH_MAX} spellcheck={false} />
        </div>
        <button type="submit">Find</button>
      </form>
      <section aria-labelledby="institutions-heading">
        <h2 id="institutions-heading">
          {list.total} institution{list.total === 1 ? '' : 's'}
          {text ? ` whose name holds “${text}”` : ''}
        </h2>
        {list.institutions.length === 0 ? null : (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Country</th>
                  <th scope="col">ROR id</th>
                  <th scope="col">Providers</th>
                  <th scope="col">Delete</th>
                </tr>
              </thead>
              <tbody>
                {list.institutions.map((institution) => (
                  <Row key={institution.id} desk={desk} institution={institution} />
                ))}
              </tbody>
            </table>
          </div>
        )}
        <PageNavigation label="Pages of institutions" page={list.page} pages={list.pages} href={(page) => institutionsHref(text, page)} />
      </section>
    </DeskFrame>
  );
}
