import { type Kysely, sql } from 'kysely';
import type { Db } from '../connection.js';
import type { ChannelRow, ChannelUpdate, Database, NewChannel } from '../schema.js';
import { containsText, insertReturningId, nowSeconds } from '../sql-helpers.js';
import { sqlOf, type Trx } from '../unit-of-work.js';

export interface ChannelFilter {
  keyword?: string;
  group?: string;
  model?: string;
  status?: number;
  type?: number;
}

type Query = ReturnType<Kysely<Database>['selectFrom']> extends infer Q ? Q : never;

/** A comma list column contains one exact entry (',' + list + ',' LIKE '%,entry,%'), the same on all dialects. */
function listContains(column: 'group' | 'models', entry: string) {
  const padded = sql`${sql.lit(',')} || ${sql.ref(column)} || ${sql.lit(',')}`;
  const pattern = `%,${entry.replace(/[!%_]/g, (ch) => `!${ch}`)},%`;
  return sql<boolean>`${padded} LIKE ${pattern} ESCAPE '!'`;
}

export function createChannelsRepo(db: Db) {
  const q = db.kysely;
  // MySQL reads `||` as OR unless PIPES_AS_CONCAT is set: use CONCAT there.
  const contains = (column: 'group' | 'models', entry: string) => {
    if (db.dialect !== 'mysql') return listContains(column, entry);
    const pattern = `%,${entry.replace(/[!%_]/g, (ch) => `!${ch}`)},%`;
    return sql<boolean>`CONCAT(',', ${sql.ref(column)}, ',') LIKE ${pattern} ESCAPE '!'`;
  };

  const filtered = (filter: ChannelFilter) => {
    let query = q.selectFrom('channels');
    if (filter.keyword) {
      const keyword = filter.keyword;
      const asId = Number(keyword);
      query = query.where((eb) =>
        eb.or([
          containsText('name', keyword),
          containsText('base_url', keyword),
          containsText('tag', keyword),
          ...(Number.isInteger(asId) && asId > 0 ? [eb('id', '=', asId)] : []),
        ]),
      );
    }
    if (filter.group) query = query.where(contains('group', filter.group));
    if (filter.model) query = query.where(containsText('models', filter.model));
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.type !== undefined) query = query.where('type', '=', filter.type);
    return query;
  };

  return {
    async insertIn(trx: Trx, channel: NewChannel): Promise<number> {
      return insertReturningId(sqlOf(trx), db.dialect, 'channels', { created_time: nowSeconds(), ...channel });
    },
    async findById(id: number, trx?: Trx): Promise<ChannelRow | undefined> {
      return sqlOf(trx, q).selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async findByIds(ids: number[], trx?: Trx): Promise<ChannelRow[]> {
      if (ids.length === 0) return [];
      return sqlOf(trx, q).selectFrom('channels').selectAll().where('id', 'in', ids).execute();
    },
    async findByTag(tag: string, trx?: Trx): Promise<ChannelRow[]> {
      return sqlOf(trx, q).selectFrom('channels').selectAll().where('tag', '=', tag).orderBy('id').execute();
    },
    async all(): Promise<ChannelRow[]> {
      return q.selectFrom('channels').selectAll().orderBy('id').execute();
    },
    async list(
      filter: ChannelFilter,
      idSort: boolean,
      offset: number,
      limit: number,
    ): Promise<{ items: ChannelRow[]; total: number }> {
      let items = filtered(filter).selectAll();
      items = idSort ? items.orderBy('id', 'desc') : items.orderBy('priority', 'desc').orderBy('id', 'desc');
      const [rows, total] = await Promise.all([
        items.offset(offset).limit(limit).execute(),
        filtered(filter)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { items: rows, total: Number(total.n) };
    },
    /**
     * Tag mode pages over "rows": one per tag, plus one per untagged channel. Returns every channel of the rows on
     * the page (the console groups tagged ones under their tag) and the number of rows.
     */
    async listByRows(
      filter: ChannelFilter,
      idSort: boolean,
      offset: number,
      limit: number,
    ): Promise<{ items: ChannelRow[]; total: number }> {
      const rowKey = sql<string>`COALESCE(NULLIF(${sql.ref('tag')}, ''), ${db.dialect === 'mysql' ? sql`CONCAT('#', id)` : sql`'#' || CAST(id AS VARCHAR(20))`})`;
      const rows = filtered(filter)
        .select([rowKey.as('row_key')])
        .select((eb) => [eb.fn.max('id').as('max_id'), eb.fn.max('priority').as('max_priority')])
        .groupBy(rowKey);
      const ordered = idSort
        ? rows.orderBy(sql`max(id)`, 'desc')
        : rows.orderBy(sql`max(priority)`, 'desc').orderBy(sql`max(id)`, 'desc');
      const [page, total] = await Promise.all([
        ordered.offset(offset).limit(limit).execute(),
        q
          .selectFrom(rows.as('r'))
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      const keys = page.map((row) => String(row.row_key));
      const tags = keys.filter((key) => !key.startsWith('#'));
      const ids = keys.filter((key) => key.startsWith('#')).map((key) => Number(key.slice(1)));
      if (keys.length === 0) return { items: [], total: Number(total.n) };
      const channels = await filtered(filter)
        .selectAll()
        .where((eb) =>
          eb.or([...(tags.length ? [eb('tag', 'in', tags)] : []), ...(ids.length ? [eb('id', 'in', ids)] : [])]),
        )
        .execute();
      const order = new Map(keys.map((key, index) => [key, index]));
      channels.sort((a, b) => {
        const rowA = order.get(a.tag ? a.tag : `#${a.id}`) ?? 0;
        const rowB = order.get(b.tag ? b.tag : `#${b.id}`) ?? 0;
        return rowA - rowB || (idSort ? b.id - a.id : b.priority - a.priority || b.id - a.id);
      });
      return { items: channels, total: Number(total.n) };
    },
    async update(id: number, changes: ChannelUpdate, trx?: Trx): Promise<void> {
      await sqlOf(trx, q).updateTable('channels').set(changes).where('id', '=', id).execute();
    },
    async deleteIn(trx: Trx, ids: number[]): Promise<number> {
      if (ids.length === 0) return 0;
      await sqlOf(trx).deleteFrom('abilities').where('channel_id', 'in', ids).execute();
      const result = await sqlOf(trx).deleteFrom('channels').where('id', 'in', ids).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async idsWithStatusOtherThan(status: number, trx?: Trx): Promise<number[]> {
      const rows = await sqlOf(trx, q).selectFrom('channels').select('id').where('status', '!=', status).execute();
      return rows.map((row) => row.id);
    },
    async addUsedQuota(id: number, quota: number): Promise<void> {
      await q
        .updateTable('channels')
        .set({ used_quota: sql`used_quota + ${quota}` })
        .where('id', '=', id)
        .execute();
    },
  };
}

export type ChannelsRepo = ReturnType<typeof createChannelsRepo>;
export type { Query };
