/** Mail policy observations beyond the DNS basics. */
import type { Probe } from './types.js';

/** The mail policy probes, each run under its own time limit. */
export const MAIL_PROBES: readonly Probe[] = [];
