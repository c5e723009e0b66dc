/**
 * Request bodies, read by @koa/bodyparser under one size limit: JSON everywhere; the raw text of
 * a POST to /mcp whatever its type (JSON-RPC answers a parse error itself); and the assessment
 * forms' fields. A body that cannot be read is a problem like any other (400, 413 or 415).
 */
import { bodyParser } from '@koa/bodyparser';
import type Koa from 'koa';
import { AppError } from '../errors.js';

/** Bytes of a request body at most. A number: the parser would read a string such as '256kb' again on every request. */
const BODY_LIMIT = 256 * 1024;
/** Where the body stays raw text. */
const RAW_BODY = /^\/mcp\/?$/;
/** Where the body may be an HTML form (the assessment forms', the watchlist token form's and signing in and out). */
const FORM_BODY = /^\/(assess(\/batch)?|watchlists|login|logout)\/?$/;

export function requestBodies(): Koa.Middleware {
  const onError = (err: Error): never => {
    throw bodyError(err);
  };
  const limits = { jsonLimit: BODY_LIMIT, formLimit: BODY_LIMIT, textLimit: BODY_LIMIT, onError };
  const raw = bodyParser({ ...limits, enableTypes: ['text'], extendTypes: { text: ['*/*'] }, parsedMethods: ['POST'] });
  const form = bodyParser({ ...limits, enableTypes: ['json', 'form'], parsedMethods: ['POST'] });
  const json = bodyParser({ ...limits, enableTypes: ['json'], parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'] });
  return (ctx, next) => {
    if (ctx.method === 'GET' || ctx.method === 'HEAD') return next();
    if (RAW_BODY.test(ctx.path)) return raw(ctx, next);
    if (FORM_BODY.test(ctx.path)) return form(ctx, next);
    return json(ctx, next);
  };
}

/** A body parser's error (http-errors) as an AppError. */
function bodyError(err: Error): AppError {
  const status = 'status' in err ? Number(err.status) : 400;
  if (status === 413) return new AppError('payload_too_large', `The request body is larger than ${BODY_LIMIT / 1024} KiB.`);
  if (status === 415) return new AppError('unsupported_media_type', 'The request body must be UTF-8 JSON.');
  return new AppError('malformed_json', 'The request body is not valid JSON.');
}
