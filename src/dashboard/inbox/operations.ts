import { graphql } from '../generated/index.js';

/** The inbox's operations (docs/dashboard.md, "The inbox"), typed by codegen like the others. */

export const InboxChatFields = graphql(`
  fragment InboxChat on Chat {
    id chatId name kind unreadCount archived pinned mutedUntil updatedAt
    lastMessage { id direction type text createdAt deletedAt history media { type caption fileName } poll { name } reaction { emoji } location { name } contacts { displayName } }
  }
`);

export const InboxMessageFields = graphql(`
  fragment InboxMessage on Message {
    id direction type text from fromLid status createdAt editedAt deletedAt history
    media { type mimetype url fileName caption size }
    location { latitude longitude name address }
    contacts { displayName vcard }
    reaction { emoji messageId }
    quoted { messageId }
    poll { name options { name votes voters } }
    timestamps { sent }
  }
`);

export const InboxChats = graphql(`
  query DashboardInboxChats($instanceId: ID!, $after: String, $filter: ChatFilter, $search: String) {
    instance(id: $instanceId) {
      id name status
      chats(first: 30, after: $after, filter: $filter, search: $search) {
        edges { node { ...InboxChat } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`);

export const InboxThread = graphql(`
  query DashboardInboxThread($instanceId: ID!, $chatId: String!, $before: String) {
    instance(id: $instanceId) {
      id
      chat(chatId: $chatId) {
        ...InboxChat
        messages(last: 40, before: $before) {
          edges { node { ...InboxMessage } }
          pageInfo { hasPreviousPage startCursor }
        }
      }
    }
  }
`);

export const InboxChatChanges = graphql(`
  subscription DashboardInboxChatChanges($instanceId: ID!) {
    chatUpdated(instanceId: $instanceId) { id chatId deleted chat { ...InboxChat } }
  }
`);

export const InboxMessageChanges = graphql(`
  subscription DashboardInboxMessageChanges {
    messageUpdated { messageId status message { ...InboxMessage } }
  }
`);

export const InboxSend = graphql(`
  mutation DashboardInboxSend($input: SendMessageInput!) {
    sendMessage(input: $input) { message { ...InboxMessage } userErrors { code field message } }
  }
`);

export const MarkChatRead = graphql(`
  mutation DashboardMarkChatRead($input: ChatActionInput!) {
    markChatRead(input: $input) { chat { ...InboxChat } userErrors { code field message } }
  }
`);

export const MarkChatUnread = graphql(`
  mutation DashboardMarkChatUnread($input: ChatActionInput!) {
    markChatUnread(input: $input) { chat { ...InboxChat } userErrors { code field message } }
  }
`);

export const ArchiveChat = graphql(`
  mutation DashboardArchiveChat($input: ChatActionInput!) {
    archiveChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }
  }
`);

export const UnarchiveChat = graphql(`
  mutation DashboardUnarchiveChat($input: ChatActionInput!) {
    unarchiveChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }
  }
`);

export const PinChat = graphql(`
  mutation DashboardPinChat($input: ChatActionInput!) {
    pinChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }
  }
`);

export const UnpinChat = graphql(`
  mutation DashboardUnpinChat($input: ChatActionInput!) {
    unpinChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }
  }
`);

export const MuteChat = graphql(`
  mutation DashboardMuteChat($input: MuteChatInput!) {
    muteChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }
  }
`);

export const UnmuteChat = graphql(`
  mutation DashboardUnmuteChat($input: ChatActionInput!) {
    unmuteChat(input: $input) { chat { ...InboxChat } userErrors { code field message } }
  }
`);
