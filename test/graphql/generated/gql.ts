/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  mutation CreateInstance($input: CreateInstanceInput!) {\n    createInstance(input: $input) {\n      instance { id name description variant status sessionStatus webhookUrl webhookEvents integration }\n      qrCode { qrCode expiresAt attemptId }\n      webhookSecret\n      userErrors { code field message }\n    }\n  }\n": typeof types.CreateInstanceDocument,
    "\n  query GetInstance($id: ID!) {\n    instance(id: $id) {\n      id name description variant status sessionStatus phoneNumber active webhookUrl webhookEvents lastConnection\n      statistics { messagesSent messagesReceived mediaSize }\n      qrCode { qrCode expiresAt attemptId }\n    }\n  }\n": typeof types.GetInstanceDocument,
    "\n  query ListInstances($first: Int, $after: String, $filter: InstanceFilter) {\n    instances(first: $first, after: $after, filter: $filter) {\n      totalCount\n      edges { cursor node { id name status active } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.ListInstancesDocument,
    "\n  query InstancesWithRelations($first: Int!) {\n    instances(first: $first) {\n      edges {\n        node {\n          id name status sessionStatus\n          statistics { messagesSent }\n          messages(first: 5) { totalCount edges { node { id text status timestamps { queued sent } } } }\n          webhookDeliveries(first: 5) { edges { node { id event status attempts { number statusCode durationMs } } } }\n        }\n      }\n    }\n  }\n": typeof types.InstancesWithRelationsDocument,
    "\n  mutation UpdateInstance($input: UpdateInstanceInput!) {\n    updateInstance(input: $input) {\n      instance { id name description webhookUrl webhookEvents }\n      userErrors { code field message }\n    }\n  }\n": typeof types.UpdateInstanceDocument,
    "\n  mutation DeleteInstance($id: ID!) {\n    deleteInstance(input: { id: $id }) {\n      deletedInstanceId\n      userErrors { code field message }\n    }\n  }\n": typeof types.DeleteInstanceDocument,
    "\n  mutation SetInstanceActive($input: SetInstanceActiveInput!) {\n    setInstanceActive(input: $input) {\n      instance { id active }\n      userErrors { code field message }\n    }\n  }\n": typeof types.SetInstanceActiveDocument,
    "\n  mutation RequestQrCode($id: ID!) {\n    requestQrCode(input: { id: $id }) {\n      instance { id status }\n      qrCode { qrCode expiresAt attemptId }\n      userErrors { code field message }\n    }\n  }\n": typeof types.RequestQrCodeDocument,
    "\n  mutation RegenerateQrCode($id: ID!) {\n    regenerateQrCode(input: { id: $id }) {\n      instance { id sessionStatus }\n      qrCode { qrCode attemptId }\n      userErrors { code field message }\n    }\n  }\n": typeof types.RegenerateQrCodeDocument,
    "\n  mutation DisconnectInstance($id: ID!) {\n    disconnectInstance(input: { id: $id }) {\n      instance { id status sessionStatus }\n      userErrors { code field message }\n    }\n  }\n": typeof types.DisconnectInstanceDocument,
    "\n  mutation SetWebhook($input: SetWebhookInput!) {\n    setWebhook(input: $input) {\n      instance { id webhookUrl webhookEvents }\n      userErrors { code field message }\n    }\n  }\n": typeof types.SetWebhookDocument,
    "\n  mutation TestWebhook($instanceId: ID!) {\n    testWebhook(input: { instanceId: $instanceId }) {\n      status error response { statusCode body }\n      userErrors { code field message }\n    }\n  }\n": typeof types.TestWebhookDocument,
    "\n  query WebhookDeliveries($id: ID!) {\n    instance(id: $id) {\n      webhookDeliveries(first: 50) { totalCount edges { node { id event url status attemptCount payload attempts { number statusCode error } } } }\n    }\n  }\n": typeof types.WebhookDeliveriesDocument,
    "\n  mutation RedeliverWebhook($instanceId: ID!, $deliveryId: ID!) {\n    redeliverWebhook(input: { instanceId: $instanceId, deliveryId: $deliveryId }) {\n      delivery { id event status payload }\n      userErrors { code field message }\n    }\n  }\n": typeof types.RedeliverWebhookDocument,
    "\n  mutation SendText($input: SendTextInput!) {\n    sendText(input: $input) {\n      message { id status createdAt }\n      userErrors { code field message }\n    }\n  }\n": typeof types.SendTextDocument,
    "\n  mutation SendMedia($input: SendMediaInput!) {\n    sendMedia(input: $input) {\n      message { id status }\n      userErrors { code field message }\n    }\n  }\n": typeof types.SendMediaDocument,
    "\n  mutation SendMessage($input: SendMessageInput!) {\n    sendMessage(input: $input) {\n      message { id status createdAt mode text }\n      userErrors { code field message }\n    }\n  }\n": typeof types.SendMessageDocument,
    "\n  query ListMessages($first: Int, $after: String, $filter: MessageFilter) {\n    messages(first: $first, after: $after, filter: $filter) {\n      totalCount\n      edges { node { id text to status mode instanceId timestamps { queued sent } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.ListMessagesDocument,
    "\n  subscription QrUpdated($instanceId: ID!) {\n    qrUpdated(instanceId: $instanceId) { instanceId qrCode expiresAt attemptId }\n  }\n": typeof types.QrUpdatedDocument,
    "\n  subscription ConnectionUpdated($instanceId: ID!) {\n    connectionUpdated(instanceId: $instanceId) { instanceId status phoneNumber timestamp }\n  }\n": typeof types.ConnectionUpdatedDocument,
    "\n  subscription ConnectionUpdatedWithInstance($instanceId: ID!) {\n    connectionUpdated(instanceId: $instanceId) { instanceId status instance { id status phoneNumber } }\n  }\n": typeof types.ConnectionUpdatedWithInstanceDocument,
    "\n  subscription InstanceUpdated {\n    instanceUpdated { instanceId deleted instance { id name status active phoneNumber } }\n  }\n": typeof types.InstanceUpdatedDocument,
    "\n  subscription MessageUpdated {\n    messageUpdated { messageId status timestamp message { id status to } }\n  }\n": typeof types.MessageUpdatedDocument,
    "\n  query Me {\n    me { tenant { id plan } user { email } apiKey { name testMode } }\n  }\n": typeof types.MeDocument,
    "\n  query Limits {\n    me { tenant { limits { instances { used max } messagesToday { used max } requestsThisMinute { used max } } } }\n  }\n": typeof types.LimitsDocument,
    "\n  query GetMessage($id: ID!) {\n    message(id: $id) { id text }\n  }\n": typeof types.GetMessageDocument,
    "\n  query GetNode($id: ID!) {\n    node(id: $id) {\n      __typename\n      id\n      ... on Instance { name }\n      ... on Message { text }\n      ... on ApiKey { keyPrefix }\n      ... on WebhookDelivery { event }\n    }\n  }\n": typeof types.GetNodeDocument,
    "\n  query ListApiKeys($first: Int) {\n    apiKeys(first: $first) { totalCount edges { node { id } } pageInfo { hasNextPage } }\n  }\n": typeof types.ListApiKeysDocument,
    "\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) {\n      key\n      apiKey { id keyPrefix testMode }\n      userErrors { code field message }\n    }\n  }\n": typeof types.CreateApiKeyDocument,
    "\n  mutation RevokeApiKey($id: ID!) {\n    revokeApiKey(input: { id: $id }) {\n      revokedApiKeyId\n      userErrors { code field message }\n    }\n  }\n": typeof types.RevokeApiKeyDocument,
    "\n  mutation RotateWebhookSecret($instanceId: ID!) {\n    rotateWebhookSecret(input: { instanceId: $instanceId }) {\n      webhookSecret\n      userErrors { code field message }\n    }\n  }\n": typeof types.RotateWebhookSecretDocument,
    "\n  query InstanceGroups($id: ID!, $groupId: String!, $withGroup: Boolean!) {\n    instance(id: $id) {\n      id\n      groups { id subject description owner participants { phone admin } announce restrict }\n      group(id: $groupId) @include(if: $withGroup) { id subject description owner participants { phone admin } announce restrict }\n    }\n  }\n": typeof types.InstanceGroupsDocument,
    "\n  mutation CreateGroup($input: CreateGroupInput!) {\n    createGroup(input: $input) {\n      group { id subject description owner participants { phone admin } announce restrict }\n      userErrors { code field message }\n    }\n  }\n": typeof types.CreateGroupDocument,
    "\n  mutation UpdateGroup($input: UpdateGroupInput!) {\n    updateGroup(input: $input) {\n      group { id subject description announce restrict }\n      userErrors { code field message }\n    }\n  }\n": typeof types.UpdateGroupDocument,
    "\n  mutation ChangeGroupParticipants($input: GroupParticipantsInput!) {\n    changeGroupParticipants(input: $input) {\n      results { phone status }\n      userErrors { code field message }\n    }\n  }\n": typeof types.ChangeGroupParticipantsDocument,
    "\n  mutation GroupInviteCode($input: GroupActionInput!) {\n    groupInviteCode(input: $input) {\n      invite { code url }\n      userErrors { code field message }\n    }\n  }\n": typeof types.GroupInviteCodeDocument,
    "\n  mutation LeaveGroup($input: GroupActionInput!) {\n    leaveGroup(input: $input) {\n      done\n      userErrors { code field message }\n    }\n  }\n": typeof types.LeaveGroupDocument,
    "\n  query MessageGroupAndPoll($id: ID!) {\n    message(id: $id) {\n      id\n      from\n      text\n      group { id subject }\n      poll { name selectableCount options { name votes voters } }\n    }\n  }\n": typeof types.MessageGroupAndPollDocument,
    "\n  query CachedInbox($id: ID!, $first: Int!) {\n    instance(id: $id) {\n      id\n      chats(first: $first) {\n        totalCount\n        edges { node { id chatId name unreadCount pinned lastMessage { id text direction } } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": typeof types.CachedInboxDocument,
    "\n  subscription InboxUpdates($instanceId: ID) {\n    chatUpdated(instanceId: $instanceId) {\n      id\n      instanceId\n      chatId\n      deleted\n      chat { id chatId name unreadCount pinned lastMessage { id text direction } }\n    }\n  }\n": typeof types.InboxUpdatesDocument,
    "\n  mutation MarkChatReadForCache($input: ChatActionInput!) {\n    markChatRead(input: $input) { chat { id unreadCount } userErrors { code field message } }\n  }\n": typeof types.MarkChatReadForCacheDocument,
    "\n  query CachedInstances($first: Int!, $after: String) {\n    instances(first: $first, after: $after) {\n      totalCount\n      edges { node { id name status active phoneNumber } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.CachedInstancesDocument,
    "\n  mutation CreateForCache($name: String!) {\n    createInstance(input: { name: $name }) { instance { id name status } userErrors { code field message } }\n  }\n": typeof types.CreateForCacheDocument,
    "\n  mutation RequestQrForCache($id: ID!) {\n    requestQrCode(input: { id: $id }) { instance { id status } qrCode { qrCode } userErrors { code message } }\n  }\n": typeof types.RequestQrForCacheDocument,
    "\n  mutation DeactivateForCache($id: ID!) {\n    setInstanceActive(input: { id: $id, active: false }) { instance { id active } userErrors { code message } }\n  }\n": typeof types.DeactivateForCacheDocument,
    "\n  subscription StatusesForCache($instanceId: ID!) {\n    connectionUpdated(instanceId: $instanceId) { instanceId status instance { id status phoneNumber } }\n  }\n": typeof types.StatusesForCacheDocument,
};
const documents: Documents = {
    "\n  mutation CreateInstance($input: CreateInstanceInput!) {\n    createInstance(input: $input) {\n      instance { id name description variant status sessionStatus webhookUrl webhookEvents integration }\n      qrCode { qrCode expiresAt attemptId }\n      webhookSecret\n      userErrors { code field message }\n    }\n  }\n": types.CreateInstanceDocument,
    "\n  query GetInstance($id: ID!) {\n    instance(id: $id) {\n      id name description variant status sessionStatus phoneNumber active webhookUrl webhookEvents lastConnection\n      statistics { messagesSent messagesReceived mediaSize }\n      qrCode { qrCode expiresAt attemptId }\n    }\n  }\n": types.GetInstanceDocument,
    "\n  query ListInstances($first: Int, $after: String, $filter: InstanceFilter) {\n    instances(first: $first, after: $after, filter: $filter) {\n      totalCount\n      edges { cursor node { id name status active } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.ListInstancesDocument,
    "\n  query InstancesWithRelations($first: Int!) {\n    instances(first: $first) {\n      edges {\n        node {\n          id name status sessionStatus\n          statistics { messagesSent }\n          messages(first: 5) { totalCount edges { node { id text status timestamps { queued sent } } } }\n          webhookDeliveries(first: 5) { edges { node { id event status attempts { number statusCode durationMs } } } }\n        }\n      }\n    }\n  }\n": types.InstancesWithRelationsDocument,
    "\n  mutation UpdateInstance($input: UpdateInstanceInput!) {\n    updateInstance(input: $input) {\n      instance { id name description webhookUrl webhookEvents }\n      userErrors { code field message }\n    }\n  }\n": types.UpdateInstanceDocument,
    "\n  mutation DeleteInstance($id: ID!) {\n    deleteInstance(input: { id: $id }) {\n      deletedInstanceId\n      userErrors { code field message }\n    }\n  }\n": types.DeleteInstanceDocument,
    "\n  mutation SetInstanceActive($input: SetInstanceActiveInput!) {\n    setInstanceActive(input: $input) {\n      instance { id active }\n      userErrors { code field message }\n    }\n  }\n": types.SetInstanceActiveDocument,
    "\n  mutation RequestQrCode($id: ID!) {\n    requestQrCode(input: { id: $id }) {\n      instance { id status }\n      qrCode { qrCode expiresAt attemptId }\n      userErrors { code field message }\n    }\n  }\n": types.RequestQrCodeDocument,
    "\n  mutation RegenerateQrCode($id: ID!) {\n    regenerateQrCode(input: { id: $id }) {\n      instance { id sessionStatus }\n      qrCode { qrCode attemptId }\n      userErrors { code field message }\n    }\n  }\n": types.RegenerateQrCodeDocument,
    "\n  mutation DisconnectInstance($id: ID!) {\n    disconnectInstance(input: { id: $id }) {\n      instance { id status sessionStatus }\n      userErrors { code field message }\n    }\n  }\n": types.DisconnectInstanceDocument,
    "\n  mutation SetWebhook($input: SetWebhookInput!) {\n    setWebhook(input: $input) {\n      instance { id webhookUrl webhookEvents }\n      userErrors { code field message }\n    }\n  }\n": types.SetWebhookDocument,
    "\n  mutation TestWebhook($instanceId: ID!) {\n    testWebhook(input: { instanceId: $instanceId }) {\n      status error response { statusCode body }\n      userErrors { code field message }\n    }\n  }\n": types.TestWebhookDocument,
    "\n  query WebhookDeliveries($id: ID!) {\n    instance(id: $id) {\n      webhookDeliveries(first: 50) { totalCount edges { node { id event url status attemptCount payload attempts { number statusCode error } } } }\n    }\n  }\n": types.WebhookDeliveriesDocument,
    "\n  mutation RedeliverWebhook($instanceId: ID!, $deliveryId: ID!) {\n    redeliverWebhook(input: { instanceId: $instanceId, deliveryId: $deliveryId }) {\n      delivery { id event status payload }\n      userErrors { code field message }\n    }\n  }\n": types.RedeliverWebhookDocument,
    "\n  mutation SendText($input: SendTextInput!) {\n    sendText(input: $input) {\n      message { id status createdAt }\n      userErrors { code field message }\n    }\n  }\n": types.SendTextDocument,
    "\n  mutation SendMedia($input: SendMediaInput!) {\n    sendMedia(input: $input) {\n      message { id status }\n      userErrors { code field message }\n    }\n  }\n": types.SendMediaDocument,
    "\n  mutation SendMessage($input: SendMessageInput!) {\n    sendMessage(input: $input) {\n      message { id status createdAt mode text }\n      userErrors { code field message }\n    }\n  }\n": types.SendMessageDocument,
    "\n  query ListMessages($first: Int, $after: String, $filter: MessageFilter) {\n    messages(first: $first, after: $after, filter: $filter) {\n      totalCount\n      edges { node { id text to status mode instanceId timestamps { queued sent } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.ListMessagesDocument,
    "\n  subscription QrUpdated($instanceId: ID!) {\n    qrUpdated(instanceId: $instanceId) { instanceId qrCode expiresAt attemptId }\n  }\n": types.QrUpdatedDocument,
    "\n  subscription ConnectionUpdated($instanceId: ID!) {\n    connectionUpdated(instanceId: $instanceId) { instanceId status phoneNumber timestamp }\n  }\n": types.ConnectionUpdatedDocument,
    "\n  subscription ConnectionUpdatedWithInstance($instanceId: ID!) {\n    connectionUpdated(instanceId: $instanceId) { instanceId status instance { id status phoneNumber } }\n  }\n": types.ConnectionUpdatedWithInstanceDocument,
    "\n  subscription InstanceUpdated {\n    instanceUpdated { instanceId deleted instance { id name status active phoneNumber } }\n  }\n": types.InstanceUpdatedDocument,
    "\n  subscription MessageUpdated {\n    messageUpdated { messageId status timestamp message { id status to } }\n  }\n": types.MessageUpdatedDocument,
    "\n  query Me {\n    me { tenant { id plan } user { email } apiKey { name testMode } }\n  }\n": types.MeDocument,
    "\n  query Limits {\n    me { tenant { limits { instances { used max } messagesToday { used max } requestsThisMinute { used max } } } }\n  }\n": types.LimitsDocument,
    "\n  query GetMessage($id: ID!) {\n    message(id: $id) { id text }\n  }\n": types.GetMessageDocument,
    "\n  query GetNode($id: ID!) {\n    node(id: $id) {\n      __typename\n      id\n      ... on Instance { name }\n      ... on Message { text }\n      ... on ApiKey { keyPrefix }\n      ... on WebhookDelivery { event }\n    }\n  }\n": types.GetNodeDocument,
    "\n  query ListApiKeys($first: Int) {\n    apiKeys(first: $first) { totalCount edges { node { id } } pageInfo { hasNextPage } }\n  }\n": types.ListApiKeysDocument,
    "\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) {\n      key\n      apiKey { id keyPrefix testMode }\n      userErrors { code field message }\n    }\n  }\n": types.CreateApiKeyDocument,
    "\n  mutation RevokeApiKey($id: ID!) {\n    revokeApiKey(input: { id: $id }) {\n      revokedApiKeyId\n      userErrors { code field message }\n    }\n  }\n": types.RevokeApiKeyDocument,
    "\n  mutation RotateWebhookSecret($instanceId: ID!) {\n    rotateWebhookSecret(input: { instanceId: $instanceId }) {\n      webhookSecret\n      userErrors { code field message }\n    }\n  }\n": types.RotateWebhookSecretDocument,
    "\n  query InstanceGroups($id: ID!, $groupId: String!, $withGroup: Boolean!) {\n    instance(id: $id) {\n      id\n      groups { id subject description owner participants { phone admin } announce restrict }\n      group(id: $groupId) @include(if: $withGroup) { id subject description owner participants { phone admin } announce restrict }\n    }\n  }\n": types.InstanceGroupsDocument,
    "\n  mutation CreateGroup($input: CreateGroupInput!) {\n    createGroup(input: $input) {\n      group { id subject description owner participants { phone admin } announce restrict }\n      userErrors { code field message }\n    }\n  }\n": types.CreateGroupDocument,
    "\n  mutation UpdateGroup($input: UpdateGroupInput!) {\n    updateGroup(input: $input) {\n      group { id subject description announce restrict }\n      userErrors { code field message }\n    }\n  }\n": types.UpdateGroupDocument,
    "\n  mutation ChangeGroupParticipants($input: GroupParticipantsInput!) {\n    changeGroupParticipants(input: $input) {\n      results { phone status }\n      userErrors { code field message }\n    }\n  }\n": types.ChangeGroupParticipantsDocument,
    "\n  mutation GroupInviteCode($input: GroupActionInput!) {\n    groupInviteCode(input: $input) {\n      invite { code url }\n      userErrors { code field message }\n    }\n  }\n": types.GroupInviteCodeDocument,
    "\n  mutation LeaveGroup($input: GroupActionInput!) {\n    leaveGroup(input: $input) {\n      done\n      userErrors { code field message }\n    }\n  }\n": types.LeaveGroupDocument,
    "\n  query MessageGroupAndPoll($id: ID!) {\n    message(id: $id) {\n      id\n      from\n      text\n      group { id subject }\n      poll { name selectableCount options { name votes voters } }\n    }\n  }\n": types.MessageGroupAndPollDocument,
    "\n  query CachedInbox($id: ID!, $first: Int!) {\n    instance(id: $id) {\n      id\n      chats(first: $first) {\n        totalCount\n        edges { node { id chatId name unreadCount pinned lastMessage { id text direction } } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": types.CachedInboxDocument,
    "\n  subscription InboxUpdates($instanceId: ID) {\n    chatUpdated(instanceId: $instanceId) {\n      id\n      instanceId\n      chatId\n      deleted\n      chat { id chatId name unreadCount pinned lastMessage { id text direction } }\n    }\n  }\n": types.InboxUpdatesDocument,
    "\n  mutation MarkChatReadForCache($input: ChatActionInput!) {\n    markChatRead(input: $input) { chat { id unreadCount } userErrors { code field message } }\n  }\n": types.MarkChatReadForCacheDocument,
    "\n  query CachedInstances($first: Int!, $after: String) {\n    instances(first: $first, after: $after) {\n      totalCount\n      edges { node { id name status active phoneNumber } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.CachedInstancesDocument,
    "\n  mutation CreateForCache($name: String!) {\n    createInstance(input: { name: $name }) { instance { id name status } userErrors { code field message } }\n  }\n": types.CreateForCacheDocument,
    "\n  mutation RequestQrForCache($id: ID!) {\n    requestQrCode(input: { id: $id }) { instance { id status } qrCode { qrCode } userErrors { code message } }\n  }\n": types.RequestQrForCacheDocument,
    "\n  mutation DeactivateForCache($id: ID!) {\n    setInstanceActive(input: { id: $id, active: false }) { instance { id active } userErrors { code message } }\n  }\n": types.DeactivateForCacheDocument,
    "\n  subscription StatusesForCache($instanceId: ID!) {\n    connectionUpdated(instanceId: $instanceId) { instanceId status instance { id status phoneNumber } }\n  }\n": types.StatusesForCacheDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateInstance($input: CreateInstanceInput!) {\n    createInstance(input: $input) {\n      instance { id name description variant status sessionStatus webhookUrl webhookEvents integration }\n      qrCode { qrCode expiresAt attemptId }\n      webhookSecret\n      userErrors { code field message }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateInstance($input: CreateInstanceInput!) {\n    createInstance(input: $input) {\n      instance { id name description variant status sessionStatus webhookUrl webhookEvents integration }\n      qrCode { qrCode expiresAt attemptId }\n      webhookSecret\n      userErrors { code field message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query GetInstance($id: ID!) {\n    instance(id: $id) {\n      id name description variant status sessionStatus phoneNumber active webhookUrl webhookEvents lastConnection\n      statistics { messagesSent messagesReceived mediaSize }\n      qrCode { qrCode expiresAt attemptId }\n    }\n  }\n"): (typeof documents)["\n  query GetInstance($id: ID!) {\n    instance(id: $id) {\n      id name description variant status sessionStatus phoneNumber active webhookUrl webhookEvents lastConnection\n      statistics { messagesSent messagesReceived mediaSize }\n      qrCode { qrCode expiresAt attemptId }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ListInstances($first: Int, $after: String, $filter: InstanceFilter) {\n    instances(first: $first, after: $after, filter: $filter) {\n      totalCount\n      edges { cursor node { id name status active } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query ListInstances($first: Int, $after: String, $filter: InstanceFilter) {\n    instances(first: $first, after: $after, filter: $filter) {\n      totalCount\n      edges { cursor node { id name status active } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query InstancesWithRelations($first: Int!) {\n    instances(first: $first) {\n      edges {\n        node {\n          id name status sessionStatus\n          statistics { messagesSent }\n          messages(first: 5) { totalCount edges { node { id text status timestamps { queued sent } } } }\n          webhookDeliveries(first: 5) { edges { node { id event status attempts { number statusCode durationMs } } } }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query InstancesWithRelations($first: Int!) {\n    instances(first: $first) {\n      edges {\n        node {\n          id name status sessionStatus\n          statistics { messagesSent }\n          messages(first: 5) { totalCount edges { node { id text status timestamps { queued sent } } } }\n          webhookDeliveries(first: 5) { edges { node { id event status attempts { number statusCode durationMs } } } }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateInstance($input: UpdateInstanceInput!) {\n    updateInstance(input: $input) {\n      instance { id name description webhookUrl webhookEvents }\n      userErrors { code field message }\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateInstance($input: UpdateInstanceInput!) {\n    updateInstance(input: $input) {\n      instance { id name description webhookUrl webhookEvents }\n      userErrors { code field message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteInstance($id: ID!) {\n    deleteInstance(input: { id: $id }) {\n      deletedInstanceId\n      userErrors { code field message }\n    }\n  }\n"): (typeof documents)["\n  mutation DeleteInstance($id: ID!) {\n    deleteInstance(input: { id: $id }) {\n      deletedInstanceId\n      userErrors { code field message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetInstanceActive($input: SetInstanceActiveInput!) {\n    setInstanceActive(input: $input) {\n      instance { id active }\n      userErrors { code field message }\n    }\n  }\n"): (typeof documents)["\n  mutation SetInstanceActive($input: SetInstanceActiveInput!) {\n    setInstanceActive(input: $input) {\n      instance { id active }\n      userErrors { code field message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RequestQrCode($id: ID!) {\n    requestQrCode(input: { id: $id }) {\n      instance { id status }\n      qrCode { qrCode expiresAt attemptId }\n      userErrors { code field message }\n    }\n  }\n"): (typeof documents)["\n  mutation RequestQrCode($id: ID!) {\n    requestQrCode(input: { id: $id }) {\n      instance { id status }\n      qrCode { qrCode expiresAt attemptId }\n      userErrors { code field message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RegenerateQrCode($id: ID!) {\n    regenerateQrCode(input: { id: $id }) {\n      instance { id sessionStatus }\n      qrCode { qrCode attemptId }\n      userErrors { code field message }\n    }\n  }\n"): (typeof documents)["\n  mutation RegenerateQrCode($id: ID!) {\n    regenerateQrCode(input: { id: $id }) {\n      instance { id sessionStatus }\n      qrCode { qrCode attemptId }\n      userErrors { code field message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DisconnectInstance($id: ID!) {\n    disconnectInstance(input: { id: $id }) {\n      instance { id status sessionStatus }\n      userErrors { code field message }\n    }\n  }\n"): (typeof documents)["\n  mutation DisconnectInstance($id: ID!) {\n    disconnectInstance(input: { id: $id }) {\n      instance { id status sessionStatus }\n      userErrors { code field message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetWebhook($input: SetWebhookInput!) {\n    setWebhook(input: $input) {\n      instance { id webhookUrl webhookEvents }\n      userErrors { code field message }\n    }\n  }\n"): (typeof documents)["\n  mutation SetWebhook($input: SetWebhookInput!) {\n    setWebhook(input: $input) {\n      instance { id webhookUrl webhookEvents }\n      userErrors { code field message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TestWebhook($instanceId: ID!) {\n    testWebhook(input: { instanceId: $instanceId }) {\n      status error response { statusCode body }\n      userErrors { code field message }\n    }\n  }\n"): (typeof documents)["\n  mutation TestWebhook($instanceId: ID!) {\n    testWebhook(input: { instanceId: $instanceId }) {\n      status error response { statusCode body }\n      userErrors { code field message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookDeliveries($id: ID!) {\n    instance(id: $id) {\n      webhookDeliveries(first: 50) { totalCount edges { node { id event url status attemptCount payload attempts { number statusCode error } } } }\n    }\n  }\n"): (typeof documents)["\n  query WebhookDeliveries($id: ID!) {\n    instance(id: $id) {\n      webhookDeliveries(first: 50) { totalCount edges { node { id event url status attemptCount payload attempts { number statusCode error } } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RedeliverWebhook($instanceId: ID!, $deliveryId: ID!) {\n    redeliverWebhook(input: { instanceId: $instanceId, deliveryId: $deliveryId }) {\n      delivery { id event status payload }\n      userErrors { code field message }\n    }\n  }\n"): (typeof documents)["\n  mutation RedeliverWebhook($instanceId: ID!, $deliveryId: ID!) {\n    redeliverWebhook(input: { instanceId: $instanceId, deliveryId: $deliveryId }) {\n      delivery { id event status payload }\n      userErrors { code field message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SendText($input: SendTextInput!) {\n    sendText(input: $input) {\n      message { id status createdAt }\n      userErrors { code field message }\n    }\n  }\n"): (typeof documents)["\n  mutation SendText($input: SendTextInput!) {\n    sendText(input: $input) {\n      message { id status createdAt }\n      userErrors { code field message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SendMedia($input: SendMediaInput!) {\n    sendMedia(input: $input) {\n      message { id status }\n      userErrors { code field message }\n    }\n  }\n"): (typeof documents)["\n  mutation SendMedia($input: SendMediaInput!) {\n    sendMedia(input: $input) {\n      message { id status }\n      userErrors { code field message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SendMessage($input: SendMessageInput!) {\n    sendMessage(input: $input) {\n      message { id status createdAt mode text }\n      userErrors { code field message }\n    }\n  }\n"): (typeof documents)["\n  mutation SendMessage($input: SendMessageInput!) {\n    sendMessage(input: $input) {\n      message { id status createdAt mode text }\n      userErrors { code field message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ListMessages($first: Int, $after: String, $filter: MessageFilter) {\n    messages(first: $first, after: $after, filter: $filter) {\n      totalCount\n      edges { node { id text to status mode instanceId timestamps { queued sent } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query ListMessages($first: Int, $after: String, $filter: MessageFilter) {\n    messages(first: $first, after: $after, filter: $filter) {\n      totalCount\n      edges { node { id text to status mode instanceId timestamps { queued sent } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription QrUpdated($instanceId: ID!) {\n    qrUpdated(instanceId: $instanceId) { instanceId qrCode expiresAt attemptId }\n  }\n"): (typeof documents)["\n  subscription QrUpdated($instanceId: ID!) {\n    qrUpdated(instanceId: $instanceId) { instanceId qrCode expiresAt attemptId }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConnectionUpdated($instanceId: ID!) {\n    connectionUpdated(instanceId: $instanceId) { instanceId status phoneNumber timestamp }\n  }\n"): (typeof documents)["\n  subscription ConnectionUpdated($instanceId: ID!) {\n    connectionUpdated(instanceId: $instanceId) { instanceId status phoneNumber timestamp }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConnectionUpdatedWithInstance($instanceId: ID!) {\n    connectionUpdated(instanceId: $instanceId) { instanceId status instance { id status phoneNumber } }\n  }\n"): (typeof documents)["\n  subscription ConnectionUpdatedWithInstance($instanceId: ID!) {\n    connectionUpdated(instanceId: $instanceId) { instanceId status instance { id status phoneNumber } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription InstanceUpdated {\n    instanceUpdated { instanceId deleted instance { id name status active phoneNumber } }\n  }\n"): (typeof documents)["\n  subscription InstanceUpdated {\n    instanceUpdated { instanceId deleted instance { id name status active phoneNumber } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription MessageUpdated {\n    messageUpdated { messageId status timestamp message { id status to } }\n  }\n"): (typeof documents)["\n  subscription MessageUpdated {\n    messageUpdated { messageId status timestamp message { id status to } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Me {\n    me { tenant { id plan } user { email } apiKey { name testMode } }\n  }\n"): (typeof documents)["\n  query Me {\n    me { tenant { id plan } user { email } apiKey { name testMode } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Limits {\n    me { tenant { limits { instances { used max } messagesToday { used max } requestsThisMinute { used max } } } }\n  }\n"): (typeof documents)["\n  query Limits {\n    me { tenant { limits { instances { used max } messagesToday { used max } requestsThisMinute { used max } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query GetMessage($id: ID!) {\n    message(id: $id) { id text }\n  }\n"): (typeof documents)["\n  query GetMessage($id: ID!) {\n    message(id: $id) { id text }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query GetNode($id: ID!) {\n    node(id: $id) {\n      __typename\n      id\n      ... on Instance { name }\n      ... on Message { text }\n      ... on ApiKey { keyPrefix }\n      ... on WebhookDelivery { event }\n    }\n  }\n"): (typeof documents)["\n  query GetNode($id: ID!) {\n    node(id: $id) {\n      __typename\n      id\n      ... on Instance { name }\n      ... on Message { text }\n      ... on ApiKey { keyPrefix }\n      ... on WebhookDelivery { event }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ListApiKeys($first: Int) {\n    apiKeys(first: $first) { totalCount edges { node { id } } pageInfo { hasNextPage } }\n  }\n"): (typeof documents)["\n  query ListApiKeys($first: Int) {\n    apiKeys(first: $first) { totalCount edges { node { id } } pageInfo { hasNextPage } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) {\n      key\n      apiKey { id keyPrefix testMode }\n      userErrors { code field message }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) {\n      key\n      apiKey { id keyPrefix testMode }\n      userErrors { code field message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeApiKey($id: ID!) {\n    revokeApiKey(input: { id: $id }) {\n      revokedApiKeyId\n      userErrors { code field message }\n    }\n  }\n"): (typeof documents)["\n  mutation RevokeApiKey($id: ID!) {\n    revokeApiKey(input: { id: $id }) {\n      revokedApiKeyId\n      userErrors { code field message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateWebhookSecret($instanceId: ID!) {\n    rotateWebhookSecret(input: { instanceId: $instanceId }) {\n      webhookSecret\n      userErrors { code field message }\n    }\n  }\n"): (typeof documents)["\n  mutation RotateWebhookSecret($instanceId: ID!) {\n    rotateWebhookSecret(input: { instanceId: $instanceId }) {\n      webhookSecret\n      userErrors { code field message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query InstanceGroups($id: ID!, $groupId: String!, $withGroup: Boolean!) {\n    instance(id: $id) {\n      id\n      groups { id subject description owner participants { phone admin } announce restrict }\n      group(id: $groupId) @include(if: $withGroup) { id subject description owner participants { phone admin } announce restrict }\n    }\n  }\n"): (typeof documents)["\n  query InstanceGroups($id: ID!, $groupId: String!, $withGroup: Boolean!) {\n    instance(id: $id) {\n      id\n      groups { id subject description owner participants { phone admin } announce restrict }\n      group(id: $groupId) @include(if: $withGroup) { id subject description owner participants { phone admin } announce restrict }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateGroup($input: CreateGroupInput!) {\n    createGroup(input: $input) {\n      group { id subject description owner participants { phone admin } announce restrict }\n      userErrors { code field message }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateGroup($input: CreateGroupInput!) {\n    createGroup(input: $input) {\n      group { id subject description owner participants { phone admin } announce restrict }\n      userErrors { code field message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateGroup($input: UpdateGroupInput!) {\n    updateGroup(input: $input) {\n      group { id subject description announce restrict }\n      userErrors { code field message }\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateGroup($input: UpdateGroupInput!) {\n    updateGroup(input: $input) {\n      group { id subject description announce restrict }\n      userErrors { code field message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ChangeGroupParticipants($input: GroupParticipantsInput!) {\n    changeGroupParticipants(input: $input) {\n      results { phone status }\n      userErrors { code field message }\n    }\n  }\n"): (typeof documents)["\n  mutation ChangeGroupParticipants($input: GroupParticipantsInput!) {\n    changeGroupParticipants(input: $input) {\n      results { phone status }\n      userErrors { code field message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation GroupInviteCode($input: GroupActionInput!) {\n    groupInviteCode(input: $input) {\n      invite { code url }\n      userErrors { code field message }\n    }\n  }\n"): (typeof documents)["\n  mutation GroupInviteCode($input: GroupActionInput!) {\n    groupInviteCode(input: $input) {\n      invite { code url }\n      userErrors { code field message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation LeaveGroup($input: GroupActionInput!) {\n    leaveGroup(input: $input) {\n      done\n      userErrors { code field message }\n    }\n  }\n"): (typeof documents)["\n  mutation LeaveGroup($input: GroupActionInput!) {\n    leaveGroup(input: $input) {\n      done\n      userErrors { code field message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MessageGroupAndPoll($id: ID!) {\n    message(id: $id) {\n      id\n      from\n      text\n      group { id subject }\n      poll { name selectableCount options { name votes voters } }\n    }\n  }\n"): (typeof documents)["\n  query MessageGroupAndPoll($id: ID!) {\n    message(id: $id) {\n      id\n      from\n      text\n      group { id subject }\n      poll { name selectableCount options { name votes voters } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CachedInbox($id: ID!, $first: Int!) {\n    instance(id: $id) {\n      id\n      chats(first: $first) {\n        totalCount\n        edges { node { id chatId name unreadCount pinned lastMessage { id text direction } } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"): (typeof documents)["\n  query CachedInbox($id: ID!, $first: Int!) {\n    instance(id: $id) {\n      id\n      chats(first: $first) {\n        totalCount\n        edges { node { id chatId name unreadCount pinned lastMessage { id text direction } } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription InboxUpdates($instanceId: ID) {\n    chatUpdated(instanceId: $instanceId) {\n      id\n      instanceId\n      chatId\n      deleted\n      chat { id chatId name unreadCount pinned lastMessage { id text direction } }\n    }\n  }\n"): (typeof documents)["\n  subscription InboxUpdates($instanceId: ID) {\n    chatUpdated(instanceId: $instanceId) {\n      id\n      instanceId\n      chatId\n      deleted\n      chat { id chatId name unreadCount pinned lastMessage { id text direction } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MarkChatReadForCache($input: ChatActionInput!) {\n    markChatRead(input: $input) { chat { id unreadCount } userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation MarkChatReadForCache($input: ChatActionInput!) {\n    markChatRead(input: $input) { chat { id unreadCount } userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CachedInstances($first: Int!, $after: String) {\n    instances(first: $first, after: $after) {\n      totalCount\n      edges { node { id name status active phoneNumber } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query CachedInstances($first: Int!, $after: String) {\n    instances(first: $first, after: $after) {\n      totalCount\n      edges { node { id name status active phoneNumber } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateForCache($name: String!) {\n    createInstance(input: { name: $name }) { instance { id name status } userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation CreateForCache($name: String!) {\n    createInstance(input: { name: $name }) { instance { id name status } userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RequestQrForCache($id: ID!) {\n    requestQrCode(input: { id: $id }) { instance { id status } qrCode { qrCode } userErrors { code message } }\n  }\n"): (typeof documents)["\n  mutation RequestQrForCache($id: ID!) {\n    requestQrCode(input: { id: $id }) { instance { id status } qrCode { qrCode } userErrors { code message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeactivateForCache($id: ID!) {\n    setInstanceActive(input: { id: $id, active: false }) { instance { id active } userErrors { code message } }\n  }\n"): (typeof documents)["\n  mutation DeactivateForCache($id: ID!) {\n    setInstanceActive(input: { id: $id, active: false }) { instance { id active } userErrors { code message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription StatusesForCache($instanceId: ID!) {\n    connectionUpdated(instanceId: $instanceId) { instanceId status instance { id status phoneNumber } }\n  }\n"): (typeof documents)["\n  subscription StatusesForCache($instanceId: ID!) {\n    connectionUpdated(instanceId: $instanceId) { instanceId status instance { id status phoneNumber } }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;