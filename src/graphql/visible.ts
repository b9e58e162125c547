import { DomainError, NotFound } from '../domain/errors.js';

/**
 * A lookup by id as GraphQL shows it: another tenant's entity is as absent as one that does not
 * exist (REST says 403; a query answers null with not_found and leaks nothing about other tenants).
 */
export async function visible<T>(lookup: Promise<T>, what: string): Promise<T> {
  try {
    return await lookup;
  } catch (error) {
    throw error instanceof DomainError && error.code === 'forbidden' ? new NotFound(what) : error;
  }
}
