/** The source this service names on the events it records (DESIGN §7: `dme.order.*`). */
export const SOURCE = 'order';
