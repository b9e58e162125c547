import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { shapeOf } from '../../../src/domain/network/credentials.js';
import { instanceInputs } from '../../../src/domain/instances/instances.input.js';
import { buildEngines } from '../../../src/compose/engines.js';
import { createCatalogue } from '../../../src/engines/catalogue.js';
import type { EngineDescriptor } from '../../../src/engines/descriptor.js';
import { keyedEngine } from '../../engines/keyed/descriptor.js';
import { loopbackEngine } from '../../engines/loopback/descriptor.js';

/** A copy of a test engine under another name, with its lines changed. */
const variant = (base: EngineDescriptor, changes: Partial<EngineDescriptor>): EngineDescriptor => ({ ...base, name: `${base.name}-2`, integration: `${base.integration}-2`, ...changes });

describe('the catalogue and credentials fields', () => {
  it('takes credentials exactly with the credentials login flow, and each field once', () => {
    const catalogue = createCatalogue([]);
    catalogue.register(keyedEngine);
    expect(() => catalogue.register(variant(keyedEngine, { credentials: undefined }))).toThrow(/credentials \(the field and its schemas\) go with the 'credentials' login flow/);
    expect(() => catalogue.register(variant(loopbackEngine, { credentials: keyedEngine.credentials }))).toThrow(/go with the 'credentials' login flow/);
    expect(() => catalogue.register(variant(keyedEngine, {}))).toThrow(/the credentials field keyed is keyed's already/);
    catalogue.register(variant(keyedEngine, { credentials: { ...keyedEngine.credentials!, field: 'keyed2' } }));
    expect(catalogue.descriptors().map((line) => line.credentials?.field)).toEqual(['keyed', 'keyed2']);
  });

  it('builds the instance bodies with each field, and refuses a field named as a body field', () => {
    const inputs = instanceInputs([{ integration: 'CHAT-SANDBOX' }, keyedEngine]);
    expect(inputs.createV1.safeParse({ name: 'line', keyed: { account: '12345', token: 'long enough' } }).success).toBe(true);
    const bad = inputs.createSession.safeParse({ name: 'line', keyed: { account: 'x', token: 'long enough' } });
    expect(bad.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['keyed.account']);
    expect(inputs.updateV1.safeParse({ keyed: { token: 'long enough' } }).success).toBe(true);
    const clashing = { ...keyedEngine, credentials: { ...keyedEngine.credentials!, field: 'webhookUrl' } };
    expect(() => instanceInputs([clashing])).toThrow(/two fields of an instance body would be named webhookUrl/);
  });

  it('says how a value looks from its schema, optional keys marked', () => {
    expect(shapeOf(z.object({ id: z.string(), token: z.string(), account: z.string().nullish() }))).toBe('{id, token, account?}');
    expect(shapeOf(z.string())).toBe('an object');
  });
});

describe("an engine's routes", () => {
  // Only what building a runtime without routes to the database or metrics reads.
  const build = (descriptor: EngineDescriptor) =>
    buildEngines(createCatalogue([descriptor]), { config: { ENGINES: [descriptor.name] }, db: { kind: 'pglite' } } as unknown as Parameters<typeof buildEngines>[1]);

  it('are one for each operation its descriptor declares, and no other', async () => {
    const offered = await build(loopbackEngine);
    expect(offered.routes.map((route) => route.operation)).toEqual(loopbackEngine.http!.operations);
    expect(offered.offered).toEqual(['CHAT-LOOPBACK']);
    offered.stop();
    const undeclared = variant(loopbackEngine, { http: { ...loopbackEngine.http!, operations: loopbackEngine.http!.operations.slice(1) } });
    await expect(build(undeclared)).rejects.toThrow(/must serve one route for each operation its descriptor's http declares/);
    const unserved = variant(loopbackEngine, { http: { ...loopbackEngine.http!, operations: [...loopbackEngine.http!.operations, { ...loopbackEngine.http!.operations[0]!, path: '/loopback/other' }] } });
    await expect(build(unserved)).rejects.toThrow(/must serve one route for each operation/);
  });
});
