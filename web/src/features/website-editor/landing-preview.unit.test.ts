// The Design tab's preview fits a desktop or phone width into the card without enlarging it.
import { describe, expect, it } from 'vitest';
import { getPreviewScale, previewDeviceWidths } from './landing-preview';

describe('landing preview scale', () => {
  it('shrinks a desktop page to the space available', () => {
    expect(getPreviewScale(640, previewDeviceWidths.desktop)).toBe(0.5);
  });

  it('never enlarges a phone page', () => {
    expect(getPreviewScale(900, previewDeviceWidths.mobile)).toBe(1);
  });

  it('draws at full size before the space is measured', () => {
    expect(getPreviewScale(0, previewDeviceWidths.desktop)).toBe(1);
  });
});
