import { useMemo, type TdHTMLAttributes } from 'react';
import { Table, type TableProps } from 'antd';
import type { ColumnType } from 'antd/es/table';

/*
 * On a phone (under 768 px, the layout's breakpoint) each row is a card: every column's value on a
 * line of its own under the column's name, the row's actions last, nothing off-screen and nothing
 * to scroll sideways. Above that width it is antd's table, unchanged. CSS alone decides, so the
 * first paint is already right and a rotated phone turns cards into rows.
 */
const CSS = `
@media (max-width:767.98px){
.dme-cards .ant-table-content{overflow:visible!important}
.dme-cards table{display:block;width:100%!important;min-width:0!important;table-layout:auto!important}
.dme-cards .ant-table-thead,.dme-cards colgroup,.dme-cards .ant-table-measure-row{display:none}
.dme-cards .ant-table-tbody{display:block}
.dme-cards .ant-table-tbody>tr{display:block;margin:0 0 12px;padding:6px 0;border:1px solid #f0f0f0;border-radius:8px;background:#fff}
.dme-main .dme-cards .ant-table-tbody>tr>td{display:flex;align-items:center;justify-content:space-between;gap:12px;min-height:32px;padding:4px 12px;border:0;white-space:normal;overflow-wrap:anywhere;text-align:right;background:none}
.dme-cards .ant-table-tbody>tr>td::before{content:attr(data-label);flex:none;max-width:45%;color:rgba(0,0,0,.62);text-align:left}
.dme-cards .ant-table-tbody>tr>td[data-label=""]::before{content:none}
.dme-cards .ant-table-tbody>tr>td[data-label=""]{justify-content:flex-end;flex-wrap:wrap}
.dme-main .dme-cards .ant-table-tbody>tr.ant-table-placeholder>td{display:block;text-align:center}
.dme-cards .ant-table-tbody>tr.ant-table-placeholder{border:0}
.dme-cards .ant-table-summary,.dme-cards .ant-table-summary>tr{display:block}
.dme-main .dme-cards .ant-table-summary>tr>td{display:block;padding:8px 12px;border:0;white-space:normal;text-align:right}
}
`;

/** The label a cell shows before its value on a phone: the column's title when it is text; none for actions. */
function labelOf<T>(c: ColumnType<T>): string {
  if (typeof c.title !== 'string') return '';
  return c.title === 'Action' || c.title === 'Actions' ? '' : c.title;
}

/**
 * antd's Table that becomes a list of cards on a phone (issue 27: the cart hid quantity, price and
 * Remove off-screen; order lists hid Status and View). Takes Table's props; columns are shown
 * whole on a phone, so a column hidden there (`responsive`) shows again in its card.
 */
export function ResponsiveTable<T extends object>(props: TableProps<T>) {
  const { columns, className } = props;
  const labelled = useMemo(
    () =>
      columns?.map((c) => {
        // A column antd would hide at some widths (`responsive`) is in every card.
        const { responsive: _hidden, ...col } = c as ColumnType<T>;
        const label = labelOf(col);
        return {
          ...col,
          onCell: (record: T, index?: number) => ({ ...col.onCell?.(record, index), 'data-label': label }) as TdHTMLAttributes<HTMLTableCellElement>,
        };
      }),
    [columns],
  );
  return (
    <>
      <style href="dme-cards" precedence="dme">
        {CSS}
      </style>
      <Table<T> {...props} columns={labelled} className={className ? `dme-cards ${className}` : 'dme-cards'} />
    </>
  );
}
