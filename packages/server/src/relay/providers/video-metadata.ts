/**
 * A value of the client's `metadata`, read as the vendor's body will carry it (the family overlays metadata on the
 * body, so what is set there is what is sent, and wins over the common fields). Anything else reads as unset.
 */
export const metaText = (value: unknown): string | undefined =>
  typeof value === 'string' && value ? value : undefined;

export const metaInteger = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) ? value : undefined;
