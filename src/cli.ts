import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, policiesOf } from './config.js';
import { loadConfig } from './compose/config.js';
import { DomainError } from './domain/errors.js';
import { createServices, type Services } from './domain/services.js';
import { DataFolderInUse } from './infra/db/data-folder-lock.js';
import { AdminApiRefused, type AdminCall, callAdminApi, localGatewayUrl } from './admin-client.js';
import { LIMIT_NAMES, type LimitName } from './domain/tenants/plans.js';
import { openDatabase } from './infra/db/database.js';
import { applyMigrations, createMigration } from './infra/db/migrate.js';
import { createInfra } from './compose/compose.js';
import { createLogger } from './infra/logger.js';
import { decodeQr, findPngDataUrl } from './infra/qr-decode.js';
import { openStateKey, type RekeyStep, rekeyEngineState } from './engines/state/state-key.js';

/** Where a password may come from besides `--password` (which shows in the shell's history and `ps`). */
const PASSWORD_ENV = 'GATEWAY_CLI_PASSWORD';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | undefined>;

interface Command {
  /** The command line after the command's name. */
  args: string;
  summary: string;
  options: Options;
  positionals?: number;
  /** What it needs: nothing, the database itself (migrations), or the gateway's services. */
  needs: 'nothing' | 'database' | 'services';
  run(input: { values: Values; positionals: string[]; services: Services }): Promise<unknown>;
  /** The same through the admin API, for when a gateway runs on the database (docs/operating.md). */
  api?(values: Values): AdminCall;
}

const tenant = { tenant: { type: 'string' } } satisfies Options;

/** The option of each limit on the command line. */
const LIMIT_OPTIONS: Record<LimitName, string> = {
  instances: 'instances',
  dailyMessages: 'daily-messages',
  requestsPerMinute: 'requests-per-minute',
  requestsPerHour: 'requests-per-hour',
  burst: 'burst',
};

/** A limit as typed: a whole number, or `plan` to give it back to the plan; anything else goes as typed, for the gateway to refuse by name. */
function limitValue(text: string): number | null | string {
  if (text === 'plan') return null;
  return /^-?\d{1,15}$/.test(text) ? Number(text) : text;
}

function limitsOf(values: Values): Partial<Record<LimitName, unknown>> {
  return Object.fromEntries(LIMIT_NAMES.filter((name) => typeof values[LIMIT_OPTIONS[name]] === 'string').map((name) => [name, limitValue(values[LIMIT_OPTIONS[name]] as string)]));
}

function tenantPath(values: Values): string {
  if (typeof values.tenant !== 'string' || values.tenant === '') throw new UsageError('--tenant: is required');
  return `/admin/tenants/${encodeURIComponent(values.tenant)}`;
}
const password = { password: { type: 'string' }, 'password-stdin': { type: 'boolean' } } satisfies Options;
const passwordArgs = `[--password <password> | --password-stdin]  (or ${PASSWORD_ENV})`;

/** The new engine state key comes from the environment only (never the command line, which `ps` shows). */
const NEW_STATE_KEY_ENV = 'ENGINE_STATE_KEY_NEW';

/**
 * ENGINE_STATE_REKEY_STOP_AFTER=<step> kills the rekey at that step, as a power cut would: how the tests
 * check that every step leaves state the next start opens.
 */
function stopAfterForTests() {
  const stopAt = process.env.ENGINE_STATE_REKEY_STOP_AFTER;
  return (step: RekeyStep) => {
    if (step === stopAt) process.kill(process.pid, 'SIGKILL');
  };
}

