import type { Capability } from './capabilities.js';
import type { OwnerAction, OwnerActionResult, SessionActions } from './engine.port.js';

type ActionOf<K extends OwnerAction['kind']> = Extract<OwnerAction, { kind: K }>;

/** One action an owner carries out: the capability that names it, and the session method that does it. */
interface ActionLine<K extends OwnerAction['kind'], M extends keyof SessionActions> {
  capability: Capability;
  method: M;
  run(method: SessionActions[M], action: ActionOf<K>): Promise<OwnerActionResult>;
}

/**
 * Every action on the network beyond sending, named once: a session lacking the method lacks the
 * capability, and the owner refuses the action as not supported (docs/architecture.md, "Chat engines").
 */
export const SESSION_ACTIONS: { [K in OwnerAction['kind']]: ActionLine<K, keyof SessionActions> } = {
  edit: line('edit', 'edit', async (edit, action) => (await edit(action.target, action.text), {})),
  delete: line('delete', 'delete', async (remove, action) => (await remove(action.target), {})),
  read: line('read', 'markRead', async (markRead, action) => (await markRead(action.targets), {})),
  presence: line('typing', 'presence', async (presence, action) => (await presence(action.chat, action.state), {})),
  check_numbers: line('number_check', 'checkNumbers', async (check, action) => ({ numbers: await check(action.phones) })),
  group: line('group_admin', 'groups', async (groups, action) => ({ group: await groups(action.group) })),
  chat: line('chat_state', 'chatState', async (chatState, action) => (await chatState(action.chat, action.change), {})),
  backfill: line('history', 'backfill', async (backfill, action) => (await backfill(action.chat, action.count, action.oldest, action.oldestAt ? new Date(action.oldestAt) : null), {})),
  block: line('block', 'block', async (block, action) => (await block(action.phone, action.blocked), {})),
  profile: line('profile', 'profile', async (profile, action) => ({ profile: await profile(action.phone) })),
  own_profile: line('own_profile', 'ownProfile', async (ownProfile, action) => ({ ownProfile: await ownProfile(action.change) })),
  privacy: line('privacy', 'privacy', async (privacy, action) => ({ privacy: await privacy(action.change) })),
  blocklist: line('block', 'blocklist', async (blocklist) => ({ blocked: await blocklist() })),
  restrictions: line('reach_limits', 'restrictions', async (restrictions) => ({ restrictions: await restrictions() })),
};

function line<K extends OwnerAction['kind'], M extends keyof SessionActions>(
  capability: Capability,
  method: M,
  run: (method: SessionActions[M], action: ActionOf<K>) => Promise<OwnerActionResult>,
): ActionLine<K, keyof SessionActions> {
  return { capability, method, run: run as ActionLine<K, keyof SessionActions>['run'] };
}

/** The capability each session method stands for. */
export const CAPABILITY_OF_METHOD: Readonly<Record<keyof SessionActions, Capability>> = Object.fromEntries(
  Object.values(SESSION_ACTIONS).map(({ method, capability }) => [method, capability]),
) as Record<keyof SessionActions, Capability>;
