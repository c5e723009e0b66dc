/**
 * Pages to bytes: preact-render-to-string escapes every string it is given (text and attribute
 * values alike), so catalog text can never become markup; no page is built by concatenating
 * HTML. The only markup added here is the doctype.
 */
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import type { TextBody } from '../read/answer-cache.js';

export const HTML_TYPE = 'text/html; charset=utf-8';

export function renderPage(page: VNode): TextBody {
  return { type: HTML_TYPE, bytes: Buffer.from(`<!doctype html>${renderToString(page)}`) };
}
