import { renderStandalone } from '@dme/ui/remote';

// Standalone entry: only when this bundle is opened on its own (the product runs it inside the shell).
renderStandalone();
