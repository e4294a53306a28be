import { useNavigate, useParams } from 'react-router-dom';
import { Button, Card, Col, Form, Input, InputNumber, Row, Select, Space, type FormInstance } from 'antd';
import { CATALOG_MESSAGES, DEFAULT_TURNAROUND_DAYS, MAX_CHECKLIST_POINTS, MAX_SERVICE_INTERVAL_DAYS, MAX_TURNAROUND_DAYS } from '@dme/contracts/browser';
import type { Product, ProductRequest } from '@dme/contracts';
import { errorMessage, fieldErrors, loaded } from '@dme/api-client';
import { ImageUpload, LazyErrorState, Loading, PageHeader, useFeedback, SectionTitle } from '@dme/ui';
import { useProductQuery } from '../../lib/api';
import { useCreateProductMutation, useUpdateProductMutation } from './api';
import RentalTermsFields from './RentalTermsFields';
import { rentalTermsOf, rentalTermsValues, type RentalTermsValues } from './rentalTerms';

const M = CATALOG_MESSAGES.product;

interface SubValues {
  id?: string;
  name?: string;
  price?: number | string;
  damageCharges?: number | string;
}
interface VariantValues extends SubValues {
  subVariants?: SubValues[];
}
interface Values {
  brand: string;
  name: string;
  description: string;
  type: 'FOR_RENT' | 'FOR_SALE';
  image: string;
  price: number | string;
  damageCharges: number | string;
  /** Rentals: days a returned unit needs before its next rental (issue 25). */
  turnaroundDays?: number | null;
  /** Rentals: the points answered when a returned unit is inspected (issue 26). */
  inspectionChecklist?: string[];
  /** Rentals: the preventive maintenance plan (issue 26); both intervals empty: none. */
  serviceEveryRentalDays?: number | null;
  serviceEveryDays?: number | null;
  serviceChecklist?: string[];
  /** Rentals: the money terms (issue 29): deposit, late fee per day, grace days, cap. */
  rentalTerms?: RentalTermsValues;
  variants?: VariantValues[];
}

const req = (message: string) => [{ required: true, whitespace: true, message }];
const moneyInput = <InputNumber min={0} max={99999999} precision={2} step={1} prefix="$" style={{ width: '100%' }} />;

/** Names must be unique in their list (case-insensitive), as the server also checks. */
function uniqueIn(form: FormInstance, path: Array<string | number>, message: string) {
  return {
    validator: async (_: unknown, value: string | undefined) => {
      if (!value) return;
      const list = (form.getFieldValue(path) as Array<{ name?: string }> | undefined) ?? [];
      const same = list.filter((x) => (x?.name ?? '').trim().toLowerCase() === value.trim().toLowerCase()).length;
      if (same > 1) throw new Error(message);
    },
  };
}

function toValues(p: Product): Values {
  return {
    brand: p.brand,
    name: p.name,
    description: p.description,
    type: p.type,
    image: p.image,
    price: p.price,
    damageCharges: p.damageCharges,
    turnaroundDays: p.turnaroundDays,
    inspectionChecklist: p.inspectionChecklist ?? [],
    serviceEveryRentalDays: p.maintenance?.everyRentalDays ?? null,
    serviceEveryDays: p.maintenance?.everyDays ?? null,
    serviceChecklist: p.maintenance?.checklist ?? [],
    rentalTerms: rentalTermsValues(p.rentalTerms),
    variants: p.variants.map((v) => ({
      id: v.id,
      name: v.name,
      price: v.price ?? undefined,
      damageCharges: v.damageCharges ?? undefined,
      subVariants: v.subVariants.map((s) => ({ id: s.id, name: s.name, price: s.price, damageCharges: s.damageCharges })),
    })),
  };
}

