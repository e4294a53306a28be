/** Business limits of SPEC §5 and §9 (no zod here: the browser imports these). */
export const ADDRESS_MAX = 12;
export const ZIPCODE_MIN = 6;
export const PASSWORD_MIN = 8;
export const NAME_MAX = 60;

/**
 * How long a 409 on user creation (a username already taken) shows the server's message as a
 * notification (SPEC §7, §9: "409 display 500 ms"). The same message stays on the Username field
 * until it is changed, so nothing is lost when the notification goes.
 */
export const CONFLICT_DISPLAY_MS = 500;

/** How many products one availability request of the shop's grid may ask about (a page of cards; issue 25). */
export const AVAILABILITY_BATCH_MAX = 24;
