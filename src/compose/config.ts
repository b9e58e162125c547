import { type Config, parseConfig } from '../config.js';
import { type Catalogue, catalogue as builtIn } from '../engines/catalogue.js';

/** Reads the environment once: the gateway's own variables and every catalogued engine's part. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, catalogue: Catalogue = builtIn): Config {
  return parseConfig(env, catalogue.descriptors());
}
