/** The `categories` table kept equal to the taxonomy in code (src/catalog/taxonomy.ts). */
import { TAXONOMY } from '../catalog/taxonomy.js';
import type { Db } from './db.js';

/** Inserts or renames every category of the taxonomy, at its position; run after each migration. */
export async function syncTaxonomy(db: Db): Promise<void> {
  await db.transaction(async (trx) => {
    for (const [position, category] of TAXONOMY.entries()) {
      await trx('categories').insert({ slug: category.slug, name: category.name, position }).onConflict('slug').merge();
    }
  });
}
