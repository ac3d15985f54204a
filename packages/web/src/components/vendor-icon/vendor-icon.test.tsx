import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { iconFileOf, VENDOR_ICON_NAMES } from './icon-names';
import { ICON_SVGS } from './icon-set';
import { VendorIcon } from './vendor-icon';

describe('VendorIcon', () => {
  it('bundles an SVG for every name it offers, found by the family’s spelling', () => {
    for (const name of VENDOR_ICON_NAMES) expect(ICON_SVGS[iconFileOf(name)], name).toMatch(/^<svg/);
    expect(iconFileOf('Claude.Color')).toBe('claude-color');
    expect(iconFileOf(' openai ')).toBe('openai');
  });

  it('draws a known icon once the set has loaded', async () => {
    render(<VendorIcon icon="Claude.Color" label="Anthropic" />);
    await waitFor(() =>
      expect(screen.getByRole('img', { name: 'Anthropic' }).getAttribute('data-icon')).toBe('claude-color'),
    );
    expect(screen.getByRole('img', { name: 'Anthropic' }).querySelector('svg')).not.toBeNull();
  });

  it('shows the vendor’s initial without an icon or for a name outside the set', () => {
    render(
      <>
        <VendorIcon icon="" label="acme" />
        <VendorIcon icon="NoSuchIcon" label="zeta" />
      </>,
    );
    expect(screen.getByLabelText('acme').textContent).toBe('A');
    expect(screen.getByLabelText('zeta').textContent).toBe('Z');
  });
});
