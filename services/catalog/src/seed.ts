import type { EntityManager } from '@mikro-orm/postgresql';
import { ProductRequest, type ProductType, type RentalTermsWire } from '@dme/contracts';
import { qualified } from '@dme/platform';
import { createBin } from './modules/bins/bin.service';
import { createProduct } from './modules/products/product.service';
import { addStock } from './modules/stock/stock.service';

export type SeedShape = 'wheelchair' | 'bed' | 'tank' | 'walker' | 'mist' | 'lift' | 'glove' | 'gauge' | 'scope' | 'thermo' | 'gun' | 'mask';

interface SeedProduct {
  name: string;
  brand: string;
  type: ProductType;
  description: string;
  price: string;
  damageCharges: string;
  shape: SeedShape;
  bin: string;
  /** Leaf stock: [variant, sub-variant, quantity] (names), or a quantity for a flat product. */
  stock: Array<[string, string | null, number]> | number;
  variants?: Array<{ name: string; price?: string; damageCharges?: string; subVariants?: Array<{ name: string; price: string; damageCharges: string }> }>;
  /** A rental's money terms (issue 29), the product form's wire form. */
  rentalTerms?: RentalTermsWire;
}

const BINS = [
  { name: 'A-01 Mobility', description: 'Aisle A: wheelchairs, walkers and patient lifts.' },
  { name: 'B-01 Beds', description: 'Aisle B: hospital beds and mattresses.' },
  { name: 'C-01 Respiratory', description: 'Aisle C: oxygen concentrators and nebulizers.' },
  { name: 'D-01 Protection Kit', description: 'Aisle D: gloves, masks, thermometers and diagnostics for sale.' },
];

/** The demo catalog: six items for rent, the six self-protection kit items for sale. */
export const DEMO_PRODUCTS: SeedProduct[] = [
  {
    name: 'Wheelchair', brand: 'Drive Medical', type: 'FOR_RENT', shape: 'wheelchair', bin: 'A-01 Mobility',
    description: 'Folding steel wheelchair with swing-away footrests and padded armrests. Fits in most car trunks.',
    price: '15.00', damageCharges: '250.00',
    variants: [
      { name: 'Standard', subVariants: [{ name: '16 in seat', price: '15.00', damageCharges: '250.00' }, { name: '18 in seat', price: '16.00', damageCharges: '250.00' }] },
      { name: 'Heavy-duty', subVariants: [{ name: '20 in seat', price: '22.00', damageCharges: '350.00' }, { name: '22 in seat', price: '24.00', damageCharges: '350.00' }] },
    ],
    stock: [['Standard', '16 in seat', 4], ['Standard', '18 in seat', 3], ['Heavy-duty', '20 in seat', 2], ['Heavy-duty', '22 in seat', 2]],
  },
  {
    name: 'Hospital Bed', brand: 'Invacare', type: 'FOR_RENT', shape: 'bed', bin: 'B-01 Beds',
    description: 'Semi-electric home care bed with adjustable head and knee sections, half rails and mattress.',
    price: '45.00', damageCharges: '1200.00', stock: 3,
  },
  {
    name: 'Oxygen Concentrator', brand: 'Philips Respironics', type: 'FOR_RENT', shape: 'tank', bin: 'C-01 Respiratory',
    description: 'Stationary oxygen concentrator, quiet and energy efficient, with flow meter and alarms.',
    price: '35.00', damageCharges: '900.00',
    variants: [{ name: '5 L/min', price: '35.00', damageCharges: '900.00' }, { name: '10 L/min', price: '48.00', damageCharges: '1300.00' }],
    stock: [['5 L/min', null, 3], ['10 L/min', null, 2]],
  },
  {
    name: 'Walker', brand: 'Medline', type: 'FOR_RENT', shape: 'walker', bin: 'A-01 Mobility',
    description: 'Lightweight aluminium walker, height adjustable. The rollator has a seat and hand brakes.',
    price: '5.00', damageCharges: '60.00',
    variants: [{ name: 'Standard', price: '5.00', damageCharges: '60.00' }, { name: 'Rollator', price: '8.00', damageCharges: '120.00' }],
    stock: [['Standard', null, 5], ['Rollator', null, 3]],
  },
  {
    name: 'Nebulizer', brand: 'Omron', type: 'FOR_RENT', shape: 'mist', bin: 'C-01 Respiratory',
    description: 'Compressor nebulizer for asthma and COPD treatments, with adult and child masks.',
    price: '6.00', damageCharges: '80.00', stock: 6,
  },
  {
    name: 'Patient Lift', brand: 'Hoyer', type: 'FOR_RENT', shape: 'lift', bin: 'A-01 Mobility',
    description: 'Hydraulic patient lift with full-body sling, for safe transfers between bed and chair.',
    price: '40.00', damageCharges: '1500.00', stock: 2,
    // The demo of issue 29's terms: a deposit per unit, and a capped late fee after a grace day.
    rentalTerms: { deposit: { kind: 'FIXED', amount: '1000.00' }, lateFeePerDay: '100.00', graceDays: 1, lateFeeCap: { kind: 'DAYS', days: 10 } },
  },
  {
    name: 'Gloves', brand: 'Medline', type: 'FOR_SALE', shape: 'glove', bin: 'D-01 Protection Kit',
    description: 'Box of 100 powder-free nitrile examination gloves.',
    price: '12.50', damageCharges: '0.00',
    variants: [
      { name: 'Small', price: '12.50', damageCharges: '0.00' },
      { name: 'Medium', price: '12.50', damageCharges: '0.00' },
      { name: 'Large', price: '12.50', damageCharges: '0.00' },
    ],
    stock: [['Small', null, 20], ['Medium', null, 30], ['Large', null, 20]],
  },
  {
    name: 'Sphygmomanometer', brand: 'Omron', type: 'FOR_SALE', shape: 'gauge', bin: 'D-01 Protection Kit',
    description: 'Upper-arm automatic blood pressure monitor with a wide-range cuff.',
    price: '49.99', damageCharges: '0.00', stock: 10,
  },
  {
    name: 'Digital Stethoscope', brand: 'Littmann', type: 'FOR_SALE', shape: 'scope', bin: 'D-01 Protection Kit',
    description: 'Electronic stethoscope with ambient noise reduction and sound amplification.',
    price: '329.00', damageCharges: '0.00', stock: 4,
  },
  {
    name: 'Thermometer', brand: 'Braun', type: 'FOR_SALE', shape: 'thermo', bin: 'D-01 Protection Kit',
    description: 'Digital stick thermometer with a flexible tip and fever alarm.',
    price: '19.99', damageCharges: '0.00', stock: 25,
  },
  {
    name: 'Non-contact Thermometer', brand: 'iHealth', type: 'FOR_SALE', shape: 'gun', bin: 'D-01 Protection Kit',
    description: 'Infrared forehead thermometer: a reading in one second, without touching.',
    price: '39.99', damageCharges: '0.00', stock: 15,
  },
  {
    name: 'Glass Mask', brand: 'Honeywell', type: 'FOR_SALE', shape: 'mask', bin: 'D-01 Protection Kit',
    description: 'Anti-fog protective glasses with a face shield, for caregivers.',
    price: '9.99', damageCharges: '0.00', stock: 40,
  },
];

