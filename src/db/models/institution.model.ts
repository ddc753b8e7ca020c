import type { RelationMappings } from 'objection';
import { BaseModel } from './base.model.js';
import { Location } from './location.model.js';

export class Institution extends BaseModel {
  static override tableName = 'institutions';

  id!: number;
  name!: string;
  homeUrl!: string;
  description!: string;
  rorId!: string | null;
  locationCountryCode!: string;
  created!: Date;
  modified!: Date;

  location?: Location;

  static override get relationMappings(): RelationMappings {
    return {
      location: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: Location,
        join: { from: 'institutions.locationCountryCode', to: 'locations.countryCode' },
      },
    };
  }
}
