import type { RelationMappings } from 'objection';
import { BaseModel } from './base.model.js';
import { Institution } from './institution.model.js';
import { Location } from './location.model.js';
import { Namespace } from './namespace.model.js';
import { Person } from './person.model.js';

export class Resource extends BaseModel {
  static override tableName = 'resources';

  id!: number;
  mirId!: string;
  urlPattern!: string;
  name!: string;
  description!: string | null;
  official!: boolean;
  providerCode!: string;
  sampleId!: string | null;
  resourceHomeUrl!: string;
  namespaceId!: number;
  institutionId!: number;
  locationCountryCode!: string;
  contactPersonId!: number | null;
  deprecated!: boolean;
  deprecationDate!: Date | null;
  deprecationOfflineDate!: Date | null;
  renderDeprecatedLanding!: boolean;
  deprecationStatement!: string | null;
  protectedUrls!: boolean;
  renderProtectedLanding!: boolean;
  authHelpUrl!: string | null;
  authHelpDescription!: string | null;
  created!: Date;
  modified!: Date;

  namespace?: Namespace;
  institution?: Institution;
  location?: Location;
  contactPerson?: Person | null;

  static override get relationMappings(): RelationMappings {
    // Namespace and Resource import each other; objection resolves the classes lazily through this getter.
    return {
      namespace: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: Namespace,
        join: { from: 'resources.namespaceId', to: 'namespaces.id' },
      },
      institution: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: Institution,
        join: { from: 'resources.institutionId', to: 'institutions.id' },
      },
      location: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: Location,
        join: { from: 'resources.locationCountryCode', to: 'locations.countryCode' },
      },
      contactPerson: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: Person,
        join: { from: 'resources.contactPersonId', to: 'persons.id' },
      },
    };
  }
}
