import { readCommonSettings, type CommonSettings } from '../lib/settings.js';

/** Everything the registration benchmark can be told through the environment, read once. */
export interface RegistrationBenchSettings extends CommonSettings {
  databaseName: string;
  /** BullMQ key prefix of the area under test, so that nothing lands in a real deployment's queues. */
  queuePrefix: string;
}

export function readRegistrationSettings(): RegistrationBenchSettings {
  return {
    // The acceptance line is stated at 10 concurrent connections (a form's traffic, not a crawler's).
    ...readCommonSettings({ connections: 10 }),
    databaseName: 'curie_registration_bench',
    queuePrefix: `bench-registration-${process.pid}`,
  };
}