const COMMANDS: Record<string, Command> = {
  'engine-state:rekey': {
    args: `(with ${NEW_STATE_KEY_ENV}=<32 bytes base64>, every node stopped)`,
    summary: 'seal the engine state (linked devices, credentials) with a new ENGINE_STATE_KEY',
    options: {},
    needs: 'database',
    async run() {
      const config = loadConfig();
      const next = process.env[NEW_STATE_KEY_ENV] ?? '';
      const bytes = Buffer.from(next, 'base64');
      if (bytes.length !== 32 || bytes.toString('base64') !== next.trim()) {
        throw new ConfigError([`${NEW_STATE_KEY_ENV}: 32 bytes in base64 (44 characters, e.g. from \`openssl rand -base64 32\`): the key to seal the state with from now on`]);
      }
      const db = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
      try {
        await applyMigrations(db.adapterFactory);
        const embedded = db.kind === 'pglite';
        const current = await openStateKey({ configured: config.ENGINE_STATE_KEY, embedded, dataDir: config.DATA_DIR, statements: db.statements });
        const values = await rekeyEngineState({ db, current, next: bytes, dataDir: config.DATA_DIR, embedded, replaceFile: !config.ENGINE_STATE_KEY, after: stopAfterForTests() });
        const start = embedded && !config.ENGINE_STATE_KEY ? 'the data folder keeps the new key' : `start every node with ENGINE_STATE_KEY=<the new key>`;
        return `resealed ${values} engine state value(s) with the new key; ${start}`;
      } finally {
        await db.close();
      }
    },
  },
  'qr:decode': {
    args: '',
    summary: 'print the text of the QR image in an API answer read from standard input',
    options: {},
    needs: 'nothing',
    async run() {
      const dataUrl = findPngDataUrl(await readStdin());
      if (!dataUrl) throw new DomainError('invalid_request', 'no data:image/png;base64 URL found on standard input');
      return decodeQr(dataUrl);
    },
  },
  json: {
    args: '<path>  (e.g. data.key, data.0.id, data.-1.id)',
    summary: 'print one field of the JSON read from standard input (what the docs\' samples capture answers with)',
    options: {},
    positionals: 1,
    needs: 'nothing',
    async run({ positionals: [path] }) {
      if (!path) throw new DomainError('invalid_request', 'json needs a path, e.g. `npm run -s cli -- json data.id`');
      return fieldOf(await readStdin(), path);
    },
  },
  migrate: {
    args: '',
    summary: 'apply pending database migrations',
    options: {},
    needs: 'database',
    async run() {
      const db = openDatabase({ databaseUrl: loadConfig().DATABASE_URL, dataDir: loadConfig().DATA_DIR });
      try {
        const applied = await applyMigrations(db.adapterFactory);
        return applied.length ? `applied ${applied.join(', ')}` : 'no pending migrations';
      } finally {
        await db.close();
      }
    },
  },
  migration: {
    args: '<name>',
    summary: 'write a new migration from the schema diff (developers)',
    options: {},
    positionals: 1,
    needs: 'database',
    async run({ positionals: [name] }) {
      if (!name) throw new DomainError('invalid_request', 'migration needs a name, e.g. `npm run cli -- migration add_index`');
      const db = openDatabase({ dataDir: 'memory://' });
      try {
        const folder = await createMigration(db.adapterFactory, name);
        return folder ? `wrote ${folder}` : 'the schema matches the migrations; nothing to write';
      } finally {
        await db.close();
      }
    },
  },
  'tenant:create': {
    args: `--name <name> [--plan starter|pro|enterprise] [--email <owner's email> ${passwordArgs}]`,
    summary: 'create a tenant; with --email, its owner too, who can sign in at once',
    options: { name: { type: 'string' }, plan: { type: 'string' }, email: { type: 'string' }, ...password },
    needs: 'services',
    async run({ values, services }) {
      if (values.email === undefined) {
        if (values.password !== undefined || values['password-stdin']) throw new DomainError('invalid_request', '--email: is required with a password (the owner to create)');
        return services.tenants.createTenant({ name: values.name, plan: values.plan });
      }
      return services.tenants.createTenantWithOwner({ name: values.name, plan: values.plan, email: values.email, password: await passwordOf(values) });
    },
  },
  'tenants:list': {
    args: '',
    summary: 'list tenants with their plan, users and active keys',
    options: {},
    needs: 'services',
    run: ({ services }) => services.tenants.list(),
  },
  'tenant:plan': {
    args: '--tenant <tenantId> --plan <plan>',
    summary: "change a tenant's plan (through the admin API when a gateway runs)",
    options: { ...tenant, plan: { type: 'string' } },
    needs: 'services',
    run: ({ values, services }) => services.tenants.setPlan(String(values.tenant ?? ''), String(values.plan ?? '')),
    api: (values) => ({ method: 'PATCH', path: tenantPath(values), body: { plan: String(values.plan ?? '') } }),
  },
  'tenant:limits': {
    args: `--tenant <tenantId> [${LIMIT_NAMES.map((name) => `--${LIMIT_OPTIONS[name]} <n|plan>`).join(' ')}]`,
    summary: "show a tenant's limits, or set its own (plan: back to the plan's)",
    options: { ...tenant, ...Object.fromEntries(LIMIT_NAMES.map((name) => [LIMIT_OPTIONS[name], { type: 'string' }])) },
    needs: 'services',
    async run({ values, services }) {
      const limits = limitsOf(values);
      if (Object.keys(limits).length === 0) return services.tenants.settings(String(values.tenant ?? ''));
      return services.tenants.change(String(values.tenant ?? ''), { limits });
    },
    api(values) {
      const limits = limitsOf(values);
      return Object.keys(limits).length === 0 ? { method: 'GET', path: tenantPath(values) } : { method: 'PATCH', path: tenantPath(values), body: { limits } };
    },
  },
  'plans:list': {
    args: '',
    summary: 'list the plans (PLANS_FILE over the built-in ones) and PLAN_DEFAULT',
    options: {},
    needs: 'nothing',
    async run() {
      const config = loadConfig();
      return JSON.stringify({ defaultPlan: config.plans.defaultPlan, plans: config.plans.table }, null, 2);
    },
  },
  'user:create': {
    args: `--tenant <tenantId> --email <email> ${passwordArgs}`,
    summary: 'create a user who can log in to the tenant',
    options: { ...tenant, email: { type: 'string' }, ...password },
    needs: 'services',
    async run({ values, services }) {
      const user = await services.tenants.createUser({ tenantId: values.tenant, email: values.email, password: await passwordOf(values) });
      return { id: user.id, tenantId: user.tenantId, email: user.email };
    },
  },
  'users:reset-password': {
    args: `--email <email> ${passwordArgs}`,
    summary: "set a user's password and end all of the user's sessions",
    options: { email: { type: 'string' }, ...password },
    needs: 'services',
    run: async ({ values, services }) => services.auth.resetPassword({ email: values.email, password: await passwordOf(values) }),
  },
  'key:create': {
    args: '--tenant <tenantId> --name <name> [--description <text>] [--test]',
    summary: 'create an API key (shown once)',
    options: { ...tenant, name: { type: 'string' }, description: { type: 'string' }, test: { type: 'boolean' } },
    needs: 'services',
    async run({ values, services }) {
      await services.tenants.get(String(values.tenant ?? ''));
      const key = await services.apiKeys.createForTenant(String(values.tenant), {
        name: values.name,
        description: values.description,
        testMode: values.test === true,
      });
      return { id: key.id, name: key.name, testMode: key.testMode, key: key.key, note: 'shown only once' };
    },
  },
  'keys:list': {
    args: '--tenant <tenantId>',
    summary: "list a tenant's active keys (prefixes only)",
    options: tenant,
    needs: 'services',
    async run({ values, services }) {
      await services.tenants.get(String(values.tenant ?? ''));
      return services.apiKeys.listForTenant(String(values.tenant));
    },
  },
  'keys:revoke': {
    args: '--tenant <tenantId> --key <keyId>',
    summary: 'revoke one of the tenant’s keys; it fails at once on every node',
    options: { ...tenant, key: { type: 'string' } },
    needs: 'services',
    async run({ values, services }) {
      await services.tenants.get(String(values.tenant ?? ''));
      await services.apiKeys.revokeForTenant(String(values.tenant), String(values.key ?? ''));
      return { id: values.key, revoked: true };
    },
  },
};

