/**
 * Migrations as modules (not files found at run time), so the same list runs from `src/`
 * under tsx and from `dist/` after a build.
 */
import type { Knex } from 'knex';
import * as catalog from './001-catalog.js';
import * as monitor from './002-monitor.js';
import * as assessments from './003-assessments.js';
import * as sortIndexes from './004-sort-indexes.js';
import * as sharedState from './005-shared-state.js';
import * as contentGeneration from './006-content-generation.js';
import * as ftsWithoutPrefix from './007-fts-without-prefix.js';
import * as installKeys from './008-install-keys.js';
import * as namesWithoutNamespace from './009-names-without-namespace.js';
import * as ftsVocabulary from './010-fts-vocabulary.js';
import * as registryVersions from './011-registry-versions.js';
import * as searchSnapshots from './012-search-snapshots.js';
import * as sourcesByServer from './013-sources-by-server.js';
import * as registryCatalogMeta from './014-registry-catalog-meta.js';
import * as searchText from './015-search-text.js';
import * as checkCuts from './016-check-cuts.js';
import * as sqliteRateLimits from './017-sqlite-rate-limits.js';
import * as runCommands from './018-run-commands.js';
import * as toolDefinitions from './019-tool-definitions.js';
import * as toolHistoryPeriods from './020-tool-history-periods.js';
import * as assessmentPrevious from './021-assessment-previous.js';
import * as assessmentHistory from './022-assessment-history.js';
import * as watchlists from './023-watchlists.js';
import * as unknownTools from './024-unknown-tools.js';
import * as qualityFlags from './025-quality-flags.js';
import * as serverAliases from './026-server-aliases.js';
import * as accessTokens from './027-access-tokens.js';
import * as dropMatchKeys from './030-drop-match-keys.js';

const migrations: Readonly<Record<string, Knex.Migration>> = {
  '001-catalog': catalog,
  '002-monitor': monitor,
  '003-assessments': assessments,
  '004-sort-indexes': sortIndexes,
  '005-shared-state': sharedState,
  '006-content-generation': contentGeneration,
  '007-fts-without-prefix': ftsWithoutPrefix,
  '008-install-keys': installKeys,
  '009-names-without-namespace': namesWithoutNamespace,
  '010-fts-vocabulary': ftsVocabulary,
  '011-registry-versions': registryVersions,
  '012-search-snapshots': searchSnapshots,
  '013-sources-by-server': sourcesByServer,
  '014-registry-catalog-meta': registryCatalogMeta,
  '015-search-text': searchText,
  '016-check-cuts': checkCuts,
  '017-sqlite-rate-limits': sqliteRateLimits,
  '018-run-commands': runCommands,
  '019-tool-definitions': toolDefinitions,
  '020-tool-history-periods': toolHistoryPeriods,
  '021-assessment-previous': assessmentPrevious,
  '022-assessment-history': assessmentHistory,
  '023-watchlists': watchlists,
  '024-unknown-tools': unknownTools,
  '025-quality-flags': qualityFlags,
  '026-server-aliases': serverAliases,
  '027-access-tokens': accessTokens,
  '030-drop-match-keys': dropMatchKeys,
};

/** The last migration: what the catalog's schema is at, once migrated. */
export const SCHEMA = Object.keys(migrations).sort().at(-1) as string;

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const migration = migrations[name];
    if (!migration) throw new Error(`unknown migration ${name}`);
    return migration;
  },
};
