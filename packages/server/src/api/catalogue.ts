import {
  type CatalogueModelPage,
  type CatalogueVendorPage,
  catalogueModelSchema,
  catalogueVendorSchema,
  modelsByChannelType,
  Role,
} from '@gateway/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { currentUser, guards } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import { ApiFailure, messageFor, ok } from '../http/envelope.js';
import { queryNumber, queryString, readPaging } from '../http/paging.js';
import { parseBody } from '../http/validation.js';
import { recordAudit } from '../services/audit/audit-trail.js';
import { optionChanges } from '../services/audit/entity-diffs.js';
import {
  addMissingModels,
  missingModels,
  modelView,
  saveModel,
  saveVendor,
  vendorView,
} from '../services/catalogue/catalogue.js';
import { forgetCatalogueSnapshot } from '../services/catalogue/snapshot.js';

const idOf = (request: FastifyRequest) => {
  const id = Number((request.params as { id: string }).id);
  return Number.isSafeInteger(id) && id > 0 ? id : 0;
};
const statusOnlySchema = z.object({ id: z.number().int().positive(), status: z.number().int().min(0).max(1) });
const missingSchema = z.object({ model_names: z.array(z.string().trim().min(1)).min(1).max(1000) });

/**
 * The model catalogue (the family's `/api/models/` and `/api/vendors/`, admin only). `GET /api/models` without the
 * trailing slash stays the signed-in user's channel type → model list of the channel editor, as in the family,
 * whose router tells the two paths apart; ours ignores trailing slashes, so one route looks at the path.
 */
export async function catalogueRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { user, admin } = guards(ctx);
  const { catalogue } = ctx.repos;
  // Every write below is followed by the price list reading the catalogue again.
  app.addHook('onSend', async (request, _reply, payload) => {
    if (request.method !== 'GET' && /^\/api\/(models|vendors)\//.test(request.url)) forgetCatalogueSnapshot(ctx);
    return payload;
  });

  const modelPage = async (request: FastifyRequest): Promise<CatalogueModelPage> => {
    const query = request.query as Record<string, unknown>;
    const { page, pageSize, offset } = readPaging(query);
    const status = queryString(query, 'status');
    const { rows, total } = await catalogue.modelPage(
      {
        keyword: queryString(query, 'keyword'),
        vendorId: queryNumber(query, 'vendor'),
        status: status === '0' || status === '1' ? Number(status) : undefined,
      },
      { offset, limit: pageSize },
    );
    const counts = await catalogue.modelCountsByVendor();
    return {
      items: rows.map((row) => modelView(ctx, row)),
      total,
      page,
      page_size: pageSize,
      vendor_counts: Object.fromEntries(counts),
    };
  };

  app.get('/api/models', { preHandler: user }, async (request) => {
    if (!request.url.split('?')[0]!.endsWith('/')) return ok(modelsByChannelType());
    if (currentUser(request).role < Role.Admin) throw new ApiFailure('permission_denied');
    return ok(await modelPage(request));
  });
  app.get('/api/models/search', { preHandler: admin }, async (request) => ok(await modelPage(request)));
  app.get('/api/models/missing', { preHandler: admin }, async () => ok(await missingModels(ctx)));
  app.post('/api/models/missing', { preHandler: admin }, async (request) => {
    const { model_names } = parseBody(missingSchema, request.body);
    const ids = await addMissingModels(ctx, model_names);
    return ok({ added: ids.length }, messageFor(request, 'saved'));
  });
  app.get('/api/models/:id', { preHandler: admin }, async (request) => {
    const row = await catalogue.model(idOf(request));
    if (!row) throw new ApiFailure('catalogue_not_found');
    return ok(modelView(ctx, row));
  });

  const writeModel = async (request: FastifyRequest, creating: boolean) => {
    const input = parseBody(catalogueModelSchema, request.body);
    if (creating) input.id = undefined;
    else if (!input.id) throw new ApiFailure('catalogue_not_found');
    // Prices are the ratio options, which only root may change (as on the settings page): admins edit the rest.
    if (input.price && currentUser(request).role < Role.Root) throw new ApiFailure('permission_denied');
    const saved = await saveModel(ctx, input);
    await recordAudit(
      ctx,
      request,
      saved.optionWrites.map((write) => ({
        action: 'option.update',
        targetType: 'option' as const,
        targetId: write.key,
        changes: optionChanges(write.key, write.before, write.after),
      })),
    );
    const row = await catalogue.model(saved.id);
    return ok(row ? modelView(ctx, row) : null, messageFor(request, 'saved'));
  };
  app.post('/api/models/', { preHandler: admin }, (request) => writeModel(request, true));
  app.put('/api/models/', { preHandler: admin }, async (request) => {
    if ((request.query as Record<string, unknown>).status_only !== 'true') return writeModel(request, false);
    // The family's status switch sends only the id and the status.
    const { id, status } = parseBody(statusOnlySchema, request.body);
    if (!(await catalogue.updateModel(id, { status }))) throw new ApiFailure('catalogue_not_found');
    return ok({ id, status }, messageFor(request, 'saved'));
  });
  app.delete('/api/models/:id', { preHandler: admin }, async (request) => {
    if (!(await catalogue.deleteModel(idOf(request)))) throw new ApiFailure('catalogue_not_found');
    return ok(undefined, messageFor(request, 'deleted_count', { count: 1 }));
  });

  const vendorPage = async (request: FastifyRequest): Promise<CatalogueVendorPage> => {
    const query = request.query as Record<string, unknown>;
    const { page, pageSize, offset } = readPaging(query);
    const { rows, total } = await catalogue.vendorPage(queryString(query, 'keyword'), { offset, limit: pageSize });
    const counts = await catalogue.modelCountsByVendor();
    return { items: rows.map((row) => vendorView(row, counts)), total, page, page_size: pageSize };
  };
  app.get('/api/vendors/', { preHandler: admin }, async (request) => ok(await vendorPage(request)));
  app.get('/api/vendors/search', { preHandler: admin }, async (request) => ok(await vendorPage(request)));
  app.get('/api/vendors/:id', { preHandler: admin }, async (request) => {
    const row = await catalogue.vendor(idOf(request));
    if (!row) throw new ApiFailure('catalogue_not_found');
    return ok(vendorView(row, await catalogue.modelCountsByVendor()));
  });
  const writeVendor = async (request: FastifyRequest, creating: boolean) => {
    const input = parseBody(catalogueVendorSchema, request.body);
    if (creating) input.id = undefined;
    else if (!input.id) throw new ApiFailure('catalogue_not_found');
    const id = await saveVendor(ctx, input);
    const row = await catalogue.vendor(id);
    return ok(row ? vendorView(row, await catalogue.modelCountsByVendor()) : null, messageFor(request, 'saved'));
  };
  app.post('/api/vendors/', { preHandler: admin }, (request) => writeVendor(request, true));
  app.put('/api/vendors/', { preHandler: admin }, (request) => writeVendor(request, false));
  app.delete('/api/vendors/:id', { preHandler: admin }, async (request) => {
    if (!(await catalogue.deleteVendor(idOf(request)))) throw new ApiFailure('catalogue_not_found');
    return ok(undefined, messageFor(request, 'deleted_count', { count: 1 }));
  });
}
