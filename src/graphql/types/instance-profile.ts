import { PRIVACY_VALUES, type OwnProfile, type PrivacyKey, type PrivacySettings } from '../../domain/network/own-profile.js';
import { builder } from '../builder.js';
import { callsEngine } from '../cost.js';
import { MutationPayload, type Payload, payloadOf } from './errors.js';
import { InstanceType } from './instances.js';

/** The instance's own profile and privacy (docs/settings.md "Profile and privacy"): the same service as the REST paths. */

const OwnProfileType = builder.objectRef<OwnProfile>('OwnProfile').implement({
  description: "The instance's own account as others see it.",
  fields: (t) => ({
    name: t.exposeString('name', { nullable: true, description: 'The name others see (push name; a business number: its verified name).' }),
    about: t.exposeString('about', { nullable: true, description: 'The about text.' }),
    picture: t.exposeString('picture', { nullable: true, description: "The picture's URL as the network serves it; null when there is none." }),
  }),
});

const enumOf = <K extends PrivacyKey>(key: K, name: string, description: string) => builder.enumType(name, { values: PRIVACY_VALUES[key], description });
const everyone = 'all, contacts, contact_blacklist (contacts except those excluded on the phone) or none';
const PrivacyEnums = {
  lastSeen: enumOf('lastSeen', 'PrivacyLastSeen', `Who sees when it was last online: ${everyone}.`),
  online: enumOf('online', 'PrivacyOnline', 'Who sees it online: all, or match_last_seen (as lastSeen).'),
  picture: enumOf('picture', 'PrivacyPicture', `Who sees its picture: ${everyone}.`),
  about: enumOf('about', 'PrivacyAbout', `Who sees its about text: ${everyone}.`),
  readReceipts: enumOf('readReceipts', 'PrivacyReadReceipts', 'Whether it sends read receipts: all or none.'),
  groupsAdd: enumOf('groupsAdd', 'PrivacyGroupsAdd', 'Who may add it to groups: all, contacts or contact_blacklist.'),
};

const PrivacyType = builder.objectRef<Partial<PrivacySettings>>('Privacy').implement({
  description: 'The privacy settings the network answers (null for one it did not).',
  fields: (t) => ({
    lastSeen: t.field({ type: PrivacyEnums.lastSeen, nullable: true, description: 'Who sees when it was last online.', resolve: (p) => p.lastSeen ?? null }),
    online: t.field({ type: PrivacyEnums.online, nullable: true, description: 'Who sees it online.', resolve: (p) => p.online ?? null }),
    picture: t.field({ type: PrivacyEnums.picture, nullable: true, description: 'Who sees its picture.', resolve: (p) => p.picture ?? null }),
    about: t.field({ type: PrivacyEnums.about, nullable: true, description: 'Who sees its about text.', resolve: (p) => p.about ?? null }),
    readReceipts: t.field({ type: PrivacyEnums.readReceipts, nullable: true, description: 'Whether it sends read receipts.', resolve: (p) => p.readReceipts ?? null }),
    groupsAdd: t.field({ type: PrivacyEnums.groupsAdd, nullable: true, description: 'Who may add it to groups.', resolve: (p) => p.groupsAdd ?? null }),
  }),
});

builder.objectFields(InstanceType, (t) => ({
  profile: t.field({
    type: OwnProfileType,
    extensions: callsEngine,
    description: 'Its own name, about text and picture, as the network shows them (as GET /v1/chat/instances/<id>/profile).',
    resolve: async (instance, _args, ctx) => ctx.services.profile.profile(await ctx.actor(), instance.id),
  }),
  privacy: t.field({
    type: PrivacyType,
    extensions: callsEngine,
    description: 'Its privacy settings (as GET /v1/chat/instances/<id>/privacy).',
    resolve: async (instance, _args, ctx) => ctx.services.profile.privacy(await ctx.actor(), instance.id),
  }),
  blockedPhones: t.stringList({
    extensions: callsEngine,
    description: 'The phones (digits) its account blocked, as the network keeps the list (as GET /v1/chat/instances/<id>/contacts/blocked).',
    resolve: async (instance, _args, ctx) => ctx.services.profile.blocked(await ctx.actor(), instance.id),
  }),
}));

