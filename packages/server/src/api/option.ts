import {
  isOptionKey,
  isSecretOptionKey,
  normalizeOptionValue,
  OPTION_DEFINITIONS,
  OPTION_KEYS,
  type OptionKey,
} from '@gateway/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { guards } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import { ApiFailure, messageFor, ok } from '../http/envelope.js';
import { type AuditEntry, recordAudit } from '../services/audit/audit-trail.js';
import { optionChanges } from '../services/audit/entity-diffs.js';

// The console sends strings, but scripts written for the family also send numbers and booleans.
const putSchema = z.object({
  key: z.string().min(1),
  value: z.union([z.string(), z.number(), z.boolean()]),
});

export async function optionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Root only, as in the family: options include SMTP, sign-in and payment secrets, and an admin who could point
  // SMTP at their own server could take over root through a password reset.
  const { root } = guards(ctx);
  const current = (key: string) => (isOptionKey(key) ? ctx.options.get(key) : '');
  const audited = (action: string, key: string, before: string, after: string): AuditEntry => ({
    action,
    targetType: 'option',
    targetId: key,
    changes: optionChanges(key, before, after),
  });

  app.get('/api/option/', { preHandler: root }, async () => {
    const values = ctx.options.all();
    // Secret values never leave the server: the forms show them empty and save them only when typed.
    const list = OPTION_KEYS.map((key) => ({ key, value: isSecretOptionKey(key) ? '' : values[key] }));
    return ok(list);
  });

  app.put('/api/option/', { preHandler: root }, async (request) => {
    const body = (request.body ?? {}) as { key?: unknown; value?: unknown };
    if (body.value === undefined || body.value === null) {
      // The family's console saves a whole settings form, sending an untouched secret field (shown empty, as secrets
      // never leave the server) without a value: that means "keep it". The family would store "" instead, wiping an
      // SMTP or payment key. Any other option without a value is refused, changing nothing.
      if (typeof body.key === 'string' && isOptionKey(body.key) && isSecretOptionKey(body.key)) {
        return ok(undefined, messageFor(request, 'saved'));
      }
      throw new ApiFailure('option_value_missing');
    }
    const parsed = putSchema.safeParse(body);
    if (!parsed.success)
      throw new ApiFailure(parsed.error.issues[0]?.path[0] === 'value' ? 'option_value_not_string' : 'invalid_params');
    const { key } = parsed.data;
    const value = normalizeOptionValue(key, String(parsed.data.value));
    const before = current(key);
    const error = await ctx.options.set(key, value);
    if (error) throw new ApiFailure(error.code, error.params);
    await recordAudit(ctx, request, [audited('option.update', key, before, value)]);
    request.log.info({ key, by: request.user?.id }, 'option updated');
    return ok(undefined, messageFor(request, 'saved'));
  });

  // "Reset model ratios" (the family's spelling of the path): every per-model pricing map back to the built-in
  // defaults. Group ratios are the operator's business structure, not model prices, and stay.
  app.post('/api/option/rest_model_ratio', { preHandler: root }, async (request) => {
    const keys: OptionKey[] = [
      'ModelRatio',
      'CompletionRatio',
      'CacheRatio',
      'AudioRatio',
      'AudioCompletionRatio',
      'ModelPrice',
    ];
    const entries: AuditEntry[] = [];
    for (const key of keys) {
      const before = current(key);
      const error = await ctx.options.set(key, OPTION_DEFINITIONS[key].default);
      if (error) throw new ApiFailure(error.code, error.params);
      entries.push(audited('option.reset_model_ratio', key, before, OPTION_DEFINITIONS[key].default));
    }
    await recordAudit(ctx, request, entries);
    request.log.info({ by: request.user?.id }, 'model ratios reset');
    return ok(undefined, messageFor(request, 'model_ratio_reset'));
  });
}
