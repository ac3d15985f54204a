// The answer shapes are declared once in @gateway/shared; this console keeps its own names for them.
import type { TokenLimitsView as TokenLimits } from '@gateway/shared';

export type { TokenLimits };

import type { BudgetPeriod, LimitColumns } from '@gateway/shared';

/** What the token form sends: every field, so a cleared input clears the stored value. */
export type TokenLimitsInput = LimitColumns & { budget_period: BudgetPeriod | ''; budget_quota: number };
