/**
 * Typed handler signatures derived from the generated contract: a handler gets its operation's
 * validated query and path parameters and must return one of its declared JSON responses.
 */
import type { operations } from '../../generated/openapi.js';
import type { PathOf, QueryOf } from '../contract.js';
import type { Answer } from '../read/answer.js';
import type { TextBody } from '../read/answer-cache.js';
import type { OperationId } from '../types.js';

type Responses<O extends OperationId> = operations[O]['responses'];
/** Statuses a handler answers itself: JSON bodies and empty ones; problems come from thrown AppErrors. */
type OwnStatus<O extends OperationId> = {
  [S in keyof Responses<O>]: S extends number
    ? Responses<O>[S] extends { content: { 'application/json': unknown } } ? S : Responses<O>[S] extends { content?: never } ? S : Responses<O>[S] extends { content: Record<string, string> } ? S : never
    : never;
}[keyof Responses<O>];
type Body<O extends OperationId, S extends keyof Responses<O>> = Responses<O>[S] extends { content: { 'application/json': infer B } }
  ? { readonly body: B | Answer<B>; readonly text?: undefined }
  : Responses<O>[S] extends { content: Record<string, string> }
    ? { readonly body?: undefined; readonly text: TextBody }
    : { readonly body?: undefined; readonly text?: undefined };

/**
 * One of the operation's responses: a JSON `body` (a value, or an answer of the read model,
 * which the encoder writes as it is), its `text` for a response declared in another media type
 * (the web pages), or nothing.
 */
export type Reply<O extends OperationId> = {
  [S in OwnStatus<O>]: { readonly status: S; readonly headers?: Readonly<Record<string, string>> } & Body<O, S>;
}[OwnStatus<O>];

/** Operations whose input is not validated against the contract (they answer in their own protocol). */
export type UnvalidatedOperation = 'postMcp';

/** The validated JSON body; raw for unvalidated operations. */
export type BodyOf<O extends OperationId> = O extends UnvalidatedOperation
  ? unknown
  : operations[O] extends { requestBody: { content: { 'application/json': infer B } } } ? B
  : operations[O] extends { requestBody: { content: { 'application/x-www-form-urlencoded': infer F } } } ? F : undefined;

export interface HandlerInput<O extends OperationId> {
  readonly query: QueryOf<O>;
  readonly path: PathOf<O>;
  /** The request body: validated JSON (or form fields), or the raw text for /mcp. */
  readonly body: BodyOf<O>;
  /** Request headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** Who the caller counts as in limits: its address (per TRUST_PROXY_HOPS), an IPv6 one by its prefix (client-address.ts). */
  readonly client: string;
  /** Aborts when the request's connection closes: work not started for it need not start. */
  readonly signal: AbortSignal;
}

export type OperationHandler<O extends OperationId> = (input: HandlerInput<O>) => Promise<Reply<O>>;

/** Exactly one handler per operation in the contract: a missing or extra one fails the build. */
export type HandlerMap = { readonly [O in OperationId]: OperationHandler<O> };
