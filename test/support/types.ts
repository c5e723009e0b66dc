/** Contract types the tests name. */
import type { components } from '../../generated/openapi.js';

export type ServerItem = components['schemas']['ServerItem'];
export type Server = components['schemas']['Server'];
export type Tool = components['schemas']['Tool'];
