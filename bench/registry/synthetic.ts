/**
 * Synthetic namespaces of the registry benchmark, inserted with one INSERT … SELECT generate_series as the
 * resolver benchmark does (bench/resolver/scale.ts), but spread over the alphabet: number n gets the prefix
 * `<3 letters>n` and the name `<3 letters> synthetic namespace n`, the letters being n's last three base-26
 * digits. So prefix searches of 1–3 letters find a few to a few thousand of them, and a browse sorted by
 * name interleaves them with the real namespaces. The functions here mirror the SQL exactly.
 */
import type pg from 'pg';

const letter = (i: number) => String.fromCharCode(97 + (i % 26));
const prefixLetters = (n: number) => letter(n) + letter(Math.floor(n / 26)) + letter(Math.floor(n / 676));

export const syntheticPrefix = (n: number): string => `${prefixLetters(n)}${n}`;

export function syntheticName(n: number): string {
  const letters = letter(Math.floor(n / 26)) + letter(Math.floor(n / 676)) + letter(n);
  return `${letters[0]!.toUpperCase()}${letters.slice(1)} synthetic namespace ${n}`;
}

/** The prefixes of synthetic namespaces 1..count. */
export function syntheticPrefixes(count: number): string[] {
  return Array.from({ length: count }, (_, i) => syntheticPrefix(i + 1));
}

/**
 * Inserts `count` synthetic namespaces with one resource each (at the first institution, like the resolver
 * benchmark's), in one statement; the registry_changes triggers stay on, as for any write. Checks a few
 * rows against syntheticPrefix/syntheticName. Returns the time taken, ANALYZE included.
 */
export async function insertSyntheticNamespaces(client: pg.Client, count: number): Promise<number> {
  if (count > 9_999_999) throw new Error('at most 9,999,999 synthetic namespaces (7-digit MIR numbering)');
  const started = performance.now();
  const letters = (offset: string) => `chr(97 + (g / ${offset}) % 26)`;
  await client.query(
    `WITH inst AS (SELECT id, location_country_code FROM institutions ORDER BY id LIMIT 1),
     ns AS (
       INSERT INTO namespaces (prefix, mir_id, name, pattern, description, sample_id)
       SELECT ${letters('1')} || ${letters('26')} || ${letters('676')} || g,
              'MIR:7' || lpad(g::text, 7, '0'),
              upper(${letters('26')}) || ${letters('676')} || ${letters('1')} || ' synthetic namespace ' || g,
              '^\\d+$', 'A synthetic namespace of the registry benchmark', g::text
       FROM generate_series(1, $1::int) AS g
       RETURNING id, prefix, sample_id
     )
     INSERT INTO resources (mir_id, url_pattern, name, description, official, provider_code, sample_id, resource_home_url,
                            namespace_id, institution_id, location_country_code)
     SELECT 'MIR:6' || lpad(ns.sample_id, 7, '0'), 'https://' || ns.prefix || '.example.org/entry/{$id}',
            'Synthetic resource ' || ns.sample_id, 'A synthetic resource of the registry benchmark', true,
            CASE WHEN ns.sample_id::int % 2 = 0 THEN 'synth' ELSE '' END, ns.sample_id,
            'https://' || ns.prefix || '.example.org/', ns.id, inst.id, inst.location_country_code
     FROM ns CROSS JOIN inst`,
    [count],
  );
  await client.query('ANALYZE namespaces, resources');
  const elapsed = Math.round(performance.now() - started);

  const probes = [1, 25, 26, 677, count].filter((n) => n >= 1 && n <= count);
  const { rows } = await client.query<{ sample_id: string; prefix: string; name: string }>(
    'SELECT sample_id, prefix, name FROM namespaces WHERE mir_id = ANY($1::text[])',
    [probes.map((n) => `MIR:7${String(n).padStart(7, '0')}`)],
  );
  for (const row of rows) {
    const n = Number(row.sample_id);
    if (row.prefix !== syntheticPrefix(n) || row.name !== syntheticName(n)) {
      throw new Error(`synthetic namespace ${n} is ${row.prefix} / ${row.name}, the benchmark expects ${syntheticPrefix(n)} / ${syntheticName(n)}`);
    }
  }
  if (rows.length !== new Set(probes).size) throw new Error(`only ${rows.length} of the probed synthetic namespaces were found`);
  return elapsed;
}
