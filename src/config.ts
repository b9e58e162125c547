import { z } from 'zod';
import type { Policies } from './domain/services.js';
import { PLAN_NAME, PLAN_NAME_RULE, type Plans } from './domain/tenants/plans.js';
import { buildPlans } from './config-plans.js';

export const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

export const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const delays = z
  .string()
  .regex(/^\s*\d+(\s*,\s*\d+)*\s*$/, 'a comma-separated list of whole seconds, e.g. 0,60,300,1800')
  .transform((v) => v.split(',').map((s) => Number(s.trim())));

export const url = (protocols: string[]) =>
  z.string().refine((v) => {
    try {
      return protocols.includes(new URL(v).protocol);
    } catch {
      return false;
    }
  }, `a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`);

const DURATION_UNITS_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A retention: a whole number of seconds, minutes, hours or days (`30s`, `12h`, `90d`), or `off` (kept forever): milliseconds, or null. */
const retention = z
  .string()
  .regex(/^\s*(off|\d{1,6}\s*[smhd])\s*$/, 'a duration such as 30s, 15m, 12h or 90d, or off')
  .transform((value) => {
    const trimmed = value.trim();
    if (trimmed === 'off') return null;
    const unit = trimmed.slice(-1) as keyof typeof DURATION_UNITS_MS;
    return Number(trimmed.slice(0, -1).trim()) * DURATION_UNITS_MS[unit];
  })
  .refine((ms) => ms === null || ms > 0, 'at least 1s, or off');

/** A duration like 30s, 15m, 12h or 7d: milliseconds. */
const duration = z
  .string()
  .regex(/^\s*\d{1,6}\s*[smhd]\s*$/, 'a duration such as 30s, 15m, 12h or 7d')
  .transform((value) => {
    const trimmed = value.trim();
    return Number(trimmed.slice(0, -1).trim()) * DURATION_UNITS_MS[trimmed.slice(-1) as keyof typeof DURATION_UNITS_MS];
  })
  .refine((ms) => ms > 0, 'at least 1s');

