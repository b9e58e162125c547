import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, policiesOf } from './config.js';
import { DomainError } from './domain/errors.js';
import { createServices } from './domain/services.js';
import { openDatabase } from './infra/db/database.js';
import { applyMigrations, createMigration } from './infra/db/migrate.js';
import { createInfra } from './infra/infra.js';
import { createLogger } from './infra/logger.js';
import { decodeQr, findPngDataUrl } from './infra/qr-decode.js';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  qr:decode                                 print the text of the QR image in an API answer read from stdin
  migrate                                   apply pending database migrations
  migration <name>                          write a new migration from the schema diff (developers)
  tenant:create --name <name> [--plan starter|pro|enterprise]
  user:create --tenant <tenantId> --email <email> --password <password>
  tenant:plan --tenant <tenantId> --plan starter|pro|enterprise
  key:create --tenant <tenantId> --name <name> [--description <text>] [--test]

The database is the one the gateway uses: DATABASE_URL, or the embedded one in DATA_DIR.`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: 'string' },
    plan: { type: 'string' },
    tenant: { type: 'string' },
    email: { type: 'string' },
    password: { type: 'string' },
    description: { type: 'string' },
    test: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

async function run(): Promise<void> {
  const [command, argument] = positionals;
  if (!command || values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (command === 'qr:decode') {
    // Reads an API answer (or a bare data URL) on stdin and prints the text of its QR image.
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    const dataUrl = findPngDataUrl(Buffer.concat(chunks).toString('utf8'));
    if (!dataUrl) throw new DomainError('invalid_request', 'no data:image/png;base64 URL found on standard input');
    process.stdout.write(`${decodeQr(dataUrl)}\n`);
    return;
  }
  const config = loadConfig();

  if (command === 'migration') {
    if (!argument) throw new DomainError('invalid_request', 'migration needs a name, e.g. `npm run cli -- migration add_index`');
    const db = openDatabase({ dataDir: 'memory://' });
    try {
      const folder = await createMigration(db.adapterFactory, argument);
      process.stdout.write(folder ? `wrote ${folder}\n` : 'the schema matches the migrations; nothing to write\n');
    } finally {
      await db.close();
    }
    return;
  }
  if (command === 'migrate') {
    const db = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
    try {
      const applied = await applyMigrations(db.adapterFactory);
      process.stdout.write(applied.length ? `applied ${applied.join(', ')}\n` : 'no pending migrations\n');
    } finally {
      await db.close();
    }
    return;
  }

  const infra = await createInfra(config, createLogger('warn'));
  const services = createServices(infra.ports, policiesOf(config));
  try {
    const commands: Record<string, () => Promise<unknown>> = {
      'tenant:create': () => services.tenants.createTenant({ name: values.name, plan: values.plan }),
      'user:create': async () => {
        const user = await services.tenants.createUser({ tenantId: values.tenant, email: values.email, password: values.password });
        return { id: user.id, tenantId: user.tenantId, email: user.email };
      },
      'tenant:plan': () => services.tenants.setPlan(values.tenant ?? '', values.plan ?? ''),
      'key:create': async () => {
        await services.tenants.get(values.tenant ?? '');
        const key = await services.apiKeys.createForTenant(values.tenant ?? '', {
          name: values.name,
          description: values.description,
          testMode: values.test,
        });
        return { id: key.id, name: key.name, testMode: key.testMode, key: key.key, note: 'shown only once' };
      },
    };
    const handler = commands[command];
    if (!handler) throw new DomainError('invalid_request', `unknown command "${command}"\n\n${USAGE}`);
    print(await handler());
  } finally {
    await infra.close();
  }
}

// Exit explicitly: the WASM schema engine leaves a ~10 s timer behind after migrating, and a
// one-shot command should not wait for it.
run().then(() => process.exit(0), (error: unknown) => {
  if (error instanceof ConfigError || error instanceof DomainError) {
    process.stderr.write(`error: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`error: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
