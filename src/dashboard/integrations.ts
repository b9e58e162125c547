/** The engines in words a tenant recognises. */
const NAMES: Record<string, string> = {
  'CHAT-SANDBOX': 'Sandbox (simulated phones)',
  'CHAT-BAILEYS': 'Chat network (linked device)',
  'CHAT-CLOUD': 'Official business API',
};

export const integrationName = (integration: string) => NAMES[integration] ?? integration;

/** Close reasons in words (the list in docs/webhooks.md). */
const REASONS: Record<string, string> = {
  restart_required: 'the network asked for a restart',
  connection_lost: 'the connection was lost',
  timed_out: 'the connection timed out',
  connection_closed: 'the connection was closed',
  unavailable: 'the network was unavailable',
  bad_session: 'the session was not accepted',
  replaced: 'another connection took this one over',
  logged_out: 'logged out',
  banned: 'the number was banned',
  pairing_expired: 'the QR codes ran out',
  shutdown: 'the gateway node stopped',
  untrusted_network: "the server failed the network's certificate checks",
  credentials_rejected: 'the business API refused the credentials',
  token_expired: 'the access token stopped working (give a new one)',
};

export const reasonInWords = (reason: string) => REASONS[reason] ?? reason;
