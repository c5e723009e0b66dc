/**
 * Errors in the caller's terms: a service names its input fields (`category`); here each gets
 * its place in the request (`query.category`), and a not-found the REST route that finds things.
 */
import type { Operation } from 'openapi-backend';
import { AppError, type Lookup } from '../errors.js';

/** How a REST caller finds what it looked up and did not find. */
const FIND: Readonly<Record<Lookup, string>> = {
  server: 'Search with GET /api/v1/servers/search?q=…',
  tool: 'Search with GET /api/v1/tools/search?q=…',
};

export function inRequestTerms(error: AppError, operation: Operation): AppError {
  const parameters = operation.parameters ?? [];
  const placeOf = (field: string): string => {
    const name = field.split('.')[0];
    const parameter = parameters.find((p) => 'name' in p && p.name === name);
    if (parameter && 'in' in parameter) return `${parameter.in}.${field}`;
    return operation.requestBody ? `body.${field}` : field;
  };
  const errors = error.errors.map((e) => ({ ...e, location: placeOf(e.location) }));
  const detail = error.code === 'not_found' && error.lookup ? `${error.detail} ${FIND[error.lookup]}` : error.detail;
  if (detail === error.detail && errors.every((e, i) => e.location === error.errors[i]?.location)) return error;
  return new AppError(error.code, detail, errors, error.headers, error.lookup);
}
