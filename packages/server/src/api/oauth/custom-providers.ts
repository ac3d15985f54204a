import {
  CUSTOM_OAUTH_SLUG_PATTERN,
  type CustomOAuthDiscoveryView,
  type CustomOAuthProviderInput,
  RESERVED_OAUTH_SLUGS,
} from '@gateway/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { guards } from '../../auth/guard.js';
import type { AppContext } from '../../context.js';
import type { CustomOAuthProviderFields } from '../../db/repos/custom-oauth.js';
import { nowSeconds } from '../../db/sql-helpers.js';
import { ApiFailure, messageFor, ok } from '../../http/envelope.js';
import { loginProvidersChanged, providerView } from '../../services/accounts/oauth/custom.js';
import { fetchDiscoveryDocument } from '../../services/accounts/oauth/oidc-discovery.js';
import { recordAudit } from '../../services/audit/audit-trail.js';
import { customOAuthChanges } from '../../services/audit/entity-diffs.js';
import { SecretBox } from '../../services/security/secret-box.js';

const TEXT_FIELDS = {
  name: 64,
  slug: 64,
  icon: 128,
  client_id: 256,
  authorization_endpoint: 512,
  token_endpoint: 512,
  user_info_endpoint: 512,
  scopes: 256,
  user_id_field: 128,
  username_field: 128,
  display_name_field: 128,
  email_field: 128,
  well_known: 512,
} as const;
type TextField = keyof typeof TEXT_FIELDS;
const ENDPOINTS = ['authorization_endpoint', 'token_endpoint', 'user_info_endpoint'] as const;
const REQUIRED: TextField[] = ['client_id', ...ENDPOINTS];

