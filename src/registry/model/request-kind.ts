/** A prefix registration request (a new namespace) or a resource registration request (a new provider). */
export type RequestKind = 'prefix' | 'resource';
