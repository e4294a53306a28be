import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { Button, Space, Tag } from 'antd';
import { formatManilaDateTime } from '@dme/contracts/browser';
import { errorMessage, loaded } from '@dme/api-client';
import { HandoverSection, LazyErrorState, Loading, OrderCycles, PageHeader, SectionTitle, useBackTo, RefreshFailed } from '@dme/ui';
import { useStaffOrderQuery } from './api';
import { DisplayStatusTag, ONGOING_BASE, rentalDisplayStatus } from '../../lib/rentalStatus';
import { ordersBase } from './format';
import { CustomerInformation, DueNoticeAlert, PaymentInformation, ProductsTable, ShippingInformation } from './OrderSections';
import { RentalStepButtons, RentalStepHints, RequestsSection } from './RentalSteps';
import { EndRentalEarlyButton, ExtendRentalButton, Extensions } from './ExtendRental';
import { DriverAssignment } from './AssignDriver';
import { LateFeeWaivers } from './WaiveLateFees';

/**
 * One ongoing rental (SPEC §2 /admin/ongoing-rentals/{id}): customer and shipping information,
 * the products with their rental days and due dates, the due notice, and the rental steps
 * (For Return, returns inspection, For Full Payment, requests); 'Extend rental' while the order
 * says staff may extend it, and the extensions given so far; the driver it is assigned to ('Assign
 * driver' while For Return), the proof of delivery and pick-up (issue 28); a rental billed per
 * 30-day cycle, its billing cycles (issue 29).
 */
export default function OngoingRentalDetailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  // Back to the list as it was left (its tab, search and page), else to the list (issue 27).
  const back = useBackTo(ONGOING_BASE);
  const q = useStaffOrderQuery(id);

  if (q.isLoading) return <Loading />;
  if (!loaded(q)) return <LazyErrorState title="This rental could not be loaded" message={errorMessage(q.error)} onRetry={() => void q.refetch()} />;
  const o = q.data.order;
  // A purchase is not a rental: its own screen shows it.
  if (o.type !== 'RENT') return <Navigate replace to={`${ordersBase(o.type)}/${o.id}`} />;

  return (
    <article>
      <RefreshFailed error={q.error} onRetry={() => void q.refetch()} />
      <PageHeader
        title={`Rental ${o.orderNumber}`}
        extra={
          <Space wrap>
            <RentalStepButtons order={o} />
            <ExtendRentalButton order={o} />
            <EndRentalEarlyButton order={o} />
            <Button onClick={() => navigate(back)}>Back</Button>
          </Space>
        }
      />
      <Space size={16} style={{ marginBottom: 16 }} wrap>
        <span>Order Number: {o.orderNumber}</span>
        <span>{formatManilaDateTime(o.createdAt)}</span>
        <DisplayStatusTag status={rentalDisplayStatus(o.status)} />
        {o.typeOfOrder === 'BULK' && <Tag>Bulk</Tag>}
        {o.deliveredAt && <span>Delivered {formatManilaDateTime(o.deliveredAt)}</span>}
      </Space>
      <DriverAssignment order={o} style={{ marginBottom: 16 }} />
      <DueNoticeAlert order={o} />
      <RentalStepHints order={o} />

      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(280px, 1fr))', gap: 24, marginBottom: 24 }}>
        <CustomerInformation order={o} />
        <ShippingInformation order={o} />
        <HandoverSection order={o} base="/api/orders" />
      </div>

      <section aria-label="Products" style={{ marginBottom: 24 }}>
        <SectionTitle>Products</SectionTitle>
        <ProductsTable order={o} />
      </section>

      <PaymentInformation order={o} />
      <OrderCycles order={o} style={{ marginTop: 24 }} />
      <LateFeeWaivers order={o} />
      <Extensions order={o} />
      <RequestsSection order={o} />
    </article>
  );
}