/** The settings form's values that were sent, trimmed and capped; booleans and numbers as scripts send them. */
function readInput(body: unknown): CustomOAuthProviderInput {
  const raw = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const input: Record<string, unknown> = {};
  for (const [field, max] of Object.entries(TEXT_FIELDS)) {
    const value = raw[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw new ApiFailure('invalid_params');
    input[field] = value.trim().slice(0, max);
  }
  if (typeof raw.client_secret === 'string') input.client_secret = raw.client_secret.trim().slice(0, 320);
  if (raw.enabled !== undefined) input.enabled = raw.enabled === true || raw.enabled === 1 || raw.enabled === 'true';
  if (raw.auth_style !== undefined) {
    const style = Number(raw.auth_style);
    if (![0, 1, 2].includes(style)) throw new ApiFailure('invalid_params');
    input.auth_style = style;
  }
  return input as CustomOAuthProviderInput;
}

/** Checks what the provider will look like after the change (the family's validateCustomOAuthProvider rules). */
function checkComplete(values: Record<string, unknown>): void {
  if (!String(values.name ?? '').trim()) throw new ApiFailure('custom_oauth_name_required');
  const slug = String(values.slug ?? '');
  if (!CUSTOM_OAUTH_SLUG_PATTERN.test(slug)) throw new ApiFailure('custom_oauth_slug_invalid');
  if ((RESERVED_OAUTH_SLUGS as readonly string[]).includes(slug)) throw new ApiFailure('custom_oauth_slug_reserved');
  for (const field of REQUIRED) {
    if (!String(values[field] ?? '').trim()) throw new ApiFailure('custom_oauth_field_required', { field });
  }
  for (const field of [...ENDPOINTS, 'well_known'] as const) {
    const value = String(values[field] ?? '');
    if (value && !/^https?:\/\/[^\s]+$/i.test(value)) throw new ApiFailure('custom_oauth_url_invalid', { field });
  }
}

function idParam(request: FastifyRequest, name = 'id'): number {
  const id = Number((request.params as Record<string, string>)[name]);
  if (!Number.isInteger(id) || id <= 0) throw new ApiFailure('invalid_params');
  return id;
}

/**
 * `/api/custom-oauth-provider`: the root's list of sign-in providers it added itself (the family's routes and
 * answers). The client secret goes in, sealed, and never comes out: the list says only whether one is set.
 */
export async function customProviderRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { root } = guards(ctx);
  const repo = ctx.repos.customOAuth;
  const box = new SecretBox(ctx.config.cryptoSecret);

  const load = async (id: number) => {
    const provider = await repo.find(id);
    if (!provider) throw new ApiFailure('custom_oauth_not_found');
    return provider;
  };

  app.get('/api/custom-oauth-provider/', { preHandler: root }, async () => ok((await repo.list()).map(providerView)));

  app.get('/api/custom-oauth-provider/:id', { preHandler: root }, async (request) =>
    ok(providerView(await load(idParam(request)))),
  );

  app.post('/api/custom-oauth-provider/', { preHandler: root, bodyLimit: 16_384 }, async (request) => {
    const input = readInput(request.body);
    const values = {
      scopes: 'openid profile email',
      user_id_field: 'sub',
      username_field: 'preferred_username',
      display_name_field: 'name',
      email_field: 'email',
      ...input,
    };
    checkComplete(values);
    if (await repo.slugTaken(values.slug!)) throw new ApiFailure('custom_oauth_slug_taken');
    const { client_secret: secret, enabled, ...rest } = values;
    const fields: CustomOAuthProviderFields = {
      ...(rest as CustomOAuthProviderFields),
      enabled: enabled ? 1 : 0,
      client_secret: secret ? box.seal(secret) : '',
    };
    const id = await repo.insert(fields, nowSeconds());
    loginProvidersChanged(ctx);
    const created = await load(id);
    await recordAudit(ctx, request, [
      {
        action: 'custom_oauth.create',
        targetType: 'custom_oauth',
        targetId: id,
        changes: customOAuthChanges(null, created),
      },
    ]);
    return ok(providerView(await load(id)), messageFor(request, 'custom_oauth_saved'));
  });

  app.put('/api/custom-oauth-provider/:id', { preHandler: root, bodyLimit: 16_384 }, async (request) => {
    const id = idParam(request);
    const before = await load(id);
    const current = providerView(before);
    const input = readInput(request.body);
    checkComplete({ ...current, ...input });
    if (input.slug !== undefined && input.slug !== current.slug && (await repo.slugTaken(input.slug, id))) {
      throw new ApiFailure('custom_oauth_slug_taken');
    }
    const { client_secret: secret, enabled, ...rest } = input;
    const fields: Partial<CustomOAuthProviderFields> = { ...rest };
    if (enabled !== undefined) fields.enabled = enabled ? 1 : 0;
    // An empty secret field means "keep the stored one": the console never has it to send back.
    if (secret) fields.client_secret = box.seal(secret);
    await repo.update(id, fields, nowSeconds());
    loginProvidersChanged(ctx);
    await recordAudit(ctx, request, [
      {
        action: 'custom_oauth.update',
        targetType: 'custom_oauth',
        targetId: id,
        changes: customOAuthChanges(before, await load(id)),
      },
    ]);
    return ok(providerView(await load(id)), messageFor(request, 'custom_oauth_saved'));
  });

  // As the family: a provider someone is still bound to stays, so nobody loses a way to sign in unnoticed.
  app.delete('/api/custom-oauth-provider/:id', { preHandler: root }, async (request) => {
    const id = idParam(request);
    const before = await load(id);
    const outcome = await repo.deleteUnbound(id);
    loginProvidersChanged(ctx);
    if (outcome === 'bound') throw new ApiFailure('custom_oauth_still_bound');
    if (outcome === 'missing') throw new ApiFailure('custom_oauth_not_found');
    await recordAudit(ctx, request, [
      {
        action: 'custom_oauth.delete',
        targetType: 'custom_oauth',
        targetId: id,
        changes: customOAuthChanges(before, null),
      },
    ]);
    return ok(undefined, messageFor(request, 'custom_oauth_deleted'));
  });

  // `{well_known_url}` or `{issuer_url}`: the form fills the endpoints from the provider's well-known document.
  app.post('/api/custom-oauth-provider/discovery', { preHandler: root, bodyLimit: 8192 }, async (request) => {
    const body = (request.body ?? {}) as { well_known_url?: unknown; issuer_url?: unknown };
    const wellKnown = typeof body.well_known_url === 'string' ? body.well_known_url.trim() : '';
    const issuer = typeof body.issuer_url === 'string' ? body.issuer_url.trim() : '';
    const target = wellKnown || (issuer ? `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration` : '');
    const document = await fetchDiscoveryDocument(ctx, target);
    const view: CustomOAuthDiscoveryView = {
      well_known_url: target,
      discovery: document,
    };
    return ok(view);
  });
}