/** Domain messages name input fields; on the command line the user typed options. */
const OPTION_OF_FIELD: Record<string, string> = {
  tenantId: '--tenant',
  name: '--name',
  plan: '--plan',
  email: '--email',
  password: '--password',
  description: '--description',
  ...Object.fromEntries(LIMIT_NAMES.map((name) => [`limits.${name}`, `--${LIMIT_OPTIONS[name]}`])),
};

function inOptionWords(message: string): string {
  return message.replace(/\b(tenantId|name|plan|email|password|description|limits\.\w+):/g, (_, field: string) => `${OPTION_OF_FIELD[field] ?? field}:`);
}

const usageOf = (name: string, command: Command) => `npm run -s cli -- ${name}${command.args ? ` ${command.args}` : ''}`;

const USAGE = `Usage: npm run -s cli -- <command> [options]     (<command> --help for one command)

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(22)} ${command.summary}`)
  .join('\n')}

The database is the one the gateway uses: DATABASE_URL, or the embedded one in DATA_DIR.`;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The value at a dotted path (`data.0.id`; `-1` is an array's last) of a JSON text: a string as it is, anything else as JSON. */
function fieldOf(text: string, path: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new DomainError('invalid_request', 'standard input is not JSON');
  }
  for (const step of path.split('.')) {
    const index = Array.isArray(value) && /^-?\d+$/.test(step) ? Number(step) : undefined;
    const next = index !== undefined ? (value as unknown[]).at(index) : value !== null && typeof value === 'object' && Object.hasOwn(value, step) ? (value as Record<string, unknown>)[step] : undefined;
    if (next === undefined) throw new DomainError('invalid_request', `no ${path} in the JSON read (${step} is missing)`);
    value = next;
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

async function passwordOf(values: Values): Promise<string | undefined> {
  if (typeof values.password === 'string') return values.password;
  if (values['password-stdin']) return (await readStdin()).replace(/\r?\n$/, '');
  return process.env[PASSWORD_ENV];
}

class UsageError extends Error {}

const printAnswer = (answer: unknown) => void process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);

async function viaAdminApi(url: string, call: AdminCall, token: string | undefined, why = `GATEWAY_URL is ${url}`): Promise<unknown> {
  if (!token) throw new UsageError(`${why}: set ADMIN_TOKEN (the gateway's) for the CLI to use its admin API`);
  return callAdminApi(url, token, call);
}

