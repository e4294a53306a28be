// Async boundary: shared modules (react, router...) are negotiated before the app code runs.
import('./bootstrap');
