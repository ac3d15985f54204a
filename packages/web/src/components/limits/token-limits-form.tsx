import type { BudgetPeriod, LimitColumns } from '@gateway/shared';
import { Divider } from 'antd';
import { useTranslation } from 'react-i18next';
import { BudgetFormItems } from './budget-form-items';
import { LimitFormItems } from './limit-form-items';
import type { TokenLimits, TokenLimitsInput } from './limit-types';
import './limits.css';

/** The token form's limit fields; an emptied number is null (no limit of its own). */
export interface LimitsFormValues {
  rpm_limit: number | null;
  tpm_limit: number | null;
  concurrency_limit: number | null;
  budget_period: BudgetPeriod | '';
  budget_quota: number | null;
}

export function limitsFormValues(token: Partial<TokenLimits> | undefined): LimitsFormValues {
  return {
    rpm_limit: token?.rpm_limit ?? null,
    tpm_limit: token?.tpm_limit ?? null,
    concurrency_limit: token?.concurrency_limit ?? null,
    budget_period: token?.budget_period ?? '',
    budget_quota: token?.budget_period ? (token.budget_quota ?? null) : null,
  };
}

/** Form values → the body's fields; every field is sent, so an emptied input clears the stored value. */
export function limitsInput(values: LimitsFormValues): TokenLimitsInput {
  const limits: LimitColumns = {
    rpm_limit: values.rpm_limit ?? null,
    tpm_limit: values.tpm_limit ?? null,
    concurrency_limit: values.concurrency_limit ?? null,
  };
  const period = values.budget_period ?? '';
  return { ...limits, budget_period: period, budget_quota: period ? (values.budget_quota ?? 0) : 0 };
}

/** The token form's section: the three request limits and the period budget. */
export function LimitsFieldset() {
  const { t } = useTranslation();
  return (
    <>
      <Divider titlePlacement="start" plain>
        {t('limits.section')}
      </Divider>
      <LimitFormItems scope="token" />
      <BudgetFormItems />
    </>
  );
}
