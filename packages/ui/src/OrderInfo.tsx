import { SectionTitle } from './SectionTitle';
import { Descriptions } from 'antd';
import type { Order } from '@dme/contracts';

/**
 * The customer and shipping sections of an order's detail (SPEC §2 "Staff order detail"), shared
 * by the warehouse's and the driver's order screens.
 */
export function CustomerInformation({ order }: { order: Order }) {
  const c = order.customer;
  return (
    <section aria-label="Customer Information">
      <SectionTitle>Customer Information</SectionTitle>
      {c ? (
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label="Customer Number">{c.idNumber}</Descriptions.Item>
          <Descriptions.Item label="First Name">{c.firstName}</Descriptions.Item>
          <Descriptions.Item label="Middle Name">{c.middleName || '—'}</Descriptions.Item>
          <Descriptions.Item label="Last Name">{c.lastName}</Descriptions.Item>
          <Descriptions.Item label="Suffix">{c.suffix || '—'}</Descriptions.Item>
          <Descriptions.Item label="Contact Number">{c.contactNumber}</Descriptions.Item>
          <Descriptions.Item label="Email">{c.email}</Descriptions.Item>
        </Descriptions>
      ) : (
        <p style={{ color: 'rgba(0,0,0,0.6)' }}>
          {order.customerName ? `${order.customerName}: the customer's other details are not available.` : "The customer's details are not available."}
        </p>
      )}
    </section>
  );
}

export function ShippingInformation({ order }: { order: Order }) {
  return (
    <section aria-label="Shipping Information">
      <SectionTitle>Shipping Information</SectionTitle>
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label="Address">{order.deliveryAddress}</Descriptions.Item>
        <Descriptions.Item label="City">{order.deliveryCity}</Descriptions.Item>
        <Descriptions.Item label="State">{order.deliveryState}</Descriptions.Item>
        <Descriptions.Item label="Zipcode">{order.deliveryZipcode}</Descriptions.Item>
        <Descriptions.Item label="Note">{order.note || '—'}</Descriptions.Item>
      </Descriptions>
    </section>
  );
}