/**
 * Seeds the demo bins, products and stock through the same domain functions as the API.
 * Idempotent: a bin or product (by name and brand) that exists is left alone.
 */
export async function seedCatalog(em: EntityManager, opts: { imageFor: (key: string, shape: SeedShape) => string }): Promise<string[]> {
  const created: string[] = [];
  const binIds = new Map<string, string>();
  for (const b of BINS) {
    const found = await em.fork().execute<Array<{ id: string }>>(`select id from ${qualified(em, 'warehouse_bins')} where lower(name) = lower(?)`, [b.name]);
    if (found[0]) binIds.set(b.name, found[0].id);
    else binIds.set(b.name, (await createBin(em.fork(), b)).id);
  }
  for (const p of DEMO_PRODUCTS) {
    const found = await em.fork().execute(`select 1 from ${qualified(em, 'products')} where name = ? and brand = ?`, [p.name, p.brand]);
    if (found.length) continue;
    const input = ProductRequest.parse({
      name: p.name,
      brand: p.brand,
      type: p.type,
      description: p.description,
      price: p.price,
      damageCharges: p.damageCharges,
      image: opts.imageFor(`product:${p.name}`, p.shape),
      variants: p.variants ?? [],
      ...(p.rentalTerms ? { rentalTerms: p.rentalTerms } : {}),
    });
    const product = await createProduct(em.fork(), input);
    const warehouseBinID = binIds.get(p.bin)!;
    const lines = typeof p.stock === 'number' ? ([[null, null, p.stock]] as Array<[string | null, string | null, number]>) : p.stock;
    for (const [variantName, subName, quantity] of lines) {
      const variant = product.variants.find((v) => v.name === variantName);
      const sub = variant?.subVariants.find((s) => s.name === subName);
      await addStock(em.fork(), { productID: product.id, warehouseBinID, quantity, productVariantID: variant?.id ?? null, productSubVariantID: sub?.id ?? null }, null);
    }
    created.push(p.name);
  }
  return created;
}
