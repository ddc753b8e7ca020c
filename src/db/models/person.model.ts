import { BaseModel } from './base.model.js';

export class Person extends BaseModel {
  static override tableName = 'persons';

  id!: number;
  fullName!: string;
  email!: string;
  created!: Date;
  modified!: Date;
}
