/** Business limits of SPEC §5 and §9 (no zod here: the browser imports these). */
export const ADDRESS_MAX = 12;
export const ZIPCODE_MIN = 6;
export const PASSWORD_MIN = 8;
export const NAME_MAX = 60;
