import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.js';
import { loadConfig } from '../../src/compose/config.js';

describe('loadConfig', () => {
  it('gives every documented default when nothing is set', () => {
    expect(loadConfig({})).toEqual({
      PORT: 3000,
      HOST: '0.0.0.0',
      DATA_DIR: './data',
      REDIS_PREFIX: 'mgw:',
      DATABASE_CONNECT_TIMEOUT_MS: 5000,
      DATABASE_STATEMENT_TIMEOUT_MS: 5000,
      DATABASE_TRANSACTION_TIMEOUT_MS: 10000,
      LOG_LEVEL: 'info',
      GATEWAY_ADMIN_PLAN: 'pro',
      PLAN_DEFAULT: 'pro',
      plans: {
        defaultPlan: 'pro',
        table: {
          starter: { instances: 1, dailyMessages: 1000, requestsPerMinute: 60, requestsPerHour: 1000, burst: 10 },
          pro: { instances: 5, dailyMessages: 10000, requestsPerMinute: 60, requestsPerHour: 1000, burst: 10 },
          enterprise: { instances: 50, dailyMessages: 100000, requestsPerMinute: 60, requestsPerHour: 1000, burst: 10 },
          'self-hosted': { instances: null, dailyMessages: null, requestsPerMinute: 60, requestsPerHour: 1000, burst: 10 },
        },
      },
      WEBHOOK_RETRY_DELAYS: [0, 60, 300, 1800],
      WEBHOOK_TIMEOUT_MS: 5000,
      WEBHOOK_ALLOW_INSECURE: false,
      RETENTION_MESSAGES: 90 * 86_400_000,
      RETENTION_DELIVERIES: 30 * 86_400_000,
      RETENTION_CONNECTIONS: 30 * 86_400_000,
      MEDIA_STORE: { kind: 'folder' },
      MEDIA_S3_REGION: 'us-east-1',
      MEDIA_S3_FORCE_PATH_STYLE: false,
      MEDIA_LINK_TTL: 3_600_000,
      MEDIA_KEEP: 'all',
      MEDIA_MAX_BYTES: 64 * 1024 * 1024,
      QR_SESSION_TTL_S: 20,
      QR_SESSION_ATTEMPTS: 6,
      QR_V1_TTL_S: 60,
      RATE_LIMIT_PER_MINUTE: 60,
      RATE_LIMIT_PER_HOUR: 1000,
      RATE_LIMIT_BURST: 10,
      RATE_LIMIT_SLOT_TTL_S: 60,
      TEST_KEY_DAILY_MESSAGES: 100,
      DAILY_MESSAGES_STARTER: 1000,
      DAILY_MESSAGES_PRO: 10000,
      DAILY_MESSAGES_ENTERPRISE: 100000,
      LOGIN_MAX_PER_EMAIL: 10,
      LOGIN_MAX_PER_IP: 50,
      LOGIN_BACKOFF_S: 30,
      ENGINES: ['sandbox'],
      PROXY_CHECK_URL: 'https://api.ipify.org',
      NODE_LEASE_MS: 5000,
      CLOUD_API_URL: 'https://graph.facebook.com',
      CLOUD_API_VERSION: 'v23.0',
      CHAT_HANDSHAKES_MAX: 16,
      CLOUD_API_TIMEOUT_MS: 15000,
      CLOUD_MPS: 80,
      CLOUD_WEBHOOK_PER_MINUTE: 6000,
      SANDBOX_DELIVERY_DELAY_MS: 100,
      SANDBOX_PAST: 'given',
      SANDBOX_RECONNECT_DELAY_MS: 300,
      COMPAT_EVOLUTION: false,
      COMPAT_EVOLUTION_PREFIX: '',
      TRUST_PROXY: false,
      TRUST_PROXY_HOPS: 1,
      SHUTDOWN_DRAIN_MS: 1000,
      SHUTDOWN_GRACE_MS: 10000,
      REQUEST_TIMEOUT_MS: 30000,
      GRAPHQL_MAX_DEPTH: 12,
      GRAPHQL_MAX_ALIASES: 15,
      GRAPHQL_MAX_COST: 20000,
      GRAPHQL_MAX_NODES: 10000,
      GRAPHQL_MAX_TOKENS: 2000,
      GRAPHQL_MAX_BODY_BYTES: 102400,
      GRAPHQL_INTROSPECTION: true,
      GRAPHQL_WS_REAUTH_S: 30,
      CORS_ORIGINS: [],
      EVENTS_AMQP_EXCHANGE: 'gateway.events',
      EVENTS_NATS_STREAM: 'GATEWAY_EVENTS',
      EVENTS_NATS_SUBJECT_PREFIX: 'gateway',
    });
  });

  it('takes broker URLs for the event streams and names each wrong one', () => {
    const config = loadConfig({ EVENTS_AMQP_URL: 'amqp://user:pass@rabbit:5672/vhost', EVENTS_NATS_URL: 'nats://nats:4222' });
    expect(config.EVENTS_AMQP_URL).toBe('amqp://user:pass@rabbit:5672/vhost');
    expect(config.EVENTS_NATS_URL).toBe('nats://nats:4222');
    let error: unknown;
    try {
      loadConfig({
        EVENTS_AMQP_URL: 'rabbit:5672',
        EVENTS_NATS_URL: 'http://nats:4222',
        EVENTS_AMQP_EXCHANGE: 'bad exchange',
        EVENTS_NATS_STREAM: 'a.b',
        EVENTS_NATS_SUBJECT_PREFIX: 'gw.>',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['EVENTS_AMQP_URL', 'EVENTS_NATS_URL', 'EVENTS_AMQP_EXCHANGE', 'EVENTS_NATS_STREAM', 'EVENTS_NATS_SUBJECT_PREFIX']) expect(problems).toContain(`${name}:`);
  });

  it('takes CORS_ORIGINS as a list of exact origins and names every entry that is not one', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' }).CORS_ORIGINS).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
    let error: unknown;
    try {
      loadConfig({ CORS_ORIGINS: 'https://ok.example,https://app.example.com/,*,https://x.example/path,ftp://files.example' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(4);
    for (const bad of ['https://app.example.com/', '*', 'https://x.example/path', 'ftp://files.example']) {
      expect(problems.some((problem) => problem.startsWith('CORS_ORIGINS') && problem.includes(`"${bad}"`))).toBe(true);
    }
  });

  it('parses set values', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgresql://u@db:5432/app',
      REDIS_URL: 'redis://cache:6379',
      WEBHOOK_RETRY_DELAYS: '0, 5,10',
      WEBHOOK_ALLOW_INSECURE: 'true',
      GATEWAY_ADMIN_EMAIL: 'a@b.co',
      GATEWAY_ADMIN_PASSWORD: 'long-enough',
    });
    expect(config).toMatchObject({ PORT: 8080, WEBHOOK_RETRY_DELAYS: [0, 5, 10], WEBHOOK_ALLOW_INSECURE: true });
  });

  it('takes retentions as whole seconds, minutes, hours or days, or off, and refuses anything else by name', () => {
    const config = loadConfig({ RETENTION_MESSAGES: '30s', RETENTION_DELIVERIES: '12h', RETENTION_CONNECTIONS: 'off' });
    expect([config.RETENTION_MESSAGES, config.RETENTION_DELIVERIES, config.RETENTION_CONNECTIONS]).toEqual([30_000, 12 * 3_600_000, null]);
    expect(loadConfig({ RETENTION_MESSAGES: '15m' }).RETENTION_MESSAGES).toBe(900_000);
    for (const bad of ['90', '1w', '-1d', '0s', '1.5h', 'forever']) {
      expect(() => loadConfig({ RETENTION_MESSAGES: bad }), bad).toThrow(/RETENTION_MESSAGES: (a duration such as 30s, 15m, 12h or 90d, or off|at least 1s, or off)/);
    }
  });

  it('takes the media store, policy and link settings, and refuses bad ones by name', () => {
    const config = loadConfig({ MEDIA_STORE: 's3://media-bucket/gateway/files/', MEDIA_KEEP: 'image, audio,image', MEDIA_LINK_TTL: '15m' });
    expect(config.MEDIA_STORE).toEqual({ kind: 's3', bucket: 'media-bucket', prefix: 'gateway/files' });
    expect(config.MEDIA_KEEP).toEqual(['image', 'audio']);
    expect(config.MEDIA_LINK_TTL).toBe(900_000);
    expect(loadConfig({ MEDIA_STORE: 'off' }).MEDIA_STORE).toEqual({ kind: 'off' });
    const bad: Array<[Record<string, string>, RegExp]> = [
      [{ MEDIA_STORE: 'disk' }, /MEDIA_STORE: folder, off, or s3:\/\/bucket\/prefix/],
      [{ MEDIA_STORE: 's3://UPPER/x' }, /MEDIA_STORE: /],
      [{ MEDIA_KEEP: 'photos' }, /MEDIA_KEEP: all, none, or a comma-separated list/],
      [{ MEDIA_LINK_TTL: 'off' }, /MEDIA_LINK_TTL: a duration/],
      [{ MEDIA_MAX_BYTES: '0' }, /MEDIA_MAX_BYTES/],
      [{ MEDIA_S3_ACCESS_KEY: 'only-one' }, /MEDIA_S3_ACCESS_KEY \/ MEDIA_S3_SECRET_KEY: set both or neither/],
    ];
    for (const [env, message] of bad) expect(() => loadConfig(env), JSON.stringify(env)).toThrow(message);
  });

  it('treats an empty variable as unset', () => {
    const config = loadConfig({ PORT: '', DATABASE_URL: '' });
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('reports every bad variable at once, by name', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        WEBHOOK_RETRY_DELAYS: '1,two',
        WEBHOOK_ALLOW_INSECURE: 'maybe',
        LOG_LEVEL: 'loud',
        GATEWAY_ADMIN_EMAIL: 'a@b.co',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'DATABASE_URL', 'WEBHOOK_RETRY_DELAYS', 'WEBHOOK_ALLOW_INSECURE', 'LOG_LEVEL', 'GATEWAY_ADMIN_PASSWORD']) {
      expect(problems).toContain(name);
    }
  });

  it('requires CLOUD_VERIFY_TOKEN when ENGINES offers cloud, and checks the cloud variables', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return '';
      } catch (error) {
        return (error as ConfigError).problems.join('\n');
      }
    };
    expect(problems({ ENGINES: 'sandbox,cloud' })).toContain('CLOUD_VERIFY_TOKEN');
    expect(problems({ ENGINES: 'cloud', CLOUD_VERIFY_TOKEN: 'long enough token' })).toBe('');
    const bad = problems({ ENGINES: 'cloud', CLOUD_VERIFY_TOKEN: 'short', CLOUD_API_URL: 'ftp://x', CLOUD_API_VERSION: '23', CLOUD_MPS: '0' });
    for (const name of ['CLOUD_VERIFY_TOKEN', 'CLOUD_API_URL', 'CLOUD_API_VERSION', 'CLOUD_MPS']) expect(bad).toContain(name);
  });
});

