/**
 * The catalog: servers with their remotes, packages and tools, the category taxonomy,
 * per-source provenance, merge keys, and the FTS5 indexes search reads.
 * Timestamps are ISO-8601 UTC strings, JSON columns are text: both portable to PostgreSQL.
 * The search indexes are the one dialect branch: FTS5 tables on SQLite; on PostgreSQL, tables
 * of the same name and columns whose weighted tsvector is a generated column under a GIN index.
 */
import type { Knex } from 'knex';
import { dialectOf } from '../dialect.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('servers', (t) => {
    t.increments('seq').primary();
    t.string('id', 300).notNullable().unique();
    t.string('name', 300).notNullable().unique();
    t.string('title', 300);
    t.text('description').notNullable();
    t.string('domain', 253);
    t.string('version', 100);
    t.text('versions').notNullable();
    t.text('categories').notNullable();
    t.text('transports').notNullable();
    t.integer('endpoint_count').notNullable();
    t.integer('tool_count').notNullable();
    t.string('authentication', 16).notNullable();
    t.text('repository_url');
    t.text('website_url');
    t.string('license', 200);
    t.string('published_at', 40);
    t.string('updated_at', 40);
    t.string('sort_name', 300).notNullable();
    t.text('match_names').notNullable();
    t.integer('source_count').notNullable();
    t.string('content_hash', 64).notNullable();
    t.string('created_at', 40).notNullable();
    t.string('modified_at', 40).notNullable();
    t.index(['sort_name', 'id'], 'servers_sort_name');
    t.index(['published_at', 'id'], 'servers_published');
    t.index(['tool_count', 'id'], 'servers_tools');
    t.index(['endpoint_count', 'id'], 'servers_endpoints');
    t.index(['domain'], 'servers_domain');
  });
  await knex.schema.createTable('remotes', (t) => {
    t.string('server_id', 300).notNullable().references('id').inTable('servers').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.string('transport', 32).notNullable();
    t.text('url').notNullable();
    t.string('host', 253).notNullable();
    t.text('headers').notNullable();
    t.primary(['server_id', 'position']);
    t.index(['host'], 'remotes_host');
  });
  await knex.schema.createTable('packages', (t) => {
    t.string('server_id', 300).notNullable().references('id').inTable('servers').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.string('registry_type', 16).notNullable();
    t.string('identifier', 500).notNullable();
    t.string('version', 100);
    t.string('runtime_hint', 50);
    t.string('transport', 32).notNullable();
    t.text('environment_variables').notNullable();
    t.text('arguments').notNullable();
    t.primary(['server_id', 'position']);
  });
  await knex.schema.createTable('tools', (t) => {
    t.increments('seq').primary();
    t.string('id', 400).notNullable().unique();
    t.string('server_id', 300).notNullable().references('id').inTable('servers').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.string('name', 200).notNullable();
    t.string('title', 300);
    t.text('description').notNullable();
    t.text('input_schema').notNullable();
    t.text('annotations').notNullable();
    t.string('authentication', 16).notNullable();
    t.string('sort_name', 200).notNullable();
    t.index(['server_id', 'position'], 'tools_server');
    t.index(['sort_name', 'id'], 'tools_sort_name');
    t.index(['authentication', 'sort_name', 'id'], 'tools_auth_sort_name');
  });
  await knex.schema.createTable('categories', (t) => {
    t.string('slug', 64).primary();
    t.string('name', 100).notNullable();
    t.integer('position').notNullable();
  });
  await knex.schema.createTable('server_categories', (t) => {
    t.string('slug', 64).notNullable().references('slug').inTable('categories');
    t.string('server_id', 300).notNullable().references('id').inTable('servers').onDelete('CASCADE');
    t.primary(['slug', 'server_id']);
    t.index(['server_id'], 'server_categories_server');
  });
  await knex.schema.createTable('sources', (t) => {
    t.string('source', 16).notNullable();
    t.string('source_key', 500).notNullable();
    t.string('server_id', 300).notNullable().references('id').inTable('servers').onDelete('CASCADE');
    t.text('record').notNullable();
    t.text('normalized').notNullable();
    t.string('record_hash', 64).notNullable();
    t.string('ingested_at', 40).notNullable();
    t.primary(['source', 'source_key']);
    t.index(['server_id'], 'sources_server');
  });
  await knex.schema.createTable('match_keys', (t) => {
    t.string('match_key', 600).primary();
    t.string('server_id', 300).notNullable().references('id').inTable('servers').onDelete('CASCADE');
    t.index(['server_id'], 'match_keys_server');
  });
  if (dialectOf(knex) === 'postgres') await createPostgresSearch(knex);
  else await createSqliteSearch(knex);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['tools_fts', 'servers_fts', 'match_keys', 'sources', 'server_categories', 'categories', 'tools', 'packages', 'remotes', 'servers']) {
    await knex.schema.dropTableIfExists(table);
  }
}

