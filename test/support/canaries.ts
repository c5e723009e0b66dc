/** Secret values planted in the ingest fixtures; no response and no stored byte may contain one. */
export const CANARIES = [
  'sk-canaryCANARYcanary1234567890',
  'ghp_CANARYcanaryCANARYcanary123456',
  'AKIACANARY12345678',
  'xoxb-canary-1234567890abc',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjYW5hcnkifQ.c2lnbmF0dXJlY2FuYXJ5',
  'hunter2-canary-password',
  'canary-userinfo-secret',
  'canary-query-token-value',
] as const;
