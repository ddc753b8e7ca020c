import { Layout } from '../../../web/layout.js';
import type { Site } from '../../../web/site.js';

/** `/requests/{token}` for a token no request has (mistyped, or cut short by a mail program). */
export function NotFoundRequestPage({ site }: { site: Site }) {
  return (
    <Layout site={site} title="Request not found">
      <h1>Request not found</h1>
      <p>No registration request has this address. Check that the whole link from the e-mail was copied.</p>
      <p>
        <a href="/prefixregistrationrequest">Request a prefix</a> or <a href="/resourceregistrationrequest">a new provider</a>.
      </p>
    </Layout>
  );
}
