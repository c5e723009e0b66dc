/** What the website's own pages state. */
import type { Probe } from './types.js';

/** The site content probes, each run under its own time limit. */
export const SITE_CONTENT_PROBES: readonly Probe[] = [];