/** The maintenance plan the form describes: none when neither interval is given. */
function maintenanceOf(v: Values): ProductRequest['maintenance'] {
  const everyRentalDays = typeof v.serviceEveryRentalDays === 'number' ? v.serviceEveryRentalDays : null;
  const everyDays = typeof v.serviceEveryDays === 'number' ? v.serviceEveryDays : null;
  if (everyRentalDays === null && everyDays === null) return null;
  return { everyRentalDays, everyDays, checklist: (v.serviceChecklist ?? []).map((x) => x.trim()).filter(Boolean) };
}

function toBody(v: Values): ProductRequest {
  return {
    brand: v.brand,
    name: v.name,
    description: v.description,
    type: v.type,
    image: v.image,
    price: v.price,
    damageCharges: v.damageCharges,
    ...(v.type === 'FOR_RENT' && typeof v.turnaroundDays === 'number' ? { turnaroundDays: v.turnaroundDays } : {}),
    ...(v.type === 'FOR_RENT' && v.inspectionChecklist ? { inspectionChecklist: v.inspectionChecklist.map((x) => x.trim()).filter(Boolean) } : {}),
    ...(v.type === 'FOR_RENT' ? { maintenance: maintenanceOf(v) } : {}),
    ...(v.type === 'FOR_RENT' ? { rentalTerms: rentalTermsOf(v.rentalTerms) } : {}),
    variants: (v.variants ?? []).map((x) => {
      const subs = (x.subVariants ?? []).map((s) => ({
        ...(s.id ? { id: s.id } : {}),
        name: s.name ?? '',
        price: s.price ?? '',
        damageCharges: s.damageCharges ?? '',
      }));
      return {
        ...(x.id ? { id: x.id } : {}),
        name: x.name ?? '',
        ...(subs.length ? {} : { price: x.price ?? '', damageCharges: x.damageCharges ?? '' }),
        subVariants: subs,
      };
    }),
  };
}

function VariantEditor({ form, firstLocked }: { form: FormInstance<Values>; firstLocked: boolean }) {
  const variants = Form.useWatch('variants', form) as VariantValues[] | undefined;
  return (
    <Form.List name="variants">
      {(fields, { add, remove }) => (
        <Space direction="vertical" style={{ width: '100%' }} size={12}>
          {fields.map((field, index) => {
            const hasSubs = (variants?.[index]?.subVariants?.length ?? 0) > 0;
            const locked = firstLocked && index === 0 && Boolean(variants?.[0]?.id);
            return (
              <Card
                key={field.key}
                size="small"
                title={`Variant ${index + 1}`}
                extra={
                  <Button size="small" danger onClick={() => remove(field.name)} disabled={locked}>
                    Remove variant
                  </Button>
                }
              >
                <Row gutter={12}>
                  <Col xs={24} md={hasSubs ? 24 : 10}>
                    <Form.Item
                      label="Variant Name"
                      name={[field.name, 'name']}
                      rules={[...req(M.variantName), uniqueIn(form, ['variants'], M.variantNamesUnique)]}
                      extra={locked ? M.firstVariantRename : undefined}
                    >
                      <Input maxLength={100} disabled={locked} />
                    </Form.Item>
                  </Col>
                  {!hasSubs && (
                    <>
                      <Col xs={12} md={7}>
                        <Form.Item label="Price" name={[field.name, 'price']} rules={[{ required: true, message: M.variantPrice }]}>
                          {moneyInput}
                        </Form.Item>
                      </Col>
                      <Col xs={12} md={7}>
                        <Form.Item label="Damage or Lost Fee" name={[field.name, 'damageCharges']} rules={[{ required: true, message: M.variantPrice }]}>
                          {moneyInput}
                        </Form.Item>
                      </Col>
                    </>
                  )}
                </Row>
                <Form.List name={[field.name, 'subVariants']}>
                  {(subs, { add: addSub, remove: removeSub }) => (
                    <>
                      {subs.map((sub, j) => (
                        <Row gutter={12} key={sub.key} align="bottom">
                          <Col xs={24} md={9}>
                            <Form.Item
                              label={`Sub-variant ${j + 1}`}
                              name={[sub.name, 'name']}
                              rules={[...req(M.subVariantName), uniqueIn(form, ['variants', field.name, 'subVariants'], M.subVariantNamesUnique)]}
                            >
                              <Input maxLength={100} />
                            </Form.Item>
                          </Col>
                          <Col xs={12} md={6}>
                            <Form.Item label="Price" name={[sub.name, 'price']} rules={[{ required: true, message: M.subVariantPrice }]}>
                              {moneyInput}
                            </Form.Item>
                          </Col>
                          <Col xs={12} md={6}>
                            <Form.Item label="Damage or Lost Fee" name={[sub.name, 'damageCharges']} rules={[{ required: true, message: M.subVariantPrice }]}>
                              {moneyInput}
                            </Form.Item>
                          </Col>
                          {/* On a phone the button has a line of its own (issue 27: it stuck out of the screen). */}
                          <Col xs={24} md={3}>
                            <Form.Item>
                              <Button danger onClick={() => removeSub(sub.name)} aria-label={`Remove sub-variant ${j + 1}`}>
                                Remove
                              </Button>
                            </Form.Item>
                          </Col>
                        </Row>
                      ))}
                      <Button size="small" onClick={() => addSub({})}>
                        Add sub-variant
                      </Button>
                    </>
                  )}
                </Form.List>
              </Card>
            );
          })}
          <Button onClick={() => add({ subVariants: [] })}>Add variant</Button>
        </Space>
      )}
    </Form.List>
  );
}

