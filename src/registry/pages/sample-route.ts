/**
 * Where the resolver sends a browser that follows a namespace's sample identifier, and why: what the
 * namespace page says above its providers. It asks the resolver's own code (core/resolve.ts and
 * core/best-provider.ts) over a one-namespace snapshot ranked with the same link-check measurements, so the
 * page cannot tell a story the resolver does not act out.
 */
import { bestCandidate, chooseBestProvider } from '../../core/best-provider.js';
import { writtenCompactId } from '../../core/lui-prefix.js';
import { failingProvidersOf, type SampleMeasurements } from '../../core/reliability.js';
import { buildSnapshot, type NamespaceEntry } from '../../core/registry-snapshot.js';
import { resolveCompactId, type UnresolvedReason } from '../../core/resolve.js';

export type SampleTarget =
  /** The provider the browser is redirected to, with the resolver's explanation of its recommendation. */
  | { kind: 'provider'; resourceId: number; explanation: string }
  /** The deprecated namespace's (or provider's) landing page at the resolver. */
  | { kind: 'deprecated-landing' }
  /** The landing page that says the provider `resourceId` asks for a login. */
  | { kind: 'protected-landing'; resourceId: number }
  /** Nowhere: the sample does not resolve (no provider, or it does not match the pattern); `reason` in words. */
  | { kind: 'none'; reason: string };

export interface SampleRoute {
  /** The sample identifier as its community writes it: `GO:0006915`, `taxonomy:9606`. */
  compactId: string;
  target: SampleTarget;
  /** Each provider with a code: the compact identifier that picks it (`quickgo/GO:0006915`), by resource id. */
  providerCompactIds: ReadonlyMap<number, string>;
}

const NO_PROVIDER = 'The namespace has no provider to send it to.';

/** Why a sample does not resolve, in a reader's words (the API's messages are the reference's). */
const UNRESOLVED_REASONS: Record<UnresolvedReason, string> = {
  'not-a-compact-id': 'The resolver does not read it as a compact identifier.',
  'lui-mismatch': "It does not match the namespace's identifier pattern, so the resolver refuses it.",
  'no-providers': NO_PROVIDER,
  'no-provider-with-code': NO_PROVIDER,
};

/** The route of `entry`'s sample identifier; null when the namespace has no sample identifier. */
export function sampleRouteOf(entry: NamespaceEntry, measurements: SampleMeasurements): SampleRoute | null {
  if (!entry.sampleId) return null;
  const compactId = writtenCompactId(entry, entry.sampleId);
  const providerCompactIds = new Map<number, string>();
  for (const r of entry.resources) if (r.providerCode) providerCompactIds.set(r.id, `${r.providerCode}/${compactId}`);

  // A copy: buildSnapshot ranks the entry's resources in place, and the caller's entry is cached.
  const copy: NamespaceEntry = { ...entry, resources: entry.resources.map((r) => ({ ...r })) };
  const snapshot = buildSnapshot(0, [copy], measurements);
  // Only a bare prefix resolves to a registry page, and a sample is never one.
  const resolution = resolveCompactId(compactId, snapshot, { publicRegistryUrl: '' });
  if (resolution.kind === 'unresolved') return { compactId, target: { kind: 'none', reason: UNRESOLVED_REASONS[resolution.reason] }, providerCompactIds };

  const parsed = resolution.parsedCompactIdentifier;
  const failing = failingProvidersOf(measurements);
  const choice = chooseBestProvider(resolution.resolvedResources, parsed, failing);
  // The resource the choice is about: the one chooseBestProvider took its URL or landing page from.
  const best = bestCandidate(resolution.resolvedResources, parsed, failing);
  let target: SampleTarget;
  if (choice.kind === 'failed' || best === undefined) target = { kind: 'none', reason: NO_PROVIDER };
  else if (choice.kind === 'deprecated-landing') target = { kind: 'deprecated-landing' };
  else if (choice.kind === 'protected-landing') target = { kind: 'protected-landing', resourceId: best.id };
  else target = { kind: 'provider', resourceId: best.id, explanation: best.recommendation.recommendationExplanation };
  return { compactId, target, providerCompactIds };
}
