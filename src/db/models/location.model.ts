import { BaseModel } from './base.model.js';

export class Location extends BaseModel {
  static override tableName = 'locations';
  static override idColumn = 'countryCode';

  countryCode!: string;
  countryName!: string;
  created!: Date;
}
