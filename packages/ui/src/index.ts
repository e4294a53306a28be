export { ThemeProvider, theme } from './theme';
export { Loading, EmptyState, RefreshFailed, REFRESH_FAILED_TEXT } from './states';
export { PlainLoading, PlainEmpty } from './plain';
export { themedLazy } from './themed';
export { AntdTheme } from './antd-theme';
export { ErrorState, NotAvailable, PageNotFound, InfoResult } from './results';
export { LazyErrorState, LazyNotAvailable, LazyPageNotFound, LazyInfoResult } from './lazy-states';
export { PageHeader } from './PageHeader';
export { FIRST_PICTURE_TIMING, SCREEN_READY_EVENT, announceScreenReady } from './first-screen';
export { SectionTitle } from './SectionTitle';
export { FilterTabs, type FilterTab } from './FilterTabs';
export { ResponsiveTable, type ResponsiveTableProps } from './ResponsiveTable';
export { SearchBox, type SearchBoxProps } from './SearchBox';
export { StatusTag } from './StatusTag';
export { deleteAction, RowActions, type RowAction } from './RowActions';
export { CurrentUserProvider, useCurrentUser } from './shell-context';
export { useFeedback, FeedbackRoot as FeedbackProvider, FEEDBACK_TOP, TOAST_BOTTOM, type Feedback, type ConfirmOptions } from './feedback';
export type { RemoteAppProps } from './remote';
export { CURRENT_IMAGE_LABEL, ImageUpload, isAcceptedImage, uploadImage } from './ImageUpload';
export { OrderTracker, type OrderTrackerEntry } from './OrderTracker';
export { Scanner, type ScannerProps } from './Scanner';
export { SCAN_DELAY_MS, SCANNER_MESSAGES, cameraErrorMessage, cameraSupport, createReadGate } from './scanner-core';
export { CustomerInformation, ShippingInformation } from './OrderInfo';
export { Money, money } from './money';
export { QrBlock, QR_FILE_NAME, type QrBlockProps } from './order/QrBlock';
export { OrderLinesTable, days, type LineColumn, type OrderLinesTableProps } from './order/OrderLinesTable';
export { HandoverSection, type HandoverSectionProps } from './order/HandoverSection';
export { PaymentInfoBlock, type PaymentInfoBlockProps, type PaymentInfoRow } from './order/PaymentInfoBlock';
export { paymentRows, type PaymentRowsOptions, type PaymentRowsOrder } from './order/paymentRows';
export { ExtendRentalButton, Extensions, extensionPreview, EXTEND_TEXTS, RentalChangeModal, type ExtendRentalProps, type RentalChangeModalProps } from './order/ExtendRental';
export { nextOffset, uniqueRows } from './pages';
export { useBackTo, useListAddress, type ListAddress } from './list-address';
export {
  BILLING_CYCLES_TITLE,
  CYCLE_STATES,
  CycleCounts,
  cycleDaysText,
  cycleDueText,
  CYCLES_BEFORE_DELIVERY,
  cyclesBilledText,
  cyclesDueText,
  cyclesPaidText,
  CyclesTable,
  deliveredOnOf,
  OrderCycles,
  ownershipText,
  RENT_TO_OWN_TITLE,
  RentToOwnTable,
  type CyclesTableProps,
} from './order/CyclesTable';
