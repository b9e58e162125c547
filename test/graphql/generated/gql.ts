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
    "\n  mutation CreateInstance($input: CreateInstanceInput!) {\n    createInstance(input: $input) {\n      __typename\n      ... on MutationCreateInstanceSuccess {\n        data {\n          instance { id name description variant status sessionStatus webhookUrl webhookEvents integration }\n          qrCode { qrCode expiresAt attemptId }\n          webhookSecret\n        }\n      }\n      ... on DomainError { code message }\n    }\n  }\n": typeof types.CreateInstanceDocument,
    "\n  query GetInstance($id: ID!) {\n    instance(id: $id) {\n      __typename\n      ... on QueryInstanceSuccess {\n        data {\n          id name description variant status sessionStatus phoneNumber active webhookUrl webhookEvents lastConnection\n          statistics { messagesSent messagesReceived mediaSize }\n          qrCode { qrCode expiresAt attemptId }\n        }\n      }\n      ... on DomainError { code message }\n    }\n  }\n": typeof types.GetInstanceDocument,
    "\n  query ListInstances($first: Int, $after: String) {\n    instances(first: $first, after: $after) {\n      __typename\n      ... on QueryInstancesSuccess {\n        data {\n          edges { cursor node { id name status } }\n          pageInfo { hasNextPage endCursor }\n        }\n      }\n      ... on DomainError { code message }\n    }\n  }\n": typeof types.ListInstancesDocument,
    "\n  query InstancesWithRelations($first: Int!) {\n    instances(first: $first) {\n      __typename\n      ... on QueryInstancesSuccess {\n        data {\n          edges {\n            node {\n              id name status sessionStatus\n              statistics { messagesSent }\n              messages(first: 5) { edges { node { id text status timestamps { queued sent } } } }\n              webhookDeliveries(first: 5) { edges { node { id event status attempts { number statusCode durationMs } } } }\n            }\n          }\n        }\n      }\n      ... on DomainError { code }\n    }\n  }\n": typeof types.InstancesWithRelationsDocument,
    "\n  mutation UpdateInstance($id: ID!, $input: UpdateInstanceInput!) {\n    updateInstance(id: $id, input: $input) {\n      __typename\n      ... on MutationUpdateInstanceSuccess { data { id name description webhookUrl webhookEvents } }\n      ... on DomainError { code message }\n    }\n  }\n": typeof types.UpdateInstanceDocument,
    "\n  mutation DeleteInstance($id: ID!) {\n    deleteInstance(id: $id) {\n      __typename\n      ... on DomainError { code message }\n    }\n  }\n": typeof types.DeleteInstanceDocument,
    "\n  mutation SetInstanceActive($input: SetInstanceActiveInput!) {\n    setInstanceActive(input: $input) {\n      __typename\n      ... on MutationSetInstanceActiveSuccess { data { id active } }\n      ... on DomainError { code message }\n    }\n  }\n": typeof types.SetInstanceActiveDocument,
    "\n  mutation RequestQrCode($id: ID!) {\n    requestQrCode(id: $id) {\n      __typename\n      ... on MutationRequestQrCodeSuccess { data { qrCode expiresAt attemptId } }\n      ... on DomainError { code message }\n    }\n  }\n": typeof types.RequestQrCodeDocument,
    "\n  mutation RegenerateQrCode($id: ID!) {\n    regenerateQrCode(id: $id) {\n      __typename\n      ... on MutationRegenerateQrCodeSuccess { data { instance { id sessionStatus } qrCode { qrCode attemptId } } }\n      ... on DomainError { code message }\n    }\n  }\n": typeof types.RegenerateQrCodeDocument,
    "\n  mutation DisconnectInstance($id: ID!) {\n    disconnectInstance(id: $id) {\n      __typename\n      ... on MutationDisconnectInstanceSuccess { data { id status sessionStatus } }\n      ... on DomainError { code message }\n    }\n  }\n": typeof types.DisconnectInstanceDocument,
    "\n  mutation SetWebhook($instanceId: ID!, $input: SetWebhookInput!) {\n    setWebhook(instanceId: $instanceId, input: $input) {\n      __typename\n      ... on MutationSetWebhookSuccess { data { id webhookUrl webhookEvents } }\n      ... on DomainError { code message }\n    }\n  }\n": typeof types.SetWebhookDocument,
    "\n  mutation TestWebhook($instanceId: ID!) {\n    testWebhook(instanceId: $instanceId) {\n      __typename\n      ... on MutationTestWebhookSuccess { data { status error response { statusCode body } } }\n      ... on DomainError { code message }\n    }\n  }\n": typeof types.TestWebhookDocument,
    "\n  query WebhookDeliveries($id: ID!) {\n    instance(id: $id) {\n      __typename\n      ... on QueryInstanceSuccess {\n        data { webhookDeliveries(first: 50) { edges { node { id event url status attemptCount payload attempts { number statusCode error } } } } }\n      }\n      ... on DomainError { code }\n    }\n  }\n": typeof types.WebhookDeliveriesDocument,
    "\n  mutation RedeliverWebhook($instanceId: ID!, $deliveryId: ID!) {\n    redeliverWebhook(instanceId: $instanceId, deliveryId: $deliveryId) {\n      __typename\n      ... on MutationRedeliverWebhookSuccess { data { id event status payload } }\n      ... on DomainError { code message }\n    }\n  }\n": typeof types.RedeliverWebhookDocument,
    "\n  mutation SendText($instanceId: ID!, $to: String!, $message: String!, $idempotencyKey: String) {\n    sendText(instanceId: $instanceId, to: $to, message: $message, idempotencyKey: $idempotencyKey) {\n      __typename\n      ... on MutationSendTextSuccess { data { id status timestamp } }\n      ... on DomainError { code message }\n    }\n  }\n": typeof types.SendTextDocument,
    "\n  mutation SendMedia($instanceId: ID!, $input: SendMediaInput!) {\n    sendMedia(instanceId: $instanceId, input: $input) {\n      __typename\n      ... on MutationSendMediaSuccess { data { id status } }\n      ... on DomainError { code message }\n    }\n  }\n": typeof types.SendMediaDocument,
    "\n  mutation SendMessage($to: String!, $text: String!, $idempotencyKey: String) {\n    sendMessage(to: $to, text: $text, idempotencyKey: $idempotencyKey) {\n      __typename\n      ... on MutationSendMessageSuccess { data { id status timestamp mode } }\n      ... on DomainError { code message retryAfter }\n    }\n  }\n": typeof types.SendMessageDocument,
    "\n  query ListMessages($first: Int, $after: String) {\n    messages(first: $first, after: $after) {\n      __typename\n      ... on QueryMessagesSuccess {\n        data {\n          edges { node { id text to status mode instanceId timestamps { queued sent } } }\n          pageInfo { hasNextPage endCursor }\n        }\n      }\n      ... on DomainError { code message }\n    }\n  }\n": typeof types.ListMessagesDocument,
    "\n  subscription QrUpdated($instanceId: ID!) {\n    qrUpdated(instanceId: $instanceId) { instanceId qrCode expiresAt attemptId }\n  }\n": typeof types.QrUpdatedDocument,
    "\n  subscription ConnectionUpdated($instanceId: ID!) {\n    connectionUpdated(instanceId: $instanceId) { instanceId status phoneNumber timestamp }\n  }\n": typeof types.ConnectionUpdatedDocument,
    "\n  subscription ConnectionUpdatedWithInstance($instanceId: ID!) {\n    connectionUpdated(instanceId: $instanceId) { instanceId status instance { id status phoneNumber } }\n  }\n": typeof types.ConnectionUpdatedWithInstanceDocument,
    "\n  subscription InstanceUpdated {\n    instanceUpdated { instanceId deleted instance { id name status active phoneNumber } }\n  }\n": typeof types.InstanceUpdatedDocument,
    "\n  subscription MessageUpdated {\n    messageUpdated { messageId status timestamp message { id status to } }\n  }\n": typeof types.MessageUpdatedDocument,
    "\n  query Me {\n    me {\n      __typename\n      ... on QueryMeSuccess { data { tenant { id plan } user { email } apiKey { name testMode } } }\n      ... on DomainError { code message }\n    }\n  }\n": typeof types.MeDocument,
    "\n  query GetMessage($id: ID!) {\n    message(id: $id) {\n      __typename\n      ... on QueryMessageSuccess { data { id text } }\n      ... on DomainError { code }\n    }\n  }\n": typeof types.GetMessageDocument,
    "\n  query ListApiKeys {\n    apiKeys(first: 100) {\n      __typename\n      ... on QueryApiKeysSuccess { data { edges { node { id } } pageInfo { hasNextPage } } }\n      ... on DomainError { code }\n    }\n  }\n": typeof types.ListApiKeysDocument,
    "\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) {\n      __typename\n      ... on MutationCreateApiKeySuccess { data { key apiKey { id keyPrefix testMode } } }\n      ... on DomainError { code }\n    }\n  }\n": typeof types.CreateApiKeyDocument,
    "\n  mutation RevokeApiKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      __typename\n      ... on DomainError { code }\n    }\n  }\n": typeof types.RevokeApiKeyDocument,
    "\n  mutation RotateWebhookSecret($instanceId: ID!) {\n    rotateWebhookSecret(instanceId: $instanceId) {\n      __typename\n      ... on MutationRotateWebhookSecretSuccess { data { webhookSecret } }\n      ... on DomainError { code message }\n    }\n  }\n": typeof types.RotateWebhookSecretDocument,
};
const documents: Documents = {
    "\n  mutation CreateInstance($input: CreateInstanceInput!) {\n    createInstance(input: $input) {\n      __typename\n      ... on MutationCreateInstanceSuccess {\n        data {\n          instance { id name description variant status sessionStatus webhookUrl webhookEvents integration }\n          qrCode { qrCode expiresAt attemptId }\n          webhookSecret\n        }\n      }\n      ... on DomainError { code message }\n    }\n  }\n": types.CreateInstanceDocument,
    "\n  query GetInstance($id: ID!) {\n    instance(id: $id) {\n      __typename\n      ... on QueryInstanceSuccess {\n        data {\n          id name description variant status sessionStatus phoneNumber active webhookUrl webhookEvents lastConnection\n          statistics { messagesSent messagesReceived mediaSize }\n          qrCode { qrCode expiresAt attemptId }\n        }\n      }\n      ... on DomainError { code message }\n    }\n  }\n": types.GetInstanceDocument,
    "\n  query ListInstances($first: Int, $after: String) {\n    instances(first: $first, after: $after) {\n      __typename\n      ... on QueryInstancesSuccess {\n        data {\n          edges { cursor node { id name status } }\n          pageInfo { hasNextPage endCursor }\n        }\n      }\n      ... on DomainError { code message }\n    }\n  }\n": types.ListInstancesDocument,
    "\n  query InstancesWithRelations($first: Int!) {\n    instances(first: $first) {\n      __typename\n      ... on QueryInstancesSuccess {\n        data {\n          edges {\n            node {\n              id name status sessionStatus\n              statistics { messagesSent }\n              messages(first: 5) { edges { node { id text status timestamps { queued sent } } } }\n              webhookDeliveries(first: 5) { edges { node { id event status attempts { number statusCode durationMs } } } }\n            }\n          }\n        }\n      }\n      ... on DomainError { code }\n    }\n  }\n": types.InstancesWithRelationsDocument,
    "\n  mutation UpdateInstance($id: ID!, $input: UpdateInstanceInput!) {\n    updateInstance(id: $id, input: $input) {\n      __typename\n      ... on MutationUpdateInstanceSuccess { data { id name description webhookUrl webhookEvents } }\n      ... on DomainError { code message }\n    }\n  }\n": types.UpdateInstanceDocument,
    "\n  mutation DeleteInstance($id: ID!) {\n    deleteInstance(id: $id) {\n      __typename\n      ... on DomainError { code message }\n    }\n  }\n": types.DeleteInstanceDocument,
    "\n  mutation SetInstanceActive($input: SetInstanceActiveInput!) {\n    setInstanceActive(input: $input) {\n      __typename\n      ... on MutationSetInstanceActiveSuccess { data { id active } }\n      ... on DomainError { code message }\n    }\n  }\n": types.SetInstanceActiveDocument,
    "\n  mutation RequestQrCode($id: ID!) {\n    requestQrCode(id: $id) {\n      __typename\n      ... on MutationRequestQrCodeSuccess { data { qrCode expiresAt attemptId } }\n      ... on DomainError { code message }\n    }\n  }\n": types.RequestQrCodeDocument,
    "\n  mutation RegenerateQrCode($id: ID!) {\n    regenerateQrCode(id: $id) {\n      __typename\n      ... on MutationRegenerateQrCodeSuccess { data { instance { id sessionStatus } qrCode { qrCode attemptId } } }\n      ... on DomainError { code message }\n    }\n  }\n": types.RegenerateQrCodeDocument,
    "\n  mutation DisconnectInstance($id: ID!) {\n    disconnectInstance(id: $id) {\n      __typename\n      ... on MutationDisconnectInstanceSuccess { data { id status sessionStatus } }\n      ... on DomainError { code message }\n    }\n  }\n": types.DisconnectInstanceDocument,
    "\n  mutation SetWebhook($instanceId: ID!, $input: SetWebhookInput!) {\n    setWebhook(instanceId: $instanceId, input: $input) {\n      __typename\n      ... on MutationSetWebhookSuccess { data { id webhookUrl webhookEvents } }\n      ... on DomainError { code message }\n    }\n  }\n": types.SetWebhookDocument,
    "\n  mutation TestWebhook($instanceId: ID!) {\n    testWebhook(instanceId: $instanceId) {\n      __typename\n      ... on MutationTestWebhookSuccess { data { status error response { statusCode body } } }\n      ... on DomainError { code message }\n    }\n  }\n": types.TestWebhookDocument,
    "\n  query WebhookDeliveries($id: ID!) {\n    instance(id: $id) {\n      __typename\n      ... on QueryInstanceSuccess {\n        data { webhookDeliveries(first: 50) { edges { node { id event url status attemptCount payload attempts { number statusCode error } } } } }\n      }\n      ... on DomainError { code }\n    }\n  }\n": types.WebhookDeliveriesDocument,
    "\n  mutation RedeliverWebhook($instanceId: ID!, $deliveryId: ID!) {\n    redeliverWebhook(instanceId: $instanceId, deliveryId: $deliveryId) {\n      __typename\n      ... on MutationRedeliverWebhookSuccess { data { id event status payload } }\n      ... on DomainError { code message }\n    }\n  }\n": types.RedeliverWebhookDocument,
    "\n  mutation SendText($instanceId: ID!, $to: String!, $message: String!, $idempotencyKey: String) {\n    sendText(instanceId: $instanceId, to: $to, message: $message, idempotencyKey: $idempotencyKey) {\n      __typename\n      ... on MutationSendTextSuccess { data { id status timestamp } }\n      ... on DomainError { code message }\n    }\n  }\n": types.SendTextDocument,
    "\n  mutation SendMedia($instanceId: ID!, $input: SendMediaInput!) {\n    sendMedia(instanceId: $instanceId, input: $input) {\n      __typename\n      ... on MutationSendMediaSuccess { data { id status } }\n      ... on DomainError { code message }\n    }\n  }\n": types.SendMediaDocument,
    "\n  mutation SendMessage($to: String!, $text: String!, $idempotencyKey: String) {\n    sendMessage(to: $to, text: $text, idempotencyKey: $idempotencyKey) {\n      __typename\n      ... on MutationSendMessageSuccess { data { id status timestamp mode } }\n      ... on DomainError { code message retryAfter }\n    }\n  }\n": types.SendMessageDocument,
    "\n  query ListMessages($first: Int, $after: String) {\n    messages(first: $first, after: $after) {\n      __typename\n      ... on QueryMessagesSuccess {\n        data {\n          edges { node { id text to status mode instanceId timestamps { queued sent } } }\n          pageInfo { hasNextPage endCursor }\n        }\n      }\n      ... on DomainError { code message }\n    }\n  }\n": types.ListMessagesDocument,
    "\n  subscription QrUpdated($instanceId: ID!) {\n    qrUpdated(instanceId: $instanceId) { instanceId qrCode expiresAt attemptId }\n  }\n": types.QrUpdatedDocument,
    "\n  subscription ConnectionUpdated($instanceId: ID!) {\n    connectionUpdated(instanceId: $instanceId) { instanceId status phoneNumber timestamp }\n  }\n": types.ConnectionUpdatedDocument,
    "\n  subscription ConnectionUpdatedWithInstance($instanceId: ID!) {\n    connectionUpdated(instanceId: $instanceId) { instanceId status instance { id status phoneNumber } }\n  }\n": types.ConnectionUpdatedWithInstanceDocument,
    "\n  subscription InstanceUpdated {\n    instanceUpdated { instanceId deleted instance { id name status active phoneNumber } }\n  }\n": types.InstanceUpdatedDocument,
    "\n  subscription MessageUpdated {\n    messageUpdated { messageId status timestamp message { id status to } }\n  }\n": types.MessageUpdatedDocument,
    "\n  query Me {\n    me {\n      __typename\n      ... on QueryMeSuccess { data { tenant { id plan } user { email } apiKey { name testMode } } }\n      ... on DomainError { code message }\n    }\n  }\n": types.MeDocument,
    "\n  query GetMessage($id: ID!) {\n    message(id: $id) {\n      __typename\n      ... on QueryMessageSuccess { data { id text } }\n      ... on DomainError { code }\n    }\n  }\n": types.GetMessageDocument,
    "\n  query ListApiKeys {\n    apiKeys(first: 100) {\n      __typename\n      ... on QueryApiKeysSuccess { data { edges { node { id } } pageInfo { hasNextPage } } }\n      ... on DomainError { code }\n    }\n  }\n": types.ListApiKeysDocument,
    "\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) {\n      __typename\n      ... on MutationCreateApiKeySuccess { data { key apiKey { id keyPrefix testMode } } }\n      ... on DomainError { code }\n    }\n  }\n": types.CreateApiKeyDocument,
    "\n  mutation RevokeApiKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      __typename\n      ... on DomainError { code }\n    }\n  }\n": types.RevokeApiKeyDocument,
    "\n  mutation RotateWebhookSecret($instanceId: ID!) {\n    rotateWebhookSecret(instanceId: $instanceId) {\n      __typename\n      ... on MutationRotateWebhookSecretSuccess { data { webhookSecret } }\n      ... on DomainError { code message }\n    }\n  }\n": types.RotateWebhookSecretDocument,
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
export function graphql(source: "\n  mutation CreateInstance($input: CreateInstanceInput!) {\n    createInstance(input: $input) {\n      __typename\n      ... on MutationCreateInstanceSuccess {\n        data {\n          instance { id name description variant status sessionStatus webhookUrl webhookEvents integration }\n          qrCode { qrCode expiresAt attemptId }\n          webhookSecret\n        }\n      }\n      ... on DomainError { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateInstance($input: CreateInstanceInput!) {\n    createInstance(input: $input) {\n      __typename\n      ... on MutationCreateInstanceSuccess {\n        data {\n          instance { id name description variant status sessionStatus webhookUrl webhookEvents integration }\n          qrCode { qrCode expiresAt attemptId }\n          webhookSecret\n        }\n      }\n      ... on DomainError { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query GetInstance($id: ID!) {\n    instance(id: $id) {\n      __typename\n      ... on QueryInstanceSuccess {\n        data {\n          id name description variant status sessionStatus phoneNumber active webhookUrl webhookEvents lastConnection\n          statistics { messagesSent messagesReceived mediaSize }\n          qrCode { qrCode expiresAt attemptId }\n        }\n      }\n      ... on DomainError { code message }\n    }\n  }\n"): (typeof documents)["\n  query GetInstance($id: ID!) {\n    instance(id: $id) {\n      __typename\n      ... on QueryInstanceSuccess {\n        data {\n          id name description variant status sessionStatus phoneNumber active webhookUrl webhookEvents lastConnection\n          statistics { messagesSent messagesReceived mediaSize }\n          qrCode { qrCode expiresAt attemptId }\n        }\n      }\n      ... on DomainError { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ListInstances($first: Int, $after: String) {\n    instances(first: $first, after: $after) {\n      __typename\n      ... on QueryInstancesSuccess {\n        data {\n          edges { cursor node { id name status } }\n          pageInfo { hasNextPage endCursor }\n        }\n      }\n      ... on DomainError { code message }\n    }\n  }\n"): (typeof documents)["\n  query ListInstances($first: Int, $after: String) {\n    instances(first: $first, after: $after) {\n      __typename\n      ... on QueryInstancesSuccess {\n        data {\n          edges { cursor node { id name status } }\n          pageInfo { hasNextPage endCursor }\n        }\n      }\n      ... on DomainError { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query InstancesWithRelations($first: Int!) {\n    instances(first: $first) {\n      __typename\n      ... on QueryInstancesSuccess {\n        data {\n          edges {\n            node {\n              id name status sessionStatus\n              statistics { messagesSent }\n              messages(first: 5) { edges { node { id text status timestamps { queued sent } } } }\n              webhookDeliveries(first: 5) { edges { node { id event status attempts { number statusCode durationMs } } } }\n            }\n          }\n        }\n      }\n      ... on DomainError { code }\n    }\n  }\n"): (typeof documents)["\n  query InstancesWithRelations($first: Int!) {\n    instances(first: $first) {\n      __typename\n      ... on QueryInstancesSuccess {\n        data {\n          edges {\n            node {\n              id name status sessionStatus\n              statistics { messagesSent }\n              messages(first: 5) { edges { node { id text status timestamps { queued sent } } } }\n              webhookDeliveries(first: 5) { edges { node { id event status attempts { number statusCode durationMs } } } }\n            }\n          }\n        }\n      }\n      ... on DomainError { code }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateInstance($id: ID!, $input: UpdateInstanceInput!) {\n    updateInstance(id: $id, input: $input) {\n      __typename\n      ... on MutationUpdateInstanceSuccess { data { id name description webhookUrl webhookEvents } }\n      ... on DomainError { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateInstance($id: ID!, $input: UpdateInstanceInput!) {\n    updateInstance(id: $id, input: $input) {\n      __typename\n      ... on MutationUpdateInstanceSuccess { data { id name description webhookUrl webhookEvents } }\n      ... on DomainError { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteInstance($id: ID!) {\n    deleteInstance(id: $id) {\n      __typename\n      ... on DomainError { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation DeleteInstance($id: ID!) {\n    deleteInstance(id: $id) {\n      __typename\n      ... on DomainError { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetInstanceActive($input: SetInstanceActiveInput!) {\n    setInstanceActive(input: $input) {\n      __typename\n      ... on MutationSetInstanceActiveSuccess { data { id active } }\n      ... on DomainError { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation SetInstanceActive($input: SetInstanceActiveInput!) {\n    setInstanceActive(input: $input) {\n      __typename\n      ... on MutationSetInstanceActiveSuccess { data { id active } }\n      ... on DomainError { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RequestQrCode($id: ID!) {\n    requestQrCode(id: $id) {\n      __typename\n      ... on MutationRequestQrCodeSuccess { data { qrCode expiresAt attemptId } }\n      ... on DomainError { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation RequestQrCode($id: ID!) {\n    requestQrCode(id: $id) {\n      __typename\n      ... on MutationRequestQrCodeSuccess { data { qrCode expiresAt attemptId } }\n      ... on DomainError { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RegenerateQrCode($id: ID!) {\n    regenerateQrCode(id: $id) {\n      __typename\n      ... on MutationRegenerateQrCodeSuccess { data { instance { id sessionStatus } qrCode { qrCode attemptId } } }\n      ... on DomainError { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation RegenerateQrCode($id: ID!) {\n    regenerateQrCode(id: $id) {\n      __typename\n      ... on MutationRegenerateQrCodeSuccess { data { instance { id sessionStatus } qrCode { qrCode attemptId } } }\n      ... on DomainError { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DisconnectInstance($id: ID!) {\n    disconnectInstance(id: $id) {\n      __typename\n      ... on MutationDisconnectInstanceSuccess { data { id status sessionStatus } }\n      ... on DomainError { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation DisconnectInstance($id: ID!) {\n    disconnectInstance(id: $id) {\n      __typename\n      ... on MutationDisconnectInstanceSuccess { data { id status sessionStatus } }\n      ... on DomainError { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetWebhook($instanceId: ID!, $input: SetWebhookInput!) {\n    setWebhook(instanceId: $instanceId, input: $input) {\n      __typename\n      ... on MutationSetWebhookSuccess { data { id webhookUrl webhookEvents } }\n      ... on DomainError { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation SetWebhook($instanceId: ID!, $input: SetWebhookInput!) {\n    setWebhook(instanceId: $instanceId, input: $input) {\n      __typename\n      ... on MutationSetWebhookSuccess { data { id webhookUrl webhookEvents } }\n      ... on DomainError { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TestWebhook($instanceId: ID!) {\n    testWebhook(instanceId: $instanceId) {\n      __typename\n      ... on MutationTestWebhookSuccess { data { status error response { statusCode body } } }\n      ... on DomainError { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation TestWebhook($instanceId: ID!) {\n    testWebhook(instanceId: $instanceId) {\n      __typename\n      ... on MutationTestWebhookSuccess { data { status error response { statusCode body } } }\n      ... on DomainError { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookDeliveries($id: ID!) {\n    instance(id: $id) {\n      __typename\n      ... on QueryInstanceSuccess {\n        data { webhookDeliveries(first: 50) { edges { node { id event url status attemptCount payload attempts { number statusCode error } } } } }\n      }\n      ... on DomainError { code }\n    }\n  }\n"): (typeof documents)["\n  query WebhookDeliveries($id: ID!) {\n    instance(id: $id) {\n      __typename\n      ... on QueryInstanceSuccess {\n        data { webhookDeliveries(first: 50) { edges { node { id event url status attemptCount payload attempts { number statusCode error } } } } }\n      }\n      ... on DomainError { code }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RedeliverWebhook($instanceId: ID!, $deliveryId: ID!) {\n    redeliverWebhook(instanceId: $instanceId, deliveryId: $deliveryId) {\n      __typename\n      ... on MutationRedeliverWebhookSuccess { data { id event status payload } }\n      ... on DomainError { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation RedeliverWebhook($instanceId: ID!, $deliveryId: ID!) {\n    redeliverWebhook(instanceId: $instanceId, deliveryId: $deliveryId) {\n      __typename\n      ... on MutationRedeliverWebhookSuccess { data { id event status payload } }\n      ... on DomainError { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SendText($instanceId: ID!, $to: String!, $message: String!, $idempotencyKey: String) {\n    sendText(instanceId: $instanceId, to: $to, message: $message, idempotencyKey: $idempotencyKey) {\n      __typename\n      ... on MutationSendTextSuccess { data { id status timestamp } }\n      ... on DomainError { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation SendText($instanceId: ID!, $to: String!, $message: String!, $idempotencyKey: String) {\n    sendText(instanceId: $instanceId, to: $to, message: $message, idempotencyKey: $idempotencyKey) {\n      __typename\n      ... on MutationSendTextSuccess { data { id status timestamp } }\n      ... on DomainError { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SendMedia($instanceId: ID!, $input: SendMediaInput!) {\n    sendMedia(instanceId: $instanceId, input: $input) {\n      __typename\n      ... on MutationSendMediaSuccess { data { id status } }\n      ... on DomainError { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation SendMedia($instanceId: ID!, $input: SendMediaInput!) {\n    sendMedia(instanceId: $instanceId, input: $input) {\n      __typename\n      ... on MutationSendMediaSuccess { data { id status } }\n      ... on DomainError { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SendMessage($to: String!, $text: String!, $idempotencyKey: String) {\n    sendMessage(to: $to, text: $text, idempotencyKey: $idempotencyKey) {\n      __typename\n      ... on MutationSendMessageSuccess { data { id status timestamp mode } }\n      ... on DomainError { code message retryAfter }\n    }\n  }\n"): (typeof documents)["\n  mutation SendMessage($to: String!, $text: String!, $idempotencyKey: String) {\n    sendMessage(to: $to, text: $text, idempotencyKey: $idempotencyKey) {\n      __typename\n      ... on MutationSendMessageSuccess { data { id status timestamp mode } }\n      ... on DomainError { code message retryAfter }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ListMessages($first: Int, $after: String) {\n    messages(first: $first, after: $after) {\n      __typename\n      ... on QueryMessagesSuccess {\n        data {\n          edges { node { id text to status mode instanceId timestamps { queued sent } } }\n          pageInfo { hasNextPage endCursor }\n        }\n      }\n      ... on DomainError { code message }\n    }\n  }\n"): (typeof documents)["\n  query ListMessages($first: Int, $after: String) {\n    messages(first: $first, after: $after) {\n      __typename\n      ... on QueryMessagesSuccess {\n        data {\n          edges { node { id text to status mode instanceId timestamps { queued sent } } }\n          pageInfo { hasNextPage endCursor }\n        }\n      }\n      ... on DomainError { code message }\n    }\n  }\n"];
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
export function graphql(source: "\n  query Me {\n    me {\n      __typename\n      ... on QueryMeSuccess { data { tenant { id plan } user { email } apiKey { name testMode } } }\n      ... on DomainError { code message }\n    }\n  }\n"): (typeof documents)["\n  query Me {\n    me {\n      __typename\n      ... on QueryMeSuccess { data { tenant { id plan } user { email } apiKey { name testMode } } }\n      ... on DomainError { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query GetMessage($id: ID!) {\n    message(id: $id) {\n      __typename\n      ... on QueryMessageSuccess { data { id text } }\n      ... on DomainError { code }\n    }\n  }\n"): (typeof documents)["\n  query GetMessage($id: ID!) {\n    message(id: $id) {\n      __typename\n      ... on QueryMessageSuccess { data { id text } }\n      ... on DomainError { code }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ListApiKeys {\n    apiKeys(first: 100) {\n      __typename\n      ... on QueryApiKeysSuccess { data { edges { node { id } } pageInfo { hasNextPage } } }\n      ... on DomainError { code }\n    }\n  }\n"): (typeof documents)["\n  query ListApiKeys {\n    apiKeys(first: 100) {\n      __typename\n      ... on QueryApiKeysSuccess { data { edges { node { id } } pageInfo { hasNextPage } } }\n      ... on DomainError { code }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) {\n      __typename\n      ... on MutationCreateApiKeySuccess { data { key apiKey { id keyPrefix testMode } } }\n      ... on DomainError { code }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) {\n      __typename\n      ... on MutationCreateApiKeySuccess { data { key apiKey { id keyPrefix testMode } } }\n      ... on DomainError { code }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeApiKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      __typename\n      ... on DomainError { code }\n    }\n  }\n"): (typeof documents)["\n  mutation RevokeApiKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      __typename\n      ... on DomainError { code }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateWebhookSecret($instanceId: ID!) {\n    rotateWebhookSecret(instanceId: $instanceId) {\n      __typename\n      ... on MutationRotateWebhookSecretSuccess { data { webhookSecret } }\n      ... on DomainError { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation RotateWebhookSecret($instanceId: ID!) {\n    rotateWebhookSecret(instanceId: $instanceId) {\n      __typename\n      ... on MutationRotateWebhookSecretSuccess { data { webhookSecret } }\n      ... on DomainError { code message }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;