import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Button, Descriptions, Image, Radio, Space, Tag } from 'antd';
import { centsToString, formatBusinessDate, formatPriceRange, lineTotalCents, manilaDate, ORDER_MESSAGES, rentalPeriod, termsInWords, toCents } from '@dme/contracts/browser';
import { RentalStartPicker, rentalWindowText, useRentalDays } from '../../lib/RentalStart';
import { chooseLeaf } from '../../lib/leaf';
import { errorMessage, loaded } from '@dme/api-client';
import { LazyErrorState, Loading, money, useFeedback } from '@dme/ui';
import { useProductQuery } from '../../lib/catalogApi';
import { useAddToCartMutation } from './api';
import { Stepper } from '../../lib/Stepper';

export default function ProductPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { notify } = useFeedback();
  const q = useProductQuery(id);
  const [variantId, setVariantId] = useState<string>();
  const [subId, setSubId] = useState<string>();
  const [quantity, setQuantity] = useState(1);
  const [days, setDays] = useState(1);
  const [start, setStart] = useState(manilaDate());
  const [limitHit, setLimitHit] = useState(false);
  const [add, adding] = useAddToCartMutation();
  const p0 = q.data?.product;
  const c0 = p0 ? chooseLeaf(p0, variantId, subId) : undefined;
  const rental = useRentalDays({ productId: id, variantId: c0?.variant?.id, subId: c0?.sub?.id, days, skip: !p0 || p0.type !== 'FOR_RENT' || !c0?.complete });

  if (q.isLoading) return <Loading />;
  if (!loaded(q) || !c0) return <LazyErrorState title="This product could not be shown" message={errorMessage(q.error)} onRetry={q.refetch} />;
  const p = q.data.product;
  const rent = p.type === 'FOR_RENT';
  const c = c0;
  // A rental: the units free for its whole period from the chosen day (issue 25); a purchase: stock now.
  const datedFree = rent && c.complete ? rental.freeFrom(start) : undefined;
  const available = datedFree ?? c.available ?? 0;
  const today = manilaDate();
  // A rental's money terms in words (issue 29): deposit, late fee and billing by cycles; none for a purchase.
  const terms = rent ? termsInWords(p.rentalTerms, money) : [];

  const setQty = (n: number) => {
    if (c.complete && n > available) {
      setLimitHit(true);
      setQuantity(Math.max(1, available));
      return;
    }
    setLimitHit(false);
    setQuantity(n);
  };

  const onAdd = async () => {
    if (!c.complete) return;
    if (quantity > available) {
      setLimitHit(true);
      return;
    }
    try {
      await add({
        type: rent ? 'RENT' : 'BUY',
        productID: p.id,
        productVariantID: c.variant?.id ?? null,
        productSubVariantID: c.sub?.id ?? null,
        quantity,
        ...(rent ? { noOfRentalDays: days, startDate: start } : {}),
      }).unwrap();
      notify.success(ORDER_MESSAGES.addedToCart);
    } catch (err) {
      notify.error('Add to Cart Error', errorMessage(err));
    }
  };

  return (
    <article>
      <Space align="start" size={32} wrap>
        {/* The main picture (the LCP element): square, never cropped, fetched first; its box is
            reserved by the wrapper before the picture arrives (antd's Image root has no height
            until it loads, and the text beside or below it would move). */}
        <div style={{ width: 'min(320px, calc(100vw - 64px))', aspectRatio: '1 / 1' }}>
          <Image
            src={p.image}
            alt={p.name}
            width="100%"
            height="100%"
            loading="eager"
            decoding="async"
            fetchPriority="high"
            styles={{
              root: { width: '100%', height: '100%', display: 'block' },
              image: { width: '100%', height: '100%', objectFit: 'contain', display: 'block', background: '#f5f5f5' },
            }}
          />
        </div>
        <div style={{ minWidth: 300, maxWidth: 560 }}>
          <h1 style={{ fontSize: 26, margin: '0 0 4px' }}>{p.name}</h1>
          <div style={{ color: 'rgba(0,0,0,0.55)', marginBottom: 8 }}>{p.brand}</div>
          <Space style={{ marginBottom: 12 }}>
            <Tag color={rent ? 'blue' : 'green'}>{rent ? 'For Rent' : 'For Sale'}</Tag>
            <span data-testid="stock">
              {c.complete ? (start === today ? `${available} in stock` : `${available} free from ${formatBusinessDate(start)}`) : `${p.availableQuantity} in stock`}
            </span>
          </Space>
          {p.variants.length > 0 && (
            <div style={{ marginBottom: 12 }}>
              <div style={{ fontWeight: 500, marginBottom: 4 }} id="variant-label">
                Variant
              </div>
              <Radio.Group
                aria-labelledby="variant-label"
                optionType="button"
                value={variantId}
                onChange={(e) => {
                  setVariantId(e.target.value as string);
                  setSubId(undefined);
                  setQuantity(1);
                  setLimitHit(false);
                }}
                options={p.variants.map((v) => ({ value: v.id, label: v.name }))}
              />
            </div>
          )}
          {c.variant && c.variant.subVariants.length > 0 && (
            <div style={{ marginBottom: 12 }}>
              <div style={{ fontWeight: 500, marginBottom: 4 }} id="sub-label">
                Sub-variant
              </div>
              <Radio.Group
                aria-labelledby="sub-label"
                optionType="button"
                value={subId}
                onChange={(e) => {
                  setSubId(e.target.value as string);
                  setQuantity(1);
                  setLimitHit(false);
                }}
                options={c.variant.subVariants.map((s) => ({ value: s.id, label: s.name }))}
              />
            </div>
          )}
          <Descriptions column={1} size="small" style={{ marginBottom: 12 }}>
            <Descriptions.Item label="Price">
              <strong data-testid="price">{c.price ? `${money(c.price)}${rent ? ' / day' : ''}` : formatPriceRange(p.priceMin, p.priceMax, rent)}</strong>
            </Descriptions.Item>
            {rent && <Descriptions.Item label="Damage or Lost Penalty">{c.damage ? money(c.damage) : '—'}</Descriptions.Item>}
          </Descriptions>
          {terms.length > 0 && (
            <div style={{ marginBottom: 12 }}>
              <div style={{ fontWeight: 500, marginBottom: 4 }} id="rental-terms-label">
                Rental terms
              </div>
              <ul aria-labelledby="rental-terms-label" style={{ margin: 0, paddingLeft: 20, color: 'rgba(0,0,0,0.65)' }}>
                {terms.map((t) => (
                  <li key={t}>{t}</li>
                ))}
              </ul>
            </div>
          )}
          <div style={{ display: 'flex', flexWrap: 'wrap', gap: 24, alignItems: 'flex-end', marginBottom: 12 }}>
            <Stepper label="Quantity" value={quantity} onChange={setQty} min={1} />
            {rent && <Stepper label="Rental days" value={days} onChange={(n) => setDays(Math.max(1, n))} min={1} />}
          </div>
          {rent && c.complete && (
            <div style={{ marginBottom: 12 }}>
              <label htmlFor="rental-start" style={{ fontWeight: 500, display: 'block', marginBottom: 4 }}>
                Start date
              </label>
              <RentalStartPicker
                id="rental-start"
                helpId="rental-start-help"
                value={start}
                quantity={quantity}
                freeFrom={rental.freeFrom}
                onChange={(d) => {
                  setStart(d);
                  setLimitHit(false);
                }}
              />
              <div id="rental-start-help" style={{ color: 'rgba(0,0,0,0.55)', marginTop: 4 }} data-testid="rental-window">
                {rentalWindowText(start, rentalPeriod(start, days, 0).due)}
                {rental.turnaroundDays ? ' Greyed-out days are booked.' : ''}
              </div>
            </div>
          )}
          {limitHit && (
            <div role="alert" style={{ color: '#cf1322', marginBottom: 8 }}>
              {ORDER_MESSAGES.maxStock}
            </div>
          )}
          {!c.complete && <div style={{ color: 'rgba(0,0,0,0.55)', marginBottom: 8 }}>Choose a {c.variant ? 'sub-variant' : 'variant'} to add this item.</div>}
          {/* The line's total by the one rule of contracts (quantity × price, × days for a rental). */}
          {c.complete && c.price && (
            <div style={{ fontSize: 16, marginBottom: 8 }} aria-live="polite">
              Total: <strong data-testid="line-total">{money(centsToString(lineTotalCents({ unitCents: toCents(c.price), quantity, noOfRentalDays: rent ? days : null })))}</strong>
              <span style={{ color: 'rgba(0,0,0,0.55)', marginLeft: 8 }}>
                {quantity} × {money(c.price)}
                {rent ? ` × ${days} ${days === 1 ? 'day' : 'days'}` : ''}
              </span>
            </div>
          )}
          <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center' }}>
            <Button type="primary" size="large" onClick={() => void onAdd()} disabled={!c.complete || available < 1} loading={adding.isLoading}>
              {c.complete && available < 1 ? 'Sold-Out' : 'Add to Cart'}
            </Button>
            <Button size="large" onClick={() => navigate('/cart')}>
              Go to Cart
            </Button>
          </div>
          <p style={{ marginTop: 24, whiteSpace: 'pre-line' }}>{p.description}</p>
        </div>
      </Space>
    </article>
  );
}
