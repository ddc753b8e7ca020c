import type { Modifiers, RelationMappings } from 'objection';
import { BaseModel } from './base.model.js';
import { Person } from './person.model.js';
import { Resource } from './resource.model.js';

export class Namespace extends BaseModel {
  static override tableName = 'namespaces';

  id!: number;
  prefix!: string;
  mirId!: string;
  name!: string;
  pattern!: string;
  description!: string;
  created!: Date;
  modified!: Date;
  sampleId!: string;
  namespaceEmbeddedInLui!: boolean;
  deprecated!: boolean;
  deprecationDate!: Date | null;
  deprecationOfflineDate!: Date | null;
  renderDeprecatedLanding!: boolean;
  deprecationStatement!: string | null;
  infoOnPostmortemAccess!: string | null;
  successorId!: number | null;
  contactPersonId!: number | null;

  resources?: Resource[];
  successor?: Namespace | null;
  contactPerson?: Person | null;

  static override modifiers: Modifiers = {
    // Prefixes are unique case-insensitively (see the migration's lower(prefix) index).
    byPrefixIgnoringCase(query, prefix: string) {
      void query.whereRaw('lower(prefix) = lower(?)', [prefix]);
    },
  };

  static override get relationMappings(): RelationMappings {
    return {
      resources: {
        relation: BaseModel.HasManyRelation,
        modelClass: Resource,
        join: { from: 'namespaces.id', to: 'resources.namespaceId' },
      },
      successor: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: Namespace,
        join: { from: 'namespaces.successorId', to: 'namespaces.id' },
      },
      contactPerson: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: Person,
        join: { from: 'namespaces.contactPersonId', to: 'persons.id' },
      },
    };
  }
}
