import { graphql } from './generated/index.js';

/** The operations the GraphQL tests send, typed by codegen (`npm run codegen` after changing one). */

export const CreateInstance = graphql(`
  mutation CreateInstance($input: CreateInstanceInput!) {
    createInstance(input: $input) {
      __typename
      ... on MutationCreateInstanceSuccess {
        data {
          instance { id name description variant status sessionStatus webhookUrl webhookEvents integration }
          qrCode { qrCode expiresAt attemptId }
          webhookSecret
        }
      }
      ... on DomainError { code message }
    }
  }
`);

export const GetInstance = graphql(`
  query GetInstance($id: ID!) {
    instance(id: $id) {
      __typename
      ... on QueryInstanceSuccess {
        data {
          id name description variant status sessionStatus phoneNumber active webhookUrl webhookEvents lastConnection
          statistics { messagesSent messagesReceived mediaSize }
          qrCode { qrCode expiresAt attemptId }
        }
      }
      ... on DomainError { code message }
    }
  }
`);

export const ListInstances = graphql(`
  query ListInstances($first: Int, $after: String) {
    instances(first: $first, after: $after) {
      __typename
      ... on QueryInstancesSuccess {
        data {
          edges { cursor node { id name status } }
          pageInfo { hasNextPage endCursor }
        }
      }
      ... on DomainError { code message }
    }
  }
`);

export const InstancesWithRelations = graphql(`
  query InstancesWithRelations($first: Int!) {
    instances(first: $first) {
      __typename
      ... on QueryInstancesSuccess {
        data {
          edges {
            node {
              id name status sessionStatus
              statistics { messagesSent }
              messages(first: 5) { edges { node { id text status timestamps { queued sent } } } }
              webhookDeliveries(first: 5) { edges { node { id event status attempts { number statusCode durationMs } } } }
            }
          }
        }
      }
      ... on DomainError { code }
    }
  }
`);

export const UpdateInstance = graphql(`
  mutation UpdateInstance($id: ID!, $input: UpdateInstanceInput!) {
    updateInstance(id: $id, input: $input) {
      __typename
      ... on MutationUpdateInstanceSuccess { data { id name description webhookUrl webhookEvents } }
      ... on DomainError { code message }
    }
  }
`);

export const DeleteInstance = graphql(`
  mutation DeleteInstance($id: ID!) {
    deleteInstance(id: $id) {
      __typename
      ... on DomainError { code message }
    }
  }
`);

export const SetInstanceActive = graphql(`
  mutation SetInstanceActive($input: SetInstanceActiveInput!) {
    setInstanceActive(input: $input) {
      __typename
      ... on MutationSetInstanceActiveSuccess { data { id active } }
      ... on DomainError { code message }
    }
  }
`);

export const RequestQrCode = graphql(`
  mutation RequestQrCode($id: ID!) {
    requestQrCode(id: $id) {
      __typename
      ... on MutationRequestQrCodeSuccess { data { qrCode expiresAt attemptId } }
      ... on DomainError { code message }
    }
  }
`);

export const RegenerateQrCode = graphql(`
  mutation RegenerateQrCode($id: ID!) {
    regenerateQrCode(id: $id) {
      __typename
      ... on MutationRegenerateQrCodeSuccess { data { instance { id sessionStatus } qrCode { qrCode attemptId } } }
      ... on DomainError { code message }
    }
  }
`);

export const DisconnectInstance = graphql(`
  mutation DisconnectInstance($id: ID!) {
    disconnectInstance(id: $id) {
      __typename
      ... on MutationDisconnectInstanceSuccess { data { id status sessionStatus } }
      ... on DomainError { code message }
    }
  }
`);

export const SetWebhook = graphql(`
  mutation SetWebhook($instanceId: ID!, $input: SetWebhookInput!) {
    setWebhook(instanceId: $instanceId, input: $input) {
      __typename
      ... on MutationSetWebhookSuccess { data { id webhookUrl webhookEvents } }
      ... on DomainError { code message }
    }
  }
`);

export const TestWebhook = graphql(`
  mutation TestWebhook($instanceId: ID!) {
    testWebhook(instanceId: $instanceId) {
      __typename
      ... on MutationTestWebhookSuccess { data { status error response { statusCode body } } }
      ... on DomainError { code message }
    }
  }
`);

export const WebhookDeliveries = graphql(`
  query WebhookDeliveries($id: ID!) {
    instance(id: $id) {
      __typename
      ... on QueryInstanceSuccess {
        data { webhookDeliveries(first: 50) { edges { node { id event url status attemptCount payload attempts { number statusCode error } } } } }
      }
      ... on DomainError { code }
    }
  }
`);

