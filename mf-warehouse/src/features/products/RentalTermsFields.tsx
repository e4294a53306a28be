import type { ReactNode } from 'react';
import { Col, Form, InputNumber, Radio, Row } from 'antd';
import { BILLING_LABELS, BILLINGS, MAX_GRACE_DAYS, MAX_OWN_AFTER_CYCLES } from '@dme/contracts/browser';
import { RENTAL_TERMS_RULES as R } from './rentalTerms';

/** A whole number; no min/max here, so an out-of-range entry shows its message instead of being silently clamped. */
const wholeInput = (placeholder?: string) => <InputNumber step={1} placeholder={placeholder} style={{ width: '100%' }} />;

type Values = { rentalTerms?: { deposit?: { kind?: string }; lateFeeCap?: { kind?: string }; billing?: string; rentToOwn?: { kind?: string } } };
const depositKind = (v: Values) => v.rentalTerms?.deposit?.kind;
const capKind = (v: Values) => v.rentalTerms?.lateFeeCap?.kind;
const ownKind = (v: Values) => v.rentalTerms?.rentToOwn?.kind;

/**
 * The rental money terms of a product (issue 29): deposit, late fee per day, grace days, the
 * late fee's cap, how the rent is billed and, billed by cycles, rent-to-own. Shown for rentals only; the amount inputs are the price field's (`moneyInput`).
 */
export default function RentalTermsFields({ moneyInput }: { moneyInput: ReactNode }) {
  return (
    <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
      <legend style={{ fontWeight: 500, marginBottom: 8 }}>Rental money terms</legend>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item label="Deposit" name={['rentalTerms', 'deposit', 'kind']} extra="Held per order and refunded at return, less any charges.">
            <Radio.Group
              aria-label="Deposit"
              options={[
                { value: 'NONE', label: 'None' },
                { value: 'FIXED', label: 'Fixed amount per unit' },
                { value: 'PERCENT', label: 'Percent of the rental' },
              ]}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item noStyle shouldUpdate={(a: Values, b: Values) => depositKind(a) !== depositKind(b)}>
            {({ getFieldValue }) => {
              const kind: unknown = getFieldValue(['rentalTerms', 'deposit', 'kind']);
              if (kind === 'FIXED') {
                return (
                  <Form.Item label="Deposit amount" name={['rentalTerms', 'deposit', 'amount']} rules={R.depositAmount}>
                    {moneyInput}
                  </Form.Item>
                );
              }
              if (kind === 'PERCENT') {
                return (
                  <Form.Item label="Deposit percent" name={['rentalTerms', 'deposit', 'percent']} rules={R.depositPercent} extra="Of the line's rental total, 1 to 100.">
                    <InputNumber step={1} suffix="%" style={{ width: '100%' }} />
                  </Form.Item>
                );
              }
              return null;
            }}
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item label="Late fee per day" name={['rentalTerms', 'lateFeePerDay']} rules={R.lateFee} extra="Per unit per day late. Empty or 0.00: no late fee.">
            {moneyInput}
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item label="Grace days" name={['rentalTerms', 'graceDays']} rules={R.graceDays} extra={`Days after the due date before the late fee starts, 0 to ${MAX_GRACE_DAYS}.`}>
            {wholeInput('0')}
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item label="Late fee cap" name={['rentalTerms', 'lateFeeCap', 'kind']}>
            <Radio.Group
              aria-label="Late fee cap"
              options={[
                { value: 'NONE', label: 'None' },
                { value: 'AMOUNT', label: 'Amount per unit' },
                { value: 'DAYS', label: 'Days' },
              ]}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item noStyle shouldUpdate={(a: Values, b: Values) => capKind(a) !== capKind(b)}>
            {({ getFieldValue }) => {
              const kind: unknown = getFieldValue(['rentalTerms', 'lateFeeCap', 'kind']);
              if (kind === 'AMOUNT') {
                return (
                  <Form.Item label="Cap amount" name={['rentalTerms', 'lateFeeCap', 'amount']} rules={R.capAmount} extra="The most a unit is charged late.">
                    {moneyInput}
                  </Form.Item>
                );
              }
              if (kind === 'DAYS') {
                return (
                  <Form.Item label="Cap days" name={['rentalTerms', 'lateFeeCap', 'days']} rules={R.capDays} extra="The most days a unit is charged late.">
                    {wholeInput()}
                  </Form.Item>
                );
              }
              return null;
            }}
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        label="Billing"
        name={['rentalTerms', 'billing']}
        extra="A rental of more than 30 days is billed every 30 days from delivery; the first payment stays the first day and the deposit."
      >
        <Radio.Group aria-label="Billing" options={BILLINGS.map((b) => ({ value: b, label: BILLING_LABELS[b] }))} />
      </Form.Item>
      {/* Issue 29: rent-to-own, with billing every 30 days only. */}
      <Form.Item noStyle shouldUpdate={(a: Values, b: Values) => a.rentalTerms?.billing !== b.rentalTerms?.billing || ownKind(a) !== ownKind(b)}>
        {({ getFieldsValue }) => {
          const v = getFieldsValue(true) as Values;
          if (v.rentalTerms?.billing !== 'CYCLES') return null;
          return (
            <>
              <Form.Item
                label="Rent-to-own"
                name={['rentalTerms', 'rentToOwn', 'kind']}
                extra="The unit becomes the customer's after the paid cycles below; until then they may buy it out for its sale price less a share of the rent paid."
              >
                <Radio.Group
                  aria-label="Rent-to-own"
                  options={[
                    { value: 'OFF', label: 'Off' },
                    { value: 'ON', label: 'On' },
                  ]}
                />
              </Form.Item>
              {ownKind(v) === 'ON' && (
                <Row gutter={16}>
                  <Col xs={24} md={8}>
                    <Form.Item label="Sale price" name={['rentalTerms', 'rentToOwn', 'salePrice']} rules={R.salePrice} extra="Of one unit.">
                      {moneyInput}
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={8}>
                    <Form.Item label="Rent credited (%)" name={['rentalTerms', 'rentToOwn', 'creditPercent']} rules={R.creditPercent} extra="Share of the rent paid taken off the sale price, 0 to 100.">
                      {wholeInput()}
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={8}>
                    <Form.Item label="Owned after cycles" name={['rentalTerms', 'rentToOwn', 'afterCycles']} rules={R.afterCycles} extra={`Paid cycles after which it is the customer's, 1 to ${MAX_OWN_AFTER_CYCLES}.`}>
                      {wholeInput()}
                    </Form.Item>
                  </Col>
                </Row>
              )}
            </>
          );
        }}
      </Form.Item>
    </fieldset>
  );
}
