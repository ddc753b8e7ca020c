export { BaseModel } from './base.model.js';
export { Institution } from './institution.model.js';
export { Location } from './location.model.js';
export { Namespace } from './namespace.model.js';
export { Person } from './person.model.js';
export { Resource } from './resource.model.js';