export const RedeliverWebhook = graphql(`
  mutation RedeliverWebhook($instanceId: ID!, $deliveryId: ID!) {
    redeliverWebhook(instanceId: $instanceId, deliveryId: $deliveryId) {
      __typename
      ... on MutationRedeliverWebhookSuccess { data { id event status payload } }
      ... on DomainError { code message }
    }
  }
`);

export const SendText = graphql(`
  mutation SendText($instanceId: ID!, $to: String!, $message: String!, $idempotencyKey: String) {
    sendText(instanceId: $instanceId, to: $to, message: $message, idempotencyKey: $idempotencyKey) {
      __typename
      ... on MutationSendTextSuccess { data { id status timestamp } }
      ... on DomainError { code message }
    }
  }
`);

export const SendMedia = graphql(`
  mutation SendMedia($instanceId: ID!, $input: SendMediaInput!) {
    sendMedia(instanceId: $instanceId, input: $input) {
      __typename
      ... on MutationSendMediaSuccess { data { id status } }
      ... on DomainError { code message }
    }
  }
`);

export const SendMessage = graphql(`
  mutation SendMessage($to: String!, $text: String!, $idempotencyKey: String) {
    sendMessage(to: $to, text: $text, idempotencyKey: $idempotencyKey) {
      __typename
      ... on MutationSendMessageSuccess { data { id status timestamp mode } }
      ... on DomainError { code message retryAfter }
    }
  }
`);

export const ListMessages = graphql(`
  query ListMessages($first: Int, $after: String) {
    messages(first: $first, after: $after) {
      __typename
      ... on QueryMessagesSuccess {
        data {
          edges { node { id text to status mode instanceId timestamps { queued sent } } }
          pageInfo { hasNextPage endCursor }
        }
      }
      ... on DomainError { code message }
    }
  }
`);

export const QrUpdated = graphql(`
  subscription QrUpdated($instanceId: ID!) {
    qrUpdated(instanceId: $instanceId) { instanceId qrCode expiresAt attemptId }
  }
`);

export const ConnectionUpdated = graphql(`
  subscription ConnectionUpdated($instanceId: ID!) {
    connectionUpdated(instanceId: $instanceId) { instanceId status phoneNumber timestamp }
  }
`);

export const ConnectionUpdatedWithInstance = graphql(`
  subscription ConnectionUpdatedWithInstance($instanceId: ID!) {
    connectionUpdated(instanceId: $instanceId) { instanceId status instance { id status phoneNumber } }
  }
`);

export const InstanceUpdated = graphql(`
  subscription InstanceUpdated {
    instanceUpdated { instanceId deleted instance { id name status active phoneNumber } }
  }
`);

export const MessageUpdated = graphql(`
  subscription MessageUpdated {
    messageUpdated { messageId status timestamp message { id status to } }
  }
`);

export const Me = graphql(`
  query Me {
    me {
      __typename
      ... on QueryMeSuccess { data { tenant { id plan } user { email } apiKey { name testMode } } }
      ... on DomainError { code message }
    }
  }
`);

export const GetMessage = graphql(`
  query GetMessage($id: ID!) {
    message(id: $id) {
      __typename
      ... on QueryMessageSuccess { data { id text } }
      ... on DomainError { code }
    }
  }
`);

export const ListApiKeys = graphql(`
  query ListApiKeys {
    apiKeys(first: 100) {
      __typename
      ... on QueryApiKeysSuccess { data { edges { node { id } } pageInfo { hasNextPage } } }
      ... on DomainError { code }
    }
  }
`);

export const CreateApiKey = graphql(`
  mutation CreateApiKey($input: CreateApiKeyInput!) {
    createApiKey(input: $input) {
      __typename
      ... on MutationCreateApiKeySuccess { data { key apiKey { id keyPrefix testMode } } }
      ... on DomainError { code }
    }
  }
`);

export const RevokeApiKey = graphql(`
  mutation RevokeApiKey($id: ID!) {
    revokeApiKey(id: $id) {
      __typename
      ... on DomainError { code }
    }
  }
`);

export const RotateWebhookSecret = graphql(`
  mutation RotateWebhookSecret($instanceId: ID!) {
    rotateWebhookSecret(instanceId: $instanceId) {
      __typename
      ... on MutationRotateWebhookSecretSuccess { data { webhookSecret } }
      ... on DomainError { code message }
    }
  }
`);
