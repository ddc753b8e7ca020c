import type { Knex } from 'knex';

/**
 * A replayed Idempotency-Key answer must be the first answer byte for byte, but jsonb keeps neither the
 * field order nor the spacing of the JSON it is given: the body becomes the exact text that was sent, next
 * to the Content-Type it was sent with.
 */
const JSON_TYPE = 'application/json; charset=utf-8';

// The field order of the only answer stored so far (submissionAccepted in submission.presenter.ts), in
// which the answers already stored are written out again; any other field keeps its place after these.
const FIELD_ORDER = ['apiVersion', 'errorMessage', 'payload', 'comment', 'token'];

function inAnswerOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(inAnswerOrder);
  if (value === null || typeof value !== 'object') return value;
  const rank = (key: string) => (FIELD_ORDER.includes(key) ? FIELD_ORDER.indexOf(key) : FIELD_ORDER.length);
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .sort(([a], [b]) => rank(a) - rank(b))
      .map(([key, field]) => [key, inAnswerOrder(field)]),
  );
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('idempotency_keys', (t) => {
    t.string('response_content_type', 255).notNullable().defaultTo(JSON_TYPE);
  });
  await knex.raw('ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE text USING response_body::text');
  // At most IDEMPOTENCY_KEY_RETENTION_HOURS of submissions: few rows.
  const { rows } = await knex.raw<{ rows: { endpoint: string; key: string; body: string }[] }>(
    'SELECT endpoint, key, response_body AS body FROM idempotency_keys',
  );
  for (const row of rows) {
    const text = JSON.stringify(inAnswerOrder(JSON.parse(row.body)));
    await knex.raw('UPDATE idempotency_keys SET response_body = ? WHERE endpoint = ? AND key = ?', [text, row.endpoint, row.key]);
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE jsonb USING response_body::jsonb');
  await knex.schema.alterTable('idempotency_keys', (t) => {
    t.dropColumn('response_content_type');
  });
}
