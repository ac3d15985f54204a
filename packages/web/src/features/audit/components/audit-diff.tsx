import { ArrowRightOutlined } from '@ant-design/icons';
import { Button, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeValue } from '../audit-view';
import type { AuditChange } from '../types';

/** Lines shown before "show all": a model-ratio reset can list thousands of prices. */
const FOLDED_LINES = 4;

function DiffValue({ value }: { value: unknown }) {
  const { t } = useTranslation();
  const described = describeValue(value);
  if (described.kind === 'empty') return <span className="audit-value-empty">{t('audit.value_empty')}</span>;
  if (described.kind === 'masked') return <Tag className="audit-value-masked">{t('audit.value_masked')}</Tag>;
  return (
    <Typography.Text code ellipsis={{ tooltip: described.text }} className="audit-value">
      {described.text}
    </Typography.Text>
  );
}

/** A row's changes, one per line: `field: before → after`. */
export function AuditDiff({ changes }: { changes: AuditChange[] }) {
  const { t } = useTranslation();
  const [all, setAll] = useState(false);
  if (changes.length === 0) return <Typography.Text type="secondary">{t('audit.no_changes')}</Typography.Text>;
  const shown = all ? changes : changes.slice(0, FOLDED_LINES);
  return (
    <ul className="audit-diff" data-testid="audit-diff">
      {shown.map((change) => (
        <li key={change.field} className="audit-diff-line">
          <span className="audit-field">{change.field}</span>
          <DiffValue value={change.before} />
          <ArrowRightOutlined className="audit-arrow" aria-label={t('audit.changed_to')} />
          <DiffValue value={change.after} />
        </li>
      ))}
      {changes.length > FOLDED_LINES && (
        <li>
          <Button type="link" size="small" className="audit-diff-more" onClick={() => setAll(!all)}>
            {all ? t('audit.show_fewer') : t('audit.show_all', { count: changes.length })}
          </Button>
        </li>
      )}
    </ul>
  );
}
