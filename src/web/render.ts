/**
 * Pages to bytes: preact-render-to-string escapes every string it is given (text and attribute
 * values alike), so catalog text can never become markup; no page is built by concatenating
 * HTML. The only markup added here is the doctype.
 */
import { h, type VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import type { TextBody } from '../read/answer-cache.js';
import { PageFrameContext, type PageFrame } from './layout.js';

export type { PageFrame } from './layout.js';

export const HTML_TYPE = 'text/html; charset=utf-8';

/** The frame of a page nobody is signed in to: an open registry's, or the sign-in page. */
export const OPEN_FRAME: PageFrame = { signOut: false };

/** A page in `frame`: what its header shows beside the navigation (layout.tsx). */
export function renderPage(page: VNode, frame: PageFrame = OPEN_FRAME): TextBody {
  const framed = h(PageFrameContext.Provider, { value: frame }, page);
  return { type: HTML_TYPE, bytes: Buffer.from(`<!doctype html>${renderToString(framed)}`) };
}
