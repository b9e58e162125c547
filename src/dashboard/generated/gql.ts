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
    "\n  fragment InboxChat on Chat {\n    id chatId name kind unreadCount archived pinned mutedUntil updatedAt\n    lastMessage { id direction type text createdAt deletedAt history media { type caption fileName } poll { name } reaction { emoji } location { name } contacts { displayName } }\n  }\n": typeof types.InboxChatFragmentDoc,
    "\n  fragment InboxMessage on Message {\n    id direction type text from fromLid status createdAt editedAt deletedAt history\n    media { type mimetype url fileName caption size }\n    location { latitude longitude name address }\n    contacts { displayName vcard }\n    reaction { emoji messageId }\n    quoted { messageId }\n    poll { name options { name votes voters } }\n    timestamps { sent }\n  }\n": typeof types.InboxMessageFragmentDoc,
    "\n  query DashboardInboxChats($instanceId: ID!, $after: String, $filter: ChatFilter, $search: String) {\n    instance(id: $instanceId) {\n      id name status\n      chats(first: 30, after: $after, filter: $filter, search: $search) {\n        edges { node { ...InboxChat } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": typeof types.DashboardInboxChatsDocument,
    "\n  query DashboardInboxThread($instanceId: ID!, $chatId: String!, $before: String) {\n    instance(id: $instanceId) {\n      id\n      chat(chatId: $chatId) {\n        ...InboxChat\n        messages(last: 40, before: $before) {\n          edges { node { ...InboxMessage } }\n          pageInfo { hasPreviousPage startCursor }\n        }\n      }\n    }\n  }\n": typeof types.DashboardInboxThreadDocument,
    "\n  subscription DashboardInboxChatChanges($instanceId: ID!) {\n    chatUpdated(instanceId: $instanceId) { id chatId deleted chat { ...InboxChat } }\n  }\n": typeof types.DashboardInboxChatChangesDocument,
    "\n  subscription DashboardInboxMessageChanges {\n    messageUpdated { messageId status message { ...InboxMessage } }\n  }\n": typeof types.DashboardInboxMessageChangesDocument,
    "\n  mutation DashboardInboxSend($input: SendMessageInput!) {\n    sendMessage(input: $input) { message { ...InboxMessage } userErrors { code field message } }\n  }\n": typeof types.DashboardInboxSendDocument,
    "\n  mutation DashboardMarkChatRead($input: ChatActionInput!) {\n    markChatRead(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n": typeof types.DashboardMarkChatReadDocument,
    "\n  mutation DashboardMarkChatUnread($input: ChatActionInput!) {\n    markChatUnread(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n": typeof types.DashboardMarkChatUnreadDocument,
    "\n  mutation DashboardArchiveChat($input: ChatActionInput!) {\n    archiveChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n": typeof types.DashboardArchiveChatDocument,
    "\n  mutation DashboardUnarchiveChat($input: ChatActionInput!) {\n    unarchiveChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n": typeof types.DashboardUnarchiveChatDocument,
    "\n  mutation DashboardPinChat($input: ChatActionInput!) {\n    pinChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n": typeof types.DashboardPinChatDocument,
    "\n  mutation DashboardUnpinChat($input: ChatActionInput!) {\n    unpinChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n": typeof types.DashboardUnpinChatDocument,
    "\n  mutation DashboardMuteChat($input: MuteChatInput!) {\n    muteChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n": typeof types.DashboardMuteChatDocument,
    "\n  mutation DashboardUnmuteChat($input: ChatActionInput!) {\n    unmuteChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n": typeof types.DashboardUnmuteChatDocument,
    "\n  query DashboardMe {\n    viewer { tenant { id name plan } user { id email } }\n  }\n": typeof types.DashboardMeDocument,
    "\n  mutation DashboardSignIn($input: SignInInput!) {\n    signIn(input: $input) { user { id email } userErrors { code field message } }\n  }\n": typeof types.DashboardSignInDocument,
    "\n  mutation DashboardSignOut {\n    signOut { signedOut userErrors { code message } }\n  }\n": typeof types.DashboardSignOutDocument,
    "\n  query DashboardInstances($after: String) {\n    instances(first: 100, after: $after) {\n      totalCount\n      edges { node { id name variant status sessionStatus phoneNumber active integration statistics { messagesSent messagesReceived } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.DashboardInstancesDocument,
    "\n  query DashboardIntegrations {\n    integrations {\n      integration\n      capabilities\n    }\n  }\n": typeof types.DashboardIntegrationsDocument,
    "\n  query DashboardInstance($id: ID!) {\n    instance(id: $id) {\n      id name description variant status sessionStatus phoneNumber active integration webhookUrl webhookEvents lastConnection\n      lastDisconnect { reason at }\n      restricted { reason until }\n      statistics { messagesSent messagesReceived }\n      qrCode { qrCode expiresAt attemptId }\n    }\n  }\n": typeof types.DashboardInstanceDocument,
    "\n  subscription DashboardInstanceChanges {\n    instanceUpdated { instanceId deleted instance { id name variant status sessionStatus phoneNumber active statistics { messagesSent messagesReceived } } }\n  }\n": typeof types.DashboardInstanceChangesDocument,
    "\n  subscription DashboardQr($instanceId: ID!) {\n    qrUpdated(instanceId: $instanceId) { instanceId qrCode expiresAt attemptId }\n  }\n": typeof types.DashboardQrDocument,
    "\n  subscription DashboardConnection($instanceId: ID!) {\n    connectionUpdated(instanceId: $instanceId) { instanceId status phoneNumber reason instance { id status sessionStatus phoneNumber lastConnection lastDisconnect { reason at } } }\n  }\n": typeof types.DashboardConnectionDocument,
    "\n  mutation DashboardCreateInstance($input: CreateInstanceInput!) {\n    createInstance(input: $input) { instance { id name } webhookSecret userErrors { code field message } }\n  }\n": typeof types.DashboardCreateInstanceDocument,
    "\n  mutation DashboardSetActive($id: ID!, $active: Boolean!) {\n    setInstanceActive(input: { id: $id, active: $active }) { instance { id active } userErrors { code field message } }\n  }\n": typeof types.DashboardSetActiveDocument,
    "\n  mutation DashboardRequestQr($id: ID!) {\n    requestQrCode(input: { id: $id }) { instance { id status sessionStatus } qrCode { qrCode expiresAt attemptId } userErrors { code field message } }\n  }\n": typeof types.DashboardRequestQrDocument,
    "\n  mutation DashboardRegenerateQr($id: ID!) {\n    regenerateQrCode(input: { id: $id }) { instance { id status sessionStatus } qrCode { qrCode expiresAt attemptId } userErrors { code field message } }\n  }\n": typeof types.DashboardRegenerateQrDocument,
    "\n  mutation DashboardRequestPairingCode($id: ID!, $phone: String!) {\n    requestPairingCode(input: { id: $id, phone: $phone }) { code expiresAt instance { id status sessionStatus } userErrors { code field message } }\n  }\n": typeof types.DashboardRequestPairingCodeDocument,
    "\n  mutation DashboardDisconnect($id: ID!) {\n    disconnectInstance(input: { id: $id }) { instance { id status sessionStatus phoneNumber } userErrors { code field message } }\n  }\n": typeof types.DashboardDisconnectDocument,
    "\n  mutation DashboardDeleteInstance($id: ID!) {\n    deleteInstance(input: { id: $id }) { deletedInstanceId userErrors { code field message } }\n  }\n": typeof types.DashboardDeleteInstanceDocument,
    "\n  mutation DashboardSetWebhook($input: SetWebhookInput!) {\n    setWebhook(input: $input) { instance { id webhookUrl webhookEvents } userErrors { code field message } }\n  }\n": typeof types.DashboardSetWebhookDocument,
    "\n  mutation DashboardTestWebhook($instanceId: ID!) {\n    testWebhook(input: { instanceId: $instanceId }) { status error response { statusCode body } userErrors { code field message } }\n  }\n": typeof types.DashboardTestWebhookDocument,
    "\n  mutation DashboardRotateSecret($instanceId: ID!) {\n    rotateWebhookSecret(input: { instanceId: $instanceId }) { webhookSecret userErrors { code field message } }\n  }\n": typeof types.DashboardRotateSecretDocument,
    "\n  query DashboardDeliveries($id: ID!) {\n    instance(id: $id) {\n      id\n      webhookDeliveries(first: 50) {\n        totalCount\n        edges { node { id event url status attemptCount createdAt nextAttemptAt attempts { number startedAt statusCode error durationMs } } }\n      }\n    }\n  }\n": typeof types.DashboardDeliveriesDocument,
    "\n  mutation DashboardRedeliver($instanceId: ID!, $deliveryId: ID!) {\n    redeliverWebhook(input: { instanceId: $instanceId, deliveryId: $deliveryId }) { delivery { id status } userErrors { code field message } }\n  }\n": typeof types.DashboardRedeliverDocument,
    "\n  query DashboardApiKeys {\n    apiKeys(first: 100) { totalCount edges { node { id name description testMode keyPrefix createdAt lastUsedAt } } }\n  }\n": typeof types.DashboardApiKeysDocument,
    "\n  mutation DashboardCreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) { key apiKey { id name testMode keyPrefix createdAt lastUsedAt } userErrors { code field message } }\n  }\n": typeof types.DashboardCreateApiKeyDocument,
    "\n  mutation DashboardRevokeApiKey($id: ID!) {\n    revokeApiKey(input: { id: $id }) { revokedApiKeyId userErrors { code field message } }\n  }\n": typeof types.DashboardRevokeApiKeyDocument,
    "\n  query DashboardMessages($filter: MessageFilter, $after: String) {\n    messages(first: 50, after: $after, filter: $filter) {\n      totalCount\n      edges {\n        node {\n          id to from direction type text status mode instanceId createdAt editedAt deletedAt mentions\n          error { code message }\n          media { type mimetype url fileName caption }\n          location { latitude longitude name address }\n          contacts { displayName }\n          reaction { emoji messageId }\n          quoted { messageId }\n          poll { name options { name votes voters } }\n          group { id subject }\n          timestamps { queued sent delivered read failed }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.DashboardMessagesDocument,
    "\n  query DashboardInstanceGroups($id: ID!) {\n    instance(id: $id) { id groups { id subject } }\n  }\n": typeof types.DashboardInstanceGroupsDocument,
    "\n  subscription DashboardMessageChanges {\n    messageUpdated { messageId status message { id status deletedAt error { code message } timestamps { queued sent delivered read failed } } }\n  }\n": typeof types.DashboardMessageChangesDocument,
    "\n  subscription DashboardMessageArrivals {\n    messageReceived { messageId }\n  }\n": typeof types.DashboardMessageArrivalsDocument,
    "\n  mutation DashboardSendMessage($input: SendMessageInput!) {\n    sendMessage(input: $input) { message { id to text status mode instanceId createdAt } userErrors { code field message } }\n  }\n": typeof types.DashboardSendMessageDocument,
    "\n  fragment DashboardSettingsFields on InstanceSettings {\n    calls { reject message }\n    alwaysOnline autoRead\n    ignore { groups broadcasts status }\n    sending { minIntervalMs jitterMs newContactsPerHour typing }\n    proxy { url exitAddress checkedAt }\n  }\n": typeof types.DashboardSettingsFieldsFragmentDoc,
    "\n  query DashboardInstanceSettings($id: ID!) {\n    instance(id: $id) {\n      id\n      settings { ...DashboardSettingsFields }\n    }\n    integrations { integration capabilities }\n  }\n": typeof types.DashboardInstanceSettingsDocument,
    "\n  mutation DashboardUpdateSettings($input: UpdateInstanceSettingsInput!) {\n    updateInstanceSettings(input: $input) {\n      settings { ...DashboardSettingsFields }\n      userErrors { code field message }\n    }\n  }\n": typeof types.DashboardUpdateSettingsDocument,
};
const documents: Documents = {
    "\n  fragment InboxChat on Chat {\n    id chatId name kind unreadCount archived pinned mutedUntil updatedAt\n    lastMessage { id direction type text createdAt deletedAt history media { type caption fileName } poll { name } reaction { emoji } location { name } contacts { displayName } }\n  }\n": types.InboxChatFragmentDoc,
    "\n  fragment InboxMessage on Message {\n    id direction type text from fromLid status createdAt editedAt deletedAt history\n    media { type mimetype url fileName caption size }\n    location { latitude longitude name address }\n    contacts { displayName vcard }\n    reaction { emoji messageId }\n    quoted { messageId }\n    poll { name options { name votes voters } }\n    timestamps { sent }\n  }\n": types.InboxMessageFragmentDoc,
    "\n  query DashboardInboxChats($instanceId: ID!, $after: String, $filter: ChatFilter, $search: String) {\n    instance(id: $instanceId) {\n      id name status\n      chats(first: 30, after: $after, filter: $filter, search: $search) {\n        edges { node { ...InboxChat } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": types.DashboardInboxChatsDocument,
    "\n  query DashboardInboxThread($instanceId: ID!, $chatId: String!, $before: String) {\n    instance(id: $instanceId) {\n      id\n      chat(chatId: $chatId) {\n        ...InboxChat\n        messages(last: 40, before: $before) {\n          edges { node { ...InboxMessage } }\n          pageInfo { hasPreviousPage startCursor }\n        }\n      }\n    }\n  }\n": types.DashboardInboxThreadDocument,
    "\n  subscription DashboardInboxChatChanges($instanceId: ID!) {\n    chatUpdated(instanceId: $instanceId) { id chatId deleted chat { ...InboxChat } }\n  }\n": types.DashboardInboxChatChangesDocument,
    "\n  subscription DashboardInboxMessageChanges {\n    messageUpdated { messageId status message { ...InboxMessage } }\n  }\n": types.DashboardInboxMessageChangesDocument,
    "\n  mutation DashboardInboxSend($input: SendMessageInput!) {\n    sendMessage(input: $input) { message { ...InboxMessage } userErrors { code field message } }\n  }\n": types.DashboardInboxSendDocument,
    "\n  mutation DashboardMarkChatRead($input: ChatActionInput!) {\n    markChatRead(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n": types.DashboardMarkChatReadDocument,
    "\n  mutation DashboardMarkChatUnread($input: ChatActionInput!) {\n    markChatUnread(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n": types.DashboardMarkChatUnreadDocument,
    "\n  mutation DashboardArchiveChat($input: ChatActionInput!) {\n    archiveChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n": types.DashboardArchiveChatDocument,
    "\n  mutation DashboardUnarchiveChat($input: ChatActionInput!) {\n    unarchiveChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n": types.DashboardUnarchiveChatDocument,
    "\n  mutation DashboardPinChat($input: ChatActionInput!) {\n    pinChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n": types.DashboardPinChatDocument,
    "\n  mutation DashboardUnpinChat($input: ChatActionInput!) {\n    unpinChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n": types.DashboardUnpinChatDocument,
    "\n  mutation DashboardMuteChat($input: MuteChatInput!) {\n    muteChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n": types.DashboardMuteChatDocument,
    "\n  mutation DashboardUnmuteChat($input: ChatActionInput!) {\n    unmuteChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n": types.DashboardUnmuteChatDocument,
    "\n  query DashboardMe {\n    viewer { tenant { id name plan } user { id email } }\n  }\n": types.DashboardMeDocument,
    "\n  mutation DashboardSignIn($input: SignInInput!) {\n    signIn(input: $input) { user { id email } userErrors { code field message } }\n  }\n": types.DashboardSignInDocument,
    "\n  mutation DashboardSignOut {\n    signOut { signedOut userErrors { code message } }\n  }\n": types.DashboardSignOutDocument,
    "\n  query DashboardInstances($after: String) {\n    instances(first: 100, after: $after) {\n      totalCount\n      edges { node { id name variant status sessionStatus phoneNumber active integration statistics { messagesSent messagesReceived } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.DashboardInstancesDocument,
    "\n  query DashboardIntegrations {\n    integrations {\n      integration\n      capabilities\n    }\n  }\n": types.DashboardIntegrationsDocument,
    "\n  query DashboardInstance($id: ID!) {\n    instance(id: $id) {\n      id name description variant status sessionStatus phoneNumber active integration webhookUrl webhookEvents lastConnection\n      lastDisconnect { reason at }\n      restricted { reason until }\n      statistics { messagesSent messagesReceived }\n      qrCode { qrCode expiresAt attemptId }\n    }\n  }\n": types.DashboardInstanceDocument,
    "\n  subscription DashboardInstanceChanges {\n    instanceUpdated { instanceId deleted instance { id name variant status sessionStatus phoneNumber active statistics { messagesSent messagesReceived } } }\n  }\n": types.DashboardInstanceChangesDocument,
    "\n  subscription DashboardQr($instanceId: ID!) {\n    qrUpdated(instanceId: $instanceId) { instanceId qrCode expiresAt attemptId }\n  }\n": types.DashboardQrDocument,
    "\n  subscription DashboardConnection($instanceId: ID!) {\n    connectionUpdated(instanceId: $instanceId) { instanceId status phoneNumber reason instance { id status sessionStatus phoneNumber lastConnection lastDisconnect { reason at } } }\n  }\n": types.DashboardConnectionDocument,
    "\n  mutation DashboardCreateInstance($input: CreateInstanceInput!) {\n    createInstance(input: $input) { instance { id name } webhookSecret userErrors { code field message } }\n  }\n": types.DashboardCreateInstanceDocument,
    "\n  mutation DashboardSetActive($id: ID!, $active: Boolean!) {\n    setInstanceActive(input: { id: $id, active: $active }) { instance { id active } userErrors { code field message } }\n  }\n": types.DashboardSetActiveDocument,
    "\n  mutation DashboardRequestQr($id: ID!) {\n    requestQrCode(input: { id: $id }) { instance { id status sessionStatus } qrCode { qrCode expiresAt attemptId } userErrors { code field message } }\n  }\n": types.DashboardRequestQrDocument,
    "\n  mutation DashboardRegenerateQr($id: ID!) {\n    regenerateQrCode(input: { id: $id }) { instance { id status sessionStatus } qrCode { qrCode expiresAt attemptId } userErrors { code field message } }\n  }\n": types.DashboardRegenerateQrDocument,
    "\n  mutation DashboardRequestPairingCode($id: ID!, $phone: String!) {\n    requestPairingCode(input: { id: $id, phone: $phone }) { code expiresAt instance { id status sessionStatus } userErrors { code field message } }\n  }\n": types.DashboardRequestPairingCodeDocument,
    "\n  mutation DashboardDisconnect($id: ID!) {\n    disconnectInstance(input: { id: $id }) { instance { id status sessionStatus phoneNumber } userErrors { code field message } }\n  }\n": types.DashboardDisconnectDocument,
    "\n  mutation DashboardDeleteInstance($id: ID!) {\n    deleteInstance(input: { id: $id }) { deletedInstanceId userErrors { code field message } }\n  }\n": types.DashboardDeleteInstanceDocument,
    "\n  mutation DashboardSetWebhook($input: SetWebhookInput!) {\n    setWebhook(input: $input) { instance { id webhookUrl webhookEvents } userErrors { code field message } }\n  }\n": types.DashboardSetWebhookDocument,
    "\n  mutation DashboardTestWebhook($instanceId: ID!) {\n    testWebhook(input: { instanceId: $instanceId }) { status error response { statusCode body } userErrors { code field message } }\n  }\n": types.DashboardTestWebhookDocument,
    "\n  mutation DashboardRotateSecret($instanceId: ID!) {\n    rotateWebhookSecret(input: { instanceId: $instanceId }) { webhookSecret userErrors { code field message } }\n  }\n": types.DashboardRotateSecretDocument,
    "\n  query DashboardDeliveries($id: ID!) {\n    instance(id: $id) {\n      id\n      webhookDeliveries(first: 50) {\n        totalCount\n        edges { node { id event url status attemptCount createdAt nextAttemptAt attempts { number startedAt statusCode error durationMs } } }\n      }\n    }\n  }\n": types.DashboardDeliveriesDocument,
    "\n  mutation DashboardRedeliver($instanceId: ID!, $deliveryId: ID!) {\n    redeliverWebhook(input: { instanceId: $instanceId, deliveryId: $deliveryId }) { delivery { id status } userErrors { code field message } }\n  }\n": types.DashboardRedeliverDocument,
    "\n  query DashboardApiKeys {\n    apiKeys(first: 100) { totalCount edges { node { id name description testMode keyPrefix createdAt lastUsedAt } } }\n  }\n": types.DashboardApiKeysDocument,
    "\n  mutation DashboardCreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) { key apiKey { id name testMode keyPrefix createdAt lastUsedAt } userErrors { code field message } }\n  }\n": types.DashboardCreateApiKeyDocument,
    "\n  mutation DashboardRevokeApiKey($id: ID!) {\n    revokeApiKey(input: { id: $id }) { revokedApiKeyId userErrors { code field message } }\n  }\n": types.DashboardRevokeApiKeyDocument,
    "\n  query DashboardMessages($filter: MessageFilter, $after: String) {\n    messages(first: 50, after: $after, filter: $filter) {\n      totalCount\n      edges {\n        node {\n          id to from direction type text status mode instanceId createdAt editedAt deletedAt mentions\n          error { code message }\n          media { type mimetype url fileName caption }\n          location { latitude longitude name address }\n          contacts { displayName }\n          reaction { emoji messageId }\n          quoted { messageId }\n          poll { name options { name votes voters } }\n          group { id subject }\n          timestamps { queued sent delivered read failed }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.DashboardMessagesDocument,
    "\n  query DashboardInstanceGroups($id: ID!) {\n    instance(id: $id) { id groups { id subject } }\n  }\n": types.DashboardInstanceGroupsDocument,
    "\n  subscription DashboardMessageChanges {\n    messageUpdated { messageId status message { id status deletedAt error { code message } timestamps { queued sent delivered read failed } } }\n  }\n": types.DashboardMessageChangesDocument,
    "\n  subscription DashboardMessageArrivals {\n    messageReceived { messageId }\n  }\n": types.DashboardMessageArrivalsDocument,
    "\n  mutation DashboardSendMessage($input: SendMessageInput!) {\n    sendMessage(input: $input) { message { id to text status mode instanceId createdAt } userErrors { code field message } }\n  }\n": types.DashboardSendMessageDocument,
    "\n  fragment DashboardSettingsFields on InstanceSettings {\n    calls { reject message }\n    alwaysOnline autoRead\n    ignore { groups broadcasts status }\n    sending { minIntervalMs jitterMs newContactsPerHour typing }\n    proxy { url exitAddress checkedAt }\n  }\n": types.DashboardSettingsFieldsFragmentDoc,
    "\n  query DashboardInstanceSettings($id: ID!) {\n    instance(id: $id) {\n      id\n      settings { ...DashboardSettingsFields }\n    }\n    integrations { integration capabilities }\n  }\n": types.DashboardInstanceSettingsDocument,
    "\n  mutation DashboardUpdateSettings($input: UpdateInstanceSettingsInput!) {\n    updateInstanceSettings(input: $input) {\n      settings { ...DashboardSettingsFields }\n      userErrors { code field message }\n    }\n  }\n": types.DashboardUpdateSettingsDocument,
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
export function graphql(source: "\n  fragment InboxChat on Chat {\n    id chatId name kind unreadCount archived pinned mutedUntil updatedAt\n    lastMessage { id direction type text createdAt deletedAt history media { type caption fileName } poll { name } reaction { emoji } location { name } contacts { displayName } }\n  }\n"): (typeof documents)["\n  fragment InboxChat on Chat {\n    id chatId name kind unreadCount archived pinned mutedUntil updatedAt\n    lastMessage { id direction type text createdAt deletedAt history media { type caption fileName } poll { name } reaction { emoji } location { name } contacts { displayName } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment InboxMessage on Message {\n    id direction type text from fromLid status createdAt editedAt deletedAt history\n    media { type mimetype url fileName caption size }\n    location { latitude longitude name address }\n    contacts { displayName vcard }\n    reaction { emoji messageId }\n    quoted { messageId }\n    poll { name options { name votes voters } }\n    timestamps { sent }\n  }\n"): (typeof documents)["\n  fragment InboxMessage on Message {\n    id direction type text from fromLid status createdAt editedAt deletedAt history\n    media { type mimetype url fileName caption size }\n    location { latitude longitude name address }\n    contacts { displayName vcard }\n    reaction { emoji messageId }\n    quoted { messageId }\n    poll { name options { name votes voters } }\n    timestamps { sent }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardInboxChats($instanceId: ID!, $after: String, $filter: ChatFilter, $search: String) {\n    instance(id: $instanceId) {\n      id name status\n      chats(first: 30, after: $after, filter: $filter, search: $search) {\n        edges { node { ...InboxChat } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"): (typeof documents)["\n  query DashboardInboxChats($instanceId: ID!, $after: String, $filter: ChatFilter, $search: String) {\n    instance(id: $instanceId) {\n      id name status\n      chats(first: 30, after: $after, filter: $filter, search: $search) {\n        edges { node { ...InboxChat } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardInboxThread($instanceId: ID!, $chatId: String!, $before: String) {\n    instance(id: $instanceId) {\n      id\n      chat(chatId: $chatId) {\n        ...InboxChat\n        messages(last: 40, before: $before) {\n          edges { node { ...InboxMessage } }\n          pageInfo { hasPreviousPage startCursor }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query DashboardInboxThread($instanceId: ID!, $chatId: String!, $before: String) {\n    instance(id: $instanceId) {\n      id\n      chat(chatId: $chatId) {\n        ...InboxChat\n        messages(last: 40, before: $before) {\n          edges { node { ...InboxMessage } }\n          pageInfo { hasPreviousPage startCursor }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashboardInboxChatChanges($instanceId: ID!) {\n    chatUpdated(instanceId: $instanceId) { id chatId deleted chat { ...InboxChat } }\n  }\n"): (typeof documents)["\n  subscription DashboardInboxChatChanges($instanceId: ID!) {\n    chatUpdated(instanceId: $instanceId) { id chatId deleted chat { ...InboxChat } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashboardInboxMessageChanges {\n    messageUpdated { messageId status message { ...InboxMessage } }\n  }\n"): (typeof documents)["\n  subscription DashboardInboxMessageChanges {\n    messageUpdated { messageId status message { ...InboxMessage } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardInboxSend($input: SendMessageInput!) {\n    sendMessage(input: $input) { message { ...InboxMessage } userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation DashboardInboxSend($input: SendMessageInput!) {\n    sendMessage(input: $input) { message { ...InboxMessage } userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardMarkChatRead($input: ChatActionInput!) {\n    markChatRead(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation DashboardMarkChatRead($input: ChatActionInput!) {\n    markChatRead(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardMarkChatUnread($input: ChatActionInput!) {\n    markChatUnread(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation DashboardMarkChatUnread($input: ChatActionInput!) {\n    markChatUnread(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardArchiveChat($input: ChatActionInput!) {\n    archiveChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation DashboardArchiveChat($input: ChatActionInput!) {\n    archiveChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardUnarchiveChat($input: ChatActionInput!) {\n    unarchiveChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation DashboardUnarchiveChat($input: ChatActionInput!) {\n    unarchiveChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardPinChat($input: ChatActionInput!) {\n    pinChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation DashboardPinChat($input: ChatActionInput!) {\n    pinChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardUnpinChat($input: ChatActionInput!) {\n    unpinChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation DashboardUnpinChat($input: ChatActionInput!) {\n    unpinChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardMuteChat($input: MuteChatInput!) {\n    muteChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation DashboardMuteChat($input: MuteChatInput!) {\n    muteChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardUnmuteChat($input: ChatActionInput!) {\n    unmuteChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation DashboardUnmuteChat($input: ChatActionInput!) {\n    unmuteChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardMe {\n    viewer { tenant { id name plan } user { id email } }\n  }\n"): (typeof documents)["\n  query DashboardMe {\n    viewer { tenant { id name plan } user { id email } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardSignIn($input: SignInInput!) {\n    signIn(input: $input) { user { id email } userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation DashboardSignIn($input: SignInInput!) {\n    signIn(input: $input) { user { id email } userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardSignOut {\n    signOut { signedOut userErrors { code message } }\n  }\n"): (typeof documents)["\n  mutation DashboardSignOut {\n    signOut { signedOut userErrors { code message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardInstances($after: String) {\n    instances(first: 100, after: $after) {\n      totalCount\n      edges { node { id name variant status sessionStatus phoneNumber active integration statistics { messagesSent messagesReceived } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query DashboardInstances($after: String) {\n    instances(first: 100, after: $after) {\n      totalCount\n      edges { node { id name variant status sessionStatus phoneNumber active integration statistics { messagesSent messagesReceived } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardIntegrations {\n    integrations {\n      integration\n      capabilities\n    }\n  }\n"): (typeof documents)["\n  query DashboardIntegrations {\n    integrations {\n      integration\n      capabilities\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardInstance($id: ID!) {\n    instance(id: $id) {\n      id name description variant status sessionStatus phoneNumber active integration webhookUrl webhookEvents lastConnection\n      lastDisconnect { reason at }\n      restricted { reason until }\n      statistics { messagesSent messagesReceived }\n      qrCode { qrCode expiresAt attemptId }\n    }\n  }\n"): (typeof documents)["\n  query DashboardInstance($id: ID!) {\n    instance(id: $id) {\n      id name description variant status sessionStatus phoneNumber active integration webhookUrl webhookEvents lastConnection\n      lastDisconnect { reason at }\n      restricted { reason until }\n      statistics { messagesSent messagesReceived }\n      qrCode { qrCode expiresAt attemptId }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashboardInstanceChanges {\n    instanceUpdated { instanceId deleted instance { id name variant status sessionStatus phoneNumber active statistics { messagesSent messagesReceived } } }\n  }\n"): (typeof documents)["\n  subscription DashboardInstanceChanges {\n    instanceUpdated { instanceId deleted instance { id name variant status sessionStatus phoneNumber active statistics { messagesSent messagesReceived } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashboardQr($instanceId: ID!) {\n    qrUpdated(instanceId: $instanceId) { instanceId qrCode expiresAt attemptId }\n  }\n"): (typeof documents)["\n  subscription DashboardQr($instanceId: ID!) {\n    qrUpdated(instanceId: $instanceId) { instanceId qrCode expiresAt attemptId }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashboardConnection($instanceId: ID!) {\n    connectionUpdated(instanceId: $instanceId) { instanceId status phoneNumber reason instance { id status sessionStatus phoneNumber lastConnection lastDisconnect { reason at } } }\n  }\n"): (typeof documents)["\n  subscription DashboardConnection($instanceId: ID!) {\n    connectionUpdated(instanceId: $instanceId) { instanceId status phoneNumber reason instance { id status sessionStatus phoneNumber lastConnection lastDisconnect { reason at } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardCreateInstance($input: CreateInstanceInput!) {\n    createInstance(input: $input) { instance { id name } webhookSecret userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation DashboardCreateInstance($input: CreateInstanceInput!) {\n    createInstance(input: $input) { instance { id name } webhookSecret userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardSetActive($id: ID!, $active: Boolean!) {\n    setInstanceActive(input: { id: $id, active: $active }) { instance { id active } userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation DashboardSetActive($id: ID!, $active: Boolean!) {\n    setInstanceActive(input: { id: $id, active: $active }) { instance { id active } userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardRequestQr($id: ID!) {\n    requestQrCode(input: { id: $id }) { instance { id status sessionStatus } qrCode { qrCode expiresAt attemptId } userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation DashboardRequestQr($id: ID!) {\n    requestQrCode(input: { id: $id }) { instance { id status sessionStatus } qrCode { qrCode expiresAt attemptId } userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardRegenerateQr($id: ID!) {\n    regenerateQrCode(input: { id: $id }) { instance { id status sessionStatus } qrCode { qrCode expiresAt attemptId } userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation DashboardRegenerateQr($id: ID!) {\n    regenerateQrCode(input: { id: $id }) { instance { id status sessionStatus } qrCode { qrCode expiresAt attemptId } userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardRequestPairingCode($id: ID!, $phone: String!) {\n    requestPairingCode(input: { id: $id, phone: $phone }) { code expiresAt instance { id status sessionStatus } userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation DashboardRequestPairingCode($id: ID!, $phone: String!) {\n    requestPairingCode(input: { id: $id, phone: $phone }) { code expiresAt instance { id status sessionStatus } userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardDisconnect($id: ID!) {\n    disconnectInstance(input: { id: $id }) { instance { id status sessionStatus phoneNumber } userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation DashboardDisconnect($id: ID!) {\n    disconnectInstance(input: { id: $id }) { instance { id status sessionStatus phoneNumber } userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardDeleteInstance($id: ID!) {\n    deleteInstance(input: { id: $id }) { deletedInstanceId userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation DashboardDeleteInstance($id: ID!) {\n    deleteInstance(input: { id: $id }) { deletedInstanceId userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardSetWebhook($input: SetWebhookInput!) {\n    setWebhook(input: $input) { instance { id webhookUrl webhookEvents } userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation DashboardSetWebhook($input: SetWebhookInput!) {\n    setWebhook(input: $input) { instance { id webhookUrl webhookEvents } userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardTestWebhook($instanceId: ID!) {\n    testWebhook(input: { instanceId: $instanceId }) { status error response { statusCode body } userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation DashboardTestWebhook($instanceId: ID!) {\n    testWebhook(input: { instanceId: $instanceId }) { status error response { statusCode body } userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardRotateSecret($instanceId: ID!) {\n    rotateWebhookSecret(input: { instanceId: $instanceId }) { webhookSecret userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation DashboardRotateSecret($instanceId: ID!) {\n    rotateWebhookSecret(input: { instanceId: $instanceId }) { webhookSecret userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardDeliveries($id: ID!) {\n    instance(id: $id) {\n      id\n      webhookDeliveries(first: 50) {\n        totalCount\n        edges { node { id event url status attemptCount createdAt nextAttemptAt attempts { number startedAt statusCode error durationMs } } }\n      }\n    }\n  }\n"): (typeof documents)["\n  query DashboardDeliveries($id: ID!) {\n    instance(id: $id) {\n      id\n      webhookDeliveries(first: 50) {\n        totalCount\n        edges { node { id event url status attemptCount createdAt nextAttemptAt attempts { number startedAt statusCode error durationMs } } }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardRedeliver($instanceId: ID!, $deliveryId: ID!) {\n    redeliverWebhook(input: { instanceId: $instanceId, deliveryId: $deliveryId }) { delivery { id status } userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation DashboardRedeliver($instanceId: ID!, $deliveryId: ID!) {\n    redeliverWebhook(input: { instanceId: $instanceId, deliveryId: $deliveryId }) { delivery { id status } userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardApiKeys {\n    apiKeys(first: 100) { totalCount edges { node { id name description testMode keyPrefix createdAt lastUsedAt } } }\n  }\n"): (typeof documents)["\n  query DashboardApiKeys {\n    apiKeys(first: 100) { totalCount edges { node { id name description testMode keyPrefix createdAt lastUsedAt } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardCreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) { key apiKey { id name testMode keyPrefix createdAt lastUsedAt } userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation DashboardCreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) { key apiKey { id name testMode keyPrefix createdAt lastUsedAt } userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardRevokeApiKey($id: ID!) {\n    revokeApiKey(input: { id: $id }) { revokedApiKeyId userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation DashboardRevokeApiKey($id: ID!) {\n    revokeApiKey(input: { id: $id }) { revokedApiKeyId userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardMessages($filter: MessageFilter, $after: String) {\n    messages(first: 50, after: $after, filter: $filter) {\n      totalCount\n      edges {\n        node {\n          id to from direction type text status mode instanceId createdAt editedAt deletedAt mentions\n          error { code message }\n          media { type mimetype url fileName caption }\n          location { latitude longitude name address }\n          contacts { displayName }\n          reaction { emoji messageId }\n          quoted { messageId }\n          poll { name options { name votes voters } }\n          group { id subject }\n          timestamps { queued sent delivered read failed }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query DashboardMessages($filter: MessageFilter, $after: String) {\n    messages(first: 50, after: $after, filter: $filter) {\n      totalCount\n      edges {\n        node {\n          id to from direction type text status mode instanceId createdAt editedAt deletedAt mentions\n          error { code message }\n          media { type mimetype url fileName caption }\n          location { latitude longitude name address }\n          contacts { displayName }\n          reaction { emoji messageId }\n          quoted { messageId }\n          poll { name options { name votes voters } }\n          group { id subject }\n          timestamps { queued sent delivered read failed }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardInstanceGroups($id: ID!) {\n    instance(id: $id) { id groups { id subject } }\n  }\n"): (typeof documents)["\n  query DashboardInstanceGroups($id: ID!) {\n    instance(id: $id) { id groups { id subject } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashboardMessageChanges {\n    messageUpdated { messageId status message { id status deletedAt error { code message } timestamps { queued sent delivered read failed } } }\n  }\n"): (typeof documents)["\n  subscription DashboardMessageChanges {\n    messageUpdated { messageId status message { id status deletedAt error { code message } timestamps { queued sent delivered read failed } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashboardMessageArrivals {\n    messageReceived { messageId }\n  }\n"): (typeof documents)["\n  subscription DashboardMessageArrivals {\n    messageReceived { messageId }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardSendMessage($input: SendMessageInput!) {\n    sendMessage(input: $input) { message { id to text status mode instanceId createdAt } userErrors { code field message } }\n  }\n"): (typeof documents)["\n  mutation DashboardSendMessage($input: SendMessageInput!) {\n    sendMessage(input: $input) { message { id to text status mode instanceId createdAt } userErrors { code field message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DashboardSettingsFields on InstanceSettings {\n    calls { reject message }\n    alwaysOnline autoRead\n    ignore { groups broadcasts status }\n    sending { minIntervalMs jitterMs newContactsPerHour typing }\n    proxy { url exitAddress checkedAt }\n  }\n"): (typeof documents)["\n  fragment DashboardSettingsFields on InstanceSettings {\n    calls { reject message }\n    alwaysOnline autoRead\n    ignore { groups broadcasts status }\n    sending { minIntervalMs jitterMs newContactsPerHour typing }\n    proxy { url exitAddress checkedAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardInstanceSettings($id: ID!) {\n    instance(id: $id) {\n      id\n      settings { ...DashboardSettingsFields }\n    }\n    integrations { integration capabilities }\n  }\n"): (typeof documents)["\n  query DashboardInstanceSettings($id: ID!) {\n    instance(id: $id) {\n      id\n      settings { ...DashboardSettingsFields }\n    }\n    integrations { integration capabilities }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardUpdateSettings($input: UpdateInstanceSettingsInput!) {\n    updateInstanceSettings(input: $input) {\n      settings { ...DashboardSettingsFields }\n      userErrors { code field message }\n    }\n  }\n"): (typeof documents)["\n  mutation DashboardUpdateSettings($input: UpdateInstanceSettingsInput!) {\n    updateInstanceSettings(input: $input) {\n      settings { ...DashboardSettingsFields }\n      userErrors { code field message }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;