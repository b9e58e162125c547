import { builder } from './builder.js';
import './types/scalars.js';
import './types/errors.js';
import './types/tenants.js';
import './types/api-keys.js';
import './types/messages.js';

export const schema = builder.toSchema({ sortSchema: true });
