import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { MY_NOTICES_URL, NoticeListResponse, ProductCardListResponse, productCardsUrl } from '@dme/contracts';
import { DashboardView, DayPicker, EAGER_CARDS, GridView, RENT_TITLE, SALE_TITLE } from '../src/features/products/DashboardPage';
import { NoticesView } from '../src/features/products/DueNotices';
import { nextOffset, uniqueRows } from '@dme/ui';

/**
 * The shop's server-rendered first screen (issue 13: mobile LCP), run by the gateway in Node: the
 * customer's /dashboard drawn from the answers of its first reads (`firstScreenReads`), with the
 * page's own components, so the markup is the one the app renders once it has the same answers.
 * Undefined for any other path, or when an answer is not what the API promises: the page is then
 * served without a first screen, and the app draws it as before.
 */
export function renderScreen(path: string, reads: Readonly<Record<string, unknown>>): string | undefined {
  if (path !== '/dashboard') return undefined;
  const rent = ProductCardListResponse.safeParse(reads[productCardsUrl('FOR_RENT')]);
  const sale = ProductCardListResponse.safeParse(reads[productCardsUrl('FOR_SALE')]);
  const notices = NoticeListResponse.safeParse(reads[MY_NOTICES_URL]);
  if (!rent.success || !sale.success || !notices.success) return undefined;
  const grid = (title: string, type: 'FOR_RENT' | 'FOR_SALE', page: ProductCardListResponse, eagerCards = 0) => {
    const items = uniqueRows([page]);
    return (
      <GridView title={title} type={type} search="" eagerCards={eagerCards} loading={false} items={items} total={page.total} hasNextPage={nextOffset(page, [page], 0) !== undefined}
        dayPicker={type === 'FOR_RENT' ? <DayPicker date="" onDate={() => undefined} /> : undefined} />
    );
  };
  return renderToString(
    <MemoryRouter initialEntries={[path]}>
      <DashboardView
        text=""
        notices={<NoticesView items={notices.data.items} failed={false} />}
        rentals={grid(RENT_TITLE, 'FOR_RENT', rent.data, EAGER_CARDS)}
        sales={grid(SALE_TITLE, 'FOR_SALE', sale.data)}
      />
    </MemoryRouter>,
  );
}
