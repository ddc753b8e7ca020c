import type { Knex } from 'knex';

/**
 * The curator desk's sign-ins (issue 13), kept on the server so that signing out or expiry ends them for
 * good: a desk session is a row here, found by the SHA-256 of the random value in the browser's cookie (the
 * table alone lets nobody in), with the curator as the sign-in named them and the session's own CSRF
 * token. curator_sign_ins holds an OpenID Connect sign-in between the redirect to the provider and its
 * return: the PKCE verifier and the nonce, found by the hash of the state.
 */
const ts = 'timestamptz(3)';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('curator_sessions', (t) => {
    t.specificType('id_hash', 'char(64)').primary();
    t.string('curator_name', 255).notNullable();
    t.string('curator_kind', 20).notNullable();
    t.string('curator_issuer', 2000);
    t.string('curator_subject', 255);
    t.specificType('csrf_token', 'char(43)').notNullable();
    t.specificType('created', ts).notNullable().defaultTo(knex.fn.now());
    t.specificType('expires_at', ts).notNullable();
    t.index(['expires_at']);
  });
  await knex.raw(`ALTER TABLE curator_sessions ADD CONSTRAINT curator_sessions_kind CHECK (curator_kind IN ('token', 'oidc'))`);

  await knex.schema.createTable('curator_sign_ins', (t) => {
    t.specificType('state_hash', 'char(64)').primary();
    t.string('code_verifier', 200).notNullable();
    t.string('nonce', 200).notNullable();
    t.specificType('created', ts).notNullable().defaultTo(knex.fn.now());
    t.specificType('expires_at', ts).notNullable();
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('curator_sign_ins');
  await knex.schema.dropTable('curator_sessions');
}
