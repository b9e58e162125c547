import { randomBytes, randomInt } from 'node:crypto';
import type { GroupInfo, ParticipantAction } from '../../domain/groups/group-ops.js';
import type { Statements } from '../../infra/db/statements.js';

type Admin = 'admin' | 'superadmin' | null;
/** A group as the sandbox network keeps it (the SandboxGroup and SandboxGroupMember rows). */
export interface SandboxGroup extends GroupInfo {
  inviteCode: string;
  participants: Array<{ phone: string; admin: Admin }>;
}

interface GroupRow {
  id: string;
  subject: string;
  description: string | null;
  owner: string;
  announce: boolean;
  restrict: boolean;
  inviteCode: string;
  createdAt: Date;
  members: Array<{ phone: string; admin: Admin }>;
}

const GROUPS = `
SELECT g.id, g.subject, g.description, g.owner, g.announce, g.restrict, g."inviteCode", g."createdAt",
  coalesce((SELECT jsonb_agg(jsonb_build_object('phone', m.phone, 'admin', m.admin) ORDER BY m.seq) FROM "SandboxGroupMember" m WHERE m."groupId" = g.id), '[]'::jsonb) AS members
FROM "SandboxGroup" g`;
const BY_ID = `${GROUPS} WHERE g.id = ANY($1::text[])`;
const OF_PHONE = `${GROUPS} WHERE g.id IN (SELECT "groupId" FROM "SandboxGroupMember" WHERE phone = $1) ORDER BY g."createdAt", g.id`;
const LOCK = `SELECT id FROM "SandboxGroup" WHERE id = $1 FOR UPDATE`;
const CREATE = `INSERT INTO "SandboxGroup" (id, subject, description, owner, "inviteCode") VALUES ($1, $2, $3, $4, $5)`;
const ADD = `
INSERT INTO "SandboxGroupMember" ("groupId", phone, admin)
SELECT $1, m.phone, m.admin FROM jsonb_to_recordset($2::jsonb) AS m(ord int, phone text, admin text) ORDER BY m.ord
ON CONFLICT DO NOTHING`;
const REMOVE = `DELETE FROM "SandboxGroupMember" WHERE "groupId" = $1 AND phone = ANY($2::text[])`;
const SET_ADMIN = `UPDATE "SandboxGroupMember" SET admin = $3 WHERE "groupId" = $1 AND phone = ANY($2::text[])`;
const UPDATE = `
UPDATE "SandboxGroup" SET
  subject = coalesce($2, subject),
  description = CASE WHEN $3::boolean THEN nullif($4, '') ELSE description END,
  announce = coalesce($5, announce),
  restrict = coalesce($6, restrict)
WHERE id = $1`;

const toGroup = (row: GroupRow): SandboxGroup => ({
  id: row.id,
  subject: row.subject,
  description: row.description,
  owner: row.owner,
  participants: row.members,
  announce: row.announce,
  restrict: row.restrict,
  createdAt: row.createdAt.toISOString(),
  inviteCode: row.inviteCode,
});

/** A new group id as the network writes them: `120363` and 12 more digits. */
const newGroupId = () => `120363${String(randomInt(0, 1e6)).padStart(6, '0')}${String(randomInt(0, 1e6)).padStart(6, '0')}@g.us`;
const newInviteCode = () => randomBytes(16).toString('base64url').slice(0, 22);

/** What one participant change did to each phone asked: `ok` or the network's reason. */
export type ParticipantStatus = 'ok' | 'already_member' | 'not_found' | 'not_authorized';

/**
 * The sandbox network's groups, kept in the gateway's database like the rest of its world (every node
 * sees the same groups, a restart keeps them). Changes to one group run one at a time (its row is
 * locked), so two admins changing it at once both count.
 */