const ProfilePictureInput = builder.inputType('ProfilePictureInput', {
  description: 'A picture: a URL to fetch, or the file as base64 with its type (image/jpeg, image/png or image/webp).',
  fields: (t) => ({
    url: t.string({ description: 'An https URL (not on a private address).' }),
    data: t.string({ description: 'The file as base64, at most 5 MiB decoded.' }),
    mimetype: t.string({ description: 'The type of `data`.' }),
  }),
});

const UpdateInstanceProfileInput = builder.inputType('UpdateInstanceProfileInput', {
  description: 'Each field given replaces that part of the profile; picture: null removes the picture.',
  fields: (t) => ({
    instanceId: t.id({ required: true, description: 'The instance.' }),
    name: t.string({ description: '1 to 25 characters.' }),
    about: t.string({ description: 'At most 139 characters.' }),
    picture: t.field({ type: ProfilePictureInput, description: 'The new picture; null removes it.' }),
  }),
});

const UpdateInstancePrivacyInput = builder.inputType('UpdateInstancePrivacyInput', {
  description: 'Each setting given replaces that one; the others stay.',
  fields: (t) => ({
    instanceId: t.id({ required: true, description: 'The instance.' }),
    lastSeen: t.field({ type: PrivacyEnums.lastSeen, description: 'Who sees when it was last online. Left as it is when not given.' }),
    online: t.field({ type: PrivacyEnums.online, description: 'Who sees it online. Left as it is when not given.' }),
    picture: t.field({ type: PrivacyEnums.picture, description: 'Who sees its picture. Left as it is when not given.' }),
    about: t.field({ type: PrivacyEnums.about, description: 'Who sees its about text. Left as it is when not given.' }),
    readReceipts: t.field({ type: PrivacyEnums.readReceipts, description: 'Whether it sends read receipts. Left as it is when not given.' }),
    groupsAdd: t.field({ type: PrivacyEnums.groupsAdd, description: 'Who may add it to groups. Left as it is when not given.' }),
  }),
});

const UpdateInstanceProfilePayload = builder.objectRef<Payload<{ profile: OwnProfile }>>('UpdateInstanceProfilePayload').implement({
  description: 'The profile after the change, or why nothing changed.',
  interfaces: [MutationPayload],
  fields: (t) => ({ profile: t.field({ type: OwnProfileType, nullable: true, description: 'Null when refused.', resolve: (p) => p.profile ?? null }) }),
});

const UpdateInstancePrivacyPayload = builder.objectRef<Payload<{ privacy: Partial<PrivacySettings> }>>('UpdateInstancePrivacyPayload').implement({
  description: 'The privacy settings after the change, or why nothing changed.',
  interfaces: [MutationPayload],
  fields: (t) => ({ privacy: t.field({ type: PrivacyType, nullable: true, description: 'Null when refused.', resolve: (p) => p.privacy ?? null }) }),
});

/** An input's given fields only: omitted ones stay out (null stays null, which the service judges). */
const given = (input: Record<string, unknown>) => Object.fromEntries(Object.entries(input).filter(([key, value]) => key !== 'instanceId' && value !== undefined));

builder.mutationField('updateInstanceProfile', (t) =>
  t.field({
    type: UpdateInstanceProfilePayload,
    description: 'Same rules as PUT /v1/chat/instances/<id>/profile.',
    args: { input: t.arg({ type: UpdateInstanceProfileInput, required: true, description: 'The change.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      const body = given(input);
      if (input.picture) body.picture = given(input.picture);
      return payloadOf(async () => ({ profile: await ctx.services.profile.updateProfile(actor, String(input.instanceId), body) }));
    },
  }),
);

builder.mutationField('updateInstancePrivacy', (t) =>
  t.field({
    type: UpdateInstancePrivacyPayload,
    description: 'Same rules as PUT /v1/chat/instances/<id>/privacy.',
    args: { input: t.arg({ type: UpdateInstancePrivacyInput, required: true, description: 'The change.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      return payloadOf(async () => ({ privacy: await ctx.services.profile.updatePrivacy(actor, String(input.instanceId), given(input)) }));
    },
  }),
);
