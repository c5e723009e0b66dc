/** `src/net`: the guarded outbound HTTP client, the only module that opens connections. */
export { NetError, type NetErrorCode } from './errors.js';
export { createAddressPolicy, nonRoutableRange, parseCidrList, type AddressPolicy, type Cidr } from './address-policy.js';
export { createNetClient, type NetClient, type NetClientOptions, type NetRequest, type NetResponse } from './client.js';
export { inspectTls, type TlsFacts, type TlsInspectOptions } from './tls-inspect.js';
