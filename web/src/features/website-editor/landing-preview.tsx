// The Design tab's preview of the published landing page, at the width of a desktop (1280 px) or a
// phone (375 px), scaled down to fit the card so the desktop layout is what a desktop visitor sees
// even on a small screen.
import { useEffect, useRef, useState } from 'react';

export type PreviewDevice = 'desktop' | 'mobile';

export const previewDeviceWidths: Record<PreviewDevice, number> = { desktop: 1280, mobile: 375 };
const previewHeight = 640;

/** The scale that fits a device width into the space available (never enlarged). */
export function getPreviewScale(availableWidth: number, deviceWidth: number): number {
  if (availableWidth <= 0) return 1;
  return Math.min(1, availableWidth / deviceWidth);
}

export function LandingPreview({ device, version }: { device: PreviewDevice; version: number }) {
  const frame = useRef<HTMLDivElement>(null);
  const [availableWidth, setAvailableWidth] = useState(0);

  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const measure = () => setAvailableWidth(element.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const deviceWidth = previewDeviceWidths[device];
  const scale = getPreviewScale(availableWidth, deviceWidth);

  return (
    <div ref={frame} className="flex w-full justify-center">
      <div
        className="overflow-hidden rounded-md border bg-background"
        style={{ width: deviceWidth * scale, height: previewHeight }}
      >
        <iframe
          key={version}
          title="Landing page preview"
          src="/"
          className="origin-top-left border-0"
          style={{ width: deviceWidth, height: previewHeight / scale, transform: `scale(${scale})` }}
        />
      </div>
    </div>
  );
}
