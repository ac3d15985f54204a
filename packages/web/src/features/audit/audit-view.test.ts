import { describe, expect, it } from 'vitest';
import { actionColor, actionLabelKey, auditFilterQuery, describeValue, emptyAuditFilters } from './audit-view';

describe('audit view helpers', () => {
  it('reads values as empty, masked or text', () => {
    expect(describeValue(null)).toEqual({ kind: 'empty' });
    expect(describeValue('')).toEqual({ kind: 'empty' });
    expect(describeValue('***')).toEqual({ kind: 'masked' });
    expect(describeValue(0)).toEqual({ kind: 'text', text: '0' });
    expect(describeValue({ a: 1 })).toEqual({ kind: 'text', text: '{"a":1}' });
  });

  it('names known actions and leaves unknown ones as they are', () => {
    expect(actionLabelKey('channel.batch_tag')).toBe('audit.actions.channel_batch_tag');
    expect(actionLabelKey('future.thing')).toBeNull();
    expect(actionColor('user.login_failed')).toBe('red');
    expect(actionColor('option.update')).toBe('orange');
    expect(actionColor('future.thing')).toBe('default');
  });

  it('sends only the filters that are set', () => {
    expect(auditFilterQuery(emptyAuditFilters())).toEqual({
      action: undefined,
      actor: undefined,
      target_type: undefined,
      start_timestamp: undefined,
      end_timestamp: undefined,
    });
    expect(auditFilterQuery({ action: 'user.login', actor: ' root ', targetType: 'user', start: 10, end: 20 })).toEqual(
      { action: 'user.login', actor: 'root', target_type: 'user', start_timestamp: 10, end_timestamp: 20 },
    );
  });
});
