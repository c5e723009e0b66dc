/** Assessment probes: DNS, TLS, website and RDAP observations of a business domain. */
export { OBSERVATION_NAMES, runProbes } from './run-probes.js';
export { rdapFromBootstrap } from './rdap-bootstrap.js';
export type { DnsLookup, Observation, ProbeContext } from './types.js';
