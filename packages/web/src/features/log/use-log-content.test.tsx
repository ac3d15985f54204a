import { logFacts } from '@gateway/shared';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import i18n from '../../lib/i18n';
import { mockFetch, ok } from '../../test/fetch-mock';
import { renderPage } from '../../test/render';
import { statusFixture } from '../../test/status-fixture';
import type { LogItem } from './types';
import { useLogContent } from './use-log-content';

type Line = Pick<LogItem, 'type' | 'content' | 'other'>;

function Lines({ lines }: { lines: Line[] }) {
  const content = useLogContent();
  return (
    <ol>
      {lines.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list in a test
        <li key={index}>{content(line)}</li>
      ))}
    </ol>
  );
}

// Rows as the server writes them: the family's Chinese content, and the facts beside it.
const LINES: Line[] = [
  {
    type: 2,
    content: '模型倍率 2.5，补全倍率 4，分组倍率 1',
    other: JSON.stringify({ model_ratio: 2.5, completion_ratio: 4, group_ratio: 1, model_price: -1 }),
  },
  {
    type: 2,
    content: '模型价格 0.04，分组倍率 1，操作 IMAGINE，任务 ID 17',
    other: JSON.stringify({ model_price: 0.04, group_ratio: 1, task_id: '17', action: 'IMAGINE' }),
  },
  { type: 1, content: '通过兑换码充值 $1.00，兑换码ID 9', other: logFacts('redeem', { quota: 500000, code_id: 9 }) },
  {
    type: 1,
    content: '在线充值成功，充值额度: $2.00，支付金额：14.00',
    other: logFacts('topup_online', { quota: 1000000, money: '14.00' }),
  },
  { type: 4, content: '新用户注册赠送 $0.20', other: logFacts('register_bonus', { quota: 100000 }) },
  {
    type: 4,
    content: '构图失败 abc，补偿 $0.10',
    other: logFacts('task_refund_drawing', { task_id: 'abc', quota: 50000 }),
  },
  {
    type: 3,
    content: '管理员将用户额度从 $1.00 修改为 $2.00',
    other: logFacts('admin_set_quota', { from: 500000, to: 1000000 }),
  },
  // Written by the family's own server: no facts, shown as written.
  { type: 4, content: '旧系统写的日志', other: '' },
];

describe('log lines in the reader’s language', () => {
  it('renders every kind of server-written line in English from its facts', async () => {
    await i18n.changeLanguage('en');
    mockFetch({ 'GET /api/status': ok(statusFixture()) });
    renderPage(<Lines lines={LINES} />, { path: '/' });
    const items = (await screen.findAllByRole('listitem')).map((item) => item.textContent);
    expect(items).toEqual([
      'Model ratio 2.5, completion ratio 4, group ratio 1',
      'Model price 0.04, group ratio 1, action IMAGINE, task ID 17',
      'Topped up $1.00 with redemption code ID 9',
      'Online top-up succeeded: $2.00 added for a payment of 14.00',
      'Sign-up gift of $0.20',
      'Drawing task abc failed; $0.10 refunded',
      'An administrator changed the quota from $1.00 to $2.00',
      '旧系统写的日志',
    ]);
  });

  it('renders them in Chinese for a Chinese reader', async () => {
    mockFetch({ 'GET /api/status': ok(statusFixture()) });
    renderPage(<Lines lines={LINES.slice(0, 3)} />, { path: '/' });
    const items = (await screen.findAllByRole('listitem')).map((item) => item.textContent);
    expect(items).toEqual([
      '模型倍率 2.5，补全倍率 4，分组倍率 1',
      '模型价格 0.04，分组倍率 1，操作 IMAGINE，任务 ID 17',
      '通过兑换码充值 $1.00，兑换码 ID 9',
    ]);
  });
});
