/** Made-up catalogs of any size, for tests that need a run or a file large enough to take a while. */

/**
 * An official-registry list document of `count` servers, each with its own name and repository
 * and a description of about 1.6 KB.
 */
export function officialDocument(prefix: string, count: number): string {
  const padding = 'Forecasts, tides and almanac data for any harbour, with history. '.repeat(24);
  const servers = Array.from({ length: count }, (_, i) => ({
    server: {
      name: `io.github.${prefix}/server-${i}`,
      description: `${prefix} server ${i}. ${padding}`,
      version: '1.0.0',
      repository: { url: `https://github.com/${prefix}/server-${i}`, source: 'github' },
    },
  }));
  return JSON.stringify({ servers, metadata: { count } });
}
