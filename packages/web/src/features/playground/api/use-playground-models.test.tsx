import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { renderPage } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import { usePlaygroundModels } from './use-playground-models';

function Offered() {
  const models = usePlaygroundModels();
  return <p data-testid="offered">{(models.data ?? []).join(',')}</p>;
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
});
