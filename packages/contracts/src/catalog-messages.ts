/**
 * The catalog texts (SPEC §5/§8: warehouse bins, products, stock), kept free of zod on purpose: the
 * warehouse's bin, product and stock screens import them, and a module with schemas would bring zod
 * along, whose `new Function` probe breaks the CSP (no 'unsafe-eval'; issue 13). The schemas in
 * catalog.ts use these same texts.
 */

/** Texts of SPEC §5/§8 for the catalog, verbatim, and ours where the spec is silent. */
export const CATALOG_MESSAGES = {
  bin: {
    name: 'Please input Bin Name!',
    description: 'Please input Description!',
    created: 'Warehouse Bin created successfully!',
    updated: 'Warehouse Bin updated successfully!',
    errorTitle: 'Create Warehouse Bin Error',
    nameTaken: 'A warehouse bin with this name already exists.',
    holdsStock: 'This warehouse bin holds stock and cannot be deleted. Move or use up its stock first.',
    /** Said on the bin's Delete menu item before the click (issue 27), when the bin holds stock. */
    cannotDelete: (units: number) => `Can't delete: this bin holds ${units} ${units === 1 ? 'unit' : 'units'}.`,
  },
  product: {
    image: 'Please upload image',
    brand: 'Please input Brand!',
    name: 'Please input Product Name!',
    description: 'Please input Description!',
    type: 'Please input Type!',
    price: 'Please input Price!',
    damageCharges: 'Please input Damage of Lost Fee!',
    created: 'Product created successfully!',
    updated: 'Product updated successfully!',
    createErrorTitle: 'Create Product Error',
    updateErrorTitle: 'Update Product Error',
    variantName: 'Please input Variant Name!',
    subVariantName: 'Please input Sub-variant Name!',
    variantNamesUnique: 'Variant names must be unique.',
    subVariantNamesUnique: 'Sub-variant names must be unique within a variant.',
    firstVariantRename: 'The first variant cannot be renamed.',
    variantPrice: 'Each variant needs a price and a damage or lost fee.',
    subVariantPrice: 'Each sub-variant needs a price and a damage or lost fee.',
    variantHasStock: 'A variant or sub-variant that has stock cannot be removed.',
    badMoney: 'Enter an amount with at most two decimals, like 25.00.',
    archived: 'The product has stock or orders, so it was archived: it is hidden from the shop and its history is kept.',
    deleted: 'Product deleted.',
  },
  /** The shop's search and filters (issue 27). */
  search: {
    priceOrder: 'The lowest price must not be more than the highest price.',
    noResults: 'No products match your search and filters.',
    clear: 'Show all products',
  },
  stock: {
    bin: 'Please select Warehouse Bin!',
    quantity: 'Please input Quantity!',
    quantityRange: 'Quantity must be a whole number from 1 to 500.',
    added: 'Add product stock added successfully!',
    errorTitle: 'Adding of stock Error',
    warning: 'Stock quantity cannot be deleted or modified after submission.',
    levelVariant: 'Choose a variant: this product has variants, so stock is added to a variant.',
    levelSubVariant: 'Choose a sub-variant: this variant has sub-variants, so stock is added to a sub-variant.',
    levelNone: 'This product has no variants: add stock to the product itself.',
    unknownVariant: 'The variant does not belong to this product.',
    unknownBin: 'The warehouse bin does not exist.',
    archivedProduct: 'Stock cannot be added to an archived product.',
  },
} as const;
