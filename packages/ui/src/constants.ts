/** Toasts and notifications appear 120 px from the top (SPEC §9). */
export const FEEDBACK_TOP = 120;