export function createSandboxGroups(statements: Statements) {
  async function read(run: Statements['run'], ids: string[]) {
    const rows = await run<GroupRow>(BY_ID, [ids]);
    return new Map(rows.map((row) => [row.id, toGroup(row)]));
  }
  /** Runs `work` on the group with its row locked; null when there is no such group. */
  function locked<T>(groupId: string, work: (run: Statements['run'], group: SandboxGroup) => Promise<T>) {
    return statements.transaction(async (run) => {
      if ((await run(LOCK, [groupId])).length === 0) return null;
      return work(run, (await read(run, [groupId])).get(groupId)!);
    });
  }

  return {
    async get(groupId: string): Promise<SandboxGroup | null> {
      return (await read(statements.run, [groupId])).get(groupId) ?? null;
    },
    async many(groupIds: string[]): Promise<Map<string, SandboxGroup>> {
      return groupIds.length ? read(statements.run, [...new Set(groupIds)]) : new Map();
    },
    /** The groups a phone (digits) is in, oldest first. */
    async of(phone: string): Promise<SandboxGroup[]> {
      return (await statements.run<GroupRow>(OF_PHONE, [phone])).map(toGroup);
    },
    /** A new group: its creator (the superadmin) first, then the participants in the order given. */
    async create(owner: string, subject: string, participants: string[], description: string | null): Promise<SandboxGroup> {
      const id = newGroupId();
      const members = [owner, ...participants.filter((phone) => phone !== owner)];
      await statements.transaction(async (run) => {
        await run(CREATE, [id, subject, description || null, owner, newInviteCode()]);
        await run(ADD, [id, JSON.stringify(members.map((phone, ord) => ({ ord, phone, admin: phone === owner ? 'superadmin' : null })))]);
      });
      return (await this.get(id))!;
    },
    /** Changes the group's subject, description or settings; null when there is no such group. */
    async update(groupId: string, change: { subject?: string; description?: string; announce?: boolean; restrict?: boolean }) {
      return locked(groupId, async (run) => {
        await run(UPDATE, [groupId, change.subject ?? null, change.description !== undefined, change.description ?? null, change.announce ?? null, change.restrict ?? null]);
        return (await read(run, [groupId])).get(groupId)!;
      });
    },
    /**
     * Adds, removes, promotes or demotes phones, as `decide` says for each given the group as it is
     * under the lock (`authorized` false refuses the whole change). Answers each phone's status and the group after.
     */
    async participants(groupId: string, action: ParticipantAction, phones: string[], authorized: (group: SandboxGroup) => boolean) {
      return locked(groupId, async (run, group) => {
        if (!authorized(group)) return { refused: true as const, group };
        const roles = new Map(group.participants.map((p) => [p.phone, p.admin]));
        const statuses = phones.map((phone): { phone: string; status: ParticipantStatus } => {
          const member = roles.has(phone);
          if (action === 'add') return { phone, status: member ? 'already_member' : 'ok' };
          if (!member) return { phone, status: 'not_found' };
          // The creator stays an admin and stays in (the network lets no one take that away).
          if (roles.get(phone) === 'superadmin' && (action === 'remove' || action === 'demote')) return { phone, status: 'not_authorized' };
          return { phone, status: 'ok' };
        });
        const changed = statuses.filter((s) => s.status === 'ok').map((s) => s.phone);
        if (changed.length) {
          if (action === 'add') await run(ADD, [groupId, JSON.stringify(changed.map((phone, ord) => ({ ord, phone, admin: null })))]);
          else if (action === 'remove') await run(REMOVE, [groupId, changed]);
          else if (action === 'promote') await run(SET_ADMIN, [groupId, changed.filter((phone) => roles.get(phone) !== 'superadmin'), 'admin']);
          else await run(SET_ADMIN, [groupId, changed, null]);
        }
        return { refused: false as const, statuses, changed, before: group, group: (await read(run, [groupId])).get(groupId)! };
      });
    },
    /** The phone leaves the group; false when it was not in it. */
    async leave(groupId: string, phone: string): Promise<boolean> {
      const removed = await statements.run(`${REMOVE} RETURNING 1`, [groupId, [phone]]);
      return removed.length > 0;
    },
  };
}

export type SandboxGroups = ReturnType<typeof createSandboxGroups>;

/** Whether `phone` is one of the group's admins (its creator included). */
export const isAdmin = (group: SandboxGroup, phone: string) => group.participants.some((p) => p.phone === phone && p.admin !== null);
export const isMember = (group: SandboxGroup, phone: string) => group.participants.some((p) => p.phone === phone);