/** Where media is kept (docs/media.md): the data folder, nowhere, or an S3 bucket and key prefix. */
const mediaStore = z.string().transform((value, ctx) => {
  const trimmed = value.trim();
  if (trimmed === 'folder' || trimmed === 'off') return { kind: trimmed } as const;
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/([\w!\-.*'()/]*))?$/.exec(trimmed);
  if (!match) {
    ctx.addIssue({ code: 'custom', message: 'folder, off, or s3://bucket/prefix (a bucket name of 3-63 lowercase letters, digits, dots and hyphens)' });
    return z.NEVER;
  }
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  return { kind: 's3', bucket: match[1]!, prefix } as const;
});

/** The media policy's kinds: all, none, or a comma-separated list. */
const mediaKeep = z.string().transform((value, ctx) => {
  const trimmed = value.trim();
  if (trimmed === 'all' || trimmed === 'none') return trimmed;
  const kinds = trimmed.split(',').map((kind) => kind.trim()).filter(Boolean);
  const known = ['image', 'video', 'audio', 'document', 'sticker'] as const;
  const unknown = kinds.filter((kind) => !(known as readonly string[]).includes(kind));
  if (unknown.length || kinds.length === 0) {
    ctx.addIssue({ code: 'custom', message: `all, none, or a comma-separated list of ${known.join(', ')}` });
    return z.NEVER;
  }
  return [...new Set(kinds)] as Array<(typeof known)[number]>;
});

/** Chat network engines, comma-separated, each once; the first is the default for new instances. */
const engines = (known: readonly string[]) =>
  z.string().transform((value, ctx) => {
    const list = value.split(',').map((entry) => entry.trim()).filter(Boolean);
    const unknown = list.filter((name) => !known.includes(name));
    if (unknown.length) ctx.addIssue({ code: 'custom', message: `unknown engine(s) ${unknown.join(', ')}; known: ${known.join(', ')}` });
    if (list.length === 0) ctx.addIssue({ code: 'custom', message: `name at least one engine (${known.join(', ')})` });
    if (new Set(list).size !== list.length) ctx.addIssue({ code: 'custom', message: 'names an engine twice' });
    return list;
  });

/** A broker URL: one of `protocols`, with a host (credentials and a vhost or port may follow). */
const brokerUrl = (protocols: string[]) =>
  z.string().refine((v) => {
    try {
      const parsed = new URL(v);
      return protocols.includes(parsed.protocol) && parsed.hostname !== '';
    } catch {
      return false;
    }
  }, `a URL like ${protocols[0]}//host:port (starting with ${protocols.map((p) => `${p}//`).join(' or ')})`);

/** Base64 of exactly 32 bytes (a key). */
export const key32 = z.string().refine((value) => {
  const bytes = Buffer.from(value, 'base64');
  return bytes.length === 32 && bytes.toString('base64') === value.replace(/\s/g, '');
}, '32 bytes in base64 (44 characters, e.g. from `openssl rand -base64 32`)');

/** Exact browser origins (scheme://host[:port], nothing after), comma-separated. */
const origins = z
  .string()
  .transform((value, ctx) => {
    const list = value.split(',').map((entry) => entry.trim()).filter(Boolean);
    for (const entry of list) {
      let exact = false;
      try {
        const parsed = new URL(entry);
        exact = ['http:', 'https:'].includes(parsed.protocol) && parsed.origin === entry;
      } catch {
        exact = false;
      }
      if (!exact) ctx.addIssue({ code: 'custom', message: `"${entry}" is not an exact origin like https://app.example.com (scheme, host and port only, no path or trailing slash)` });
    }
    return list;
  });

/** The gateway's own variables; each engine adds its part (EngineConfigPart). */
const coreSchema = (knownEngines: readonly string[]) =>
  z.object({
    PORT: int(0, 65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
    DATABASE_CONNECT_TIMEOUT_MS: int(100, 600_000).default(5000),
    DATABASE_STATEMENT_TIMEOUT_MS: int(100, 600_000).default(5000),
    DATABASE_TRANSACTION_TIMEOUT_MS: int(100, 600_000).default(10_000),
    REDIS_URL: url(['redis:', 'rediss:']).optional(),
    REDIS_PREFIX: z.string().regex(/^[\w:.-]{1,64}$/, 'letters, digits and : . _ - only').default('mgw:'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    GATEWAY_ADMIN_EMAIL: z.email().optional(),
    GATEWAY_ADMIN_PASSWORD: z.string().min(8, 'at least 8 characters').optional(),
    // Checked against the plans table once it is built (PLANS_FILE may add plans).
    GATEWAY_ADMIN_PLAN: z.string().regex(PLAN_NAME, PLAN_NAME_RULE).optional(),
    PLAN_DEFAULT: z.string().regex(PLAN_NAME, PLAN_NAME_RULE).default('pro'),
    PLANS_FILE: z.string().min(1).optional(),
    ADMIN_TOKEN: z.string().min(32, 'at least 32 characters (e.g. from `openssl rand -base64 32`)').optional(),
    WEBHOOK_RETRY_DELAYS: delays.default([0, 60, 300, 1800]),
    WEBHOOK_TIMEOUT_MS: int(1, 120_000).default(5000),
    WEBHOOK_ALLOW_INSECURE: bool.default(false),
    RETENTION_MESSAGES: retention.prefault('90d'),
    RETENTION_DELIVERIES: retention.prefault('30d'),
    RETENTION_CONNECTIONS: retention.prefault('30d'),
    // The messages' retention when not set.
    RETENTION_MEDIA: retention.optional(),
    MEDIA_STORE: mediaStore.prefault('folder'),
    MEDIA_DIR: z.string().min(1).optional(),
    MEDIA_S3_ENDPOINT: url(['http:', 'https:']).optional(),
    MEDIA_S3_REGION: z.string().regex(/^[\w-]{1,64}$/, 'a region name such as us-east-1').default('us-east-1'),
    MEDIA_S3_ACCESS_KEY: z.string().min(1).optional(),
    MEDIA_S3_SECRET_KEY: z.string().min(1).optional(),
    MEDIA_S3_FORCE_PATH_STYLE: bool.default(false),
    MEDIA_LINK_TTL: duration.prefault('1h'),
    MEDIA_KEEP: mediaKeep.prefault('all'),
    MEDIA_MAX_BYTES: int(1, 1024 * 1024 * 1024).default(64 * 1024 * 1024),
    QR_SESSION_TTL_S: int(1, 3600).default(20),
    QR_SESSION_ATTEMPTS: int(1, 100).default(6),
    QR_V1_TTL_S: int(1, 3600).default(60),
    RATE_LIMIT_PER_MINUTE: int(1, 1_000_000).default(60),
    RATE_LIMIT_PER_HOUR: int(1, 10_000_000).default(1000),
    RATE_LIMIT_BURST: int(1, 10_000).default(10),
    RATE_LIMIT_SLOT_TTL_S: int(1, 3600).default(60),
    TEST_KEY_DAILY_MESSAGES: int(0, 10_000_000).default(100),
    DAILY_MESSAGES_STARTER: int(0, 100_000_000).default(1_000),
    DAILY_MESSAGES_PRO: int(0, 100_000_000).default(10_000),
    DAILY_MESSAGES_ENTERPRISE: int(0, 100_000_000).default(100_000),
    LOGIN_MAX_PER_EMAIL: int(1, 10_000).default(10),
    LOGIN_MAX_PER_IP: int(1, 100_000).default(50),
    LOGIN_BACKOFF_S: int(1, 900).default(30),
    NODE_ID: z.string().regex(/^[\w.:-]{1,100}$/, 'letters, digits and . : _ - only').optional(),
    NODE_LEASE_MS: int(1000, 600_000).default(5000),
    ENGINES: engines(knownEngines).default(['sandbox']),
    ENGINE_STATE_KEY: key32.optional(),
    PROXY_CHECK_URL: url(['http:', 'https:']).default('https://api.ipify.org'),
    PUBLIC_URL: url(['http:', 'https:'])
      .transform((value) => value.replace(/\/+$/, ''))
      .optional(),
    COMPAT_EVOLUTION: bool.default(false),
    COMPAT_EVOLUTION_PREFIX: z
      .string()
      .regex(/^(\/[\w.-]+)*\/?$/, 'a path such as /evolution (letters, digits and . _ - between slashes)')
      .transform((value) => value.replace(/\/+$/, ''))
      .default(''),
    TRUST_PROXY: bool.default(false),
    TRUST_PROXY_HOPS: int(1, 100).default(1),
    SHUTDOWN_DRAIN_MS: int(0, 600_000).default(1000),
    SHUTDOWN_GRACE_MS: int(0, 600_000).default(10_000),
    REQUEST_TIMEOUT_MS: int(1000, 3_600_000).default(30_000),
    GRAPHQL_MAX_DEPTH: int(1, 100).default(12),
    GRAPHQL_MAX_ALIASES: int(0, 1000).default(15),
    GRAPHQL_MAX_COST: int(1, 10_000_000).default(20_000),
    GRAPHQL_MAX_NODES: int(1, 10_000_000).default(10_000),
    GRAPHQL_MAX_TOKENS: int(10, 1_000_000).default(2000),
    GRAPHQL_MAX_BODY_BYTES: int(1024, 16 * 1024 * 1024).default(100 * 1024),
    GRAPHQL_INTROSPECTION: bool.default(true),
    GRAPHQL_WS_REAUTH_S: int(1, 3600).default(30),
    CORS_ORIGINS: origins.default([]),
    METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
    EVENTS_AMQP_URL: brokerUrl(['amqp:', 'amqps:']).optional(),
    EVENTS_AMQP_EXCHANGE: z.string().regex(/^[\w.:-]{1,127}$/, 'letters, digits and . : _ - only').default('gateway.events'),
    EVENTS_NATS_URL: brokerUrl(['nats:', 'tls:']).optional(),
    EVENTS_NATS_STREAM: z.string().regex(/^[\w-]{1,64}$/, 'letters, digits, _ and - only').default('GATEWAY_EVENTS'),
    EVENTS_NATS_SUBJECT_PREFIX: z
      .string()
      .regex(/^[\w-]+(\.[\w-]+)*$/, 'subject tokens (letters, digits, _ and -) separated by dots, no wildcards')
      .default('gateway'),
  });

/**
 * The validated configuration: the gateway's own variables, typed here. The object also holds every
 * engine's settings (its descriptor reads them with settingsOf), which this file does not name.
 */
export type Config = Readonly<
  Omit<z.output<ReturnType<typeof coreSchema>>, 'GATEWAY_ADMIN_PLAN'> & {
    /** PLAN_DEFAULT when not set. */
    GATEWAY_ADMIN_PLAN: string;
    /** The plans table: the built-in plans as the environment sets them, and PLANS_FILE's. */
    plans: Plans;
  }
>;

/** An engine's part of the environment (its descriptor in src/engines names it). */
export interface EngineConfigPart {
  readonly name: string;
  readonly settings: z.ZodObject;
  /** Problems once ENGINES offers it, as `VARIABLE: why`. */
  check?(settings: never): string[];
}

/** The business limits of the configuration, in the shape the domain takes them. */
export function policiesOf(config: Config): Policies {
  return {
    quotas: { testKey: config.TEST_KEY_DAILY_MESSAGES },
    plans: config.plans,
    allowInsecureUrls: config.WEBHOOK_ALLOW_INSECURE,
    media: { keep: config.MEDIA_KEEP, maxBytes: config.MEDIA_MAX_BYTES },
    qr: { sessionTtlSeconds: config.QR_SESSION_TTL_S, v1TtlSeconds: config.QR_V1_TTL_S, attempts: config.QR_SESSION_ATTEMPTS },
  };
}

/** The document guards of the GraphQL API. */
export function graphqlLimitsOf(config: Config) {
  return {
    maxDepth: config.GRAPHQL_MAX_DEPTH,
    maxAliases: config.GRAPHQL_MAX_ALIASES,
    maxCost: config.GRAPHQL_MAX_COST,
    maxNodes: config.GRAPHQL_MAX_NODES,
    maxTokens: config.GRAPHQL_MAX_TOKENS,
    introspection: config.GRAPHQL_INTROSPECTION,
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads the environment once, with the parts of the engines that can be offered; every bad variable
 * is reported together. src/compose/config.ts calls it with the catalogue's parts.
 */
export function parseConfig(env: NodeJS.ProcessEnv, parts: readonly EngineConfigPart[]): Config {
  // An empty variable means "not set", as in most shells' `VAR= cmd`.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const schema = parts.reduce<z.ZodObject>((all, part) => all.extend(part.settings.shape), coreSchema(parts.map((part) => part.name)));
  const parsed = schema.safeParse(present) as z.ZodSafeParseResult<Config & Record<string, unknown>>;
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`);
  // Checked apart from the schema so it is reported together with any other problem.
  if (('MEDIA_S3_ACCESS_KEY' in present) !== ('MEDIA_S3_SECRET_KEY' in present)) {
    problems.push('MEDIA_S3_ACCESS_KEY / MEDIA_S3_SECRET_KEY: set both or neither');
  }
  if (('GATEWAY_ADMIN_EMAIL' in present) !== ('GATEWAY_ADMIN_PASSWORD' in present)) {
    problems.push('GATEWAY_ADMIN_EMAIL / GATEWAY_ADMIN_PASSWORD: set both or neither');
  }
  let plans: Plans | undefined;
  if (parsed.success) {
    const data = parsed.data;
    const built = buildPlans(
      {
        requests: { requestsPerMinute: data.RATE_LIMIT_PER_MINUTE, requestsPerHour: data.RATE_LIMIT_PER_HOUR, burst: data.RATE_LIMIT_BURST },
        dailyMessages: { starter: data.DAILY_MESSAGES_STARTER, pro: data.DAILY_MESSAGES_PRO, enterprise: data.DAILY_MESSAGES_ENTERPRISE, 'self-hosted': null },
      },
      data.PLANS_FILE,
      data.PLAN_DEFAULT,
    );
    plans = built.plans;
    problems.push(...built.problems);
    const adminPlan = data.GATEWAY_ADMIN_PLAN;
    if (adminPlan !== undefined && !Object.hasOwn(plans.table, adminPlan)) {
      problems.push(`GATEWAY_ADMIN_PLAN: unknown plan "${adminPlan}"; known: ${Object.keys(plans.table).join(', ')}`);
    }
    for (const part of parts) {
      if (!part.check || !parsed.data.ENGINES.includes(part.name)) continue;
      const settings = Object.fromEntries(Object.keys(part.settings.shape).map((key) => [key, parsed.data[key]]));
      problems.push(...part.check(settings as never));
    }
  }
  // The file's problems are reported with the environment's, even when the environment has some.
  if (!parsed.success && typeof present.PLANS_FILE === 'string') {
    const someDefaults = { requests: { requestsPerMinute: 1, requestsPerHour: 1, burst: 1 }, dailyMessages: { starter: 0, pro: 0, enterprise: 0, 'self-hosted': null } };
    problems.push(...buildPlans(someDefaults, present.PLANS_FILE, 'pro').problems.filter((problem) => problem.startsWith('PLANS_FILE')));
  }
  if (!parsed.success || problems.length) throw new ConfigError(problems);
  return Object.freeze({ ...parsed.data, GATEWAY_ADMIN_PLAN: parsed.data.GATEWAY_ADMIN_PLAN ?? parsed.data.PLAN_DEFAULT, plans: plans! });
}
