import { NetworkError } from '../../domain/errors.js';

/**
 * Runs one request to the network: what the library throws becomes a NetworkError (the tenant's
 * answer, naming what the network did not do), its cause kept for the log.
 */
export async function onTheNetwork<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof NetworkError) throw error;
    throw new NetworkError(`The network did not ${what}: ${(error as Error).message}`, { cause: error });
  }
}
