import { Link, useNavigate, useParams } from 'react-router-dom';
import { Button, Descriptions, Image, Space, Tag } from 'antd';
import { formatMoneyString, formatPriceRange } from '@dme/contracts/browser';
import { errorMessage, loaded } from '@dme/api-client';
import { LazyErrorState, Loading, PageHeader, SectionTitle } from '@dme/ui';
import { useProductQuery } from '../../lib/api';
import { Truncated } from '../../lib/Truncated';

export default function ProductViewPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const q = useProductQuery(id);
  if (q.isLoading) return <Loading />;
  if (!loaded(q)) return <LazyErrorState title="This product could not be loaded" message={errorMessage(q.error)} onRetry={q.refetch} />;
  const p = q.data.product;
  return (
    <section>
      <PageHeader
        title={<Truncated text={p.name} max={60} />}
        extra={
          <Space>
            {!p.archived && <Button onClick={() => navigate(`/admin/products/${p.id}/edit`)}>Edit</Button>}
            <Button onClick={() => navigate('/admin/products')}>Back</Button>
          </Space>
        }
      />
      <Space align="start" size={24} wrap>
        <Image src={p.image} alt={p.name} width={220} />
        <Descriptions bordered size="small" column={1} style={{ minWidth: 320 }}>
          <Descriptions.Item label="Brand">{p.brand}</Descriptions.Item>
          <Descriptions.Item label="Type">
            <Tag color={p.type === 'FOR_RENT' ? 'blue' : 'green'}>{p.type === 'FOR_RENT' ? 'For Rent' : 'For Sale'}</Tag>
            {p.archived && <Tag color="red">Archived</Tag>}
          </Descriptions.Item>
          <Descriptions.Item label="Price">{formatPriceRange(p.priceMin, p.priceMax, p.type === 'FOR_RENT')}</Descriptions.Item>
          <Descriptions.Item label="Damage / Lost Fee">{formatMoneyString(p.damageCharges)}</Descriptions.Item>
          <Descriptions.Item label="Quantity">{p.quantity}</Descriptions.Item>
          <Descriptions.Item label="Available">{p.availableQuantity}</Descriptions.Item>
          <Descriptions.Item label={p.type === 'FOR_RENT' ? 'Rented' : 'Sold'}>{p.type === 'FOR_RENT' ? p.rentedQuantity : p.soldQuantity}</Descriptions.Item>
          <Descriptions.Item label="Damaged">{p.damagedQuantity}</Descriptions.Item>
          <Descriptions.Item label="Lost">{p.lostQuantity}</Descriptions.Item>
          {p.type === 'FOR_RENT' && (
            <>
              <Descriptions.Item label="Being readied">{p.servicingQuantity ?? 0}</Descriptions.Item>
              <Descriptions.Item label="In repair">{p.repairQuantity ?? 0}</Descriptions.Item>
              <Descriptions.Item label="On hold">{p.heldQuantity ?? 0}</Descriptions.Item>
              <Descriptions.Item label="Inspection checklist">{(p.inspectionChecklist ?? []).length ? (p.inspectionChecklist ?? []).join(' · ') : '—'}</Descriptions.Item>
            </>
          )}
          <Descriptions.Item label="Description">{p.description}</Descriptions.Item>
        </Descriptions>
      </Space>
      {p.variants.length > 0 && (
        <div style={{ marginTop: 24 }}>
          <SectionTitle>Variants</SectionTitle>
          <ul>
            {p.variants.map((v) => (
              <li key={v.id}>
                <Link to={`/admin/products/${p.id}/stocks-variant/${v.id}`}>
                  <Truncated text={v.name} />
                </Link>{' '}
                — {v.price ? formatMoneyString(v.price) : 'priced per sub-variant'}, {v.availableQuantity} available of {v.quantity}
                {v.subVariants.length > 0 && (
                  <ul>
                    {v.subVariants.map((s) => (
                      <li key={s.id}>
                        <Truncated text={s.name} /> — {formatMoneyString(s.price)} (fee {formatMoneyString(s.damageCharges)}), {s.availableQuantity} available of {s.quantity}
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
