import { Migration } from '@dme/platform';
import { manilaDay } from '../modules/reports/definitions';
import { orderInstants, reportDaysFunctionSql } from './0007_report_days';

/** The ids in a transition table, as an array: the planner reads an array's rows by key. */
const idsOf = (rows: string, column: string) => `any(array(select distinct "${column}" from ${rows}))`;

/**
 * Issue 30: the statement triggers of 0007 found the rows of other tables a statement's rows
 * touch with `in (select ... from <transition table>)`. A trigger's statement is planned once a
 * connection and the plan kept, for as many rows as the first statement had: after a consumer
 * caught up with thousands of lines in one statement, every later batch of a few lines read every
 * order (29 ms a batch at a year's size, docs/benchmarks.md, twenty-ninth session). The ids are now
 * an array, which the planner reads by key whatever its length. The days are the same as before.
 */
export class ReportingLinesDaysByKey extends Migration {
  override async up(): Promise<void> {
    const s = `"${this.config.get('schema')}"`;
    const linesDays = (rows: string, schema: string) => `select ${manilaDay('x.t')} from ${schema}."orders" o ${orderInstants('o')}
      where o."id" = ${idsOf(rows, 'order_id')}`;
    const ordersDays = (rows: string, schema: string) => `select ${manilaDay('x.t')} from ${rows} r ${orderInstants('r')}
      union select ${manilaDay('p."confirmed_at"')} from ${schema}."payments" p where p."order_id" = ${idsOf(rows, 'id')}
      union select ${manilaDay('f."refunded_at"')} from ${schema}."refunds" f where f."order_id" = ${idsOf(rows, 'id')}`;
    this.addSql(`create or replace ${reportDaysFunctionSql(`${s}."order_lines_report_days"`, s, linesDays)}`);
    this.addSql(`create or replace ${reportDaysFunctionSql(`${s}."orders_report_days"`, s, ordersDays)}`);
  }
}
