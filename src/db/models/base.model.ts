import { Model } from 'objection';

/**
 * Base of every model. The snake_case/camelCase mapping lives on the knex instance (db/knex.ts), so raw
 * queries and models agree; models are bound to that instance with Model.knex(db) at start.
 */
export class BaseModel extends Model {}
