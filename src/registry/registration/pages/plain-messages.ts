/**
 * The validation messages as the request forms show them (issue 23 item 6). The JSON API keeps the
 * reference's words byte for byte, clients match on them: shouting ("IS NOT REGISTERED", "MUST be longer")
 * and its own field names ("ID Regex Pattern"). A page beside a field labelled "Identifier pattern" says the
 * same thing in plain words under the page's labels. This is the one place that rewords them: the pages'
 * refusals and the page-only field check the form's script asks (registration-pages.routes.tsx).
 *
 * A message no rule knows (a regex engine's own error, say) keeps its words, with an API field name at its
 * start replaced by the page's label.
 */
import { fieldOfChain, formFields, REQUEST_FORMS } from '../../model/registration-fields.js';
import type { RequestKind } from '../../model/request-kind.js';
import { CHAINS } from '../validation/chains.js';
import type { FieldVerdict } from '../validation/field-validation.js';

/** The page's label of a field, as a message names it (without "(optional)"). */
function pageLabelOf(kind: RequestKind, fieldName: string): string | undefined {
  const field = formFields(REQUEST_FORMS[kind]).find((f) => f.name === fieldName);
  return field?.label.replace(/ \(optional\)$/, '');
}

/** The API's field name (a chain's label) and the page's label of the same field. */
interface Labels {
  /** API name → page label, for the chains that apply to this kind of request. */
  byApiName: ReadonlyMap<string, string>;
  /** A regex alternation of the API names, longest first (so "Provider URL Pattern" wins over a shorter name). */
  alternation: string;
}

function labelsOf(kind: RequestKind): Labels {
  const byApiName = new Map<string, string>();
  for (const chain of CHAINS) {
    if (!(kind === 'prefix' ? chain.prefixValue : chain.resourceValue)) continue;
    const label = pageLabelOf(kind, fieldOfChain(kind, chain.key));
    if (label !== undefined) byApiName.set(chain.label, label);
  }
  const names = [...byApiName.keys()].sort((a, b) => b.length - a.length).map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return { byApiName, alternation: `(${names.join('|')})` };
}

type Reword = (match: RegExpExecArray, label: (apiName: string) => string, kind: RequestKind) => string;

/**
 * The rules, in order; `LABEL` in a pattern stands for any API field name and is always its first group.
 * Values the messages quote keep their place; the quotes become the pages' “ ”.
 */