/** The command and its options, checked before anything is opened. */
function parse(argv: string[]): { name: string; command: Command; values: Values; positionals: string[] } | { help: string } {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h') return { help: USAGE };
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`unknown command "${name}"\n\n${USAGE}`);
  if (rest.includes('--help') || rest.includes('-h')) return { help: `Usage: ${usageOf(name, command)}\n\n${command.summary}` };
  try {
    const { values, positionals } = parseArgs({ args: rest, options: command.options, allowPositionals: true, strict: true });
    if (positionals.length > (command.positionals ?? 0)) throw new Error(`unexpected argument "${positionals[command.positionals ?? 0]}"`);
    return { name, command, values: values as Values, positionals };
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0]!.replace(/\. To specify a positional.*$/, '');
    throw new UsageError(`${reason}\n\nUsage: ${usageOf(name, command)}`);
  }
}

async function run(): Promise<void> {
  const parsed = parse(process.argv.slice(2));
  if ('help' in parsed) {
    process.stdout.write(`${parsed.help}\n`);
    return;
  }
  const { command, values, positionals } = parsed;
  if (command.needs !== 'services') {
    const result = await command.run({ values, positionals, services: undefined as never });
    process.stdout.write(`${String(result)}\n`);
    return;
  }
  const config = loadConfig();
  // A gateway named by GATEWAY_URL is changed through its admin API: every node applies the change at once.
  // Made first either way: it checks the options the API needs (--tenant) before anything is opened.
  const call = command.api?.(values);
  const gatewayUrl = process.env.GATEWAY_URL;
  if (call && gatewayUrl) return printAnswer(await viaAdminApi(gatewayUrl, call, config.ADMIN_TOKEN));
  let infra;
  try {
    infra = await createInfra(config, createLogger('warn'));
  } catch (error) {
    // The embedded database opens in one process only: with the gateway running on it, its admin API is the way in.
    if (!(error instanceof DataFolderInUse && call)) throw error;
    return printAnswer(await viaAdminApi(localGatewayUrl(config), call, config.ADMIN_TOKEN, 'the gateway is running on DATA_DIR'));
  }
  try {
    const services = createServices(infra.ports, policiesOf(config));
    process.stdout.write(`${JSON.stringify(await command.run({ values, positionals, services }), null, 2)}\n`);
  } finally {
    await infra.close();
  }
}

// Exit explicitly: a one-shot command should not wait for timers left behind by what it opened.
run().then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof AdminApiRefused) {
      process.stderr.write(`error: ${inOptionWords(error.message)}\n`);
      process.exit(error.status >= 400 && error.status < 500 ? 2 : 1);
    }
    if (error instanceof UsageError || error instanceof ConfigError || error instanceof DomainError) {
      process.stderr.write(`error: ${inOptionWords(error.message)}\n`);
      process.exit(2);
    }
    if (error instanceof DataFolderInUse) {
      process.stderr.write(`error: ${error.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`error: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
