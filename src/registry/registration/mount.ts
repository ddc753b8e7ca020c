import type Koa from 'koa';
import { useRouters } from '../../http/base-app.js';
import type { RegistryArea } from '../model/registry-area.js';
import { notificationSettings } from '../model/notification-messages.js';
import { registrationPagesRoutes } from './pages/registration-pages.routes.js';
import type { RegistrationValidator } from './registration-validator.js';
import { rorRoutes } from './ror/ror.routes.js';
import { createRorService } from './ror/ror.service.js';
import { registrationQuota } from './submission/daily-quota.js';
import { submissionRoutes } from './submission/submission.routes.js';
import { SubmissionService } from './submission/submission.service.js';
import { validationRoutes } from './validation/validation.routes.js';

export type RegistrationArea = Pick<RegistryArea, 'config' | 'db' | 'redis' | 'logger' | 'site' | 'isCurator' | 'prefixCollisions'> & {
  /** The registration checks; without them submissions, the request forms and the field validators are not mounted. */
  validator?: RegistrationValidator;
};

/** Registration: submissions and their status, the request forms, the ROR lookup and the field validators. */
export function mountRegistration(app: Koa, area: RegistrationArea): void {
  const { config, db, validator, isCurator } = area;
  const ror = createRorService(db, {
    baseUrl: config.ROR_API_URL,
    allowPrivateNetworks: config.URL_CHECK_ALLOW_PRIVATE_NETWORKS,
    userAgent: `curie-resolver-registry/1.0 (+${config.PUBLIC_REGISTRY_URL})`,
  });
  if (validator) {
    const quota = registrationQuota(config, area.redis, (error) => area.logger.warn({ err: error }, 'registration quota store failed; counting in memory meanwhile'));
    const submissions = new SubmissionService({ db, validator, notifications: notificationSettings(config), quota });
    useRouters(app, [
      submissionRoutes({ submissions, isCurator }),
      registrationPagesRoutes({ site: area.site, submissions, validator, ror, minDescriptionLength: config.REGISTRATION_MIN_DESCRIPTION_LENGTH, isCurator }),
    ]);
  }
  useRouters(app, [rorRoutes({ ror }), ...(validator ? [validationRoutes(validator, area.prefixCollisions)] : [])]);
}
