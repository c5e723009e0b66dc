/** Test certificates (selfsigned, EC P-256): a test CA and leaves signed by it, expired or not, plus a self-signed one. */
import { generate } from 'selfsigned';

export interface KeyAndCert {
  readonly key: string;
  readonly cert: string;
}

const DAY_MS = 86_400_000;

export async function createTestCa(): Promise<KeyAndCert> {
  const pems = await generate(
    [
      { name: 'commonName', value: 'Sextant Test CA' },
      { name: 'organizationName', value: 'Sextant Fixtures' },
    ],
    {
      keyType: 'ec',
      algorithm: 'sha256',
      notBeforeDate: new Date(Date.now() - DAY_MS),
      notAfterDate: new Date(Date.now() + 365 * DAY_MS),
      extensions: [
        { name: 'basicConstraints', cA: true, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
      ],
    },
  );
  return { key: pems.private, cert: pems.cert };
}

export interface LeafOptions {
  /** Subject CN and SAN DNS names; the first is the CN. */
  readonly names: readonly string[];
  /** Signing CA; absent means self-signed. */
  readonly ca?: KeyAndCert;
  /** Validity relative to now, in days. */
  readonly fromDays?: number;
  readonly toDays?: number;
}

export async function createLeaf(options: LeafOptions): Promise<KeyAndCert> {
  const [commonName = 'leaf.test'] = options.names;
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() + (options.fromDays ?? -1) * DAY_MS),
    notAfterDate: new Date(Date.now() + (options.toDays ?? 90.5) * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: options.names.map((value) => ({ type: 2 as const, value })) },
    ],
    ...(options.ca === undefined ? {} : { ca: { key: options.ca.key, cert: options.ca.cert } }),
  });
  return { key: pems.private, cert: pems.cert };
}
