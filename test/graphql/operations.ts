import { graphql } from './generated/index.js';

/** The operations the GraphQL tests send, typed by codegen (`npm run codegen` after changing one). */

export const CreateInstance = graphql(`
  mutation CreateInstance($input: CreateInstanceInput!) {
    createInstance(input: $input) {
      instance { id name description variant status sessionStatus webhookUrl webhookEvents integration }
      qrCode { qrCode expiresAt attemptId }
      webhookSecret
      userErrors { code field message }
    }
  }
`);

export const GetInstance = graphql(`
  query GetInstance($id: ID!) {
    instance(id: $id) {
      id name description variant status sessionStatus phoneNumber active webhookUrl webhookEvents lastConnection
      statistics { messagesSent messagesReceived mediaSize }
      qrCode { qrCode expiresAt attemptId }
    }
  }
`);

export const ListInstances = graphql(`
  query ListInstances($first: Int, $after: String, $filter: InstanceFilter) {
    instances(first: $first, after: $after, filter: $filter) {
      totalCount
      edges { cursor node { id name status active } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

export const InstancesWithRelations = graphql(`
  query InstancesWithRelations($first: Int!) {
    instances(first: $first) {
      edges {
        node {
          id name status sessionStatus
          statistics { messagesSent }
          messages(first: 5) { totalCount edges { node { id text status timestamps { queued sent } } } }
          webhookDeliveries(first: 5) { edges { node { id event status attempts { number statusCode durationMs } } } }
        }
      }
    }
  }
`);

export const UpdateInstance = graphql(`
  mutation UpdateInstance($input: UpdateInstanceInput!) {
    updateInstance(input: $input) {
      instance { id name description webhookUrl webhookEvents }
      userErrors { code field message }
    }
  }
`);

export const DeleteInstance = graphql(`
  mutation DeleteInstance($id: ID!) {
    deleteInstance(input: { id: $id }) {
      deletedInstanceId
      userErrors { code field message }
    }
  }
`);

export const SetInstanceActive = graphql(`
  mutation SetInstanceActive($input: SetInstanceActiveInput!) {
    setInstanceActive(input: $input) {
      instance { id active }
      userErrors { code field message }
    }
  }
`);

export const RequestQrCode = graphql(`
  mutation RequestQrCode($id: ID!) {
    requestQrCode(input: { id: $id }) {
      instance { id status }
      qrCode { qrCode expiresAt attemptId }
      userErrors { code field message }
    }
  }
`);

export const RegenerateQrCode = graphql(`
  mutation RegenerateQrCode($id: ID!) {
    regenerateQrCode(input: { id: $id }) {
      instance { id sessionStatus }
      qrCode { qrCode attemptId }
      userErrors { code field message }
    }
  }
`);

export const DisconnectInstance = graphql(`
  mutation DisconnectInstance($id: ID!) {
    disconnectInstance(input: { id: $id }) {
      instance { id status sessionStatus }
      userErrors { code field message }
    }
  }
`);

export const SetWebhook = graphql(`
  mutation SetWebhook($input: SetWebhookInput!) {
    setWebhook(input: $input) {
      instance { id webhookUrl webhookEvents }
      userErrors { code field message }
    }
  }
`);

export const TestWebhook = graphql(`
  mutation TestWebhook($instanceId: ID!) {
    testWebhook(input: { instanceId: $instanceId }) {
      status error response { statusCode body }
      userErrors { code field message }
    }
  }
`);

export const WebhookDeliveries = graphql(`
  query WebhookDeliveries($id: ID!) {
    instance(id: $id) {
      webhookDeliveries(first: 50) { totalCount edges { node { id event url status attemptCount payload attempts { number statusCode error } } } }
    }
  }
`);

export const RedeliverWebhook = graphql(`
  mutation RedeliverWebhook($instanceId: ID!, $deliveryId: ID!) {
    redeliverWebhook(input: { instanceId: $instanceId, deliveryId: $deliveryId }) {
      delivery { id event status payload }
      userErrors { code field message }
    }
  }
`);

export const SendText = graphql(`
  mutation SendText($input: SendTextInput!) {
    sendText(input: $input) {
      message { id status createdAt }
      userErrors { code field message }
    }
  }
`);

export const SendMedia = graphql(`
  mutation SendMedia($input: SendMediaInput!) {
    sendMedia(input: $input) {
      message { id status }
      userErrors { code field message }
    }
  }
`);

export const SendMessage = graphql(`
  mutation SendMessage($input: SendMessageInput!) {
    sendMessage(input: $input) {
      message { id status createdAt mode text }
      userErrors { code field message }
    }
  }
`);

export const ListMessages = graphql(`
  query ListMessages($first: Int, $after: String, $filter: MessageFilter) {
    messages(first: $first, after: $after, filter: $filter) {
      totalCount
      edges { node { id text to status mode instanceId timestamps { queued sent } } }
      pageInfo { hasNextPage endCursor }
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
    me { tenant { id plan } user { email } apiKey { name testMode } }
  }
`);

export const Limits = graphql(`
  query Limits {
    me { tenant { limits { instances { used max } messagesToday { used max } requestsThisMinute { used max } } } }
  }
`);

export const GetMessage = graphql(`
  query GetMessage($id: ID!) {
    message(id: $id) { id text }
  }
`);

export const GetNode = graphql(`
  query GetNode($id: ID!) {
    node(id: $id) {
      __typename
      id
      ... on Instance { name }
      ... on Message { text }
      ... on ApiKey { keyPrefix }
      ... on WebhookDelivery { event }
    }
  }
`);

export const ListApiKeys = graphql(`
  query ListApiKeys($first: Int) {
    apiKeys(first: $first) { totalCount edges { node { id } } pageInfo { hasNextPage } }
  }
`);

export const CreateApiKey = graphql(`
  mutation CreateApiKey($input: CreateApiKeyInput!) {
    createApiKey(input: $input) {
      key
      apiKey { id keyPrefix testMode }
      userErrors { code field message }
    }
  }
`);

export const RevokeApiKey = graphql(`
  mutation RevokeApiKey($id: ID!) {
    revokeApiKey(input: { id: $id }) {
      revokedApiKeyId
      userErrors { code field message }
    }
  }
`);

export const RotateWebhookSecret = graphql(`
  mutation RotateWebhookSecret($instanceId: ID!) {
    rotateWebhookSecret(input: { instanceId: $instanceId }) {
      webhookSecret
      userErrors { code field message }
    }
  }
`);

export const InstanceGroups = graphql(`
  query InstanceGroups($id: ID!, $groupId: String!, $withGroup: Boolean!) {
    instance(id: $id) {
      id
      groups { id subject description owner participants { phone admin } announce restrict }
      group(id: $groupId) @include(if: $withGroup) { id subject description owner participants { phone admin } announce restrict }
    }
  }
`);

export const CreateGroup = graphql(`
  mutation CreateGroup($input: CreateGroupInput!) {
    createGroup(input: $input) {
      group { id subject description owner participants { phone admin } announce restrict }
      userErrors { code field message }
    }
  }
`);

export const UpdateGroup = graphql(`
  mutation UpdateGroup($input: UpdateGroupInput!) {
    updateGroup(input: $input) {
      group { id subject description announce restrict }
      userErrors { code field message }
    }
  }
`);

export const ChangeGroupParticipants = graphql(`
  mutation ChangeGroupParticipants($input: GroupParticipantsInput!) {
    changeGroupParticipants(input: $input) {
      results { phone status }
      userErrors { code field message }
    }
  }
`);

export const GroupInviteCode = graphql(`
  mutation GroupInviteCode($input: GroupActionInput!) {
    groupInviteCode(input: $input) {
      invite { code url }
      userErrors { code field message }
    }
  }
`);

export const LeaveGroup = graphql(`
  mutation LeaveGroup($input: GroupActionInput!) {
    leaveGroup(input: $input) {
      done
      userErrors { code field message }
    }
  }
`);

export const MessageGroupAndPoll = graphql(`
  query MessageGroupAndPoll($id: ID!) {
    message(id: $id) {
      id
      from
      text
      group { id subject }
      poll { name selectableCount options { name votes voters } }
    }
  }
`);
