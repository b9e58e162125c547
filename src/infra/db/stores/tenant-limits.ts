import { LIMIT_NAMES, type LimitName, type LimitOverrides } from '../../../domain/tenants/plans.js';

/** The Tenant column that holds each of a tenant's own limits (null: its plan's). */
const COLUMNS = {
  instances: 'limitInstances',
  dailyMessages: 'limitDailyMessages',
  requestsPerMinute: 'limitRequestsPerMinute',
  requestsPerHour: 'limitRequestsPerHour',
  burst: 'limitBurst',
} as const satisfies Record<LimitName, string>;

type Column = (typeof COLUMNS)[LimitName];
type Row = { [C in Column]: number | null };

/** Selects the columns of a tenant's own limits. */
export const limitColumns = Object.fromEntries(LIMIT_NAMES.map((name) => [COLUMNS[name], true])) as { [C in Column]: true };

export function overridesOf(row: Row): LimitOverrides {
  return Object.fromEntries(LIMIT_NAMES.map((name) => [name, row[COLUMNS[name]]])) as LimitOverrides;
}

/** The columns to write for the limits a change names. */
export function columnsOf(overrides: Partial<LimitOverrides>): Partial<Row> {
  return Object.fromEntries(LIMIT_NAMES.filter((name) => overrides[name] !== undefined).map((name) => [COLUMNS[name], overrides[name]])) as Partial<Row>;
}
