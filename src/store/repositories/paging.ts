import type { SelectQueryBuilder } from 'kysely';

export interface Page<T> {
  items: T[];
  total: number;
}

/**
 * Runs a filtered query twice: once for the page (newest first by `orderColumn`)
 * and once for the total. Two queries whatever the page size.
 */
export async function paginate<DB, TB extends keyof DB, O, T>(
  base: SelectQueryBuilder<DB, TB, O>,
  orderColumn: string,
  limit: number,
  offset: number,
  map: (row: any) => T,
): Promise<Page<T>> {
  const q = base as SelectQueryBuilder<any, any, any>;
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy(orderColumn, 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    q
      .clearSelect()
      .select((eb: any) => eb.fn.countAll().as('n'))
      .executeTakeFirst() as Promise<{ n: number } | undefined>,
  ]);
  return { items: rows.map(map), total: Number(count?.n ?? 0) };
}
