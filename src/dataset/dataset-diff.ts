/**
 * What changed between two datasets (GET /resolutionApi/diff): namespaces and resources added, removed and
 * changed, a change listed field by field. Pure: it compares two parsed dataset payloads.
 *
 * Namespaces are matched by prefix and resources by MIR id (their ids in the registry, the ones a dataset
 * user holds): a renamed prefix is a namespace removed and one added. A nested value (a resource's
 * institution, its location) is compared leaf by leaf under a dotted name (`institution.name`).
 */
export type DatasetValue = string | number | boolean | null | DatasetValue[] | { [key: string]: DatasetValue };
export type DatasetRecord = Record<string, DatasetValue>;

export interface DatasetPayload {
  namespaces: (DatasetRecord & { prefix: string; resources: DatasetRecord[] })[];
}

export interface FieldChange {
  field: string;
  from: DatasetValue;
  to: DatasetValue;
}

export interface NamespaceSummary {
  prefix: string;
  mirId: DatasetValue;
  name: DatasetValue;
}

export interface ResourceSummary {
  namespacePrefix: string;
  mirId: DatasetValue;
  providerCode: DatasetValue;
  name: DatasetValue;
}

export interface DatasetDiff {
  namespaces: {
    added: NamespaceSummary[];
    removed: NamespaceSummary[];
    changed: (NamespaceSummary & { changes: FieldChange[] })[];
  };
  resources: {
    added: ResourceSummary[];
    removed: ResourceSummary[];
    changed: (ResourceSummary & { changes: FieldChange[] })[];
  };
}

const isObject = (value: DatasetValue | undefined): value is { [key: string]: DatasetValue } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The fields of `from` and `to` that differ, nested objects leaf by leaf, in `to`'s field order first. */
export function fieldChanges(from: DatasetRecord, to: DatasetRecord, skip: ReadonlySet<string> = new Set(), under = ''): FieldChange[] {
  const changes: FieldChange[] = [];
  const fields = [...new Set([...Object.keys(to), ...Object.keys(from)])];
  for (const field of fields) {
    if (skip.has(field)) continue;
    const a = from[field];
    const b = to[field];
    const name = `${under}${field}`;
    if (isObject(a) && isObject(b)) changes.push(...fieldChanges(a, b, new Set(), `${name}.`));
    // A field one side lacks (another format version) is null there, as JSON can say it.
    else if (JSON.stringify(a) !== JSON.stringify(b)) changes.push({ field: name, from: a ?? null, to: b ?? null });
  }
  return changes;
}

const NAMESPACE_SKIP = new Set(['resources']);

const namespaceSummary = (n: DatasetPayload['namespaces'][number]): NamespaceSummary => ({ prefix: n.prefix, mirId: n.mirId ?? null, name: n.name ?? null });

const resourceKey = (r: DatasetRecord): string => (typeof r.mirId === 'string' && r.mirId !== '' ? r.mirId : `id:${String(r.id)}`);

function resourcesByKey(payload: DatasetPayload): Map<string, { prefix: string; resource: DatasetRecord }> {
  const map = new Map<string, { prefix: string; resource: DatasetRecord }>();
  for (const namespace of payload.namespaces) {
    for (const resource of namespace.resources) map.set(resourceKey(resource), { prefix: namespace.prefix, resource });
  }
  return map;
}

const resourceSummary = (prefix: string, r: DatasetRecord): ResourceSummary => ({
  namespacePrefix: prefix,
  mirId: r.mirId ?? null,
  providerCode: r.providerCode ?? null,
  name: r.name ?? null,
});

/** The changes from `from` to `to`, each list in `to`'s order (removed ones in `from`'s). */
export function diffDatasets(from: DatasetPayload, to: DatasetPayload): DatasetDiff {
  const diff: DatasetDiff = { namespaces: { added: [], removed: [], changed: [] }, resources: { added: [], removed: [], changed: [] } };

  const before = new Map(from.namespaces.map((n) => [n.prefix, n]));
  const after = new Set(to.namespaces.map((n) => n.prefix));
  for (const namespace of to.namespaces) {
    const old = before.get(namespace.prefix);
    if (!old) {
      diff.namespaces.added.push(namespaceSummary(namespace));
      continue;
    }
    const changes = fieldChanges(old, namespace, NAMESPACE_SKIP);
    if (changes.length > 0) diff.namespaces.changed.push({ ...namespaceSummary(namespace), changes });
  }
  for (const namespace of from.namespaces) if (!after.has(namespace.prefix)) diff.namespaces.removed.push(namespaceSummary(namespace));

  const oldResources = resourcesByKey(from);
  const newResources = resourcesByKey(to);
  for (const [key, { prefix, resource }] of newResources) {
    const old = oldResources.get(key);
    if (!old) {
      diff.resources.added.push(resourceSummary(prefix, resource));
      continue;
    }
    const changes = fieldChanges(old.resource, resource);
    // A resource moved to another namespace shows it as a change of its own.
    if (old.prefix !== prefix) changes.unshift({ field: 'namespacePrefix', from: old.prefix, to: prefix });
    if (changes.length > 0) diff.resources.changed.push({ ...resourceSummary(prefix, resource), changes });
  }
  for (const [key, { prefix, resource }] of oldResources) {
    if (!newResources.has(key)) diff.resources.removed.push(resourceSummary(prefix, resource));
  }
  return diff;
}
