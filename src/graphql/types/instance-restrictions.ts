import type { AccountRestrictions } from '../../domain/network/engine.port.js';
import { builder } from '../builder.js';
import { InstanceType } from './instances.js';

/** The account's reach-out limits (docs/settings.md, "Restrictions"): the same service as GET …/restrictions. */

const TimelockType = builder.objectRef<NonNullable<AccountRestrictions['timelock']>>('Timelock').implement({
  description: 'First messages to new contacts are held until `until`.',
  fields: (t) => ({
    reason: t.exposeString('reason', { description: 'Why, as the network says (reach_out_timelock).' }),
    until: t.field({ type: 'DateTime', description: 'When it ends.', resolve: (lock) => new Date(lock.until) }),
  }),
});

const MessageCapType = builder.objectRef<NonNullable<AccountRestrictions['messageCap']>>('MessageCap').implement({
  description: "The network's cap of first messages to new contacts in its current cycle.",
  fields: (t) => ({
    limit: t.exposeInt('limit', { description: 'First messages the cycle allows.' }),
    used: t.exposeInt('used', { description: 'First messages sent in the cycle.' }),
    resetAt: t.field({ type: 'DateTime', nullable: true, description: 'When the cycle ends; null when the network does not say.', resolve: (cap) => (cap.resetAt ? new Date(cap.resetAt) : null) }),
  }),
});

const AccountRestrictionsType = builder.objectRef<AccountRestrictions>('AccountRestrictions').implement({
  description: "The account's reach-out timelock and message cap, as the network tells them now.",
  fields: (t) => ({
    timelock: t.field({ type: TimelockType, nullable: true, description: 'Null when first messages are not held.', resolve: (r) => r.timelock }),
    messageCap: t.field({ type: MessageCapType, nullable: true, description: 'Null when the network sets no cap.', resolve: (r) => r.messageCap }),
  }),
});

builder.objectFields(InstanceType, (t) => ({
  restrictions: t.field({
    type: AccountRestrictionsType,
    nullable: true,
    description: 'Asked of the network now (capability reach_limits); null with an error when the engine cannot, or the instance is not connected.',
    resolve: async (instance, _args, ctx) => ctx.services.restrictions.read(await ctx.actor(), instance.id),
  }),
}));
