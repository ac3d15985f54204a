import { z } from 'zod';

export const REDEMPTION_DEFAULT_QUOTA = 100000;
export const REDEMPTION_BATCH_MAX = 100;
export const REDEMPTION_NAME_MAX = 64;

const quota = z
  .number({ error: 'redemption_quota_invalid' })
  .int('redemption_quota_invalid')
  .min(1, 'redemption_quota_invalid')
  .max(Number.MAX_SAFE_INTEGER);
const expiry = z
  .number()
  .int('redemption_expiry_invalid')
  .refine((value) => value === 0 || value > 0, 'redemption_expiry_invalid')
  .default(0);

/** Creating codes: name (the console defaults it to the formatted quota), quota, how many, optional expiry. */
export const redemptionCreateSchema = z.object({
  name: z
    .string({ error: 'redemption_name_required' })
    .trim()
    .min(1, 'redemption_name_required')
    .max(REDEMPTION_NAME_MAX, 'redemption_name_too_long'),
  quota,
  count: z
    .number()
    .int('redemption_count_invalid')
    .min(1, 'redemption_count_invalid')
    .max(REDEMPTION_BATCH_MAX, 'redemption_count_invalid')
    .default(1),
  expired_time: expiry,
});

export const redemptionUpdateSchema = z.object({
  id: z.number().int().positive(),
  name: z
    .string({ error: 'redemption_name_required' })
    .trim()
    .min(1, 'redemption_name_required')
    .max(REDEMPTION_NAME_MAX, 'redemption_name_too_long'),
  quota,
  expired_time: expiry,
});

export const redeemSchema = z.object({
  key: z.string({ error: 'redemption_key_required' }).trim().min(1, 'redemption_key_required').max(64),
});
