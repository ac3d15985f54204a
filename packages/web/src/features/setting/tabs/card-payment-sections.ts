import type { TFunction } from 'i18next';
import type { Section } from './system-tab';

/**
 * The card payment sections of the system settings: Stripe Checkout and Creem. Each shows the webhook address to
 * register with the provider, and the server address must be set first (payers are sent back there); the keys and webhook secrets are write-only (the server never sends them back).
 */
export function cardPaymentSections(t: TFunction, serverAddressFirst: Section['beforeSave']): Section[] {
  return [
    {
      id: 'stripe',
      title: t('payments.stripe_title'),
      callback: '/api/stripe/webhook',
      beforeSave: serverAddressFirst,
      fields: [
        {
          key: 'StripeApiSecret',
          kind: 'secret',
          label: t('payments.stripe_api_secret'),
          placeholder: 'sk_live_… / rk_live_…',
        },
        {
          key: 'StripeWebhookSecret',
          kind: 'secret',
          label: t('payments.stripe_webhook_secret'),
          placeholder: 'whsec_…',
        },
        {
          key: 'StripePriceId',
          kind: 'text',
          label: t('payments.stripe_price_id'),
          help: t('payments.stripe_price_id_help'),
          placeholder: 'price_…',
        },
        {
          key: 'StripeUnitPrice',
          kind: 'number',
          label: t('payments.stripe_unit_price'),
          help: t('payments.stripe_unit_price_help'),
          min: 0,
          step: 0.1,
        },
        { key: 'StripeMinTopUp', kind: 'number', label: t('payments.stripe_min_top_up'), min: 1, precision: 0 },
        { key: 'StripePromotionCodesEnabled', kind: 'switch', label: t('payments.stripe_promotion_codes') },
      ],
    },
    {
      id: 'creem',
      title: t('payments.creem_title'),
      callback: '/api/creem/webhook',
      beforeSave: serverAddressFirst,
      fields: [
        { key: 'CreemApiKey', kind: 'secret', label: t('payments.creem_api_key') },
        { key: 'CreemWebhookSecret', kind: 'secret', label: t('payments.creem_webhook_secret') },
        {
          key: 'CreemTestMode',
          kind: 'switch',
          label: t('payments.creem_test_mode'),
          help: t('payments.creem_test_mode_help'),
        },
        {
          key: 'CreemProducts',
          kind: 'json',
          label: t('payments.creem_products'),
          help: t('payments.creem_products_help'),
          placeholder: '[{"productId": "prod_…", "name": "…", "price": 4.99, "currency": "USD", "quota": 2500000}]',
          rows: 4,
          wide: true,
        },
      ],
    },
  ];
}
