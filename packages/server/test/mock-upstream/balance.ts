import { answerJson, type Exchange } from './exchange.js';
import { openaiAuth, openaiError } from './openai.js';
import { bearer, type ErrorReply, type ErrorSpec, exact, INVALID_KEY, type Route } from './route.js';

/**
 * Balance endpoints the gateway polls per channel type. A `balance` behaviour sets the amount; otherwise it is
 * DEFAULT_BALANCE. Each provider reports it in its own shape, and where the gateway has to compute the balance
 * (OpenAI, OpenRouter) the parts are chosen so the correct computation gives back exactly `value` for integers.
 */
export const DEFAULT_BALANCE = 100;

/** OpenAI-style usage the mock always reports: $1.00, i.e. `total_usage: 100` (cents). */
export const OPENAI_USED_USD = 1;
/** OpenRouter `total_usage` the mock always reports (credits are `value + this`). */
export const OPENROUTER_USAGE = 25;

function amount(ex: Exchange): number {
  return ex.behaviour.kind === 'balance' ? ex.behaviour.value : DEFAULT_BALANCE;
}

/** OpenRouter: `{"error":{"code":401,"message":…}}`. */
function openrouterError(spec: ErrorSpec): ErrorReply {
  return {
    status: spec.status,
    body: { error: { code: spec.status, message: spec.message ?? `Upstream failed with status ${spec.status}.` } },
  };
}

/** SiliconFlow: `{"code":…,"message":…,"data":null}` with its own numeric codes. */
function siliconflowError(spec: ErrorSpec): ErrorReply {
  return {
    status: spec.status,
    body: {
      code: spec.status === 401 ? 20015 : spec.status * 100,
      message: spec.message ?? (spec.status === 401 ? 'Invalid token' : `Upstream failed with status ${spec.status}.`),
      data: null,
    },
  };
}

function bearerCheck(error: (spec: ErrorSpec) => ErrorReply) {
  return (ex: Exchange): ErrorReply | null => {
    const key = bearer(ex.headers);
    if (!key || key === INVALID_KEY) return error({ status: 401, message: 'Invalid API key.' });
    return null;
  };
}

/**
 * `GET /v1/dashboard/billing/subscription` reports `hard_limit_usd = value + 1` and
 * `GET /v1/dashboard/billing/usage` reports `total_usage = 100` cents, so limit − usage/100 = value.
 * Both paths share the route key: queue one behaviour per request the gateway makes.
 */
async function openaiBilling(ex: Exchange): Promise<void> {
  if (ex.path.endsWith('/usage')) {
    await answerJson(ex, { object: 'list', daily_costs: [], total_usage: OPENAI_USED_USD * 100 });
    return;
  }
  const value = amount(ex);
  await answerJson(ex, {
    object: 'billing_subscription',
    has_payment_method: true,
    soft_limit_usd: value + OPENAI_USED_USD,
    hard_limit_usd: value + OPENAI_USED_USD,
    system_hard_limit_usd: value + OPENAI_USED_USD,
    access_until: 0,
  });
}

/** DeepSeek: amounts as strings with two decimals, and the gateway must pick the CNY entry. */
async function deepseek(ex: Exchange): Promise<void> {
  const value = amount(ex);
  await answerJson(ex, {
    is_available: value > 0,
    balance_infos: [
      { currency: 'USD', total_balance: '0.00', granted_balance: '0.00', topped_up_balance: '0.00' },
      {
        currency: 'CNY',
        total_balance: value.toFixed(2),
        granted_balance: '0.00',
        topped_up_balance: value.toFixed(2),
      },
    ],
  });
}

async function openrouter(ex: Exchange): Promise<void> {
  const value = amount(ex);
  await answerJson(ex, { data: { total_credits: value + OPENROUTER_USAGE, total_usage: OPENROUTER_USAGE } });
}

/** SiliconFlow: `code: 20000` means success; the balances are strings. */
async function siliconflow(ex: Exchange): Promise<void> {
  const value = amount(ex);
  await answerJson(ex, {
    code: 20000,
    message: 'OK',
    status: true,
    data: {
      id: 'mock-user',
      name: 'mock',
      image: '',
      email: 'mock@example.com',
      isAdmin: false,
      balance: String(value),
      status: 'normal',
      introduction: '',
      role: '',
      chargeBalance: '0',
      totalBalance: String(value),
      category: 'user',
    },
  });
}

/** Moonshot: `available_balance` in CNY, with `code: 0` and `status: true` for success. */
async function moonshot(ex: Exchange): Promise<void> {
  const value = amount(ex);
  await answerJson(ex, {
    code: 0,
    data: { available_balance: value, voucher_balance: 0, cash_balance: value },
    scode: '0x0',
    status: true,
  });
}

export const balanceRoutes: Route[] = [
  {
    key: 'balance.openai',
    method: 'GET',
    match: exact(
      '/v1/dashboard/billing/subscription',
      '/v1/dashboard/billing/usage',
      '/dashboard/billing/subscription',
      '/dashboard/billing/usage',
    ),
    error: openaiError,
    check: openaiAuth,
    handle: openaiBilling,
  },
  {
    key: 'balance.deepseek',
    method: 'GET',
    match: exact('/user/balance'),
    error: openaiError,
    check: openaiAuth,
    handle: deepseek,
  },
  {
    key: 'balance.openrouter',
    method: 'GET',
    match: exact('/api/v1/credits'),
    error: openrouterError,
    check: bearerCheck(openrouterError),
    handle: openrouter,
  },
  {
    key: 'balance.siliconflow',
    method: 'GET',
    match: exact('/v1/user/info'),
    error: siliconflowError,
    check: bearerCheck(siliconflowError),
    handle: siliconflow,
  },
  {
    key: 'balance.moonshot',
    method: 'GET',
    match: exact('/v1/users/me/balance'),
    error: openaiError,
    check: openaiAuth,
    handle: moonshot,
  },
];
