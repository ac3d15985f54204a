import type { Selectable, Updateable } from 'kysely';
import type { Db } from '../connection.js';
import type { ModelsTable, VendorsTable } from '../schema.js';
import { containsText, insertReturningId, nowSeconds } from '../sql-helpers.js';
import { runInTransaction, sqlOf } from '../unit-of-work.js';

export type VendorRow = Selectable<VendorsTable>;
export type ModelRow = Selectable<ModelsTable>;
export type VendorFields = Pick<VendorRow, 'name' | 'description' | 'icon' | 'status'>;
export type ModelFields = Omit<ModelRow, 'id' | 'created_time' | 'updated_time' | 'deleted_at'>;

export interface Paging {
  offset: number;
  limit: number;
}

/**
 * The model catalogue's two tables (the family's `vendors` and `models`). Rows the family soft-deleted (a
 * `deleted_at`) are never read; this server deletes rows outright, which frees their name the same way.
 */
export function createCatalogueRepo(db: Db) {
  const q = db.kysely;
  const liveVendors = () => q.selectFrom('vendors').where('deleted_at', 'is', null);
  const liveModels = () => q.selectFrom('models').where('deleted_at', 'is', null);

  return {
    async vendorPage(keyword: string, paging: Paging): Promise<{ rows: VendorRow[]; total: number }> {
      let query = liveVendors();
      if (keyword)
        query = query.where((eb) => eb.or([containsText('name', keyword), containsText('description', keyword)]));
      const counted = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const rows = await query.selectAll().orderBy('id', 'desc').offset(paging.offset).limit(paging.limit).execute();
      return { rows, total: Number(counted?.n ?? 0) };
    },

    allVendors(): Promise<VendorRow[]> {
      return liveVendors().selectAll().orderBy('id').execute();
    },

    vendor(id: number): Promise<VendorRow | undefined> {
      return liveVendors().selectAll().where('id', '=', id).executeTakeFirst();
    },

    async vendorNameTaken(name: string, exceptId = 0): Promise<boolean> {
      const row = await liveVendors()
        .select('id')
        .where('name', '=', name)
        .where('id', '<>', exceptId)
        .executeTakeFirst();
      return row !== undefined;
    },

    insertVendor(fields: VendorFields): Promise<number> {
      const now = nowSeconds();
      return insertReturningId(q, db.dialect, 'vendors', { ...fields, created_time: now, updated_time: now });
    },

    async updateVendor(id: number, fields: VendorFields): Promise<boolean> {
      const result = await q
        .updateTable('vendors')
        .set({ ...fields, updated_time: nowSeconds() })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Deletes the vendor; its models stay, without a vendor. */
    deleteVendor(id: number): Promise<boolean> {
      return runInTransaction(q, async (unit) => {
        const trx = sqlOf(unit);
        await trx.updateTable('models').set({ vendor_id: 0 }).where('vendor_id', '=', id).execute();
        const result = await trx.deleteFrom('vendors').where('id', '=', id).executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      });
    },

    /** Live models per vendor id, over the whole table. */
    async modelCountsByVendor(): Promise<Map<number, number>> {
      const rows = await liveModels()
        .select(['vendor_id', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('vendor_id')
        .execute();
      return new Map(rows.map((row) => [Number(row.vendor_id ?? 0), Number(row.n)]));
    },

    async modelPage(
      filter: { keyword: string; vendorId?: number; status?: number },
      paging: Paging,
    ): Promise<{ rows: ModelRow[]; total: number }> {
      let query = liveModels();
      const { keyword, vendorId, status } = filter;
      if (keyword) {
        query = query.where((eb) =>
          eb.or([
            containsText('model_name', keyword),
            containsText('description', keyword),
            containsText('tags', keyword),
          ]),
        );
      }
      if (vendorId !== undefined) query = query.where('vendor_id', '=', vendorId);
      if (status !== undefined) query = query.where('status', '=', status);
      const counted = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const rows = await query.selectAll().orderBy('id', 'desc').offset(paging.offset).limit(paging.limit).execute();
      return { rows, total: Number(counted?.n ?? 0) };
    },

    allModels(): Promise<ModelRow[]> {
      return liveModels().selectAll().orderBy('id').execute();
    },

    model(id: number): Promise<ModelRow | undefined> {
      return liveModels().selectAll().where('id', '=', id).executeTakeFirst();
    },

    async modelNameTaken(name: string, exceptId = 0): Promise<boolean> {
      const row = await liveModels()
        .select('id')
        .where('model_name', '=', name)
        .where('id', '<>', exceptId)
        .executeTakeFirst();
      return row !== undefined;
    },

    insertModel(fields: ModelFields): Promise<number> {
      const now = nowSeconds();
      return insertReturningId(q, db.dialect, 'models', { ...fields, created_time: now, updated_time: now });
    },

    async updateModel(id: number, fields: Updateable<ModelsTable>): Promise<boolean> {
      const result = await q
        .updateTable('models')
        .set({ ...fields, updated_time: nowSeconds() })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async deleteModel(id: number): Promise<boolean> {
      const result = await q.deleteFrom('models').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
