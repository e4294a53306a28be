import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { Alert, Button, Descriptions, Space } from 'antd';
import type { AddStockResponse, StockCounts } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { LazyErrorState, LazyNotAvailable, LazyPageNotFound, Loading, PageHeader, useCurrentUser } from '@dme/ui';
import { useProductQuery } from '../../lib/api';
import { useStocksQuery } from './api';
import { StockTable } from '../../lib/StockTable';
import { AddStockModal } from './AddStockModal';
import { Truncated } from '../../lib/Truncated';

const PAGE = 20;

function Counts({ c, rental }: { c: StockCounts; rental: boolean }) {
  return (
    <Descriptions size="small" bordered column={{ xs: 2, md: 6 }} style={{ marginBottom: 16 }}>
      <Descriptions.Item label="Quantity">{c.quantity}</Descriptions.Item>
      <Descriptions.Item label="Available">{c.availableQuantity}</Descriptions.Item>
      {rental ? <Descriptions.Item label="Rented">{c.rentedQuantity}</Descriptions.Item> : <Descriptions.Item label="Sold">{c.soldQuantity}</Descriptions.Item>}
      <Descriptions.Item label="Damaged">{c.damagedQuantity}</Descriptions.Item>
      <Descriptions.Item label="Lost">{c.lostQuantity}</Descriptions.Item>
      {rental && (
        <>
          {/* Issue 26: units between rentals (the units board works them), and gone for good. */}
          <Descriptions.Item label="Being readied">{c.servicingQuantity ?? 0}</Descriptions.Item>
          <Descriptions.Item label="In repair">{c.repairQuantity ?? 0}</Descriptions.Item>
          <Descriptions.Item label="On hold">{c.heldQuantity ?? 0}</Descriptions.Item>
          <Descriptions.Item label="Retired">{c.retiredQuantity ?? 0}</Descriptions.Item>
        </>
      )}
    </Descriptions>
  );
}

/** Stock of a product, a variant or (superadmin only) a sub-variant, with Add Stock. */
export default function ProductStocksPage({ level }: { level: 'product' | 'variant' | 'subVariant' }) {
  const { id = '', variantID, subVariantID } = useParams();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const [lastBatch, setLastBatch] = useState<AddStockResponse | undefined>();
  const q = useProductQuery(id);
  const product = q.data?.product;
  const variant = product?.variants.find((v) => v.id === variantID);
  const sub = variant?.subVariants.find((s) => s.id === subVariantID);
  const filter =
    level === 'subVariant' ? { productSubVariantID: subVariantID } : level === 'variant' ? { productVariantID: variantID } : { productID: id };
  const stocks = useStocksQuery({ ...filter, limit: PAGE, offset: (page - 1) * PAGE }, { skip: !product });

  if (level === 'subVariant' && user.userType !== 'SUPERADMIN') return <LazyNotAvailable />;
  if (q.isLoading) return <Loading />;
  if (q.error || !product) return <LazyErrorState title="This product could not be loaded" message={errorMessage(q.error)} onRetry={q.refetch} />;
  if ((level !== 'product' && !variant) || (level === 'subVariant' && !sub)) return <LazyPageNotFound />;

  const rental = product.type === 'FOR_RENT';
  const title = [product.name, variant?.name, sub?.name].filter(Boolean).join(' / ');
  const counts: StockCounts = sub ?? variant ?? product;
  // Stock is added at the leaf: a product with variants gets it on a variant screen.
  const canAdd = !product.archived && (level === 'product' ? product.variants.length === 0 : true);

  return (
    <section>
      <PageHeader
        title={<>Stocks: <Truncated text={title} max={60} /></>}
        extra={
          <Space>
            {canAdd && (
              <Button type="primary" onClick={() => setAdding(true)}>
                Add Stock
              </Button>
            )}
            <Button onClick={() => navigate('/admin/products')}>Back</Button>
          </Space>
        }
      />
      <Counts c={counts} rental={rental} />
      {level === 'product' && product.variants.length > 0 && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title="This product has variants: stock is added on each variant."
          description={
            <Space wrap>
              {product.variants.map((v) => (
                <Link key={v.id} to={`/admin/products/${id}/stocks-variant/${v.id}`}>
                  <Truncated text={v.name} />
                </Link>
              ))}
            </Space>
          }
        />
      )}
      {level === 'variant' && variant && variant.subVariants.length > 0 && user.userType === 'SUPERADMIN' && (
        <Space wrap style={{ marginBottom: 16 }}>
          Sub-variants:
          {variant.subVariants.map((s) => (
            <Link key={s.id} to={`/admin/products/${id}/stocks-variant/${variant.id}/sub-variant/${s.id}`}>
              <Truncated text={s.name} /> ({s.availableQuantity} available)
            </Link>
          ))}
        </Space>
      )}
      {lastBatch && (
        <Alert
          type="success"
          showIcon
          closable
          onClose={() => setLastBatch(undefined)}
          style={{ marginBottom: 16 }}
          title={`${lastBatch.items.length} item${lastBatch.items.length === 1 ? '' : 's'} added: ${lastBatch.items[0]?.serialCode}${lastBatch.items.length > 1 ? ` … ${lastBatch.items[lastBatch.items.length - 1]?.serialCode}` : ''}.`}
          description={
            <a href={`/api/stock-batches/${lastBatch.batchID}/labels.pdf`} target="_blank" rel="noreferrer">
              Print QR labels for this batch (A4)
            </a>
          }
        />
      )}
      <StockTable query={stocks} page={page} pageSize={PAGE} onPage={setPage} />
      {adding && (
        <AddStockModal
          open={adding}
          product={product}
          variantID={variant?.id}
          subVariantID={sub?.id}
          onClose={() => setAdding(false)}
          onAdded={(r) => {
            setAdding(false);
            setLastBatch(r);
            setPage(1);
          }}
        />
      )}
    </section>
  );
}
