import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Button, Space } from 'antd';
import { errorMessage } from '@dme/api-client';
import { LazyErrorState, PageHeader } from '@dme/ui';
import { useBinQuery, useBinStocksQuery } from './api';
import { StockTable } from '../../lib/StockTable';

const PAGE = 20;

/** Stock items in one bin; their QR labels carry the stock id (SPEC §3). */
export default function BinStocksPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const bin = useBinQuery(id);
  const stocks = useBinStocksQuery({ id, limit: PAGE, offset: (page - 1) * PAGE });
  if (bin.error) return <LazyErrorState title="This bin could not be loaded" message={errorMessage(bin.error)} onRetry={bin.refetch} />;
  return (
    <section>
      <PageHeader
        title={`Stocks in ${bin.data?.bin.name ?? '…'}`}
        extra={
          <Space wrap>
            {/* A physical audit of the bin (issue 26). */}
            <Button onClick={() => navigate(`/admin/warehouse-bins/${id}/audit`)}>Audit this bin</Button>
            <Button onClick={() => navigate('/admin/warehouse-bins')}>Back</Button>
          </Space>
        }
      />
      <StockTable query={stocks} page={page} pageSize={PAGE} onPage={setPage} qrPayload="id" showProduct />
    </section>
  );
}
