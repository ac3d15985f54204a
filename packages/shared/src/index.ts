// First: configures zod before any schema below is created (see zod-config.ts).
import './zod-config.js';

export * from './billing/model-price.js';
export * from './billing/quota.js';
export * from './billing/ratio-price.js';
export * from './channels/channel-form.js';
export * from './channels/channel-types.js';
export * from './enums.js';
export * from './envelope.js';
export * from './fallback/index.js';
export * from './limits/index.js';
export * from './log-facts.js';
export * from './messages.js';
export * from './metrics-summary.js';
export * from './model-kind.js';
export * from './options/definitions.js';
export * from './options/kinds.js';
export * from './options/normalize.js';
export * from './options/pricing-defaults.js';
export * from './options/responses-policy.js';
export * from './options/validate.js';
export * from './quota.js';
export * from './schemas/account.js';
export * from './schemas/auth.js';
export * from './schemas/redemption.js';
export * from './schemas/token.js';
export * from './schemas/user.js';
export * from './status.js';
