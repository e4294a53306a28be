import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button, Image, Select, Space, Tag } from 'antd';
import { formatMoneyString, formatPriceRange } from '@dme/contracts/browser';
import type { Product, SubVariant, Variant } from '@dme/contracts';
import { errorMessage, listBusy } from '@dme/api-client';
import { EmptyState, LazyErrorState, PageHeader, RowActions, SearchBox, deleteAction, useCurrentUser, useFeedback, ResponsiveTable } from '@dme/ui';
import { useDeleteProductMutation, useProductsQuery } from './api';
import { Truncated } from '../../lib/Truncated';

const PAGE = 20;
const money = (v: string | null) => (v === null ? 'per sub-variant' : formatMoneyString(v));

function SubVariantTable({ product, variant }: { product: Product; variant: Variant }) {
  const user = useCurrentUser();
  return (
    <ResponsiveTable<SubVariant>
      rowKey="id"
      size="small"
      pagination={false}
      dataSource={variant.subVariants}
      columns={[
        { title: 'Sub-variant', dataIndex: 'name', render: (n: string) => <Truncated text={n} /> },
        { title: 'Price', dataIndex: 'price', render: money },
        { title: 'Damage / Lost Fee', dataIndex: 'damageCharges', render: money },
        { title: 'Quantity', dataIndex: 'quantity', align: 'right' },
        { title: 'Available', dataIndex: 'availableQuantity', align: 'right' },
        ...(user.userType === 'SUPERADMIN'
          ? [{
              title: 'Actions',
              key: 'a',
              render: (_: unknown, s: SubVariant) => <Link to={`/admin/products/${product.id}/stocks-variant/${variant.id}/sub-variant/${s.id}`}>Stocks</Link>,
            }]
          : []),
      ]}
    />
  );
}

function VariantTable({ product }: { product: Product }) {
  return (
    <ResponsiveTable<Variant>
      rowKey="id"
      size="small"
      pagination={false}
      dataSource={product.variants}
      expandable={{ rowExpandable: (v) => v.subVariants.length > 0, expandedRowRender: (v) => <SubVariantTable product={product} variant={v} /> }}
      columns={[
        { title: 'Variant', dataIndex: 'name', render: (n: string) => <Truncated text={n} /> },
        { title: 'Price', dataIndex: 'price', render: money },
        { title: 'Damage / Lost Fee', dataIndex: 'damageCharges', render: money },
        { title: 'Quantity', dataIndex: 'quantity', align: 'right' },
        { title: 'Available', dataIndex: 'availableQuantity', align: 'right' },
        { title: 'Actions', key: 'a', render: (_: unknown, v: Variant) => <Link to={`/admin/products/${product.id}/stocks-variant/${v.id}`}>Stocks</Link> },
      ]}
    />
  );
}

export default function ProductsPage() {
  const navigate = useNavigate();
  const { notify } = useFeedback();
  const [page, setPage] = useState(1);
  const [type, setType] = useState<string>('');
  const [search, setSearch] = useState('');
  const list = useProductsQuery({
    limit: PAGE,
    offset: (page - 1) * PAGE,
    ...(type ? { type } : {}),
    ...(search ? { search } : {}),
  });
  const { data, error, refetch } = list;
  const [remove, removing] = useDeleteProductMutation();

  const onDelete = async (p: Product) => {
    try {
      const res = await remove(p.id).unwrap();
      notify.success(res.message);
    } catch (err) {
      notify.error('Delete Product Error', errorMessage(err));
    }
  };

  return (
    <section>
      <PageHeader
        title="Products"
        extra={
          <Space wrap>
            <Select
              aria-label="Type"
              style={{ width: 140 }}
              value={type}
              onChange={(v) => {
                setType(v);
                setPage(1);
              }}
              options={[
                { value: '', label: 'All types' },
                { value: 'FOR_RENT', label: 'For Rent' },
                { value: 'FOR_SALE', label: 'For Sale' },
              ]}
            />
            <SearchBox
              label="Search products"
              placeholder="Search name or brand"
              onSearch={(v) => {
                setSearch(v.trim());
                setPage(1);
              }}
              width={240}
            />
            <Button type="primary" onClick={() => navigate('/admin/products/add')}>
              Add Product
            </Button>
          </Space>
        }
      />
      {error ? (
        <LazyErrorState message={errorMessage(error)} onRetry={refetch} />
      ) : (
        <ResponsiveTable<Product>
          rowKey="id"
          loading={listBusy(list)}
          dataSource={data?.items ?? []}
          locale={{ emptyText: <EmptyState description={search || type ? 'No products match.' : 'No products yet.'} /> }}
          pagination={{ current: page, pageSize: PAGE, total: data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
          expandable={{ rowExpandable: (p) => p.variants.length > 0, expandedRowRender: (p) => <VariantTable product={p} /> }}
          scroll={{ x: true }}
          columns={[
            { title: 'Image', dataIndex: 'image', render: (src: string, p: Product) => <Image src={src} alt={p.name} width={48} height={48} preview={false} /> },
            { title: 'Name', dataIndex: 'name', render: (n: string) => <Truncated text={n} /> },
            { title: 'Brand', dataIndex: 'brand', render: (n: string) => <Truncated text={n} /> },
            { title: 'Type', dataIndex: 'type', render: (t: Product['type']) => <Tag color={t === 'FOR_RENT' ? 'blue' : 'green'}>{t === 'FOR_RENT' ? 'For Rent' : 'For Sale'}</Tag> },
            { title: 'Price', key: 'price', render: (_: unknown, p: Product) => formatPriceRange(p.priceMin, p.priceMax, p.type === 'FOR_RENT') },
            { title: 'Quantity', dataIndex: 'quantity', align: 'right' },
            { title: 'Available', dataIndex: 'availableQuantity', align: 'right' },
            {
              title: 'Rented / Sold',
              key: 'out',
              align: 'right',
              render: (_: unknown, p: Product) => (p.type === 'FOR_RENT' ? p.rentedQuantity : p.soldQuantity),
            },
            {
              title: 'Actions',
              key: 'actions',
              render: (_: unknown, p: Product) => (
                <Space wrap>
                  {p.variants.length === 0 && <Link to={`/admin/products/${p.id}/stocks`}>Stocks</Link>}
                  <Link to={`/admin/products/${p.id}`}>View</Link>
                  <Link to={`/admin/products/${p.id}/edit`}>Edit</Link>
                  <RowActions
                    name={p.name}
                    disabled={removing.isLoading}
                    actions={[deleteAction(p.name, p.quantity > 0 ? 'It has stock, so it will be archived: hidden from the shop, history kept.' : 'The product is removed for good.', () => onDelete(p))]}
                  />
                </Space>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}