describe('the plans table', () => {
  const folder = mkdtempSync(join(tmpdir(), 'mgw-plans-config-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  let files = 0;
  const file = (content: unknown) => {
    const path = join(folder, `plans-${files++}.json`);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };
  const problemsOf = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    return [];
  };

  it('starts from the environment: request limits for every plan, daily messages for the built-in ones', () => {
    const { table } = loadConfig({ RATE_LIMIT_PER_MINUTE: '600', RATE_LIMIT_BURST: '30', DAILY_MESSAGES_PRO: '7' }).plans;
    expect(table.pro).toEqual({ instances: 5, dailyMessages: 7, requestsPerMinute: 600, requestsPerHour: 1000, burst: 30 });
    expect(table['self-hosted']).toEqual({ instances: null, dailyMessages: null, requestsPerMinute: 600, requestsPerHour: 1000, burst: 30 });
  });

  it('takes PLANS_FILE over it: a built-in plan changes what it names, a new plan is added', () => {
    const config = loadConfig({
      RATE_LIMIT_PER_HOUR: '5000',
      PLAN_DEFAULT: 'team',
      PLANS_FILE: file({ plans: { pro: { instances: 12 }, team: { instances: null, dailyMessages: 500, requestsPerMinute: 300 } } }),
    });
    expect(config.plans.defaultPlan).toBe('team');
    expect(config.GATEWAY_ADMIN_PLAN).toBe('team');
    expect(config.plans.table.pro).toEqual({ instances: 12, dailyMessages: 10000, requestsPerMinute: 60, requestsPerHour: 5000, burst: 10 });
    expect(config.plans.table.team).toEqual({ instances: null, dailyMessages: 500, requestsPerMinute: 300, requestsPerHour: 5000, burst: 10 });
    expect(config.plans.table.starter!.instances).toBe(1);
  });

  it('names the variable, the file and the field of every problem, with the others of the environment', () => {
    const bad = file({ plans: { pro: { instances: -1, burst: 0 }, team: { dailyMessages: 10 }, 'Big Plan': { instances: 1, dailyMessages: 1 }, solo: { instances: 1, dailyMessages: 1, messages: 5 } } });
    const problems = problemsOf({ PLANS_FILE: bad, PORT: 'eighty' });
    expect(problems).toContain('PORT: Invalid input: expected number, received NaN');
    const plans = problems.filter((problem) => problem.startsWith(`PLANS_FILE (${bad}): `)).map((problem) => problem.slice(`PLANS_FILE (${bad}): `.length));
    expect(plans.some((problem) => problem.startsWith('plans.pro.instances: '))).toBe(true);
    expect(plans.some((problem) => problem.startsWith('plans.pro.burst: '))).toBe(true);
    expect(plans.some((problem) => problem.startsWith('plans.Big Plan: ') && problem.includes('a plan name'))).toBe(true);
    expect(plans.some((problem) => problem.startsWith('plans.solo: ') && problem.includes('messages'))).toBe(true);
  });

  it('refuses a new plan without its instance and message limits, a file that is not JSON or not there, and unknown plans by name', () => {
    const partial = file({ plans: { team: { dailyMessages: 10 } } });
    expect(problemsOf({ PLANS_FILE: partial })).toEqual([`PLANS_FILE (${partial}): plans.team: a new plan names instances and dailyMessages (a number, or null for no limit)`]);
    const broken = file('{"plans": ');
    expect(problemsOf({ PLANS_FILE: broken })[0]).toMatch(new RegExp(`^PLANS_FILE \\(${broken.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\): is not JSON: `));
    expect(problemsOf({ PLANS_FILE: join(folder, 'missing.json') })).toEqual([`PLANS_FILE (${join(folder, 'missing.json')}): cannot be read (ENOENT)`]);
    expect(problemsOf({ PLANS_FILE: file([]) })[0]).toMatch(/^PLANS_FILE \(.*\): \(file\): /);
    expect(problemsOf({ PLAN_DEFAULT: 'gold' })).toEqual(['PLAN_DEFAULT: unknown plan "gold"; known: starter, pro, enterprise, self-hosted']);
    expect(problemsOf({ GATEWAY_ADMIN_PLAN: 'gold' })).toEqual(['GATEWAY_ADMIN_PLAN: unknown plan "gold"; known: starter, pro, enterprise, self-hosted']);
    expect(problemsOf({ PLAN_DEFAULT: 'Pro!' })[0]).toMatch(/^PLAN_DEFAULT: a plan name/);
    expect(problemsOf({ ADMIN_TOKEN: 'short' })).toEqual(['ADMIN_TOKEN: at least 32 characters (e.g. from `openssl rand -base64 32`)']);
  });
});
