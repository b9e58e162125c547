import type { Config } from '../../config.js';
import type { Logger } from '../logger.js';
import { createAmqpBroker } from './amqp-broker.js';
import type { Broker, BrokerName } from './broker.js';
import { createNatsBroker } from './nats-broker.js';

/** What the broker variables say (a plain object, so a publisher thread can be given it). */
export type BrokerSettings = Pick<Config, 'EVENTS_AMQP_URL' | 'EVENTS_AMQP_EXCHANGE' | 'EVENTS_NATS_URL' | 'EVENTS_NATS_STREAM' | 'EVENTS_NATS_SUBJECT_PREFIX'>;

export function brokerSettings(config: Config): BrokerSettings {
  const { EVENTS_AMQP_URL, EVENTS_AMQP_EXCHANGE, EVENTS_NATS_URL, EVENTS_NATS_STREAM, EVENTS_NATS_SUBJECT_PREFIX } = config;
  return { EVENTS_AMQP_URL, EVENTS_AMQP_EXCHANGE, EVENTS_NATS_URL, EVENTS_NATS_STREAM, EVENTS_NATS_SUBJECT_PREFIX };
}

/** The brokers EVENTS_AMQP_URL and EVENTS_NATS_URL configure, in that order. */
export function configuredBrokers(settings: BrokerSettings): BrokerName[] {
  const names: BrokerName[] = [];
  if (settings.EVENTS_AMQP_URL) names.push('amqp');
  if (settings.EVENTS_NATS_URL) names.push('nats');
  return names;
}

/** A client for each configured broker, in the order of `configuredBrokers`. */
export function createBrokers(settings: BrokerSettings, logger: Logger): Broker[] {
  return configuredBrokers(settings).map((name) =>
    name === 'amqp'
      ? createAmqpBroker({ url: settings.EVENTS_AMQP_URL!, exchange: settings.EVENTS_AMQP_EXCHANGE, logger })
      : createNatsBroker({ url: settings.EVENTS_NATS_URL!, stream: settings.EVENTS_NATS_STREAM, subjectPrefix: settings.EVENTS_NATS_SUBJECT_PREFIX, logger }),
  );
}
