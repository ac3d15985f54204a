import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { renderPage } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import { usePlaygroundModels } from './use-playground-models';

function Offered() {
  const models = usePlaygroundModels();
  return (
    <>
      <p data-testid="offered">{(models.data ?? []).join(',')}</p>
      <p data-testid="unpriced">{models.unpriced.join(',')}</p>
    </>
  );
}

describe('usePlaygroundModels', () => {
  it('offers only the models that chat', async () => {
    mockFetch({
      'GET /api/status': ok(statusFixture()),
      'GET /api/user/models': ok([
        'gpt-4o',
        'text-embedding-3-small',
        'tts-1',
        'whisper-1',
        'dall-e-3',
        'claude-3-haiku',
        'bge-reranker-v2-m3',
      ]),
    });
    renderPage(<Offered />, { path: '/' });
    expect((await screen.findByText(/gpt-4o/)).textContent).toBe('gpt-4o,claude-3-haiku');
  });

  it('holds back the models the price list does not have, and names them', async () => {
    const priced = (model_name: string) => ({
      model_name,
      quota_type: 0,
      model_ratio: 1,
      completion_ratio: 1,
      model_price: 0,
      cache_ratio: 1,
      enable_groups: ['default'],
    });
    mockFetch({
      'GET /api/status': ok(statusFixture()),
      'GET /api/user/models': ok(['gpt-4o', 'claude-3-haiku', 'text-embedding-3-small']),
      'GET /api/pricing': ok([priced('gpt-4o'), priced('text-embedding-3-small')]),
    });
    renderPage(<Offered />, { path: '/' });
    expect((await screen.findByText('claude-3-haiku')).getAttribute('data-testid')).toBe('unpriced');
    expect(screen.getByTestId('offered').textContent).toBe('gpt-4o');
  });
});
