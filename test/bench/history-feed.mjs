/**
 * A phone's history sync as an engine hands it over: the built gateway (dist/, what `npm start` runs) in
 * this process of its own, and batches of HISTORY_PER_BATCH messages over HISTORY_CHATS_PER_BATCH chats
 * given to its engine events port one after another, as an engine awaits each, after HISTORY_WARMUP
 * untimed ones (docs/benchmarks.md, "Each benchmark in detail"). Prints `timing` when the clock starts, then one JSON line: messages, seconds, batch times, CPU.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = (path) => import(pathToFileURL(resolve('dist', path)).href);
const { loadConfig } = await dist('compose/config.js');
const { createLogger } = await dist('infra/logger.js');
const { openEmbeddedFolder } = await dist('infra/db/embedded-folder.js');
const { startGateway } = await dist('gateway.js');

const instanceId = process.env.HISTORY_INSTANCE_ID;
const batches = Number(process.env.HISTORY_BATCHES ?? 200);
const perBatch = Number(process.env.HISTORY_PER_BATCH ?? 300);
const chatsPerBatch = Number(process.env.HISTORY_CHATS_PER_BATCH ?? 10);
const warmup = Number(process.env.HISTORY_WARMUP ?? 5);

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL);
const embedded = config.DATABASE_URL ? undefined : openEmbeddedFolder(config.DATA_DIR);
const gateway = await startGateway(config, logger, { embedded });

// The batches are made before the clock starts: decoding them is the engine's work, not the store's.
const now = Date.now();
const all = [];
for (let b = 0; b < warmup + batches; b++) {
  const chats = Array.from({ length: chatsPerBatch }, (_, c) => {
    const n = b * chatsPerBatch + c;
    return n % 20 === 0 ? `120363${String(n).padStart(12, '0')}@g.us` : `55118${String(n).padStart(8, '0')}`;
  });
  const messages = Array.from({ length: perBatch }, (_, m) => {
    const chat = chats[m % chatsPerBatch];
    const group = chat.endsWith('@g.us');
    const fromMe = m % 3 === 0;
    const sender = group ? `55117${String(m % 97).padStart(8, '0')}` : chat;
    return {
      chat,
      fromMe,
      at: new Date(now - 30 * 86_400_000 + (b * perBatch + m) * 1000),
      status: fromMe ? 'read' : undefined,
      message: {
        networkMessageId: `HIST${b}x${m}`,
        from: fromMe ? null : sender,
        type: 'text',
        text: `history message ${m} of batch ${b}, long enough to look like a line of chat`,
        location: null,
        group: group ? { id: chat, subject: `Group ${chat}` } : null,
        pushName: fromMe ? null : `Push ${sender}`,
      },
    };
  });
  all.push({
    key: `bench-history-${b}`,
    chats: chats.map((chat) => ({ chat, name: chat.endsWith('@g.us') ? `Group ${chat}` : null, unreadCount: b % 3 })),
    contacts: chats.filter((chat) => !chat.endsWith('@g.us')).map((chat) => ({ phone: chat, pushName: `Push ${chat}`, name: `Saved ${chat}` })),
    messages,
    progress: Math.round((100 * (b + 1)) / (warmup + batches)),
    done: b === warmup + batches - 1,
  });
}

// The first batches compile the code and plans a gateway that has served a while has compiled: not timed.
for (const batch of all.splice(0, warmup)) await gateway.services.engineEvents.history(instanceId, batch);
process.stdout.write('timing\n');
const cpuBefore = process.cpuUsage();
const started = performance.now();
const batchMs = [];
for (const batch of all) {
  const at = performance.now();
  await gateway.services.engineEvents.history(instanceId, batch);
  batchMs.push(performance.now() - at);
}
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
const stored = await gateway.infra.db.statements.run(`SELECT count(*)::int AS n FROM "Message" WHERE "instanceId" = $1::uuid AND history`, [instanceId]);
batchMs.sort((a, b) => a - b);
const at = (q) => batchMs[Math.min(batchMs.length - 1, Math.floor(q * batchMs.length))];
process.stdout.write(
  `${JSON.stringify({ messages: batches * perBatch, stored: stored[0].n, seconds, batchP50: at(0.5), batchP99: at(0.99), batchMax: batchMs.at(-1), cpuSeconds: (cpu.user + cpu.system) / 1e6 })}\n`,
);
await gateway.close({ drainMs: 0, graceMs: 1000 });
process.exit(0);
