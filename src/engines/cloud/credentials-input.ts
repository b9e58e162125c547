import { z } from 'zod';
import type { EngineCredentialsLine } from '../descriptor.js';

const apiId = z.string({ error: 'is required' }).regex(/^\d{1,32}$/, "must be the API's numeric id (digits only)");
const accessToken = z.string({ error: 'is required' }).min(1, 'must not be empty').max(4096, 'must be at most 4096 characters');
const appSecret = z.string({ error: 'is required' }).min(1, 'must not be empty').max(512, 'must be at most 512 characters');

/** What a CHAT-CLOUD instance connects with: write-only, sealed at rest, checked with the API at once. */
const cloudCredentialsInput = z
  .object(
    {
      phoneNumberId: apiId.meta({ description: "The API's id of the number (digits)." }),
      accessToken: accessToken.meta({ description: 'A (system user) access token that may send for the number.' }),
      appSecret: appSecret.meta({ description: "The app's secret: the network's webhooks are signed with it." }),
      businessAccountId: apiId.meta({ description: 'The business account (WABA) id, digits.' }).nullish(),
    },
    { error: 'must be an object {phoneNumberId, accessToken, appSecret, businessAccountId?}' },
  )
  .meta({ description: 'CHAT-CLOUD only (and required for it): the API credentials of the number; never shown again' });

/** A PUT replaces the token (and, if given, the app secret); the instance is checked with the API again. */
const cloudTokenInput = z
  .object(
    {
      accessToken: accessToken.meta({ description: 'The new access token.' }),
      appSecret: appSecret.meta({ description: 'A new app secret, if it changed too.' }).nullish(),
    },
    { error: 'must be an object {accessToken, appSecret?}' },
  )
  .meta({ description: 'CHAT-CLOUD only: a new access token (and app secret); the instance is checked with the API again' });

export type CloudCredentials = z.output<typeof cloudCredentialsInput>;
export type CloudToken = z.output<typeof cloudTokenInput>;

/**
 * The documented `cloud` field of instance bodies (REST and GraphQL): CHAT-CLOUD's own schemas. The
 * network's webhooks name the number by its phone-number-id, so that is the instance's external id.
 */
export const cloudCredentials: EngineCredentialsLine<typeof cloudCredentialsInput, typeof cloudTokenInput> = {
  field: 'cloud',
  create: cloudCredentialsInput,
  replace: cloudTokenInput,
  externalId: (credentials) => credentials.phoneNumberId,
  graphql: { create: 'CloudCredentialsInput', replace: 'CloudTokenInput' },
};
