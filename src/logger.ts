/** The service's logger (pino): JSON lines on stdout. */
import { pino, type Logger } from 'pino';
import type { LogLevel } from './config.js';

export type { Logger };

export function createLogger(level: LogLevel): Logger {
  return pino({ level, base: { service: 'sextant' } });
}
