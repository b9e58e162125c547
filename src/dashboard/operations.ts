import { graphql } from './generated/index.js';

/** Every operation the dashboard sends, typed by codegen (`npm run codegen` after changing one). */

export const MeQuery = graphql(`
  query DashboardMe {
    viewer { tenant { id name plan } user { id email } }
  }
`);

export const SignIn = graphql(`
  mutation DashboardSignIn($input: SignInInput!) {
    signIn(input: $input) { user { id email } userErrors { code field message } }
  }
`);

export const SignOut = graphql(`
  mutation DashboardSignOut {
    signOut { signedOut userErrors { code message } }
  }
`);

export const InstanceList = graphql(`
  query DashboardInstances($after: String) {
    instances(first: 100, after: $after) {
      totalCount
      edges { node { id name variant status sessionStatus phoneNumber active integration statistics { messagesSent messagesReceived } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

export const Integrations = graphql(`
  query DashboardIntegrations {
    integrations {
      integration
      capabilities
    }
  }
`);

export const InstanceDetail = graphql(`
  query DashboardInstance($id: ID!) {
    instance(id: $id) {
      id name description variant status sessionStatus phoneNumber active integration webhookUrl webhookEvents lastConnection
      lastDisconnect { reason at }
      restricted { reason until }
      statistics { messagesSent messagesReceived }
      qrCode { qrCode expiresAt attemptId }
    }
  }
`);

export const InstanceChanges = graphql(`
  subscription DashboardInstanceChanges {
    instanceUpdated { instanceId deleted instance { id name variant status sessionStatus phoneNumber active statistics { messagesSent messagesReceived } } }
  }
`);

export const QrChanges = graphql(`
  subscription DashboardQr($instanceId: ID!) {
    qrUpdated(instanceId: $instanceId) { instanceId qrCode expiresAt attemptId }
  }
`);

export const ConnectionChanges = graphql(`
  subscription DashboardConnection($instanceId: ID!) {
    connectionUpdated(instanceId: $instanceId) { instanceId status phoneNumber reason instance { id status sessionStatus phoneNumber lastConnection lastDisconnect { reason at } } }
  }
`);

export const CreateInstance = graphql(`
  mutation DashboardCreateInstance($input: CreateInstanceInput!) {
    createInstance(input: $input) { instance { id name } webhookSecret userErrors { code field message } }
  }
`);

export const SetActive = graphql(`
  mutation DashboardSetActive($id: ID!, $active: Boolean!) {
    setInstanceActive(input: { id: $id, active: $active }) { instance { id active } userErrors { code field message } }
  }
`);

export const RequestQr = graphql(`
  mutation DashboardRequestQr($id: ID!) {
    requestQrCode(input: { id: $id }) { instance { id status sessionStatus } qrCode { qrCode expiresAt attemptId } userErrors { code field message } }
  }
`);

export const RegenerateQr = graphql(`
  mutation DashboardRegenerateQr($id: ID!) {
    regenerateQrCode(input: { id: $id }) { instance { id status sessionStatus } qrCode { qrCode expiresAt attemptId } userErrors { code field message } }
  }
`);

export const RequestPairingCode = graphql(`
  mutation DashboardRequestPairingCode($id: ID!, $phone: String!) {
    requestPairingCode(input: { id: $id, phone: $phone }) { code expiresAt instance { id status sessionStatus } userErrors { code field message } }
  }
`);

export const Disconnect = graphql(`
  mutation DashboardDisconnect($id: ID!) {
    disconnectInstance(input: { id: $id }) { instance { id status sessionStatus phoneNumber } userErrors { code field message } }
  }
`);

export const DeleteInstance = graphql(`
  mutation DashboardDeleteInstance($id: ID!) {
    deleteInstance(input: { id: $id }) { deletedInstanceId userErrors { code field message } }
  }
`);

export const SetWebhook = graphql(`
  mutation DashboardSetWebhook($input: SetWebhookInput!) {
    setWebhook(input: $input) { instance { id webhookUrl webhookEvents } userErrors { code field message } }
  }
`);

export const TestWebhook = graphql(`
  mutation DashboardTestWebhook($instanceId: ID!) {
    testWebhook(input: { instanceId: $instanceId }) { status error response { statusCode body } userErrors { code field message } }
  }
`);

export const RotateSecret = graphql(`
  mutation DashboardRotateSecret($instanceId: ID!) {
    rotateWebhookSecret(input: { instanceId: $instanceId }) { webhookSecret userErrors { code field message } }
  }
`);

export const Deliveries = graphql(`
  query DashboardDeliveries($id: ID!) {
    instance(id: $id) {
      id
      webhookDeliveries(first: 50) {
        totalCount
        edges { node { id event url status attemptCount createdAt nextAttemptAt attempts { number startedAt statusCode error durationMs } } }
      }
    }
  }
`);

export const Redeliver = graphql(`
  mutation DashboardRedeliver($instanceId: ID!, $deliveryId: ID!) {
    redeliverWebhook(input: { instanceId: $instanceId, deliveryId: $deliveryId }) { delivery { id status } userErrors { code field message } }
  }
`);

export const ApiKeys = graphql(`
  query DashboardApiKeys {
    apiKeys(first: 100) { totalCount edges { node { id name description testMode keyPrefix createdAt lastUsedAt } } }
  }
`);

export const CreateApiKey = graphql(`
  mutation DashboardCreateApiKey($input: CreateApiKeyInput!) {
    createApiKey(input: $input) { key apiKey { id name testMode keyPrefix createdAt lastUsedAt } userErrors { code field message } }
  }
`);

export const RevokeApiKey = graphql(`
  mutation DashboardRevokeApiKey($id: ID!) {
    revokeApiKey(input: { id: $id }) { revokedApiKeyId userErrors { code field message } }
  }
`);

export const Messages = graphql(`
  query DashboardMessages($filter: MessageFilter, $after: String) {
    messages(first: 50, after: $after, filter: $filter) {
      totalCount
      edges {
        node {
          id to from direction type text status mode instanceId createdAt editedAt deletedAt mentions
          error { code message }
          media { type mimetype url fileName caption }
          location { latitude longitude name address }
          contacts { displayName }
          reaction { emoji messageId }
          quoted { messageId }
          poll { name options { name votes voters } }
          group { id subject }
          timestamps { queued sent delivered read failed }
        }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

/** The subjects of an instance's groups (asked of the network), to name the groups sent messages went to. */
export const InstanceGroups = graphql(`
  query DashboardInstanceGroups($id: ID!) {
    instance(id: $id) { id groups { id subject } }
  }
`);

export const MessageChanges = graphql(`
  subscription DashboardMessageChanges {
    messageUpdated { messageId status message { id status deletedAt error { code message } timestamps { queued sent delivered read failed } } }
  }
`);

export const MessageArrivals = graphql(`
  subscription DashboardMessageArrivals {
    messageReceived { messageId }
  }
`);

export const SendMessage = graphql(`
  mutation DashboardSendMessage($input: SendMessageInput!) {
    sendMessage(input: $input) { message { id to text status mode instanceId createdAt } userErrors { code field message } }
  }
`);

/** What the settings card shows and edits, read and answered the same way. */
export const SettingsFields = graphql(`
  fragment DashboardSettingsFields on InstanceSettings {
    calls { reject message }
    alwaysOnline autoRead
    ignore { groups broadcasts status }
    sending { minIntervalMs jitterMs newContactsPerHour typing }
    proxy { url exitAddress checkedAt }
  }
`);

export const InstanceSettingsQuery = graphql(`
  query DashboardInstanceSettings($id: ID!) {
    instance(id: $id) {
      id
      settings { ...DashboardSettingsFields }
    }
    integrations { integration capabilities }
  }
`);

export const UpdateSettings = graphql(`
  mutation DashboardUpdateSettings($input: UpdateInstanceSettingsInput!) {
    updateInstanceSettings(input: $input) {
      settings { ...DashboardSettingsFields }
      userErrors { code field message }
    }
  }
`);
