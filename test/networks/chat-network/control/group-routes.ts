import { z } from 'zod';
import { parse, phone, type Route } from './route.js';

const PARTICIPANT_ACTIONS = ['add', 'remove', 'promote', 'demote'] as const;

/** The control API's group routes: phones make, change, join and leave groups. */
export const groupRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/control\/groups$/,
    async run(network, _, body) {
      const { owner, subject, participants } = parse(z.object({ owner: phone, subject: z.string().min(1), participants: z.array(phone) }), body);
      return { status: 201, data: { jid: network.groupCreate(owner, subject, participants) } };
    },
  },
  {
    method: 'GET',
    pattern: /^\/control\/groups\/([^/]+)$/,
    async run(network, [jid]) {
      return { data: network.group(jid!) };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/groups\/join$/,
    async run(network, _, body) {
      const { phone: number, code } = parse(z.object({ phone, code: z.string().min(1) }), body);
      return { data: network.group(network.groupJoin(number, code)) };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/groups\/([^/]+)\/participants$/,
    async run(network, [jid], body) {
      const phones = z.array(phone).optional();
      const change = parse(
        z
          .object({ actor: phone, add: phones, remove: phones, promote: phones, demote: phones })
          .refine((value) => PARTICIPANT_ACTIONS.some((action) => value[action]?.length), { message: 'add, remove, promote or demote someone' }),
        body,
      );
      const results = PARTICIPANT_ACTIONS.flatMap((action) =>
        change[action]?.length ? network.groupParticipants(change.actor, jid!, action, change[action]!).map((result) => ({ ...result, action })) : [],
      );
      return { data: { ...network.group(jid!), results } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/groups\/([^/]+)\/settings$/,
    async run(network, [jid], body) {
      const { actor, ...settings } = parse(
        z
          .object({ actor: phone, announce: z.boolean().optional(), restrict: z.boolean().optional() })
          .refine((value) => value.announce !== undefined || value.restrict !== undefined, { message: 'announce or restrict is required' }),
        body,
      );
      network.groupSetSettings(actor, jid!, settings);
      return { data: network.group(jid!) };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/groups\/([^/]+)\/invite$/,
    async run(network, [jid], body) {
      const { actor } = parse(z.object({ actor: phone }), body);
      return { data: { code: network.groupRevokeInvite(actor, jid!) } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/groups\/([^/]+)\/leave$/,
    async run(network, [jid], body) {
      const { phone: number } = parse(z.object({ phone }), body);
      network.groupLeave(number, jid!);
      return { data: network.group(jid!) };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/groups\/([^/]+)\/subject$/,
    async run(network, [jid], body) {
      const { actor, subject } = parse(z.object({ actor: phone, subject: z.string().min(1) }), body);
      network.groupSetSubject(actor, jid!, subject);
      return { data: network.group(jid!) };
    },
  },
  {
    method: 'POST',
    pattern: /^\/control\/groups\/([^/]+)\/description$/,
    async run(network, [jid], body) {
      const { actor, description } = parse(z.object({ actor: phone, description: z.string() }), body);
      network.groupSetDescription(actor, jid!, description);
      return { data: network.group(jid!) };
    },
  },
];
