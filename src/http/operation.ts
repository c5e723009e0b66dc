/**
 * Typed handler signatures derived from the generated contract: a handler gets its operation's
 * validated query and path parameters and must return one of its declared JSON responses.
 */
import type { operations } from '../../generated/openapi.js';
import type { OperationId } from '../types.js';

type Parameters<O extends OperationId> = operations[O]['parameters'];
export type QueryOf<O extends OperationId> = Parameters<O> extends { query?: infer Q } ? NonNullable<Q> : Record<string, never>;
export type PathOf<O extends OperationId> = Parameters<O> extends { path: infer P } ? NonNullable<P> : Record<string, never>;

type Responses<O extends OperationId> = operations[O]['responses'];
type JsonStatus<O extends OperationId> = {
  [S in keyof Responses<O>]: S extends number ? (Responses<O>[S] extends { content: { 'application/json': unknown } } ? S : never) : never;
}[keyof Responses<O>];
type JsonBody<O extends OperationId, S extends keyof Responses<O>> = Responses<O>[S] extends { content: { 'application/json': infer B } } ? B : never;

/** One of the operation's JSON responses. */
export type Reply<O extends OperationId> = {
  [S in JsonStatus<O>]: { readonly status: S; readonly body: JsonBody<O, S>; readonly headers?: Readonly<Record<string, string>> };
}[JsonStatus<O>];

export interface HandlerInput<O extends OperationId> {
  readonly query: QueryOf<O>;
  readonly path: PathOf<O>;
}

export type OperationHandler<O extends OperationId> = (input: HandlerInput<O>) => Promise<Reply<O>>;

/** Exactly one handler per operation in the contract: a missing or extra one fails the build. */
export type HandlerMap = { readonly [O in OperationId]: OperationHandler<O> };
