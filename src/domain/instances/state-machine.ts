import { Conflict } from '../errors.js';

/** Internal states of an instance; each API variant shows them in its own words. */
export type InstanceState = 'created' | 'qr' | 'connecting' | 'connected' | 'disconnected' | 'banned' | 'error';
export type InstanceVariant = 'v1' | 'session';

/** What moves an instance. */
export type InstanceTransition =
  | 'qr_issued' // the network issued a QR code
  | 'scanned' // a phone paired (scanned the code or entered a pairing code); linking
  | 'linked' // the network confirmed the phone
  | 'qr_exhausted' // every QR code of the pairing expired unscanned
  | 'dropped' // the connection fell (or a reconnect failed); it comes back by the engine's policy
  | 'reconnecting' // the engine is bringing a dropped connection back
  | 'logged_out' // disconnect requested, or the phone unlinked
  | 'banned' // the network banned the number
  | 'failed'; // the engine failed

const TRANSITIONS: Record<InstanceTransition, { from: readonly InstanceState[]; to: InstanceState }> = {
  qr_issued: { from: ['created', 'qr', 'disconnected', 'banned', 'error'], to: 'qr' },
  // A live code can be scanned whether or not anyone fetched it since (the v1 create answer carries one).
  scanned: { from: ['created', 'qr'], to: 'connecting' },
  linked: { from: ['connecting'], to: 'connected' },
  qr_exhausted: { from: ['created', 'qr'], to: 'disconnected' },
  dropped: { from: ['connected', 'connecting'], to: 'disconnected' },
  // From error too: a credentials engine connects again once it is given credentials that work.
  reconnecting: { from: ['disconnected', 'error'], to: 'connecting' },
  logged_out: { from: ['created', 'qr', 'connecting', 'connected', 'disconnected'], to: 'disconnected' },
  banned: { from: ['qr', 'connecting', 'connected', 'disconnected'], to: 'banned' },
  failed: { from: ['created', 'qr', 'connecting', 'connected', 'disconnected'], to: 'error' },
};

export function canTransition(from: InstanceState, transition: InstanceTransition): boolean {
  return TRANSITIONS[transition].from.includes(from);
}

/** What each move is, in a caller's words. */
const MOVE_WORDS: Record<InstanceTransition, string> = {
  qr_issued: 'show a new QR code',
  scanned: 'be paired',
  linked: 'connect',
  qr_exhausted: 'stop pairing',
  dropped: 'lose its connection',
  reconnecting: 'reconnect',
  logged_out: 'be disconnected',
  banned: 'be banned',
  failed: 'fail',
};

/** The state after `transition`, or a 409 saying why it cannot happen now in the variant's status words. */
export function transition(from: InstanceState, move: InstanceTransition, variant: InstanceVariant = 'v1'): InstanceState {
  if (!canTransition(from, move)) {
    throw new Conflict('instance_unavailable', `The instance cannot ${MOVE_WORDS[move]} while it is ${statusIn(variant, from)}.`);
  }
  return TRANSITIONS[move].to;
}

/** Each variant's status words (spec 3.1 and 3.2); GraphQL enums derive from these lists. */
export const V1_STATUSES = ['initializing', 'qr_code', 'connecting', 'connected', 'disconnected', 'error'] as const;
export const SESSION_STATUSES = ['created', 'qr', 'connected', 'disconnected', 'banned'] as const;

const V1_STATUS: Record<InstanceState, (typeof V1_STATUSES)[number]> = {
  created: 'initializing',
  qr: 'qr_code',
  connecting: 'connecting',
  connected: 'connected',
  disconnected: 'disconnected',
  banned: 'error',
  error: 'error',
};

const SESSION_STATUS: Record<InstanceState, (typeof SESSION_STATUSES)[number]> = {
  created: 'created',
  qr: 'qr',
  connecting: 'qr',
  connected: 'connected',
  disconnected: 'disconnected',
  banned: 'banned',
  error: 'disconnected',
};

export const v1StatusOf = (state: InstanceState) => V1_STATUS[state];
export const sessionStatusOf = (state: InstanceState) => SESSION_STATUS[state];

export function statusIn(variant: InstanceVariant, state: InstanceState): string {
  return variant === 'v1' ? v1StatusOf(state) : sessionStatusOf(state);
}

export const ALL_STATES: readonly InstanceState[] = ['created', 'qr', 'connecting', 'connected', 'disconnected', 'banned', 'error'];
export const ALL_TRANSITIONS = Object.keys(TRANSITIONS) as InstanceTransition[];

/** The internal states shown with a status word of either vocabulary (a list filter). */
export function statesShowing(filter: { status?: string | null; sessionStatus?: string | null }): InstanceState[] {
  return ALL_STATES.filter(
    (state) => (filter.status == null || v1StatusOf(state) === filter.status) && (filter.sessionStatus == null || sessionStatusOf(state) === filter.sessionStatus),
  );
}
