/**
 * The mail providers the `mail_provider` observation recognises, by the host names their MX
 * records point to as each provider documents them for its customers. A host matches a suffix
 * when it equals it or ends in '.' + suffix. The first provider that matches names the host, so a
 * more specific suffix comes before a general one. A host matching none is reported as
 * unrecognised: the list names providers, it does not rank them.
 */
export const MAIL_PROVIDERS: ReadonlyArray<{ readonly name: string; readonly hosts: readonly string[] }> = [
  // aspmx.l.google.com, alt1.aspmx.l.google.com, smtp.google.com, aspmx2.googlemail.com
  { name: 'Google Workspace', hosts: ['google.com', 'googlemail.com'] },
  // <tenant>.mail.protection.outlook.com, and the newer <tenant>.<region>.mx.microsoft
  { name: 'Microsoft 365', hosts: ['mail.protection.outlook.com', 'mx.microsoft'] },
  { name: 'Zoho Mail', hosts: ['zoho.com', 'zoho.eu', 'zoho.in', 'zoho.com.au', 'zoho.jp', 'zohocloud.ca'] },
  // mail.protonmail.ch, mailsec.protonmail.ch
  { name: 'Proton Mail', hosts: ['protonmail.ch'] },
  // in1-smtp.messagingengine.com
  { name: 'Fastmail', hosts: ['messagingengine.com'] },
  // mx01.mail.icloud.com
  { name: 'iCloud Mail', hosts: ['mail.icloud.com'] },
  // mx-biz.mail.am0.yahoodns.net
  { name: 'Yahoo', hosts: ['yahoodns.net'] },
  // mailstore1.secureserver.net
  { name: 'GoDaddy', hosts: ['secureserver.net'] },
  // mx00.ionos.de, mx01.kundenserver.de (1&1), mx.perfora.net
  { name: 'IONOS', hosts: ['ionos.com', 'ionos.de', 'ionos.co.uk', 'ionos.es', 'ionos.fr', 'kundenserver.de', 'perfora.net'] },
  // mx1.mail.ovh.net
  { name: 'OVHcloud', hosts: ['mail.ovh.net', 'mail.ovh.ca'] },
  // eu-smtp-inbound-1.mimecast.com
  { name: 'Mimecast', hosts: ['mimecast.com', 'mimecast.co.za', 'mimecast-offshore.com'] },
  // mx0a-001.pphosted.com; Proofpoint Essentials: mx1-us1.ppe-hosted.com
  { name: 'Proofpoint', hosts: ['pphosted.com', 'ppe-hosted.com'] },
  // d123456a.ess.barracudanetworks.com
  { name: 'Barracuda', hosts: ['barracudanetworks.com'] },
  // esa1.example.iphmx.com
  { name: 'Cisco Secure Email (IronPort)', hosts: ['iphmx.com'] },
  // mx01.hornetsecurity.com
  { name: 'Hornetsecurity', hosts: ['hornetsecurity.com'] },
  // mx.yandex.net
  { name: 'Yandex 360', hosts: ['yandex.net', 'yandex.ru'] },
];