/** Add or edit a product with its variant / sub-variant editor (SPEC §5). */
export default function ProductFormPage({ mode }: { mode: 'add' | 'edit' }) {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { notify } = useFeedback();
  const [form] = Form.useForm<Values>();
  const existing = useProductQuery(id, { skip: mode !== 'edit' });
  const [create, createState] = useCreateProductMutation();
  const [update, updateState] = useUpdateProductMutation();

  if (mode === 'edit' && existing.isLoading) return <Loading />;
  if (mode === 'edit' && !loaded(existing)) {
    return <LazyErrorState title="This product could not be loaded" message={errorMessage(existing.error)} onRetry={existing.refetch} />;
  }

  const onFinish = async (values: Values) => {
    try {
      if (mode === 'add') await create(toBody(values)).unwrap();
      else await update({ id, body: toBody(values) }).unwrap();
      notify.success(mode === 'add' ? M.created : M.updated);
      setTimeout(() => navigate('/admin/products'), 1000);
    } catch (err) {
      const fields = fieldErrors(err).map((f) => ({ ...f, name: f.name.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) }));
      if (fields.length) form.setFields(fields as never);
      notify.error(mode === 'add' ? M.createErrorTitle : M.updateErrorTitle, errorMessage(err));
    }
  };

  const done = createState.isSuccess || updateState.isSuccess;
  return (
    <section style={{ maxWidth: 900 }}>
      <PageHeader title={mode === 'add' ? 'Add Product' : 'Edit Product'} />
      <Form<Values>
        form={form}
        layout="vertical"
        name="product"
        onFinish={onFinish}
        scrollToFirstError
        initialValues={mode === 'edit' && existing.data ? toValues(existing.data.product) : { type: 'FOR_RENT', rentalTerms: rentalTermsValues(null), variants: [] }}
      >
        <Form.Item label="Image" name="image" rules={[{ required: true, message: M.image }]}>
          <ImageUpload />
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item label="Brand" name="brand" rules={req(M.brand)}>
              <Input maxLength={100} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label="Product Name" name="name" rules={req(M.name)}>
              <Input maxLength={100} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item label="Description" name="description" rules={req(M.description)}>
          <Input.TextArea rows={3} maxLength={4000} />
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item label="Type" name="type" rules={[{ required: true, message: M.type }]}>
              <Select
                options={[
                  { value: 'FOR_RENT', label: 'For Rent' },
                  { value: 'FOR_SALE', label: 'For Sale' },
                ]}
              />
            </Form.Item>
          </Col>
          <Col xs={12} md={8}>
            <Form.Item label="Price" name="price" rules={[{ required: true, message: M.price }]} extra="Per day for rentals.">
              {moneyInput}
            </Form.Item>
          </Col>
          <Col xs={12} md={8}>
            <Form.Item label="Damage or Lost Fee" name="damageCharges" rules={[{ required: true, message: M.damageCharges }]}>
              {moneyInput}
            </Form.Item>
          </Col>
        </Row>
        <Form.Item noStyle shouldUpdate={(a: Values, b: Values) => a.type !== b.type}>
          {({ getFieldValue }) =>
            getFieldValue('type') === 'FOR_RENT' && (
              <Form.Item
                label="Turnaround days"
                name="turnaroundDays"
                extra="Days a returned unit is cleaned and inspected before its next rental."
                style={{ maxWidth: 320 }}
              >
                <InputNumber min={0} max={MAX_TURNAROUND_DAYS} precision={0} placeholder={String(DEFAULT_TURNAROUND_DAYS)} style={{ width: '100%' }} />
              </Form.Item>
            )
          }
        </Form.Item>
        <Form.Item noStyle shouldUpdate={(a: Values, b: Values) => a.type !== b.type}>
          {({ getFieldValue }) =>
            getFieldValue('type') === 'FOR_RENT' && (
              <Form.Item
                label="Inspection checklist"
                name="inspectionChecklist"
                extra={`Points answered when a returned unit is inspected, e.g. "Filter replaced". Type a point and press Enter; at most ${MAX_CHECKLIST_POINTS}.`}
                rules={[{ type: 'array', max: MAX_CHECKLIST_POINTS, message: `A checklist has at most ${MAX_CHECKLIST_POINTS} points.` }]}
              >
                <Select mode="tags" open={false} suffixIcon={null} placeholder="Add a point and press Enter" maxCount={MAX_CHECKLIST_POINTS} />
              </Form.Item>
            )
          }
        </Form.Item>
        <Form.Item noStyle shouldUpdate={(a: Values, b: Values) => a.type !== b.type}>
          {({ getFieldValue }) =>
            getFieldValue('type') === 'FOR_RENT' && (
              <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
                <legend style={{ fontWeight: 500, marginBottom: 8 }}>Maintenance plan</legend>
                <Row gutter={16}>
                  <Col xs={24} md={8}>
                    <Form.Item label="Every rental days" name="serviceEveryRentalDays" extra="Service a unit after this many days out on rentals.">
                      <InputNumber min={1} max={MAX_SERVICE_INTERVAL_DAYS} precision={0} placeholder="None" style={{ width: '100%' }} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={8}>
                    <Form.Item label="Every calendar days" name="serviceEveryDays" extra="Service a unit this many days after its last service.">
                      <InputNumber min={1} max={MAX_SERVICE_INTERVAL_DAYS} precision={0} placeholder="None" style={{ width: '100%' }} />
                    </Form.Item>
                  </Col>
                </Row>
                <Form.Item label="Maintenance checklist" name="serviceChecklist" extra="Points answered at each service (e.g. &quot;Filter changed&quot;).">
                  <Select mode="tags" open={false} suffixIcon={null} placeholder="Add a point and press Enter" maxCount={MAX_CHECKLIST_POINTS} />
                </Form.Item>
              </fieldset>
            )
          }
        </Form.Item>
        <Form.Item noStyle shouldUpdate={(a: Values, b: Values) => a.type !== b.type}>
          {({ getFieldValue }) => getFieldValue('type') === 'FOR_RENT' && <RentalTermsFields moneyInput={moneyInput} />}
        </Form.Item>
        <SectionTitle>Variants</SectionTitle>
        <VariantEditor form={form} firstLocked={mode === 'edit'} />
        <Space style={{ marginTop: 24 }}>
          <Button type="primary" htmlType="submit" loading={createState.isLoading || updateState.isLoading} disabled={done}>
            {mode === 'add' ? 'Create Product' : 'Save Changes'}
          </Button>
          <Button onClick={() => navigate('/admin/products')}>Cancel</Button>
        </Space>
      </Form>
    </section>
  );
}