/** FTS5 over the same text columns the PostgreSQL tables hold; `rowid` is the row's `seq`. */
async function createSqliteSearch(knex: Knex): Promise<void> {
  await knex.raw(
    `CREATE VIRTUAL TABLE servers_fts USING fts5(name, title, description, categories, tools, tokenize = "unicode61 remove_diacritics 2", prefix = '2 3')`,
  );
  await knex.raw(
    `CREATE VIRTUAL TABLE tools_fts USING fts5(name, title, description, server, tokenize = "unicode61 remove_diacritics 2", prefix = '2 3')`,
  );
}

/**
 * Words are split at anything that is not a letter or digit, as FTS5's unicode61 tokenizer
 * does (PostgreSQL's parser would keep `io.github.x` as one host token), and the `simple`
 * configuration keeps them unstemmed, so both databases match the same words.
 */
const words = (column: string): string => `to_tsvector('simple', regexp_replace(coalesce(${column}, ''), '[^[:alnum:]]+', ' ', 'g'))`;

async function createPostgresSearch(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  // Weights: A name, B title, C description, D the rest (categories and tools; a tool's server).
  await knex.raw(`CREATE TABLE servers_fts (
    rowid integer PRIMARY KEY, name text NOT NULL, title text NOT NULL, description text NOT NULL, categories text NOT NULL, tools text NOT NULL,
    document tsvector GENERATED ALWAYS AS (
      setweight(${words('name')}, 'A') || setweight(${words('title')}, 'B') || setweight(${words('description')}, 'C')
      || setweight(${words("categories || ' ' || tools")}, 'D')
    ) STORED)`);
  await knex.raw(`CREATE TABLE tools_fts (
    rowid integer PRIMARY KEY, name text NOT NULL, title text NOT NULL, description text NOT NULL, server text NOT NULL,
    document tsvector GENERATED ALWAYS AS (
      setweight(${words('name')}, 'A') || setweight(${words('title')}, 'B') || setweight(${words('description')}, 'C') || setweight(${words('server')}, 'D')
    ) STORED)`);
  await knex.raw('CREATE INDEX servers_fts_document ON servers_fts USING gin (document)');
  await knex.raw('CREATE INDEX tools_fts_document ON tools_fts USING gin (document)');
  // Near-miss name matches (a typo in a server's name) by trigram similarity.
  await knex.raw('CREATE INDEX servers_sort_name_trgm ON servers USING gin (sort_name gin_trgm_ops)');
  // Orders and ties compare bytes, as SQLite does, whatever the database's collation.
  for (const [table, column, type] of [['servers', 'id', 'varchar(300)'], ['servers', 'sort_name', 'varchar(300)'], ['tools', 'id', 'varchar(400)'], ['tools', 'sort_name', 'varchar(200)']] as const) {
    await knex.raw(`ALTER TABLE ${table} ALTER COLUMN ${column} TYPE ${type} COLLATE "C"`);
  }
}
