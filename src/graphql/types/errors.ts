import { DomainError, ERROR_CODES, RateLimited } from '../../domain/errors.js';
import { builder } from '../builder.js';

/** Expected failures come back as data with the same codes REST uses; anything else is masked. */
const ErrorInterface = builder.interfaceRef<Error>('Error').implement({
  fields: (t) => ({ message: t.exposeString('message') }),
});

const ErrorCodeEnum = builder.enumType('ErrorCode', {
  values: ERROR_CODES,
  description: 'The code of an expected failure; the same code the REST API returns.',
});

builder.objectType(DomainError, {
  name: 'DomainError',
  interfaces: [ErrorInterface],
  isTypeOf: (value) => value instanceof DomainError,
  fields: (t) => ({
    code: t.expose('code', { type: ErrorCodeEnum, description: 'The same code the REST API returns, e.g. invalid_request.' }),
    retryAfter: t.int({
      nullable: true,
      description: 'Seconds to wait, for rate_limit_exceeded.',
      resolve: (error) => (error instanceof RateLimited ? error.retryAfter : null),
    }),
  }),
});