const RULES: readonly [pattern: string, reword: Reword][] = [
  ['^LABEL is required$', (m, label) => `${label(m[1]!)} is required`],
  ['^LABEL is too long$', (m, label) => `${label(m[1]!)} is too long`],
  ['^LABEL MUST be longer than (\\d+) characters$', (m, label) => `${label(m[1]!)} needs more than ${m[2]} characters`],
  ['^Invalid code for LABEL, please use one of the 2 digit ISO 3166 codes$', (m, label) => `${label(m[1]!)}: enter the two-letter ISO 3166 code of a country, such as GB`],
  ["^LABEL '[\\s\\S]*' is not a valid URL, make sure it starts with 'http://' or 'https://'$", (m, label) => `${label(m[1]!)} must be a web address starting with http:// or https://`],
  ['^LABEL must be a HTTP\\(S\\) URL$', (m, label) => `${label(m[1]!)} must be a web address starting with http:// or https://`],
  ['^LABEL: the URL check is still running; please retry in a few seconds$', (m, label) => `${label(m[1]!)}: the address is still being checked; try again in a few seconds`],
  ['^LABEL: the pattern check is still running; please retry in a few seconds$', (m, label) => `${label(m[1]!)}: the pattern is still being checked; try again in a few seconds`],
  ['^LABEL must include the placeholder \\{\\$id\\}$', (m, label) => `${label(m[1]!)} must contain {$id} where the identifier goes`],
  ['^LABEL (can backtrack catastrophically: [\\s\\S]*)$', (m, label) => `${label(m[1]!)} ${m[2]}`],
  ['^LABEL (could not be checked for catastrophic backtracking [\\s\\S]*)$', (m, label) => `${label(m[1]!)} ${m[2]}`],
  // The pattern tester's refusals (only the identifier pattern is one).
  ['^Invalid regex: ([\\s\\S]*)$', (m, label) => `${label('ID Regex Pattern')} is not a regular expression the registry can use: ${m[1]}`],
  ['^[\\s\\S]* is not a valid email address$', (_m, label) => `${label('Requester Email')} must be written like name@example.org`],
  [
    '^Sample ID does not match ID pattern$',
    (_m, _label, kind) =>
      kind === 'prefix' ? 'The sample identifier does not match the identifier pattern' : 'The sample identifier does not match the pattern of the namespace’s identifiers',
  ],
  ['^Requested prefix can only contain lowercase characters, numbers, underscores and dots$', () => 'A prefix can only hold lowercase letters, digits, underscores (_) and dots (.)'],
  ["^Prefix '([\\s\\S]*)' already exists$", (m) => `The prefix “${m[1]}” is taken: a namespace has it already`],
  ["^Prefix '([\\s\\S]*)' IS NOT REGISTERED$", (m) => `No namespace has the prefix “${m[1]}”`],
  ["^Prefix '([\\s\\S]*)' is DEPRECATED, new resources are not allowed$", (m) => `The namespace “${m[1]}” is deprecated: it takes no new providers`],
  ["^Namespace with prefix '([\\s\\S]*)' does not exist$", (m) => `No namespace has the prefix “${m[1]}”`],
  ['^Prefix ([\\s\\S]*) does not exist$', (m) => `No namespace has the prefix “${m[1]}”`],
  [
    "^Provider codes must be DIFFERENT from existing prefixes! Namespace '([\\s\\S]*)' exists\\.$",
    (m) => `A provider code must differ from every prefix, and “${m[1]}” is a namespace’s prefix`,
  ],
  ['^Provider codes must be UNIQUE within a namespace! Please pick another code\\.$', () => 'Another provider of this namespace has this code; choose another one'],
  [
    '^URL Pattern is similar to existing registry entry\\. The URL (\\S+) should be what you want\\. Please contact us if you need any assistance\\.$',
    (m) => `This URL pattern is much like one the registry has: ${m[1]} may already be what you want. Write to the curators if you need help`,
  ],
  [
    "^URL Pattern is similar to existing registry entry\\. You should be able to use the existing '([\\s\\S]*)' namespace\\. Please contact us if you need any assistance\\.$",
    (m) => `This URL pattern is much like one of the namespace “${m[1]}”, which may already be what you want. Write to the curators if you need help`,
  ],
  [
    "^Institution ROR ID '([\\s\\S]*)' is not a ROR ID \\(such as https://ror\\.org/02catss52\\)$",
    (m) => `“${m[1]}” is not a ROR id; a ROR id is written like https://ror.org/02catss52 or 02catss52`,
  ],
  // The URL checker's verdicts (registry-behaviour.md §2.4), which name the address but not the field.
  ['^Status (\\d{3})(?: [A-Z_]+)? is not acceptable for URL ([\\s\\S]+)$', (m) => `The page at ${m[2]} could not be opened: the site answered with status ${m[1]}`],
  ['^The server did not answer within ([\\d.]+) seconds$', (m) => `The site did not answer within ${m[1]} seconds`],
  ['^Failed to connect to server due to SSL error$', () => 'The site could not be reached: its secure connection (TLS) failed'],
  ['^Failed to connect to server$', () => 'The site could not be reached'],
  ['^Error trying to connect to server: ([\\s\\S]+)$', (m) => `The site could not be reached (${m[1]})`],
];

interface CompiledRules {
  labels: Labels;
  rules: readonly [RegExp, Reword][];
  /** An API field name at the start of a message no rule knows. */
  leadingName: RegExp;
}

function compile(kind: RequestKind): CompiledRules {
  const labels = labelsOf(kind);
  return {
    labels,
    rules: RULES.map(([pattern, reword]) => [new RegExp(pattern.replace('LABEL', labels.alternation)), reword]),
    leadingName: new RegExp(`^${labels.alternation}(?=[ :])`),
  };
}

const COMPILED: Readonly<Record<RequestKind, CompiledRules>> = { prefix: compile('prefix'), resource: compile('resource') };

/** An API validation message of a `kind` request as the request form shows it. */
export function plainMessage(kind: RequestKind, message: string): string {
  const { labels, rules, leadingName } = COMPILED[kind];
  const label = (apiName: string) => labels.byApiName.get(apiName) ?? apiName;
  for (const [pattern, reword] of rules) {
    const match = pattern.exec(message);
    if (match) return reword(match, label, kind);
  }
  return message.replace(leadingName, (apiName) => label(apiName));
}

/**
 * The answer of the form's field check (`POST {form}/check/{validator}`): `{"message": null}` when the field
 * passes, else the message as the page words it.
 */
export function presentFieldCheck(kind: RequestKind, verdict: FieldVerdict): { message: string | null } {
  if (verdict.kind === 'passed') return { message: null };
  return { message: plainMessage(kind, verdict.kind === 'failed' ? verdict.message : 'Nothing was sent to check') };
}

/** What the form says of a ROR id that neither the registry nor (when asked) ROR knows. */
export function unknownRorId(asksRor: boolean): string {
  return `No institution has this ROR id, in the registry${asksRor ? ' or at ROR' : ''}`;
}
