/** Notifications (an error with its title and the server's message, a due notice) appear 120 px from the top (SPEC §9). */
export const FEEDBACK_TOP = 120;

/**
 * Short toasts (a success, an info, a refused upload) sit at the bottom centre, this far above the
 * bottom edge (issue 27): at the top right they covered the page header's action buttons, the
 * ones just used. See docs/decisions.md "Issue 27: clarity".
 */
export const TOAST_BOTTOM = 24;
